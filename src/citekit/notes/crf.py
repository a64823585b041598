"""A trained CRF shipped as package data, opened on first use and then kept: the one
holder both learned readers (the reference parser and the mention finder) use.

python-crfsuite is imported inside :meth:`CrfModel.tagger` only, so importing the notes
package (and every command that never asks a model anything) stays free of it. A
``pycrfsuite.Tagger`` keeps the last sequence it tagged, so tagging is one call at a time.
"""

from __future__ import annotations

import threading
from importlib import resources
from pathlib import Path
from typing import Any


class CrfModel:
    """The model file ``name`` in ``citekit/data`` (``rebuild`` says how to make it again)."""

    def __init__(self, name: str, rebuild: str) -> None:
        self.name = name
        self.rebuild = rebuild
        self._lock = threading.RLock()
        self._tagger: Any = None
        self._path: Path | None = None

    def shipped_path(self) -> Path:
        """Where the shipped model file is."""
        return Path(str(resources.files("citekit.data") / self.name))

    def loaded(self) -> bool:
        """Whether the model has been opened in this process."""
        return self._tagger is not None

    def use(self, path: Path | None) -> None:
        """Read another model file from now on (training, benchmarks); None: the shipped one."""
        with self._lock:
            self._tagger, self._path = None, path

    def tagger(self, path: Path | None = None) -> Any:
        """The opened tagger: of ``path`` (a fresh one, not kept), else the model in use."""
        if path is not None:
            return _open(path, self.rebuild)
        if self._tagger is None:
            with self._lock:
                if self._tagger is None:
                    self._tagger = _open(self._path or self.shipped_path(), self.rebuild)
        return self._tagger

    def tag(self, feats: list[list[str]], crf: Any = None) -> tuple[list[str], list[float]]:
        """Labels of one sequence and the marginal probability of each chosen label."""
        if not feats:
            return [], []
        with self._lock:
            t = crf if crf is not None else self.tagger()
            labels = t.tag(feats)
            marginal = t.marginal
            return labels, [marginal(label, i) for i, label in enumerate(labels)]


def _open(path: Path, rebuild: str) -> Any:
    if not path.exists():
        raise FileNotFoundError(f"the model {path} is missing: {rebuild} rebuilds it")
    import pycrfsuite

    tagger = pycrfsuite.Tagger()
    tagger.open(str(path))
    return tagger
