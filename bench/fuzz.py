"""Fuzz suites: mutated inputs of every kind citekit reads, run through the real commands.

Each family builds N mutated inputs from real ones (seeded: the same seed gives the same
cases) and runs the commands that read them, in this process (through click's
``CliRunner`` on ``citekit.cli``, or the notes API), in a small scratch project that is
reset between cases:

  notes    mutated notes documents (Markdown, org, txt: byte flips, truncations, splices
           of real notes, huge lines, control characters, invalid UTF-8, deep nesting of
           lists, quotes and brackets) -> reading and extraction must not raise;
  bib      mutated .bib entries from the shared corpora (plus ``@string`` bombs, ``@``
           lines inside braces, unknown entry types) -> ``import`` exits 0/1/2;
  config   mutated ``citekit.yaml`` (type swaps, deep nesting, huge values, unknown keys,
           paths with ``..`` and absolute paths) -> ``list`` and ``sync --offline``;
  sidecar  mutated ``refs/library.yaml`` -> ``list``, ``doctor``, ``tag``, ``doctor --fix``;
  journal  mutated ``refs/.citekit-journal`` -> the same four commands.

A traceback is any exception escaping to the runner other than a clean exit (and, for
notes, any exception out of extraction but the "nested too deeply" one it reports). A
case that runs past ``--case-seconds`` or past the memory limit counts too. Every path a
mutation writes points inside the sandbox, and a file changed in the sandbox outside the
project counts as "touched outside". For each family the report gives the cases run, the
failures grouped by exception type and the innermost citekit frame, one shortest
reproducer per group (written to ``--out``), and the seconds taken.

    python bench/fuzz.py                      # 10,000 cases per family
    python bench/fuzz.py --cases 500 --family notes,bib
    python bench/fuzz.py --json fuzz.json     # the counts, for docs/reliability.md

tests/test_fuzz_inputs.py runs the same mutators, a few hundred cases per family.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import resource
import shutil
import signal
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

#: real inputs the mutations start from
NOTES_SEEDS = [ROOT / "notes", ROOT / "tests" / "data" / "notes", ROOT.parent / "shared" / "seeds",
               ROOT.parents[1] / "shared" / "seeds"]
BIB_CORPORA = [ROOT.parent / "shared" / "corpora", ROOT.parents[1] / "shared" / "corpora", ROOT / "tests" / "data"]
FAMILIES = ("notes", "bib", "config", "sidecar", "journal")

SMALL_NOTES = """# ICML 2026

- Light and Fast Muon Optimizer for Large Models #muon
  - Authors: Feihu Huang, Yuning Luo
- Step-Size Stability in Stochastic Optimization #theory
  - Authors: Fabian Schaipp, Robert Gower
  - https://arxiv.org/abs/2406.01234
"""

BASE_CONFIG = """# fuzz project
paths: {notes: notes, refs: refs}
keys: {formula: "{author}{year}{title}"}
sources: {mailto: fuzz@example.org, timeout: 5, retries: 1}
bibtex: {ascii: false}
tags:
  muon: [muon, optimizer]
  theory: {match: [convergence, stability], label: Theory}
