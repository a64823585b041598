"""What the user writes in library.bib between entries stays, byte for byte, across writes.

BibTeX ignores text outside entries and reads ``@comment``, ``@string`` and ``@preamble``
blocks; users keep notes there. Every write keeps that text: the text above an entry
stays above it (also when entries are added before it or the library is re-sorted), the
text above the first entry stays at the top, the text after the last one at the end, and
the text of an entry merged into another goes with the survivor.
"""

from __future__ import annotations

import atexit
import re
import shutil
import tempfile
from pathlib import Path

from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citekit import api
from citekit.cli import main
from citekit.library.store import Library
from tests.helpers_cli import synced_project
from tests.helpers_project import add_two_adams, make_project

HEAD = "% My library: cite the published versions.\n"
ABOVE = ('% Schaipp & Gower: read before the talk\n'
         '@comment{jabref-meta: databaseType:bibtex;}\n'
         '@string{icml = {International Conference on Machine Learning}}\n'
         '@preamble{ "\\newcommand{\\noopsort}[1]{}" }\n'
         'a stray line that BibTeX ignores\n')
TAIL = "% end of the list\n@comment{last words}\n"


def run(root: Path, *args: str):
    return CliRunner().invoke(main, ["-C", str(root), *args])


def bib_of(root: Path) -> str:
    return (root / "refs" / "library.bib").read_bytes().decode("utf-8")


def write_bib(root: Path, text: str) -> None:
    (root / "refs" / "library.bib").write_bytes(text.encode("utf-8"))


def insert_above(text: str, key: str, kept: str) -> str:
    """``text`` with ``kept`` on the lines just above the entry ``key``."""
    at = re.search(r"^@\w+\{" + re.escape(key) + ",", text, re.M).start()
    return text[:at] + kept + text[at:]


def with_comments(text: str) -> str:
    """A citekit-written library.bib with text of every kind the user may add."""
    first, rest = text.split("\n", 1)
    text = first + "\n" + HEAD + rest  # (inside citekit's header)
    return insert_above(text, "schaipp2026stepsize", ABOVE) + "\n" + TAIL


def without_checksum(text: str) -> str:
    return re.sub(r"^% citekit-checksum: \w+\n", "", text, flags=re.M)


def test_comments_strings_and_preambles_survive_a_tag_byte_for_byte(tmp_path: Path) -> None:
    root = synced_project(tmp_path)
    edited = with_comments(bib_of(root))
    write_bib(root, edited)
    assert run(root, "doctor").exit_code == 0  # an edited comment is a hand edit, kept: no problem

    assert run(root, "tag", "wang2026compute", "+later").exit_code == 0

    after = bib_of(root)
    # the file as the user left it (citekit's header lines together on top) but for the
    # one keywords line the tag changed, and the checksum
    expected = _header_first(edited).replace("keywords      = {muon, theory},", "keywords      = {later, muon, theory},")
    assert without_checksum(after) == without_checksum(expected)
    assert ABOVE + "@inproceedings{schaipp2026stepsize," in after
    assert after.endswith("}\n\n" + TAIL)
    lib = Library.load(root / "refs")
    assert lib.preamble == ['"\\newcommand{\\noopsort}[1]{}"'] and not lib.problems
    assert lib.get("wang2026compute").hand == []  # a comment is no hand edit of an entry


def test_the_cache_keeps_the_text_too_with_or_without_its_folder(tmp_path: Path) -> None:
    root = synced_project(tmp_path)
    edited = with_comments(bib_of(root))
    write_bib(root, edited)
    for fresh in (False, True):
        if fresh:
            shutil.rmtree(root / ".citekit")
        assert run(root, "tag", "huang2026light", "+x").exit_code == 0  # parsed (or read from the cache)
        assert run(root, "tag", "huang2026light", "-x").exit_code == 0  # read from the cache it stored
        after = bib_of(root)
        assert without_checksum(after) == without_checksum(_header_first(edited))
        assert after == _header_first(edited)


def _header_first(text: str) -> str:
    """``with_comments`` text as a write leaves it: citekit's header lines together, the
    user's head text right below them and the blank line that ends them."""
    return text.replace(HEAD, "", 1).replace("\n\n", "\n\n" + HEAD, 1)


