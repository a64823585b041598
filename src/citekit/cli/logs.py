"""Log records, citekit's own and its libraries', printed as citekit's warnings.

Libraries report through :mod:`logging`: pylatexenc says "No known latex representation
for character …" for every field of every entry holding such a character (36 bare lines
for one ``sync --ascii``), urllib3 says when it drops a connection. With no handler set,
Python prints each record bare on stderr, where ``-q`` cannot reach it. During a command
every record of level WARNING and above is collected instead, and printed once at its end
through :func:`citekit.cli.app.warn`: prefixed ``warning:`` (and the library's name), each
distinct message once with how often it came, at most :data:`PER_LIBRARY` per library. A
library's records are details of how citekit did its work, so ``-q`` and ``--json`` leave
them out; citekit's own logged warnings are warnings like any other and always print.

``logging`` costs start-up time that most commands never pay (``tests/test_startup.py``),
so the collector is attached the moment something imports it, not before.
"""

from __future__ import annotations

import sys
from typing import Any, Callable

#: distinct messages printed per library; the rest are counted in one line
PER_LIBRARY = 10


class LogRoute:
    """Collects log records for the duration of one command (:meth:`start` … :meth:`stop`)."""

    def __init__(self) -> None:
        #: (library, message) -> how many times, in the order first seen
        self.counts: dict[tuple[str, str], int] = {}
        self._handler: Any = None
        self._hook: _WhenImported | None = None

    def start(self) -> None:
        if "logging" in sys.modules:
            self._attach(sys.modules["logging"])
        else:
            self._hook = _WhenImported("logging", self._attach)
            sys.meta_path.insert(0, self._hook)

    def stop(self) -> None:
        if self._hook is not None and self._hook in sys.meta_path:
            sys.meta_path.remove(self._hook)
        if self._handler is not None:
            sys.modules["logging"].getLogger().removeHandler(self._handler)
            self._handler = None

    def add(self, logger: str, message: str) -> None:
        library = "citekit" if logger == "citekit" or logger.startswith("citekit.") else logger.split(".")[0]
        # called from the one handler's emit, which logging runs under that handler's lock
        self.counts[(library, message)] = self.counts.get((library, message), 0) + 1

    def lines(self, *, quiet: bool) -> list[str]:
        """The warnings to print (without the ``warning:`` prefix); libraries' only when not ``quiet``."""
        out: list[str] = []
        shown: dict[str, int] = {}
        hidden: dict[str, list[int]] = {}
        for (library, message), count in self.counts.items():
            times = f" ({count} times)" if count > 1 else ""
            if library == "citekit":
                out.append(message + times)
                continue
            if quiet:
                continue
            if shown.get(library, 0) < PER_LIBRARY:
                shown[library] = shown.get(library, 0) + 1
                out.append(f"{library}: {message}{times}")
            else:
                hidden.setdefault(library, []).append(count)
        for library, counts in hidden.items():
            out.append(f"{library}: … and {len(counts)} more messages like these ({sum(counts)} in all)")
        return out

    def take_lines(self, *, quiet: bool) -> list[str]:
        """:meth:`lines` of the records so far, which are then forgotten: a command prints them
        before its summary, and only what comes after it is printed at its end."""
        out = self.lines(quiet=quiet)
        self.counts = {}
        return out

    def _attach(self, logging: Any) -> None:
        route = self

        class Collect(logging.Handler):  # type: ignore[name-defined, misc]
            def emit(self, record: Any) -> None:
                try:
                    message = record.getMessage()
                except Exception:  # noqa: BLE001 - a library's malformed record is still said
                    message = str(record.msg)
                route.add(record.name, " ".join(message.split()))

        self._handler = Collect(logging.WARNING)
        logging.getLogger().addHandler(self._handler)


class _WhenImported:
    """A meta-path finder that finds nothing itself: when ``name`` is first imported it
    lets the other finders find it and wraps the loader, so ``then(module)`` runs as soon
    as the module is ready."""

    def __init__(self, name: str, then: Callable[[Any], None]) -> None:
        self.name = name
        self.then = then

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        if fullname != self.name:
            return None
        sys.meta_path.remove(self)
        for finder in sys.meta_path:
            find = getattr(finder, "find_spec", None)
            spec = find(fullname, path, target) if find is not None else None
            if spec is not None:
                if spec.loader is not None:
                    spec.loader = _ThenLoader(spec.loader, self.then)
                return spec
        return None


class _ThenLoader:
    """The real loader, and ``then(module)`` once the module has run."""

    def __init__(self, loader: Any, then: Callable[[Any], None]) -> None:
        self._loader = loader
        self._then = then

    def create_module(self, spec: Any) -> Any:
        return self._loader.create_module(spec)

    def exec_module(self, module: Any) -> None:
        self._loader.exec_module(module)
        self._then(module)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._loader, name)
