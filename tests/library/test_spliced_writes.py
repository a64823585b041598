"""Writes proportional to the change: a spliced write gives the bytes a full render gives.

A cached library that knows where each entry lies in both files (the layout the
parsed-library cache keeps after a write) writes ``library.bib`` and the sidecar by
splicing: only changed entries are rendered, the others are copied from the files as
they are. Each test runs the same commands (through the API) on two copies of one
project: in one the cache is kept (spliced writes), in the other ``.citekit/`` is removed
before every command (every write a full render of a parse). After every command both
copies must hold the same bytes, and the spliced copy must really have spliced.
"""

from __future__ import annotations

import marshal
import shutil
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citekit import api
from citekit.library.store import PlainLibrary
from citekit.library.store.cache import layout as layout_module
from citekit.library.store.cache import parsed_cache

ODD_TITLES = [
    "Plain title",
    "Über die Quantenmechanik — “quoted” ‘words’ and ß",
    "Braces {GPU} and {{ZnO}} / 100% sure & $x^2$",
    "Emoji 🚀 and CJK 量子 and RTL שלום",
    "A backslash \\alpha and an at @sign, commas, and = signs",
    "Trailing spaces and tabs\tinside",
]


def _bib(n: int) -> str:
    out = []
    for i in range(n):
        title = ODD_TITLES[i % len(ODD_TITLES)] + f" number {i}"
        out.append(f"@article{{k{i:03d},\n  title = {{{title}}},\n  author = {{Lee, Ann and Čech, Bořek}},\n"
                   f"  journal = {{Journal {i % 3}}},\n  year = {{{2000 + i}}},\n  keywords = {{t{i % 4}}},\n}}\n")
    return "\n".join(out)


def _project(root: Path, n: int = 24) -> Path:
    root.mkdir(parents=True)
    (root / "citekit.yaml").write_text("paths: {notes: notes, refs: refs}\n", encoding="utf-8")
    (root / "notes").mkdir()
    source = root / "in.bib"
    source.write_text(_bib(n), encoding="utf-8")
    api.import_bib([source], start=root)
    return root


def _files(project: Path) -> tuple[bytes, bytes]:
    refs = project / "refs"
    return (refs / "library.bib").read_bytes(), (refs / "library.yaml").read_bytes()


def _stored_layout(project: Path) -> dict | None:
    data = marshal.loads(parsed_cache.cache_path(project / "refs").read_bytes())
    return data.get("layout")


def _comment_above_first_entry(project: Path) -> bool:
    head = (project / "refs" / "library.bib").read_text(encoding="utf-8").split("\n@", 1)[0]
    return any(line.startswith("%") for line in head.splitlines()[2:])  # (past the two header lines)


class Twins:
    """Two copies of a project: ``warm`` keeps its cache, ``cold`` loses it before every command."""

    def __init__(self, base: Path, folder: Path) -> None:
        self.warm, self.cold = folder / "warm", folder / "cold"
        self.expect_problems = False  # (a block citekit cannot read is one)
        shutil.copytree(base, self.warm)
        shutil.copytree(base, self.cold)
        shutil.rmtree(self.cold / ".citekit", ignore_errors=True)
        api.tag(self._first_key(), ["+start"], start=self.warm)  # a write: the cache now holds the layout
        api.tag(self._first_key(), ["+start"], start=self.cold)
        assert _stored_layout(self.warm) is not None
        self.check()

    def _first_key(self) -> str:
        return PlainLibrary.load(self.warm / "refs").sorted_keys()[0]

    def run(self, command, *args, **kwargs) -> None:
        before = _files(self.warm)
        command(*args, start=self.warm, **kwargs)
        if _files(self.warm) != before and not _comment_above_first_entry(self.warm):
            assert _stored_layout(self.warm) is not None  # the next write splices
        # (a command that wrote nothing records no layout: after a hand edit, the next write
        # renders in full once; and with a hand comment right above the first entry, a write
        # drops the parsed-library cache, so the next command reads the files whole, as a
        # fresh read places that comment)
        shutil.rmtree(self.cold / ".citekit", ignore_errors=True)
        command(*args, start=self.cold, **kwargs)
        self.check()

    def edit_by_hand(self, change) -> None:
        for project in (self.warm, self.cold):
            bib = project / "refs" / "library.bib"
            bib.write_text(change(bib.read_text(encoding="utf-8")), encoding="utf-8")

    def check(self) -> None:
        warm, cold = _files(self.warm), _files(self.cold)
        assert warm[0] == cold[0], "library.bib differs between a spliced write and a full render"
        assert warm[1] == cold[1], "the sidecar differs between a spliced write and a full render"
        problems = PlainLibrary.load(self.warm / "refs", recover=False).problems  # and both read back whole
        assert not problems or self.expect_problems, problems


def _renders(monkeypatch) -> list[str]:
    rendered: list[str] = []
    real = layout_module.render_changed
    monkeypatch.setattr(layout_module, "render_changed",
                        lambda entry, *a: rendered.append(entry.key) or real(entry, *a))
    return rendered