tag_sections: {"Must read": must-read}
related_work: {groups: {"Muon analysis": [theory]}}
"""

CONTROL = ["\x00", "\x01", "\x07", "\x08", "\x0b", "\x0c", "\x1b", "\x7f", "\r", "\u2028", "\u2029", "\ufeff",
           "\u200b", "\u202e", "\ud800", "\udcff", "\x85", "\t"]
INVALID_UTF8 = [b"\xff", b"\xfe\xff", b"\xc3", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xc0\xaf", b"\x80", b"\xe2\x82"]


#: the largest input a case hands over (a few duplications of a huge line would make 25 MB
#: notes files, measured by the extraction bench instead)
MAX_CASE_BYTES = 1_500_000


class CaseTimeout(BaseException):
    """A case ran too long (a BaseException: no ``except Exception`` in citekit swallows it)."""


# ---- mutations ---------------------------------------------------------------------------------

class Mutator:
    """Seeded mutations of bytes and of parsed YAML/JSON values; every path it makes up
    points inside ``sandbox`` (relative ones climb at most ``max_up`` folders)."""

    def __init__(self, rnd: random.Random, donors: list[bytes], sandbox: Path, max_up: int = 3) -> None:
        self.r = rnd
        self.donors = donors
        self.sandbox = sandbox
        self.max_up = max_up

    # bytes
    def mutate_bytes(self, data: bytes, rounds: int | None = None) -> bytes:
        r = self.r
        for _ in range(rounds or r.choice((1, 1, 2, 3, 5))):
            data = r.choice(self._byte_ops)(self, data)
        return data[:MAX_CASE_BYTES]

    def _flip(self, data: bytes) -> bytes:
        if not data:
            return bytes([self.r.randrange(256)])
        b = bytearray(data)
        for _ in range(self.r.randint(1, 8)):
            i = self.r.randrange(len(b))
            b[i] ^= 1 << self.r.randrange(8)
        return bytes(b)

    def _insert(self, data: bytes, piece: bytes) -> bytes:
        i = self.r.randint(0, len(data))
        return data[:i] + piece + data[i:]

    def _insert_control(self, data: bytes) -> bytes:
        piece = "".join(self.r.choice(CONTROL) for _ in range(self.r.randint(1, 6)))
        return self._insert(data, piece.encode("utf-8", "surrogatepass"))

    def _insert_invalid(self, data: bytes) -> bytes:
        return self._insert(data, b"".join(self.r.choice(INVALID_UTF8) for _ in range(self.r.randint(1, 4))))

    def _truncate(self, data: bytes) -> bytes:
        return data[: self.r.randint(0, len(data))]

    def _delete(self, data: bytes) -> bytes:
        if not data:
            return data
        i = self.r.randrange(len(data))
        return data[:i] + data[i + self.r.randint(1, 200):]

    def _duplicate(self, data: bytes) -> bytes:
        if not data:
            return data
        i = self.r.randrange(len(data))
        j = min(len(data), i + self.r.randint(1, 400))
        return self._insert(data, data[i:j] * self.r.randint(1, 20))

    def _splice(self, data: bytes) -> bytes:
        donor = self.r.choice(self.donors)
        if not donor:
            return data
        i = self.r.randrange(len(donor))
        return self._insert(data, donor[i:i + self.r.randint(1, 3000)])

    def _huge_line(self, data: bytes) -> bytes:
        unit = self.r.choice((b"a", b"x ", b"$\\alpha$ ", b"LiMuon ", b"**", b"[", b"{", b"\\", b"@", b"-",
                              "é".encode(), b"we propose FooNet (FN) named BarNet ", b"https://arxiv.org/abs/2401.0"))
        return self._insert(data, b"\n" + unit * (self.r.randint(10_000, 200_000) // len(unit)) + b"\n")

    def _nesting(self, data: bytes) -> bytes:
        depth = self.r.choice((50, 200, 1000, 5000))
        kind = self.r.randrange(6)
        if kind == 0:
            piece = "".join("  " * d + "- item\n" for d in range(depth))
        elif kind == 1:
            piece = "> " * depth + "quoted\n"
        elif kind == 2:
            piece = "[" * depth + "x" + "]" * self.r.choice((0, depth))
        elif kind == 3:
            piece = "{" * depth + "x" + "}" * self.r.choice((0, depth))
        elif kind == 4:
            piece = "".join("*" * (d + 1) + " heading\n" for d in range(min(depth, 300)))
        else:
            piece = "(" * depth + ")" * self.r.choice((0, depth))
        return self._insert(data, piece.encode())

    _byte_ops: list[Callable[["Mutator", bytes], bytes]] = [
        _flip, _flip, _insert_control, _insert_invalid, _truncate, _delete, _duplicate, _splice, _splice,
        _huge_line, _nesting,
    ]

    # paths
    def path(self) -> str:
        r = self.r
        kind = r.randrange(8)
        if kind == 0:
            return "../" * r.randint(1, self.max_up) + r.choice(("outside/victim.txt", "victim", "outside", "x/y"))
        if kind == 1:
            return str(self.sandbox / "outside" / r.choice(("victim.txt", "abs", "new/dir")))
        if kind == 2:
            return r.choice(("C:\\Windows\\x", "..\\..\\victim", "\\\\server\\share", "refs\\..\\..\\victim"))
        if kind == 3:
            return r.choice(("", ".", "./refs", "refs/../refs", "notes/../../victim"[: r.randint(5, 18)]))
        if kind == 4:
            return r.choice(("refs", "notes", "refs/library.bib", "library.bib", "library.yaml", ".citekit"))
        if kind == 5:
            return "x" * r.choice((255, 256, 5000))
        if kind == 6:
            return "a\x00b" if r.random() < 0.5 else "L\udcf6sung.md"
        return "~/" + r.choice(("victim", ".bashrc"))

    # values
    def value(self, depth: int = 0) -> object:
        r = self.r
        kind = r.randrange(12)
        if kind == 0:
            return None
        if kind == 1:
            return r.choice((True, False))
        if kind == 2:
            return r.choice((0, -1, 1, 2**63, -(2**70), 10**400 if r.random() < 0.1 else 7))
        if kind == 3:
            return r.choice((0.0, -0.5, 1e308, float("nan"), float("inf")))
        if kind == 4:
            return r.choice(("", "x", "must-read", "{author}{year}", "{nope}", "on", "yes", "\ud800"))
        if kind == 5:
            return "y" * r.choice((1000, 20_000, 100_000))
        if kind == 6:
            return self.path()
        if kind == 7 and depth < 4:
            return [self.value(depth + 1) for _ in range(r.randint(0, 4))]
        if kind == 8 and depth < 4:
            return {self.key(): self.value(depth + 1) for _ in range(r.randint(0, 4))}
        if kind == 9:
            return self.deep()
        if kind == 10:
            return [r.choice(("a", "b", "must-read"))] * r.choice((1, 1000, 10_000))
        return r.choice(("notes", "refs", "2024", "arxiv", "crossref", "published"))

    def key(self) -> str:
        return self.r.choice(("paths", "notes", "refs", "keys", "formula", "sources", "tags", "added", "removed",
                              "entries", "mentions", "status", "state", "files", "target", "temp", "sha256",
                              "unknown_key", "", "0", "x" * 300, "\x00", "__class__"))

    def deep(self) -> object:
        depth = self.r.choice((50, 500, 5000))
        out: object = "leaf"
        for _ in range(depth):
            out = [out] if self.r.random() < 0.5 else {"k": out}
        return out

    def mutate_tree(self, tree: object, rounds: int | None = None) -> object:
        for _ in range(rounds or self.r.choice((1, 1, 2, 3))):
            tree = self._mutate_once(tree)
        return tree

    def _mutate_once(self, tree: object) -> object:
        r = self.r
        slots = list(_slots(tree))
        if not slots or r.random() < 0.05:
            return self.value()
        parent, key = r.choice(slots)
        op = r.randrange(5)
        if op == 0:  # type swap / new value
            parent[key] = self.value()
        elif op == 1 and isinstance(parent, dict):  # drop a key
            del parent[key]
        elif op == 2 and isinstance(parent, dict):  # unknown key beside it
            parent[self.key()] = self.value()
        elif op == 3:  # wrap in a container
            parent[key] = [parent[key]] if r.random() < 0.5 else {"value": parent[key]}
        else:  # a string where a list or mapping was, or the other way
            old = parent[key]
            with _deep_stack():
                parent[key] = (", ".join(map(str, old)) if isinstance(old, list) else str(old)) if not isinstance(old, str) else [old]
        return tree


def _slots(tree: object, depth: int = 0):
    """Every (container, key) in ``tree`` (to a bounded depth)."""
    if depth > 30:
        return
    if isinstance(tree, dict):
        for k in list(tree):
            yield tree, k
            yield from _slots(tree[k], depth + 1)
    elif isinstance(tree, list):
        for i in range(len(tree)):
            yield tree, i
            yield from _slots(tree[i], depth + 1)


# ---- outcomes ----------------------------------------------------------------------------------

@dataclass
class Failure:
    kind: str          # exception type, "exit N", "timeout", or "touched outside"
    where: str         # innermost citekit frame (file:function), or what was touched
    command: str
    data: bytes
    detail: str


@dataclass
class FamilyReport:
    family: str
    cases: int = 0
    commands: int = 0
    seconds: float = 0.0
    failures: dict[tuple[str, str], list[Failure]] = field(default_factory=dict)

    def add(self, failure: Failure) -> None:
        self.failures.setdefault((failure.kind, failure.where), []).append(failure)

    @property
    def tracebacks(self) -> int:
        return sum(len(v) for v in self.failures.values())

    def summary(self) -> dict:
        return {"family": self.family, "cases": self.cases, "commands": self.commands,
                "failures": self.tracebacks, "seconds": round(self.seconds, 1),
                "groups": [{"kind": k, "where": w, "count": len(v), "command": v[0].command}
                           for (k, w), v in sorted(self.failures.items(), key=lambda kv: -len(kv[1]))]}


def innermost_citekit_frame(exc: BaseException) -> str:
    frames = traceback.extract_tb(exc.__traceback__)
    mine = [f for f in frames if "citekit" in f.filename and "/bench/" not in f.filename]
    f = (mine or frames or [None])[-1]
    if f is None:
        return "?"
    name = f.filename.split("src/")[-1] if "src/" in f.filename else Path(f.filename).name
    return f"{name}:{f.name}"


def _alarm(seconds: float) -> None:
    def ring(signum, frame):  # noqa: ARG001
        raise CaseTimeout(f"case ran past {seconds:g} s")

    signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)


def _disarm() -> None:
    signal.setitimer(signal.ITIMER_REAL, 0)


# ---- the sandbox ---------------------------------------------------------------------------

class Sandbox:
    """``root/box/deep/proj`` (the project) and ``root/box/deep/cwd`` (the working folder),
    with ``root/outside`` and a few victim files that must never change."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.deep = root / "box" / "deep"
        self.proj = self.deep / "proj"
        self.cwd = self.deep / "cwd"
        self.cwd.mkdir(parents=True)
        (root / "outside").mkdir()
        (root / "home").mkdir()
        self.victims = {root / "outside" / "victim.txt": b"victim\n", root / "box" / "victim": b"victim\n",
                        self.deep / "victim": b"victim\n", self.deep / "outside" / "victim.txt": b"victim\n"}
        self._reset_outside()
        self.outside_state = self._outside_state()

    def _reset_outside(self) -> None:
        for path in list(self._outside_files()):
            if path not in self.victims:
                _remove(path)
        for path, data in self.victims.items():
            path.parent.mkdir(parents=True, exist_ok=True)
            if not path.is_file() or path.read_bytes() != data:
                path.write_bytes(data)

    def _outside_files(self):
        skip = {str(self.proj), str(self.cwd)}
        for folder, dirs, files in os.walk(self.root):
            dirs[:] = [d for d in dirs if os.path.join(folder, d) not in skip]
            for name in files + [d for d in dirs if os.path.islink(os.path.join(folder, d))]:
                yield Path(folder) / name

    def _outside_state(self) -> dict[str, tuple[int, int]]:
        out = {}
        for path in self._outside_files():
            try:
                st = path.lstat()
            except OSError:
                continue
            out[str(path.relative_to(self.root))] = (st.st_size, st.st_mtime_ns)
        return out

    def touched_outside(self) -> list[str]:
        """Files made, changed or removed outside the project (then put back)."""
        now = self._outside_state()
        changed = sorted(set(now) ^ set(self.outside_state) | {k for k in now if now[k] != self.outside_state.get(k)})
        made = list(self.cwd.iterdir())
        changed += [f"cwd/{p.name}" for p in made]
        if changed:
            self._reset_outside()
            for path in made:  # (the folder itself stays: it is this process's working folder)
                _remove(path)
            self.outside_state = self._outside_state()
        return changed