def test_an_offline_sync_adding_entries_keeps_each_comment_above_its_entry(tmp_path: Path) -> None:
    root = synced_project(tmp_path)
    text = insert_above(bib_of(root), "wang2026compute", "% Wang: the risk-control one\n")
    write_bib(root, insert_above(text, "schaipp2026stepsize", ABOVE) + TAIL)
    notes = root / "notes" / "icml.md"
    notes.write_text(notes.read_text(encoding="utf-8")
                     + "- Tail Bounds for Adaptive Methods #theory\n  - Authors: Ann Taylor, Bo Li\n"
                     "- Scaling Laws Revisited #muon\n  - Authors: Zoe Zhang\n", encoding="utf-8")

    assert run(root, "sync", "--offline", "-q").exit_code == 0

    after = bib_of(root)
    keys = re.findall(r"^@(?!comment|string|preamble)\w+\{([^,]+),", after, re.M)
    assert keys == ["huang2026light", "schaipp2026stepsize", "taylor2026tail", "wang2026compute", "zhang2026scaling"]
    assert "}\n\n" + ABOVE + "@inproceedings{schaipp2026stepsize," in after
    assert "}\n\n% Wang: the risk-control one\n@inproceedings{wang2026compute," in after
    assert after.endswith("}\n" + TAIL)


def test_import_of_entries_sorting_first_keeps_the_head_on_top_and_comments_in_place(tmp_path: Path) -> None:
    root = synced_project(tmp_path)
    write_bib(root, with_comments(bib_of(root)))
    more = tmp_path / "more.bib"
    more.write_text("% a comment of the imported file\n@article{abel1826, title = {Beweis der Unm\\\"oglichkeit},"
                    " author = {Abel, Niels Henrik}, journal = {Crelle}, year = {1826}}\n"
                    "@book{turing1936, title = {On Computable Numbers}, author = {Turing, Alan}, year = {1936}}\n",
                    encoding="utf-8")

    assert run(root, "import", str(more)).exit_code == 0

    after = bib_of(root)
    body = after[after.index("\n\n") + 2:]
    assert body.startswith(HEAD + "@article{abel1826,")  # the head stays the head
    assert "}\n\n" + ABOVE + "@inproceedings{schaipp2026stepsize," in after
    assert after.endswith("}\n\n" + TAIL)
    assert "a comment of the imported file" not in after  # import copies entries, not another file's notes


def test_an_entry_written_by_hand_out_of_order_takes_its_comment_to_its_sorted_place(tmp_path: Path) -> None:
    root = synced_project(tmp_path)
    mine = "% mine, typed in by hand\n@misc{zeta1999own, title = {My Own Notes}, author = {Zeta, Z.}, year = {1999}}\n\n"
    write_bib(root, insert_above(bib_of(root), "schaipp2026stepsize", mine))

    assert run(root, "tag", "zeta1999own", "+mine").exit_code == 0

    after = bib_of(root)
    keys = re.findall(r"^@\w+\{([^,]+),", after, re.M)
    assert keys == ["huang2026light", "schaipp2026stepsize", "wang2026compute", "zeta1999own"]
    assert "}\n\n% mine, typed in by hand\n@misc{zeta1999own," in after
    assert after.count("% mine") == 1


def test_dedup_apply_moves_the_merged_entrys_comment_to_the_survivor_and_says_so(tmp_path: Path) -> None:
    root = synced_project(tmp_path)
    add_two_adams(root / "refs")
    text = insert_above(bib_of(root), "kingma2014adam", "% the preprint, cited in the 2019 talk\n")
    text = insert_above(text, "kingma2015adam", "@comment{the ICLR paper}\n")
    write_bib(root, text)

    result = run(root, "dedup", "--apply")
    assert result.exit_code == 0, result.output
    assert "the text above 'kingma2014adam' in library.bib now stands above 'kingma2015adam'" in result.output

    after = bib_of(root)
    # the preprint's entry is gone, its comment stays where it stood: above the survivor
    assert ("}\n\n% the preprint, cited in the 2019 talk\n\n@comment{the ICLR paper}\n@inproceedings{kingma2015adam,"
            in after)
    # rekey rewrites citations in LaTeX files only: library.bib keeps every byte
    paper = root / "paper.tex"
    paper.write_text("\\cite{kingma2014adam}\n", encoding="utf-8")
    assert run(root, "rekey", str(paper)).exit_code == 0
    assert paper.read_text(encoding="utf-8") == "\\cite{kingma2015adam}\n"
    assert bib_of(root) == after
    assert run(root, "tag", "kingma2015adam", "+optim").exit_code == 0
    assert "% the preprint, cited in the 2019 talk\n\n@comment{the ICLR paper}\n@inproceedings{kingma2015adam," \
        in bib_of(root)