def _new_bytes(monkeypatch) -> list[int]:
    """How many bytes of each spliced file written were not copied from the old file."""
    from citekit.library import spliced

    out: list[int] = []
    real = spliced.Spliced.write_to

    def write_to(self, fd):
        out.append(sum(len(p) for p in self.pieces if not isinstance(p, tuple)))
        return real(self, fd)

    monkeypatch.setattr(spliced.Spliced, "write_to", write_to)
    return out


def test_a_one_entry_tag_renders_that_entry_alone_and_writes_a_full_renders_bytes(tmp_path, monkeypatch):
    twins = Twins(_project(tmp_path / "base"), tmp_path)
    rendered = _renders(monkeypatch)
    fresh = _new_bytes(monkeypatch)
    api.tag("k007", ["+fresh"], start=twins.warm)
    assert rendered == ["k007"]
    # both files written, each mostly copied: the new bytes are that entry's and the frame's
    assert len(fresh) == 2 and all(n < 1500 for n in fresh), fresh
    assert (twins.warm / "refs" / "library.bib").stat().st_size > 5000
    shutil.rmtree(twins.cold / ".citekit")
    api.tag("k007", ["+fresh"], start=twins.cold)
    twins.check()


def test_a_rename_renders_the_renamed_entry_alone(tmp_path, monkeypatch):
    twins = Twins(_project(tmp_path / "base"), tmp_path)
    rendered = _renders(monkeypatch)
    api.rename_key("k003", "zz-moved", start=twins.warm)
    assert rendered == ["zz-moved"]
    shutil.rmtree(twins.cold / ".citekit")
    api.rename_key("k003", "zz-moved", start=twins.cold)
    twins.check()
    assert b"ids           = {k003}" in _files(twins.warm)[0]  # the old key stays an alias


def test_a_write_that_changes_nothing_renders_nothing_and_leaves_both_files_alone(tmp_path, monkeypatch):
    twins = Twins(_project(tmp_path / "base"), tmp_path)
    bib, side = twins.warm / "refs" / "library.bib", twins.warm / "refs" / "library.yaml"
    before = [(p.stat().st_mtime_ns, p.stat().st_ino) for p in (bib, side)]
    rendered = _renders(monkeypatch)
    api.tag("k005", ["+t1"], start=twins.warm)  # k005 has that tag already
    assert rendered == []
    assert [(p.stat().st_mtime_ns, p.stat().st_ino) for p in (bib, side)] == before


def test_spliced_writes_after_hand_edits_kept_text_and_deleted_entries(tmp_path):
    twins = Twins(_project(tmp_path / "base"), tmp_path)
    twins.run(api.tag, "k010", ["+a"])
    # a comment between entries and a string block (kept text), then a title edited by hand
    twins.edit_by_hand(lambda t: t.replace("@article{k012,", "% my note about k012\n@string{jj = {J}}\n\n@article{k012,"))
    twins.run(api.tag, "k012", ["+b"])
    assert _stored_layout(twins.warm) is not None
    twins.run(api.tag, "k011", ["+c"])  # spliced, next to the kept text
    twins.edit_by_hand(lambda t: t.replace("number 4}", "number 4 (edited)}"))
    twins.run(api.tag, "k004", ["+d"])
    twins.run(api.tag, "k013", ["-t1"])
    # an entry deleted by hand: its record stays (detached), the rest is spliced later
    def drop_k015(text: str) -> str:
        start = text.index("@article{k015,")
        return text[:start] + text[text.index("\n}\n", start) + 3:]
    twins.edit_by_hand(drop_k015)
    twins.run(api.tag, "k016", ["+e"])
    twins.run(api.tag, "k017", ["+f"])
    # a rename puts the comment's entry elsewhere (last); aliases and kept text move with it
    # (to the first place: the next test)
    twins.run(api.rename_key, "k012", "zz-last")
    twins.run(api.tag, "zz-last", ["+g"])
    twins.run(api.rename_key, "zz-last", "zz-later")
    twins.run(api.tag, "k000", ["+h"])
    # an entry added (the library's order and the files' order then differ), then written again
    twins.run(api.add, ["@article{mid2005, title = {An added paper {\\&} more}, author = {Doe, Jo},"
                        " journal = {J}, year = {2005}}"], offline=True)
    twins.run(api.tag, "k001", ["+i"])
    twins.run(api.rename_key, "k002", "zzz-end")
    twins.run(api.tag, "mid2005", ["+j"])


def test_a_rename_that_puts_a_commented_entry_first_writes_what_a_fresh_read_would(tmp_path):
    """Text kept above an entry that becomes the first of the file is read back as the
    file's head: the cached library must not go on holding it as the entry's own (the
    writes after would differ from those of a fresh read)."""
    twins = Twins(_project(tmp_path / "base"), tmp_path)
    twins.edit_by_hand(lambda t: t.replace("@article{k012,", "% my note about k012\n@article{k012,"))
    twins.run(api.tag, "k012", ["+b"])

    def both(command, *args, **kwargs) -> None:
        command(*args, start=twins.warm, **kwargs)
        shutil.rmtree(twins.cold / ".citekit", ignore_errors=True)
        command(*args, start=twins.cold, **kwargs)
        twins.check()

    both(api.rename_key, "k012", "a-first")
    both(api.tag, "k003", ["+c"])
    both(api.tag, "a-first", ["+d"])
    both(api.rename_key, "a-first", "zz-last")
    twins.run(api.tag, "k004", ["+e"])  # spliced again
    assert b"% my note about k012" in _files(twins.warm)[0]


