"""The trained CRF, opened from package data the first time a reference is parsed.

``pycrfsuite`` is imported here and nowhere on the start-up path: ``import citekit.notes``
does not load it, and neither does ``import citekit.notes.refparse``.
"""

from __future__ import annotations

import threading
from importlib import resources
from pathlib import Path
from typing import Any

MODEL_NAME = "refparse.crfsuite"

_lock = threading.RLock()
_tagger: Any = None
_path: Path | None = None


def model_path() -> Path:
    """Where the shipped model file is (``src/citekit/data/refparse.crfsuite``)."""
    return Path(str(resources.files("citekit.data") / MODEL_NAME))


def loaded() -> bool:
    """Whether the model has been opened in this process."""
    return _tagger is not None


def use_model(path: Path | None) -> None:
    """Read a different model file from now on (training and benchmarks); None: the shipped one."""
    global _tagger, _path
    with _lock:
        _tagger, _path = None, path


def tagger() -> Any:
    """The opened ``pycrfsuite.Tagger``, opened once per process."""
    global _tagger
    if _tagger is None:
        with _lock:
            if _tagger is None:
                import pycrfsuite

                path = _path or model_path()
                if not path.exists():
                    raise FileNotFoundError(f"the reference-parser model is missing: {path} (make model rebuilds it)")
                t = pycrfsuite.Tagger()
                t.open(str(path))
                _tagger = t
    return _tagger


def tag(feats: list[list[str]]) -> tuple[list[str], list[float]]:
    """Labels of one sequence and the marginal probability of each chosen label."""
    if not feats:
        return [], []
    with _lock:
        t = tagger()
        labels = t.tag(feats)
        probs = [t.marginal(lab, i) for i, lab in enumerate(labels)]
    return labels, probs
