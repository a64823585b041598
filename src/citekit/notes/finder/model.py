"""The trained finder model: loaded from the package data on first use, then kept.

python-crfsuite is imported here, inside :func:`tagger`, and nowhere at module level:
``import citekit.notes`` (and ``import citekit.notes.finder``) stays free of it, and a
command that never asks for the finder never pays for loading the model.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from citekit.notes.crf import CrfModel

#: the four labels the finder gives a line
LABELS = ("ref", "cont", "other", "blank")

MODEL = CrfModel("finder.crfsuite", "`make finder-model`")
#: the trained model, shipped as package data (``make finder-model`` writes it)
MODEL_PATH = MODEL.shipped_path()


@dataclass(frozen=True)
class LineLabel:
    """What the finder says of one line: its label and how sure the model is of it (0-1)."""

    label: str
    confidence: float


def tagger(path: Path | None = None) -> Any:
    """The CRF tagger, opened on first call (the shipped model, or ``path`` for a fresh one)."""
    return MODEL.tagger(path)


def loaded() -> bool:
    """Whether the shipped model has been opened in this process."""
    return MODEL.loaded()


def label_lines(lines: list[str], model: Any = None, *, start: int = 0, end: int | None = None) -> list[LineLabel]:
    """Label each line (or the lines ``start:end``) with the given tagger, or the shipped one."""
    from citekit.notes.finder.features import line_features

    if not lines or start >= (len(lines) if end is None else end):
        return []
    labels, sure = MODEL.tag(line_features(lines, start, end), model)
    return [LineLabel(label, round(p, 4)) for label, p in zip(labels, sure)]