def test_spliced_writes_keep_blocks_citekit_could_not_read(tmp_path):
    twins = Twins(_project(tmp_path / "base"), tmp_path)
    twins.expect_problems = True
    twins.edit_by_hand(lambda t: t + "\n@article{broken, title = {no closing brace\n\n% a last comment\n")
    twins.run(api.tag, "k020", ["+a"])
    assert _files(twins.warm)[0].endswith(b"}\n\n@article{broken, title = {no closing brace\n\n% a last comment\n")
    twins.run(api.tag, "k021", ["+b"])  # spliced: the blocks below the entries kept as they are
    twins.run(api.rename_key, "k022", "zzzz-after")


def _tag_late_and_check(lib, project: Path) -> None:
    """Tag one entry of ``lib`` (loaded before the file was edited) and save: the file is a
    full render's of what it holds now, the edit kept."""
    bib = project / "refs" / "library.bib"
    lib.get("k002").tags_added.append("late")
    lib.save()
    text = bib.read_text(encoding="utf-8")
    assert "late" in text and text.count("@article{") == 24
    again = PlainLibrary.load(project / "refs", recover=False)
    assert again.render_files()[0].encode("utf-8") == bib.read_bytes()


def test_a_library_file_changed_after_the_load_is_never_cut_at_old_places(tmp_path):
    """The layout is of the bytes it was measured in: a file edited between the cache's
    store and the next write is hashed, found other, and the write renders in full."""
    twins = Twins(_project(tmp_path / "base"), tmp_path)
    from citekit.library.store import Library

    lib = Library.load(twins.warm / "refs")
    assert lib._layout is not None
    bib = twins.warm / "refs" / "library.bib"
    bib.write_bytes(bib.read_bytes().replace(b"number 9}", b"number 9 (edit)}"))  # same-process race
    _tag_late_and_check(lib, twins.warm)


def test_a_same_size_edit_in_place_after_the_load_is_found_though_the_load_knew_the_bytes(tmp_path):
    """A load that read and hashed both files remembers their stat, and the write after it
    does not hash them again while that stat holds; an edit of the same size made in place
    (same inode) after the load changes the file's times, so it is still found, and the
    write renders in full instead of cutting the edited file at the old places."""
    import os
    import time

    twins = Twins(_project(tmp_path / "base"), tmp_path)
    from citekit.library.store import Library

    bib = twins.warm / "refs" / "library.bib"
    os.utime(bib, ns=(time.time_ns() - 10**10, time.time_ns() - 10**10))  # (not a racy stat)
    (twins.warm / ".citekit" / "refs-library.stat").unlink(missing_ok=True)
    lib = Library.load(twins.warm / "refs")
    assert lib._layout is not None and getattr(lib, "_seen_as", None) is not None
    data = bib.read_bytes()
    with open(bib, "r+b") as handle:  # in place, the same size
        handle.write(data.replace(b"number 9}", b"number X}"))
    _tag_late_and_check(lib, twins.warm)
    # and what the cache now holds is what the files say (not the bytes the load hashed)
    cached, parsed = Library.load(twins.warm / "refs"), Library.load(twins.warm / "refs", use_cache=False)
    assert [e.fields for e in cached.sorted_entries()] == [e.fields for e in parsed.sorted_entries()]


OPS = st.lists(st.tuples(st.sampled_from(["tag+", "tag-", "rename", "note"]), st.integers(0, 23),
                         st.sampled_from(["x", "y", "ü-tag", "t1"])), min_size=1, max_size=6)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=OPS)
def test_any_sequence_of_one_entry_writes_equals_full_renders(tmp_path_factory, ops):
    folder = tmp_path_factory.mktemp("ops")
    twins = Twins(_project(folder / "base"), folder)
    for op, n, tag in ops:
        keys = PlainLibrary.load(twins.warm / "refs", recover=False).sorted_keys()
        key = keys[n % len(keys)]
        if op == "tag+":
            twins.run(api.tag, key, [f"+{tag}"])
        elif op == "tag-":
            twins.run(api.tag, key, [f"-{tag}"])
        elif op == "rename":
            new = f"r{n}-{len(key)}-{len(tag)}x"
            if new.lower() in {k.lower() for k in keys}:
                continue
            twins.run(api.rename_key, key, new)
        else:
            twins.edit_by_hand(lambda t, key=key: t.replace(f"@article{{{key},", f"% about {key} ({tag})\n@article{{{key},"))
            twins.run(api.tag, key, ["+noted"])