def test_the_text_of_an_entry_removed_for_good_moves_to_the_end(tmp_path: Path) -> None:
    root = synced_project(tmp_path)
    write_bib(root, insert_above(bib_of(root), "schaipp2026stepsize", ABOVE) + TAIL)
    lib = Library.load(root / "refs")
    lib.remove("schaipp2026stepsize")
    lib.save()
    assert lib.kept_moves == ["the text above 'schaipp2026stepsize' in library.bib, an entry no longer in the "
                              "library, was moved to the end of the file"]
    after = bib_of(root)
    assert "schaipp2026stepsize," not in after
    assert after.endswith("}\n" + TAIL + "\n" + ABOVE)
    assert Library.load(root / "refs", use_cache=False).kept_tail == TAIL + "\n" + ABOVE  # as the next read finds it


def test_kept_text_and_blocks_citekit_cannot_read_stay_where_they_stood(tmp_path: Path) -> None:
    root = synced_project(tmp_path)
    broken = "@misc{broken, title = {never closed}\n"
    write_bib(root, insert_above(bib_of(root), "wang2026compute", "% before the broken one\n" + broken) + TAIL)
    assert run(root, "tag", "huang2026light", "+x").exit_code == 0
    first = bib_of(root)
    assert "% before the broken one\n" + broken + "@inproceedings{wang2026compute," in first  # where it stood
    assert first.count(TAIL) == 1 and "never closed" in first
    assert run(root, "tag", "huang2026light", "-x").exit_code == 0
    assert run(root, "tag", "huang2026light", "+x").exit_code == 0
    assert bib_of(root) == first  # nothing grows from write to write


# ---- property: random lines between the entries of a real library --------------------

_LINE = st.text(st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="@"), min_size=1, max_size=40)
_KEPT = st.lists(st.one_of(_LINE.map(lambda s: "%" + s), _LINE.filter(lambda s: not s.isspace()),
                           _LINE.map(lambda s: "@comment{" + s.replace("{", "(").replace("}", ")") + "}")),
                 min_size=1, max_size=3)


def _real_project() -> Path:
    """The bundled notes synced offline, once (some 50 entries)."""
    if not _REAL:
        base = Path(tempfile.mkdtemp(prefix="citekit-kept-"))
        atexit.register(shutil.rmtree, base, True)  # shared by the examples, gone with the run
        root = make_project(base)
        api.sync(root, offline=True)
        _REAL.append(root)
    return _REAL[0]


_REAL: list[Path] = []


@settings(max_examples=40, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_random_lines_between_entries_survive_a_tag_write_in_order(data: st.DataObject) -> None:
    source = _real_project()
    text = bib_of(source)
    starts = [m.start() for m in re.finditer(r"^@\w+\{", text, re.M)]
    places = data.draw(st.lists(st.sampled_from([*starts, len(text)]), min_size=1, max_size=6, unique=True))
    for at in sorted(places, reverse=True):
        text = text[:at] + "".join(line + "\n" for line in data.draw(_KEPT)) + text[at:]
    keys = re.findall(r"^@(?!comment|string|preamble)\w+\{([^,]+),", text, re.M)
    key = data.draw(st.sampled_from(keys))
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "proj"
        shutil.copytree(source, root, ignore=shutil.ignore_patterns(".citekit"))
        write_bib(root, text)
        result = run(root, "tag", key, "+hypothesis-tag")
        assert result.exit_code == 0, result.output
        after = bib_of(root)

    def rest(t: str) -> str:  # all but the checksum and keywords lines (the tag changes those)
        return re.sub(r"^(% citekit-checksum: |  keywords ).*\n", "", t, flags=re.M)

    assert rest(after) == rest(text)


def test_text_of_a_library_without_entries_is_kept_when_rendered_in_the_other_mode(tmp_path: Path) -> None:
    root = make_project(tmp_path, notes=False)
    (root / "notes").mkdir()
    assert CliRunner().invoke(main, ["-C", str(root), "sync", "--offline", "-q"]).exit_code == 0
    bib = root / "refs" / "library.bib"
    bib.write_text(bib.read_text(encoding="utf-8") + "@string{ICML = {International Conference on Machine Learning}}\n",
                   encoding="utf-8")
    lib = Library.load(root / "refs")
    for ascii in (True, False):
        assert "@string{ICML = {International Conference on Machine Learning}}" in lib.render_bib(ascii=ascii)
