"""A title fixed by hand in library.bib: the entry keeps its mentions and its other fields.

Each mention keeps matching the entry it landed on before (the sidecar's record of
mentions), so a hand-edited title that now equals another mention's title neither hands
that mention's data to the wrong entry nor gives the original mention a new key.
"""

from __future__ import annotations

import re

import pytest

from citekit import api
from citekit.library.store import Library


def _project(tmp_path, notes: dict[str, str]):
    (tmp_path / "notes").mkdir()
    for name, text in notes.items():
        (tmp_path / "notes" / name).write_text(text, encoding="utf-8")
    (tmp_path / "citekit.yaml").write_text("# test project\n", encoding="utf-8")
    return tmp_path


def _edit_title(root, key: str, new: str) -> None:
    bib = root / "refs" / "library.bib"
    text = bib.read_text(encoding="utf-8")
    start = text.index("{" + key + ",")
    end = text.index("\n}", start)
    block = re.sub(r"title(\s*)= \{.*\},", lambda m: f"title{m.group(1)}= {{{new}}},", text[start:end], count=1)
    bib.write_text(text[:start] + block + text[end:], encoding="utf-8")


CASES = [
    # (note giving the conference entry, a second note of the bare title, hand-fixed title)
    ("- Lion: Symbolic Discovery of Optimization Algorithms, Xiangning Chen et al., NeurIPS'23\n",
     "- Symbolic Discovery of Optimization Algorithms — Hieu Pham, Quoc V. Le\n",
     "Symbolic Discovery of Optimization Algorithms"),
    ("- Sophia: A Scalable Stochastic Second-order Optimizer for Language Model Pre-training, Hong Liu et al., ICLR 2024\n",
     "- Second-order Optimizer for Language Models — Tengyu Ma, Percy Liang\n",
     "Second-order Optimizer for Language Models"),
    ("- Deep Residual Learning for Image Recognition, Kaiming He et al., CVPR 2016\n",
     "- Residual Learning — Xiangyu Zhang, Shaoqing Ren\n",
     "Residual Learning"),
]


@pytest.mark.parametrize("first,second,fixed", CASES)
@pytest.mark.parametrize("filler", [0, 6])
def test_hand_fixed_title_keeps_the_entry_and_its_mentions(tmp_path, first, second, fixed, filler):
    others = "".join(f"- Unrelated Paper Number {i} on Sparse Widgets, Ann Other{i}, ICML 2024\n" for i in range(filler))
    root = _project(tmp_path, {"a.md": others + first, "b.md": second})
    api.sync(root, offline=True)
    before = Library.load(root / "refs")
    key_a = next(k for k, e in before.entries.items() if any(m.file.endswith("a.md") and m.line == filler + 1
                                                               for m in e.mentions))
    key_b = next(k for k, e in before.entries.items() if any(m.file.endswith("b.md") for m in e.mentions))
    assert key_a != key_b
    a_before = before.entries[key_a]
    b_before = before.entries[key_b]

    _edit_title(root, key_a, fixed)
    report = api.sync(root, offline=True)
    again = api.sync(root, offline=True)
    lib = Library.load(root / "refs")

    assert set(lib.entries) == set(before.entries)  # no new key for anyone
    a, b = lib.entries[key_a], lib.entries[key_b]
    assert a.title == fixed
    assert a.entry_type == a_before.entry_type
    assert {k: v for k, v in a.fields.items() if k not in ("title", "keywords")} == \
        {k: v for k, v in a_before.fields.items() if k not in ("title", "keywords")}
    assert {k: v for k, v in b.fields.items() if k != "keywords"} == \
        {k: v for k, v in b_before.fields.items() if k != "keywords"}
    assert [str(m) for m in a.mentions] == [f"notes/a.md:{filler + 1}"]
    assert [str(m) for m in b.mentions] == ["notes/b.md:1"]
    # the two now look alike: said, never merged
    for r in (report, again):
        said = [n for n in r.notices if key_a in n and key_b in n]
        assert len(said) == 1 and "dedup" in said[0]


def test_no_look_alike_notice_when_titles_differ(tmp_path):
    root = _project(tmp_path, {"a.md": CASES[0][0], "b.md": CASES[0][1]})
    report = api.sync(root, offline=True)
    assert not [n for n in report.notices if "same title" in n]


def test_a_line_inserted_above_does_not_move_a_mention_to_its_neighbour(tmp_path):
    a = ("- Muon is Scalable for LLM Training — Jingyuan Liu, Jianlin Su (2025)\n"
         "- Old Optimizer, New Norm: An Anthology — Jeremy Bernstein, Laker Newhouse (2024)\n")
    root = _project(tmp_path, {"a.md": a})
    api.sync(root, offline=True)
    before = {k: (e.fields, e.entry_type) for k, e in Library.load(root / "refs").entries.items()}
    (root / "notes" / "a.md").write_text("- Deep Residual Learning for Image Recognition, Kaiming He et al., CVPR 2016\n" + a,
                                         encoding="utf-8")
    api.sync(root, offline=True)
    lib = Library.load(root / "refs")
    assert len(lib.entries) == 3
    for key, (fields, entry_type) in before.items():
        assert lib.entries[key].fields == fields and lib.entries[key].entry_type == entry_type
    muon = next(e for e in lib.entries.values() if "Muon" in e.title)
    assert [str(m) for m in muon.mentions] == ["notes/a.md:2"]