def _remove(path: Path) -> None:
    try:
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink()
    except OSError:
        pass


class Project:
    """A small synced project, saved once and put back before every case."""

    def __init__(self, sandbox: Sandbox) -> None:
        from click.testing import CliRunner

        from citekit.cli import main

        self.sandbox = sandbox
        self.root = sandbox.proj
        self.runner = CliRunner()
        self.main = main
        (self.root / "notes").mkdir(parents=True)
        (self.root / "citekit.yaml").write_text(BASE_CONFIG, encoding="utf-8")
        (self.root / "notes" / "icml.md").write_text(SMALL_NOTES, encoding="utf-8")
        result = self.invoke("sync", "--offline", "-q")
        assert result.exit_code == 0, result.output
        self.saved = {p.relative_to(self.root): p.read_bytes() for p in self.root.rglob("*") if p.is_file()}
        lib = self.root / "refs" / "library.bib"
        self.keys = [line.split("{", 1)[1].rstrip(",\n") for line in lib.read_text(encoding="utf-8").splitlines()
                     if line.startswith("@")]

    def invoke(self, *args: str):
        return self.runner.invoke(self.main, ["-C", str(self.root), *args], catch_exceptions=True)

    def reset(self) -> None:
        for path in sorted(self.root.rglob("*"), reverse=True):
            rel = path.relative_to(self.root)
            if path.is_symlink() or (path.is_file() and rel not in self.saved):
                _remove(path)
            elif path.is_dir() and not any(k.parts[: len(rel.parts)] == rel.parts for k in self.saved):
                _remove(path)
        for rel, data in self.saved.items():
            path = self.root / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            if not path.is_file() or path.read_bytes() != data:
                _remove(path)
                path.write_bytes(data)


