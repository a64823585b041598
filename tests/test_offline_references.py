"""A pasted reference keeps, offline, where it says the paper appeared: the journal or the
proceedings as written, volume, number and pages (an online sync may replace them with a
record's, never the other way round)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from citekit.cli import main
from citekit.library.store import Library

NOTES = """\
- LeCun, Y., Bengio, Y., & Hinton, G. (2015). Deep learning. Nature, 521(7553), 436–444.
- Vaswani, A., Shazeer, N., Parmar, N., Uszkoreit, J., Jones, L., Gomez, A. N., Kaiser, L., & Polosukhin, I. (2017). \
Attention is all you need. In Proceedings of the 31st International Conference on Neural Information Processing \
Systems (pp. 6000–6010).
- Kaplan, J., McCandlish, S., Henighan, T., Brown, T. B., Chess, B., Child, R., ... & Amodei, D. (2020). Scaling laws \
for neural language models. arXiv preprint arXiv:2001.08361.
"""


def _synced(tmp_path: Path) -> dict:
    root = tmp_path / "p"
    (root / "notes").mkdir(parents=True)
    (root / "citekit.yaml").write_text("# test\n", encoding="utf-8")
    (root / "notes" / "reading.md").write_text(NOTES, encoding="utf-8")
    res = CliRunner().invoke(main, ["-C", str(root), "sync", "--offline", "-q"])
    assert res.exit_code in (0, 1), res.output
    return {e.title.lower(): e for e in Library.load(root / "refs").entries.values()}


def test_a_journal_reference_keeps_journal_volume_number_and_pages(tmp_path: Path) -> None:
    entry = _synced(tmp_path)["deep learning"]
    assert entry.entry_type == "article"
    assert {k: entry.fields.get(k) for k in ("journal", "volume", "number", "pages")} == {
        "journal": "Nature", "volume": "521", "number": "7553", "pages": "436--444"}


def test_a_proceedings_reference_keeps_its_pages(tmp_path: Path) -> None:
    entry = _synced(tmp_path)["attention is all you need"]
    assert entry.entry_type == "inproceedings"
    assert entry.fields.get("pages") == "6000--6010"
    assert "Neural Information Processing Systems" in entry.fields.get("booktitle", "")


def test_an_arxiv_preprint_container_is_no_journal(tmp_path: Path) -> None:
    entry = _synced(tmp_path)["scaling laws for neural language models"]
    assert "journal" not in entry.fields and entry.fields.get("eprint") == "2001.08361"
