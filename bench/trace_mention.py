"""Follow one mention from a notes file to ``refs/library.bib``: which citekit modules an
offline sync calls, in which order, and how often it reads the library.

Run from the repository root::

    .venv/bin/python bench/trace_mention.py            # figures for the three scenarios
    .venv/bin/python bench/trace_mention.py --path     # and the call path of each

A project with one mention in one notes file is synced three times: ``first`` (no library
yet: the entry is created), ``edited`` (the note gained a summary: the entry is updated),
``no-op`` (the same notes again: it runs in full, changes nothing and stamps its inputs)
and ``replayed`` (the same inputs as that sync). Every sync runs once
untraced beforehand on a copy, so module imports are not counted as calls.

Figures, per scenario:

- ``calls``: calls from one citekit module into another (a lambda or callback counts as
  a call into the module that defines it);
- ``path calls``: the same without calls into ``core`` and ``bibtex`` (the shared values and
  helpers every layer uses): the stages a reader follows;
- ``returns``: path calls into a module that the path had already left (it is not on the
  call stack any more), i.e. going back to a file already read; ``into store``: how many of
  them re-enter the library store;
- ``by stage``: the same counts with the modules of one stage taken as one (the store with
  its journal, parsed cache, lock and sidecar modules; each of ``notes``, ``resolve``,
  ``sources``, ``matching``): what a reader following the mention sees;
- ``upward``: calls from a lower layer into a higher one (``.importlinter``'s order);
- ``back up``: calls against the order a mention is meant to go down in (:data:`ORDER`:
  the sync entry, its stamp, the sync stage, notes, resolve, then the library's fold,
  update, merge, records, keys, tags and store), e.g. the store calling a function of
  ``update`` or ``update`` a callback of the sync stage;
- ``library reads``: ``Library.load`` calls, and how often ``library.bib`` is opened for
  reading before the write (and in all: the write compares what it staged with the file,
  and a sync that wrote nothing fingerprints it for its stamp, a read only when the file
  was modified so recently that its stat cannot be trusted, as here); ``--path`` names the
  function behind each read of either file.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

import citekit  # noqa: E402

SRC = str(Path(citekit.__file__).parent) + "/"
#: the layers of .importlinter, highest first (a module's layer is its package)
LEVEL = {"cli": 7, "api": 6, "output": 5, "paper": 5, "library": 4, "resolve": 3, "sources": 2, "notes": 2,
         "matching": 2, "bibtex": 1, "core": 0}
#: helpers every layer may call: left out of the path a reader follows
LEAVES = ("core", "bibtex")

NOTE = """## Controlled LLM Training on Spectral Sphere
Authors: Tian Xie, Haoming Luo, Haoyu Tang
"""
SUMMARY = "Summary: a spectral sphere optimizer.\n"


def module_of(filename: str) -> str:
    rel = filename[len(SRC):-3] if filename.endswith(".py") else filename[len(SRC):]
    rel = rel.replace("/", ".")
    return rel[:-len(".__init__")] if rel.endswith(".__init__") else rel


#: modules that are one stage for a reader: the store package ``library/store/`` (the plain
#: library, its files, sidecar and cache modules) and what it writes through (the journal,
#: the lock, its errors), and each of the notes, resolve, sources and matching packages
STORE_PARTS = ("library.store.", "library.store", "library.journal", "library.lock", "library.errors")


def unit_of(module: str) -> str:
    """The stage a module belongs to (see :data:`STORE_PARTS`)."""
    if module.startswith(STORE_PARTS):
        return "library.store"
    if module.split(".", 1)[0] in ("notes", "resolve", "sources", "matching", "bibtex", "core"):
        return module.split(".", 1)[0]
    return module


#: the order a mention is meant to go down in (a unit's position; core and bibtex are not in
#: it: every stage uses them)
ORDER = ["api", "api.sync_stamp", "api.sync_pipeline", "api.sync_report", "notes", "resolve", "sources", "matching",
         "library.fold", "library.update", "library.merge", "library.records", "library.keys", "library.tags",
         "library.store"]


def package_of(module: str) -> str:
    return module.split(".", 1)[0] if module != "__init__" else "citekit"


def make_project(root: Path) -> None:
    (root / "notes").mkdir(parents=True)
    (root / "citekit.yaml").write_text("paths: {notes: notes, refs: refs}\n", encoding="utf-8")
    (root / "notes" / "talks.md").write_text(NOTE, encoding="utf-8")


class FileReads:
    """Which citekit functions open ``library.bib`` and ``library.yaml`` for reading, in
    order, while :attr:`active` (an audit hook: it sees every ``open``)."""

    def __init__(self) -> None:
        self.active = False
        self.readers: list[tuple[str, str]] = []  # (file name, innermost citekit functions)
        sys.addaudithook(self._audit)

    def _audit(self, event: str, args: tuple[Any, ...]) -> None:
        if event != "open" or not self.active:
            return
        name, mode = Path(str(args[0])).name, args[1]
        if name in ("library.bib", "library.yaml") and (mode is None or "r" in str(mode)):
            frame, where = sys._getframe(1), []
            while frame is not None:
                if frame.f_code.co_filename.startswith(SRC):
                    where.append(f"{module_of(frame.f_code.co_filename)}:{frame.f_code.co_qualname}")
                frame = frame.f_back
            self.readers.append((name, " < ".join(where[:4])))

    def counts(self) -> dict[str, int]:
        """Reads of library.bib: all of them, and those before the write (a write compares
        what it staged with the files: that read is the write's own)."""
        bib = [where for name, where in self.readers if name == "library.bib"]
        saving = [i for i, where in enumerate(bib) if "Library.save" in where]
        before = saving[0] if saving else len(bib)
        return {"all": len(bib), "before_write": before}


READS: FileReads | None = None


def figures(calls: list[tuple[str, str, str]], *, units: bool = False) -> dict[str, Any]:
    """The counts of the module docstring, from the cross-module calls in order (``units``:
    with the modules of one stage taken as one, see :func:`unit_of`)."""
    if units:
        calls = [(unit_of(a), unit_of(b), name) for a, b, name in calls]
        calls = [c for c in calls if c[0] != c[1]]
    path = [c for c in calls if package_of(c[1]) not in LEAVES]
    # a module is "left" once no frame of it is on the stack; rebuilt from the path: the
    # path is a sequence of calls, each made from the module on top of the stack
    returns, into_store, upward = [], 0, []
    active: list[str] = []
    visited: set[str] = set()
    for caller, callee, name in path:
        # unwind to the caller: every module above it has returned
        while active and active[-1] != caller and caller in active:
            active.pop()
        if callee in visited and callee not in active:
            returns.append((caller, callee, name))
            into_store += callee.startswith("library.store")
        visited.add(callee)
        active.append(callee)
    for caller, callee, name in calls:
        if caller in ("<caller>",) or package_of(caller) == "__init__":
            continue
        a, b = LEVEL.get(package_of(caller)), LEVEL.get(package_of(callee))
        if a is not None and b is not None and b > a:
            upward.append((caller, callee, name))
    backs = [(a, b, name) for a, b, name in ((unit_of(a), unit_of(b), name) for a, b, name in calls)
             if a in ORDER and b in ORDER and ORDER.index(b) < ORDER.index(a)]
    loads = sum(1 for _c, callee, name in calls  # (the cached library's, or the plain one's)
                if unit_of(callee) == "library.store" and name in ("CachedLibrary.load", "PlainLibrary.load"))
    return {"calls": len(calls), "path_calls": len(path), "returns": len(returns), "returns_into_store": into_store,
            "upward": len(upward), "back_up": len(backs), "back_up_list": backs, "library_loads": loads, "returns_list": returns, "upward_list": upward, "path": path}


def run_scenario(name: str, root: Path, warm: Path, prepare: Any) -> dict[str, Any]:
    from citekit import api

    prepare(warm)
    api.sync(warm, offline=True)  # the same sync untraced first: imports are not calls
    prepare(root)
    assert READS is not None
    READS.readers.clear()
    result = traced_sync(root)
    out = figures(result["calls"])
    out["stages"] = figures(result["calls"], units=True)
    out["library_reads"] = READS.counts()
    out["readers"] = list(READS.readers)
    out["changed"] = result["report"].changed
    out["up_to_date"] = result["report"].up_to_date
    out["scenario"] = name
    return out


def traced_sync(root: Path) -> dict[str, Any]:
    """One ``api.sync(root, offline=True)`` under a profiler; see the module docstring."""
    from citekit import api

    calls: list[tuple[str, str, str]] = []
    stack: list[str] = []
    frames: list[Any] = []

    def profile(frame: Any, event: str, arg: Any) -> None:
        filename = frame.f_code.co_filename
        if not filename.startswith(SRC) or frame.f_code.co_name == "<module>":
            return
        if event == "call":
            callee = module_of(filename)
            caller = stack[-1] if stack else "<caller>"
            if caller != callee:
                calls.append((caller, callee, frame.f_code.co_qualname))
            stack.append(callee)
            frames.append(frame)
        elif event == "return" and frames and frames[-1] is frame:
            frames.pop()
            stack.pop()

    assert READS is not None
    READS.active = True
    sys.setprofile(profile)
    try:
        report = api.sync(root, offline=True)
    finally:
        sys.setprofile(None)
        READS.active = False
    return {"report": report, "calls": calls}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="follow one mention through an offline sync")
    parser.add_argument("--path", action="store_true", help="print the path calls of each scenario")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    global READS
    READS = READS or FileReads()
    results = []
    with tempfile.TemporaryDirectory(prefix="citekit-trace-") as tmp:
        base = Path(tmp)
        root, warm = base / "project", base / "warm"
        make_project(root)
        make_project(warm)

        def nothing(_p: Path) -> None:
            pass

        def add_summary(p: Path) -> None:
            (p / "notes" / "talks.md").write_text(NOTE + SUMMARY, encoding="utf-8")

        results.append(run_scenario("first", root, warm, nothing))
        results.append(run_scenario("edited", root, warm, add_summary))
        results.append(run_scenario("no-op", root, warm, nothing))  # runs in full, changes nothing
        results.append(run_scenario("replayed", root, warm, nothing))
    if args.json:
        def plain(r: dict[str, Any]) -> dict[str, Any]:
            return {k: plain(v) if isinstance(v, dict) and k == "stages" else v for k, v in r.items()
                    if not k.endswith("_list") and k not in ("path", "readers")}

        print(json.dumps([plain(r) for r in results], indent=2))
        return 0
    for r in results:
        print(f"{r['scenario']:<9} calls {r['calls']:4d}  path calls {r['path_calls']:3d}  returns {r['returns']:3d} "
              f"(into store {r['returns_into_store']})  upward {r['upward']:3d}  Library.load {r['library_loads']}  "
              f"library.bib read {r['library_reads']['before_write']} before the write "
              f"({r['library_reads']['all']} in all)  changed={r['changed']} up_to_date={r['up_to_date']}")
        u = r["stages"]
        print(f"{'':<9} by stage: calls {u['calls']:4d}  path calls {u['path_calls']:3d}  returns {u['returns']:3d} "
              f"(into store {u['returns_into_store']})  back up {r['back_up']}")
        if args.path:
            for i, (caller, callee, name) in enumerate(u["path"], 1):
                back = "  <- back" if (caller, callee, name) in u["returns_list"] else ""
                print(f"    {i:3d}. {caller} -> {callee}:{name}{back}")
            for name, where in r["readers"]:
                print(f"    read {name}: {where}")
            for caller, callee, name in sorted(set(r["back_up_list"])):
                print(f"    back up: {caller} -> {callee}:{name}")
            for caller, callee, name in sorted(set(r["upward_list"])):
                print(f"    upward: {caller} -> {callee}:{name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