def run_command(project: Project, report: FamilyReport, data: bytes, args: tuple[str, ...], limit: float) -> None:
    report.commands += 1
    label = " ".join(args)
    try:
        _alarm(limit)
        try:
            result = project.invoke(*args)
        finally:
            _disarm()
    except CaseTimeout as exc:
        report.add(Failure("timeout", innermost_citekit_frame(exc), label, data, "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))[-3000:]))
        return
    except MemoryError as exc:
        report.add(Failure("MemoryError", innermost_citekit_frame(exc), label, data, "MemoryError"))
        return
    exc = result.exception
    if exc is not None and not isinstance(exc, SystemExit):
        detail = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))[-3000:]
        report.add(Failure(type(exc).__name__, innermost_citekit_frame(exc), label, data, detail))
    elif result.exit_code not in (0, 1, 2):
        report.add(Failure(f"exit {result.exit_code}", "-", label, data, result.output[-2000:]))
    elif "Traceback (most recent call last)" in (result.output or ""):
        report.add(Failure("traceback printed", "-", label, data, result.output[-3000:]))
    touched = project.sandbox.touched_outside()
    if touched:
        report.add(Failure("touched outside", ", ".join(touched[:3]), label, data, "\n".join(touched)))


# ---- seeds -------------------------------------------------------------------------------------

