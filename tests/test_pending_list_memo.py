"""`citekit list --status pending` reads only the notes files changed since the last sync.

It used to extract every notes file again (half of what it cost on a 10,000-entry library
without network); the sync's memo of what each file gave now serves it, as it serves
`sync` and `add`. Through the API, on notes written for this test.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from citekit import api

NOTES = """# Reading list

- https://arxiv.org/abs/2601.01234
- Folding Maps for Quiet Gradients
  - Authors: Ines Varga
"""


def test_pending_works_come_from_the_memo_of_the_last_sync(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import citekit.notes as notes

    root = tmp_path / "proj"
    (root / "notes").mkdir(parents=True)
    (root / "citekit.yaml").write_text("# test project\n", encoding="utf-8")
    (root / "notes" / "reading.md").write_text(NOTES, encoding="utf-8")
    (root / "notes" / "other.md").write_text("- https://arxiv.org/abs/2601.04321\n", encoding="utf-8")
    api.sync(root, offline=True)
    read: list[str] = []
    real = notes._extract_one

    def counted(held, name):
        read.append(name)
        return real(held, name)

    monkeypatch.setattr(notes, "_extract_one", counted)
    pending = api.pending(root)
    assert read == []  # nothing changed since the sync: no notes file extracted again
    assert sorted(p["where"][0] for p in pending) == ["notes/other.md:1", "notes/reading.md:3"]
    (root / "notes" / "other.md").write_text("- https://arxiv.org/abs/2601.05555\n", encoding="utf-8")
    pending = api.pending(root)
    assert read == ["notes/other.md"]  # the changed file only
    assert any("2601.05555" in p["hint"] for p in pending), pending
