"""The finder's training data: notes labelled line by line from an answer key (made-up notes and keys)."""

from __future__ import annotations

import json
from pathlib import Path

from citekit.notes.finder.train.devnotes import dev_documents, label_dev_file

BBL_NOTES = """\
% draft notes
\\title{Our own draft}

\\begin{thebibliography}{2}
\\bibitem[Ito and Sato(2019)]{ito2019}
Ken Ito and Aya Sato.
\\newblock Sparse gates for tiny transformers.
\\newblock In \\emph{Proc. of a Workshop}, 2019.

\\bibitem[Moreau(2021)]{moreau2021}
Claire Moreau.
\\newblock The toolkit manual.
\\end{thebibliography}
"""


def _key(papers: list[tuple[int, str]], non_papers: list[int]) -> dict:
    return {"papers": [{"title": "t", "as_written": w, "line": n} for n, w in papers],
            "non_papers": [{"text": "x", "what": "y", "line": n} for n in non_papers]}


def test_a_bibitem_block_is_one_reference_from_the_key_line_of_its_title(tmp_path: Path):
    path = tmp_path / "draft.tex"
    path.write_text(BBL_NOTES, encoding="utf-8")
    labels = [label for label, _ in label_dev_file(path, _key([(7, "\\newblock Sparse gates for tiny transformers.")], [2, 12]))]
    assert labels[4:9] == ["ref", "cont", "cont", "cont", "blank"], labels
    assert labels[1] == "other"  # the draft's own title, named as no paper
    assert labels[9:13] == ["other"] * 4, labels  # the manual: named as no paper, its block not a reference
    assert labels[3] == "other"


def test_a_paper_block_stops_at_the_next_bullet_and_a_wrapped_line_continues_it(tmp_path: Path):
    notes = ("- Sparse gates for tiny transformers (Ito, Sato 2019)\n"
             "  https://example.org/sparse-gates\n"
             "- meeting with Ken on friday\n"
             "- Learning to route tokens in mixtures of\n"
             "experts, Okafor 2020\n")
    path = tmp_path / "list.md"
    path.write_text(notes, encoding="utf-8")
    key = _key([(1, "Sparse gates for tiny transformers"), (4, "Learning to route tokens in mixtures of\nexperts")], [3])
    assert [label for label, _ in label_dev_file(path, key)] == ["ref", "cont", "other", "ref", "cont"]


def test_a_folder_of_notes_and_keys_gives_one_document_each_and_skips_a_key_without_its_file(tmp_path: Path):
    (tmp_path / "w1").mkdir()
    (tmp_path / "w1" / "a.md").write_text("- Sparse gates for tiny transformers\n", encoding="utf-8")
    (tmp_path / "w1" / "a.md.expected.json").write_text(json.dumps(_key([(1, "Sparse gates")], [])), encoding="utf-8")
    (tmp_path / "w1" / "gone.md.expected.json").write_text(json.dumps(_key([(1, "x")], [])), encoding="utf-8")
    docs = dev_documents(tmp_path)
    assert [name for name, _ in docs] == ["w1/a.md"]
    assert docs[0][1] == [("ref", "- Sparse gates for tiny transformers")]