def notes_seeds() -> list[tuple[str, bytes]]:
    seen: set[bytes] = set()
    out = []
    for base in NOTES_SEEDS:
        if not base.exists():
            continue
        for path in sorted(base.rglob("*")):
            if path.suffix in (".md", ".org", ".txt") and path.is_file():
                data = path.read_bytes()
                if data not in seen:
                    seen.add(data)
                    out.append((path.suffix, data))
    return out


def bib_seeds(rnd: random.Random, files: int = 120) -> list[bytes]:
    """Entries (cut at each ``\\n@``) from up to ``files`` .bib files of the corpora."""
    paths: list[Path] = []
    for base in BIB_CORPORA:
        if base.exists():
            paths.extend(p for p in sorted(base.rglob("*.bib")) if p.stat().st_size < 300_000)
    rnd.shuffle(paths)
    entries: list[bytes] = []
    for path in paths[:files]:
        data = path.read_bytes()
        for part in data.split(b"\n@"):
            part = part if part.startswith(b"@") else b"@" + part
            if 20 < len(part) < 20_000:
                entries.append(part)
    return entries or [b"@article{a,\n  title = {A},\n  author = {B, C},\n  year = {2020},\n}\n"]


def bib_special(rnd: random.Random, max_doublings: int = 32) -> bytes:
    """The shapes the review found: macro bombs, ``@`` lines inside braces, unknown types."""
    kind = rnd.randrange(4)
    if kind == 0:  # doubling @string bomb (26 doublings of 2 characters: 134 MB of text)
        n = min(max_doublings, rnd.choice((10, 20, 26, 32)))
        lines = ['@string{s0 = "ab"}'] + [f"@string{{s{i} = s{i - 1} # s{i - 1}}}" for i in range(1, n)]
        return ("\n".join(lines) + f"\n@misc{{bomb, title = s{n - 1}}}\n").encode()
    if kind == 1:  # deep @string chain
        n = rnd.choice((100, 1000, 5000))
        lines = ['@string{c0 = "x"}'] + [f"@string{{c{i} = c{i - 1}}}" for i in range(1, n)]
        return ("\n".join(lines) + f"\n@misc{{chain, title = c{n - 1}}}\n").encode()
    if kind == 2:  # a line starting with @Name{ inside a braced value
        return (b"@article{inbrace,\n  title = {First line\n@Name{not an entry},\n  more text},\n"
                b"  author = {Doe, Jane},\n  year = {2020},\n}\n")
    return rnd.choice((b"@x.y{odd,\n  title = {Odd type},\n  year = {2021},\n}\n",
                       b"@thesis-ish{t1, title = {T}}\n", b"@{nokey, title = {T}}\n", b"@comment{x}\n@preamble{\"\\x\"}\n"))


# ---- tree documents (YAML, JSON) and the commands each case runs ---------------------------------

class _deep_stack:
    """A higher recursion limit while this harness writes a deeply nested value (never
    while citekit runs: its own limit is what the cases test)."""

    def __enter__(self) -> None:
        self.old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(self.old, 30_000))

    def __exit__(self, *exc: object) -> None:
        sys.setrecursionlimit(self.old)


def _yaml_dump(tree: object) -> bytes:
    import yaml

    with _deep_stack():
        try:
            return yaml.safe_dump(tree, allow_unicode=True, sort_keys=False).encode("utf-8", "surrogatepass")
        except (RecursionError, yaml.YAMLError, ValueError, OverflowError):
            return _json_dump(tree)


def _json_dump(tree: object) -> bytes:
    with _deep_stack():
        return json.dumps(tree, default=str, ensure_ascii=False).encode("utf-8", "surrogatepass")


def _tree_case(rnd: random.Random, mut: Mutator, base_text: bytes) -> bytes:
    """A YAML/JSON document mutated as a tree (most cases), as bytes, or both."""
    import yaml

    roll = rnd.random()
    if roll < 0.7:
        tree = yaml.safe_load(base_text)
        data = _yaml_dump(mut.mutate_tree(tree))
        return mut.mutate_bytes(data, 1) if rnd.random() < 0.2 else data
    if roll < 0.9:
        return mut.mutate_bytes(base_text)
    return _yaml_dump(mut.value())


#: every command of a family on every case (``--every-command``), or one per case in turn
EVERY_COMMAND = False


