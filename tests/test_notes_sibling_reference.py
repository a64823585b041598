"""A paper heading, then after a blank line a pasted reference of another paper: sibling
papers are separate mentions, never one folded into the other, whether the file is read
whole or in pieces; a paragraph of remarks under the heading names no paper of its own."""

from __future__ import annotations

from pathlib import Path

import pytest

from citekit import api
from citekit.notes import outline, stream

NOTES = """## Sparse Mixtures of Gated Routers
Priya Raman, Tomas Eklund, Yusuf Okafor

Learning Compact Kernels for Spectral Graph Matching. Marisol Quintero, Henrik Dahl, Amara Nwosu,
Kenji Oyelaran. ICLR 2024.

## Robust Calibration of Ensemble Forecasts
Lena Vogt, Samir Haddad

The paper shows that temperature scaling alone fails under shift. Worth trying on our data.
"""


def _project(root: Path) -> Path:
    (root / "citekit.yaml").write_text("paths: {notes: notes, refs: refs}\n", encoding="utf-8")
    (root / "notes").mkdir()
    (root / "notes" / "reading.txt").write_text(NOTES, encoding="utf-8")
    return root


def _mentions(root: Path, *, streamed: bool) -> list[tuple[int, str | None, list[str], int | None]]:
    saved = (stream.STREAM_BYTES, outline.PIECE_CHARS)
    stream.STREAM_BYTES, outline.PIECE_CHARS = (0, 1) if streamed else (1 << 62, 1 << 62)
    try:
        found = api.extract_stream(None, start=root) if streamed else api.extract(None, start=root).mentions
        return [(m.location.line, m.title, list(m.authors), m.year) for m in found]
    finally:
        stream.STREAM_BYTES, outline.PIECE_CHARS = saved


@pytest.mark.parametrize("streamed", [False, True])
def test_a_reference_after_a_paper_heading_is_a_paper_of_its_own(tmp_path: Path, streamed: bool) -> None:
    mentions = _mentions(_project(tmp_path), streamed=streamed)
    assert mentions == [
        (1, "Sparse Mixtures of Gated Routers", ["Priya Raman", "Tomas Eklund", "Yusuf Okafor"], None),
        (4, "Learning Compact Kernels for Spectral Graph Matching",
         ["Marisol Quintero", "Henrik Dahl", "Amara Nwosu", "Kenji Oyelaran"], 2024),
        (7, "Robust Calibration of Ensemble Forecasts", ["Lena Vogt", "Samir Haddad"], None),
    ]
