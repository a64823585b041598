"""The trained finder model: loaded from the package data on first use, then kept.

python-crfsuite is imported here, inside :func:`tagger`, and nowhere at module level:
``import citekit.notes`` (and ``import citekit.notes.finder``) stays free of it, and a
command that never asks for the finder never pays for loading the model.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: the four labels the finder gives a line
LABELS = ("ref", "cont", "other", "blank")

#: the trained model, shipped as package data (``make finder-model`` writes it)
MODEL_PATH = Path(__file__).resolve().parents[2] / "data" / "finder.crfsuite"

_lock = threading.Lock()
_tagger: Any = None


@dataclass(frozen=True)
class LineLabel:
    """What the finder says of one line: its label and how sure the model is of it (0-1)."""

    label: str
    confidence: float


def tagger(path: Path | None = None) -> Any:
    """The CRF tagger, opened on first call (the shipped model, or ``path`` for a fresh one)."""
    global _tagger
    if path is not None:
        import pycrfsuite

        opened = pycrfsuite.Tagger()
        opened.open(str(path))
        return opened
    if _tagger is None:
        with _lock:
            if _tagger is None:
                if not MODEL_PATH.exists():
                    raise FileNotFoundError(f"{MODEL_PATH} is missing: run `make finder-model`")
                import pycrfsuite

                opened = pycrfsuite.Tagger()
                opened.open(str(MODEL_PATH))
                _tagger = opened
    return _tagger


def loaded() -> bool:
    """Whether the shipped model has been opened in this process."""
    return _tagger is not None


def label_lines(lines: list[str], model: Any = None) -> list[LineLabel]:
    """Label each line with the given tagger, or the shipped one."""
    from citekit.notes.finder.features import line_features

    if not lines:
        return []
    crf = model if model is not None else tagger()
    with _lock:  # a Tagger holds the last sequence it tagged: one at a time
        labels = crf.tag(line_features(lines))
        sure = [crf.marginal(label, i) for i, label in enumerate(labels)]
    return [LineLabel(label, round(p, 4)) for label, p in zip(labels, sure)]