def _commands(case: int, commands: list[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """The commands one case runs: all of them, or the next in turn (each command then sees
    a quarter of the cases, and a family of 10,000 cases runs in minutes, not an hour)."""
    return commands if EVERY_COMMAND else [commands[case % len(commands)]]


def _writer_commands(project: Project, rnd: random.Random, case: int) -> list[tuple[str, ...]]:
    key = rnd.choice(project.keys) if project.keys else "nokey"
    return _commands(case, [("list",), ("doctor",), ("tag", key, "+fuzzed", "-muon"), ("doctor", "--fix")])


# ---- the families: one case (made and checked), then the loop over N cases ---------------------

def notes_case(rnd: random.Random, mut: Mutator, seeds: list[tuple[str, bytes]]) -> tuple[str, bytes]:
    """A mutated notes document and the suffix it is read as."""
    suffix, base = rnd.choice(seeds)
    suffix = rnd.choice((suffix, suffix, ".md", ".org", ".txt"))
    if len(base) > 8000 and rnd.random() < 0.8:  # most cases a window of a file: fast, still real
        i = rnd.randrange(len(base) - 4000)
        base = base[i:i + rnd.randint(200, 6000)]
    return suffix, mut.mutate_bytes(base)


def check_notes(report: FamilyReport, suffix: str, data: bytes, limit: float) -> None:
    """Decode and extract as every command does; any exception but "nested too deeply" fails."""
    from citekit.notes.extract import extract_text
    from citekit.notes.reader import decode_notes

    report.commands += 1
    name = f"notes/case{suffix}"
    try:
        _alarm(limit)
        try:
            text, _problems = decode_notes(data, name) if data else (None, [])
            if text is not None:
                extract_text(text, name)
        finally:
            _disarm()
    except RecursionError:
        pass  # reported to the user as "nested too deeply" by every command that reads notes
    except CaseTimeout as exc:
        report.add(Failure("timeout", innermost_citekit_frame(exc), f"extract {name}", data, "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))[-3000:]))
    except Exception as exc:  # noqa: BLE001
        detail = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))[-3000:]
        report.add(Failure(type(exc).__name__, innermost_citekit_frame(exc), f"extract {name}", data, detail))


def bib_case(rnd: random.Random, mut: Mutator, entries: list[bytes], max_doublings: int = 32) -> bytes:
    if rnd.random() < 0.02:
        data = bib_special(rnd, max_doublings)
    else:
        data = b"\n".join(rnd.choice(entries) for _ in range(rnd.randint(1, 4)))
        if rnd.random() < 0.1:
            data = bib_special(rnd, max_doublings) + b"\n" + data
    return mut.mutate_bytes(data) if rnd.random() < 0.9 else data


def check_bib(project: Project, report: FamilyReport, data: bytes, limit: float) -> None:
    target = project.sandbox.deep / "import-case.bib"  # beside the project, in the sandbox
    target.write_bytes(data)
    project.sandbox.outside_state = project.sandbox._outside_state()  # (the case file itself is ours)
    run_command(project, report, data, ("import", str(target)), limit)
    project.reset()


def config_case(rnd: random.Random, mut: Mutator) -> bytes:
    if rnd.random() < 0.15:  # paths made up to leave the project
        import yaml

        tree = yaml.safe_load(BASE_CONFIG)
        section, key = rnd.choice((("paths", "notes"), ("paths", "refs"), ("sources", "cache_dir")))
        tree.setdefault(section, {})[key] = mut.path()
        return _yaml_dump(tree)
    return _tree_case(rnd, mut, BASE_CONFIG.encode())


def check_file(project: Project, report: FamilyReport, path: Path, data: bytes, args: tuple[str, ...], limit: float,
               extra: Callable[[], None] | None = None) -> None:
    """``data`` written to ``path`` in the project, then ``args`` run; the project is put back."""
    path.write_bytes(data)
    if extra:
        extra()
    run_command(project, report, data, args, limit)
    project.reset()


def sidecar_base(project: Project) -> bytes:
    return (project.root / "refs" / "library.yaml").read_bytes()


def journal_case(rnd: random.Random, mut: Mutator, bases: list[bytes]) -> bytes:
    base = rnd.choice(bases)
    roll = rnd.random()
    if roll < 0.3:  # paths made up: every file named must stay untouched unless it is ours
        record = json.loads(base)
        for entry in record["files"]:
            for k in ("target", "temp"):
                if rnd.random() < 0.6:
                    entry[k] = mut.path()
        return _json_dump(record)
    if roll < 0.8:
        return _json_dump(mut.mutate_tree(json.loads(base)))
    return mut.mutate_bytes(base)


def journal_leftovers(project: Project, rnd: random.Random) -> Callable[[], None]:
    """What an interrupted write leaves beside a journal: its temporaries (cut short), and
    sometimes the journal's own empty temporary."""
    refs = project.root / "refs"
    with_temps, empty_tmp, cut = rnd.random() < 0.5, rnd.random() < 0.1, rnd.randint(0, 400)

    def leave() -> None:
        if with_temps:
            for name in ("library.bib", "library.yaml"):
                (refs / f".citekit-new-0123abcd-{name}").write_bytes(project.saved[Path("refs") / name][:cut])
        if empty_tmp:
            (refs / ".citekit-journal.tmp").write_bytes(b"")

    return leave


def fuzz_notes(cases: int, seed: int, sandbox: Sandbox, limit: float) -> FamilyReport:
    report = FamilyReport("notes")
    rnd = random.Random(seed)
    seeds = notes_seeds()
    mut = Mutator(rnd, [d for _, d in seeds], sandbox.root)
    start = time.perf_counter()
    for _ in range(cases):
        suffix, data = notes_case(rnd, mut, seeds)
        report.cases += 1
        check_notes(report, suffix, data, limit)
    report.seconds = time.perf_counter() - start
    return report


def fuzz_bib(cases: int, seed: int, sandbox: Sandbox, limit: float) -> FamilyReport:
    report = FamilyReport("bib")
    rnd = random.Random(seed)
    project = Project(sandbox)
    entries = bib_seeds(rnd)
    mut = Mutator(rnd, entries, sandbox.root)
    start = time.perf_counter()
    for _ in range(cases):
        report.cases += 1
        try:
            data = bib_case(rnd, mut, entries)
        except MemoryError:  # (this process near its limit after a macro bomb: the case is the bomb's)
            gc.collect()
            continue
        check_bib(project, report, data, limit)
        if report.failures:
            gc.collect()
    report.seconds = time.perf_counter() - start
    return report


def fuzz_config(cases: int, seed: int, sandbox: Sandbox, limit: float) -> FamilyReport:
    report = FamilyReport("config")
    rnd = random.Random(seed)
    project = Project(sandbox)
    mut = Mutator(rnd, [BASE_CONFIG.encode()], sandbox.root)
    start = time.perf_counter()
    for case in range(cases):
        data = config_case(rnd, mut)
        report.cases += 1
        for args in _commands(case, [("list",), ("sync", "--offline", "-q")]):
            check_file(project, report, project.root / "citekit.yaml", data, args, limit)
    report.seconds = time.perf_counter() - start
    return report


def fuzz_sidecar(cases: int, seed: int, sandbox: Sandbox, limit: float) -> FamilyReport:
    report = FamilyReport("sidecar")
    rnd = random.Random(seed)
    project = Project(sandbox)
    base = sidecar_base(project)
    mut = Mutator(rnd, [base, BASE_CONFIG.encode()], sandbox.root)
    start = time.perf_counter()
    for case in range(cases):
        data = _tree_case(rnd, mut, base)
        report.cases += 1
        for args in _writer_commands(project, rnd, case):
            check_file(project, report, project.root / "refs" / "library.yaml", data, args, limit)
    report.seconds = time.perf_counter() - start
    return report


def base_journal(project: Project, state: str) -> bytes:
    refs = project.root / "refs"
    files = []
    for name in ("library.bib", "library.yaml"):
        temp = refs / f".citekit-new-0123abcd-{name}"
        entry = {"target": str(refs / name), "temp": str(temp)}
        if state == "commit":
            entry["sha256"] = "0" * 64
        files.append(entry)
    return json.dumps({"state": state, "files": files}, sort_keys=True).encode()


def fuzz_journal(cases: int, seed: int, sandbox: Sandbox, limit: float) -> FamilyReport:
    report = FamilyReport("journal")
    rnd = random.Random(seed)
    project = Project(sandbox)
    bases = [base_journal(project, "prepare"), base_journal(project, "commit")]
    mut = Mutator(rnd, bases, sandbox.root)
    start = time.perf_counter()
    for case in range(cases):
        data = journal_case(rnd, mut, bases)
        leave = journal_leftovers(project, rnd)
        report.cases += 1
        for args in _writer_commands(project, rnd, case):
            check_file(project, report, project.root / "refs" / ".citekit-journal", data, args, limit, leave)
    report.seconds = time.perf_counter() - start
    return report


RUNNERS: dict[str, Callable[[int, int, Sandbox, float], FamilyReport]] = {
    "notes": fuzz_notes, "bib": fuzz_bib, "config": fuzz_config, "sidecar": fuzz_sidecar, "journal": fuzz_journal,
}


# ---- reporting ---------------------------------------------------------------------------------

def minimise(data: bytes, fails: Callable[[bytes], bool], budget: int = 60) -> bytes:
    """A shorter input that still fails: halves, then quarters... (a bounded number of tries)."""
    chunk = len(data) // 2
    tries = 0
    while chunk >= 1 and tries < budget:
        i, shrunk = 0, False
        while i < len(data) and tries < budget:
            candidate = data[:i] + data[i + chunk:]
            tries += 1
            if candidate != data and fails(candidate):
                data, shrunk = candidate, True
            else:
                i += chunk
        if not shrunk:
            chunk //= 2
    return data


def write_report(reports: list[FamilyReport], out: Path, sandbox: Sandbox, limit: float, shrink: bool) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for rep in reports:
        print(f"\n== {rep.family}: {rep.cases} cases, {rep.commands} commands, {rep.tracebacks} failures, "
              f"{rep.seconds:.0f} s")
        project = None
        for n, ((kind, where), fails) in enumerate(sorted(rep.failures.items(), key=lambda kv: -len(kv[1]))):
            first = min(fails, key=lambda f: len(f.data))
            data = first.data
            if shrink and kind not in ("timeout", "MemoryError", "touched outside") and len(data) < 50_000:
                if project is None and rep.family != "notes":
                    _remove(sandbox.proj)
                    project = Project(sandbox)
                data = minimise(data, _refails(rep.family, first, sandbox, project, limit))
            path = out / f"{rep.family}-{n:02d}-{kind.replace(' ', '_')}.bin"
            path.write_bytes(data)
            print(f"   {len(fails):5d} x {kind:22} at {where:48} ({first.command}) -> {path.name} ({len(data)} bytes)")
            (out / f"{path.stem}.txt").write_text(first.detail, encoding="utf-8", errors="replace")


def _refails(family: str, failure: Failure, sandbox: Sandbox, project: Project | None, limit: float) -> Callable[[bytes], bool]:
    """Whether an input still fails the same way (same kind and place)."""
    def check(data: bytes) -> bool:
        rep = FamilyReport(family)
        replay(family, data, failure.command, sandbox, project, rep, limit)
        return (failure.kind, failure.where) in rep.failures

    return check


def replay(family: str, data: bytes, command: str, sandbox: Sandbox, project: Project | None, rep: FamilyReport,
           limit: float) -> None:
    """Run one input of ``family`` through ``command`` again (for minimising)."""
    if family == "notes":
        from citekit.notes.extract import extract_text
        from citekit.notes.reader import decode_notes

        name = command.split()[-1]
        try:
            text, _ = decode_notes(data, name) if data else (None, [])
            if text is not None:
                extract_text(text, name)
        except RecursionError:
            pass
        except Exception as exc:  # noqa: BLE001
            rep.add(Failure(type(exc).__name__, innermost_citekit_frame(exc), command, data, ""))
        return
    assert project is not None
    where = {"config": project.root / "citekit.yaml", "sidecar": project.root / "refs" / "library.yaml",
             "journal": project.root / "refs" / ".citekit-journal", "bib": sandbox.proj.parent / "import-case.bib"}[family]
    where.write_bytes(data)
    sandbox.outside_state = sandbox._outside_state()
    run_command(project, rep, data, tuple(command.split()), limit)
    project.reset()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=10_000, help="cases per family (default 10,000)")
    parser.add_argument("--seed", type=int, default=22)
    parser.add_argument("--family", default=",".join(FAMILIES), help="comma-separated: " + ", ".join(FAMILIES))
    parser.add_argument("--case-seconds", type=float, default=10.0, help="a case running longer is a failure")
    parser.add_argument("--memory-mb", type=int, default=3072, help="address-space limit of this process")
    parser.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "citekit-fuzz", help="reproducers")
    parser.add_argument("--json", type=Path, help="write the counts here")
    parser.add_argument("--no-shrink", action="store_true", help="keep the reproducers as found")
    parser.add_argument("--every-command", action="store_true",
                        help="run every command of a family on every case (default: one per case, in turn)")
    args = parser.parse_args(argv)
    global EVERY_COMMAND
    EVERY_COMMAND = args.every_command
    limit = args.memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    reports = []
    with tempfile.TemporaryDirectory(prefix="citekit-fuzz-") as tmp:
        sandbox = Sandbox(Path(tmp))
        old_cwd, old_home = os.getcwd(), os.environ.get("HOME")
        os.chdir(sandbox.cwd)  # relative paths a mutation makes up resolve inside the sandbox
        os.environ["HOME"] = str(sandbox.root / "home")
        try:
            for family in args.family.split(","):
                _remove(sandbox.proj)
                rep = RUNNERS[family](args.cases, args.seed, sandbox, args.case_seconds)
                reports.append(rep)
                print(f"{family}: {rep.cases} cases, {rep.tracebacks} failures, {rep.seconds:.0f} s", flush=True)
            write_report(reports, args.out, sandbox, args.case_seconds, not args.no_shrink)
        finally:
            os.chdir(old_cwd)
            if old_home is not None:
                os.environ["HOME"] = old_home
    if args.json:
        args.json.write_text(json.dumps([r.summary() for r in reports], indent=1), encoding="utf-8")
    total = sum(r.tracebacks for r in reports)
    print(f"\nfuzz: {sum(r.cases for r in reports)} cases, {total} failures")
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
