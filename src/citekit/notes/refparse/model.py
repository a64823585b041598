"""The trained CRF, opened from package data the first time a reference is parsed.

``pycrfsuite`` is imported here and nowhere on the start-up path: ``import citekit.notes``
does not load it, and neither does ``import citekit.notes.refparse``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from citekit.notes.crf import CrfModel

MODEL_NAME = "refparse.crfsuite"
MODEL = CrfModel(MODEL_NAME, "`make model`")


def model_path() -> Path:
    """Where the shipped model file is (``src/citekit/data/refparse.crfsuite``)."""
    return MODEL.shipped_path()


def loaded() -> bool:
    """Whether the model has been opened in this process."""
    return MODEL.loaded()


def use_model(path: Path | None) -> None:
    """Read a different model file from now on (training and benchmarks); None: the shipped one."""
    MODEL.use(path)


def tagger() -> Any:
    """The opened ``pycrfsuite.Tagger``, opened once per process."""
    return MODEL.tagger()


def tag(feats: list[list[str]]) -> tuple[list[str], list[float]]:
    """Labels of one sequence and the marginal probability of each chosen label."""
    return MODEL.tag(feats)
