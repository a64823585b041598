"""Building throwaway projects from the bundled notes, for end-to-end tests."""

from __future__ import annotations

import shutil
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
NOTES = REPO / "notes"


def make_project(tmp_path: Path, *, notes: bool = True) -> Path:
    """A project folder with a copy of the bundled notes and a citekit.yaml."""
    root = tmp_path / "proj"
    root.mkdir()
    (root / "citekit.yaml").write_text("# test project\n", encoding="utf-8")
    if notes:
        shutil.copytree(NOTES, root / "notes")
    return root


def add_two_adams(refs: Path) -> None:
    """Two versions of Adam under two keys (the arXiv preprint and the ICLR paper): the
    pair a dedup merges."""
    from citekit.library.store import Library
    from citekit.core.model import Entry, Ids

    lib = Library.load(refs)
    lib.add(Entry(key="kingma2014adam", entry_type="article",
                  fields={"title": "Adam: A Method for Stochastic Optimization", "author": "Kingma, D. and Ba, J.",
                          "year": "2014", "journal": "arXiv preprint arXiv:1412.6980"}, ids=Ids(arxiv="1412.6980")))
    lib.add(Entry(key="kingma2015adam", entry_type="inproceedings",
                  fields={"title": "Adam: a method for stochastic optimization", "author": "Diederik Kingma and Jimmy Ba",
                          "year": "2015", "booktitle": "ICLR"}))
    lib.save()


def count_lookups(monkeypatch) -> list[list]:
    """Every group of mentions a sync sends to the resolver from now on (the groups it asks the
    sources about, cached answers included): a test reads which works were looked up again."""
    import citekit.resolve.pipeline as pipeline

    asked: list[list] = []
    real = pipeline.resolve_groups

    def counted(groups, *args, **kwargs):
        asked.extend(groups)
        return real(groups, *args, **kwargs)

    monkeypatch.setattr(pipeline, "resolve_groups", counted)
    return asked
