"""Daily commands with no network, before and after, in paired runs.

Run from the repository root::

    .venv/bin/python bench/offline_daily_bench.py                  # demo project and a 10k library
    .venv/bin/python bench/offline_daily_bench.py --before none    # this tree only
    .venv/bin/python bench/offline_daily_bench.py --size 0         # the demo project only

No network: under ``unshare -n`` when this user may (every host name fails to resolve,
as on a plane), otherwise with every service and conference site pointed at a closed
loopback port through ``CITEKIT_*_URL`` (each connection refused).

1. The demo project (``make demo``'s: the bundled ``notes/`` and ``refs/``): a plain
   ``citekit sync`` three times in a row, then ``citekit sync --offline`` three times, on
   fresh copies, with the citekit of ``--before`` (default: the merge base with ``main``)
   and of this tree taking turns run by run (``--rounds`` times). Wall and CPU seconds
   per run, and the requests each plain sync tried (``--json``). Target: from the second
   plain sync on, no request and about what ``--offline`` costs.
2. A ``--size``-entry library (the real Better BibTeX export beside the repository,
   repeated with renamed keys, as ``bench/library_bench.py`` builds it) with the bundled
   notes, synced once offline and once plain: then each daily command with no network,
   before and after in turns: ``add`` of a new title, ``search``, ``list --status
   pending``, ``upgrade --offline``, ``tags``, a plain ``sync`` and ``sync --offline``.
   Target: each well under a second.

Results go to ``bench/out/offline-daily-latest.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(REPO / "bench"))
sys.path.insert(0, str(REPO))

import library_bench as lb  # noqa: E402
from nochange_sync_bench import before_src  # noqa: E402

OUT = REPO / "bench" / "out"


def no_network() -> tuple[list[str], dict[str, str]]:
    """A command prefix and environment under which no service can be reached."""
    try:
        if subprocess.run(["unshare", "-n", "true"], capture_output=True).returncode == 0:
            return ["unshare", "-n"], {}
    except OSError:
        pass
    import socket

    from tests.fakeservices import ENV, SITES

    with socket.socket() as s:  # a port bound and closed again: nothing listens there
        s.bind(("127.0.0.1", 0))
        closed = f"http://127.0.0.1:{s.getsockname()[1]}"
    env = {name: closed for name in ENV.values()}
    env.update({f"CITEKIT_{site.upper()}_URL": closed for site in SITES})
    return [], env


def command(src: Path) -> tuple[list[str], dict[str, str]]:
    """citekit from ``src``."""
    return [sys.executable, "-c", "import sys; from citekit.cli import main; sys.exit(main())"], {"PYTHONPATH": str(src)}


def this_tree(folder: Path) -> Path:
    """A compiled copy of this tree's ``src/``, as the 'before' one is (bytecode written by
    neither: a run that compiles every module would be measured against one that does not)."""
    into = folder / "after" / "src"
    shutil.copytree(REPO / "src", into, ignore=shutil.ignore_patterns("__pycache__"))
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(into)], capture_output=True, check=False)
    return into


def run(prefix: list[str], cmd: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """Wall and CPU seconds and stdout of one process."""
    before = os.times()
    start = time.perf_counter()
    proc = subprocess.run([*prefix, *cmd], capture_output=True, text=True, env=env)
    wall = time.perf_counter() - start
    after = os.times()
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"{' '.join(cmd[-4:])} failed ({proc.returncode}): {proc.stderr[-800:]}")
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return wall, cpu, proc.stdout


def requests_of(out: str) -> int | None:
    try:
        return int(json.loads(out)["requests"])
    except (ValueError, KeyError, TypeError):
        return None


def demo_rounds(versions: dict[str, Path], net: tuple[list[str], dict[str, str]], rounds: int,
                folder: Path) -> dict:
    """Part 1: three plain syncs and three offline ones on fresh copies of the demo project."""
    prefix, net_env = net
    rows: dict[str, dict[str, list]] = {name: {} for name in versions}
    for r in range(rounds):
        for name, src in versions.items():  # before and after take turns
            cmd, extra = command(src)
            for mode in ("plain", "offline"):
                project = folder / f"demo-{name}-{mode}-{r}"
                shutil.copytree(REPO / "notes", project / "notes")
                shutil.copytree(REPO / "refs", project / "refs")
                env = {**os.environ, **net_env, **extra, "CITEKIT_CACHE_DIR": str(project / "lookup-cache")}
                args = ["sync", "--json"] + (["--offline"] if mode == "offline" else [])
                for i in range(3):
                    wall, cpu, out = run(prefix, [*cmd, "-C", str(project), *args], env)
                    rows[name].setdefault(f"{mode} #{i + 1}", []).append((wall, cpu, requests_of(out)))
    return {name: {run_name: {"wall_s": round(statistics.median(w for w, _, _ in xs), 3),
                              "cpu_s": round(statistics.median(c for _, c, _ in xs), 3),
                              "requests": max((q or 0) for _, _, q in xs)}
                   for run_name, xs in by_run.items()}
            for name, by_run in rows.items()}


DAILY = [
    ("add", ["add", "--json", "Quiet Lanterns for Sparse Pebble Counting, part {round}"]),
    ("search", ["search", "adaptive gradient methods"]),
    ("list --status pending", ["list", "--status", "pending"]),
    ("upgrade --offline --all", ["upgrade", "--offline", "--all"]),
    ("tags", ["tags"]),
    ("sync", ["sync", "--json"]),
    ("sync --offline", ["sync", "--offline", "--json"]),
]


def big_library(versions: dict[str, Path], net: tuple[list[str], dict[str, str]], size: int,
                rounds: int, folder: Path) -> dict:
    """Part 2: the daily commands on a ``size``-entry library, no network."""
    from citekit.bibtex.reader import read_bib_file

    if not lb.CORPUS.exists():
        return {"skipped": f"no {lb.CORPUS.name} beside the repository"}
    prefix, net_env = net
    template = folder / f"lib{size}"
    shutil.copytree(REPO / "notes", template / "notes")
    (template / "citekit.yaml").write_text("paths: {notes: notes, refs: refs}\n", encoding="utf-8")
    lb.build_library(template / "refs", size, read_bib_file(lb.CORPUS).entries)
    out: dict[str, dict[str, list]] = {name: {} for name in versions}
    for name, src in versions.items():
        project = folder / f"lib{size}-{name}"
        shutil.copytree(template, project)
        cmd, extra = command(src)
        env = {**os.environ, **net_env, **extra, "CITEKIT_CACHE_DIR": str(project / "lookup-cache")}
        run(prefix, [*cmd, "-C", str(project), "sync", "--offline", "-q"], env)
        run(prefix, [*cmd, "-C", str(project), "sync", "-q"], env)  # the plain sync that tries once
    for r in range(rounds):
        for label, args in DAILY:
            for name, src in versions.items():  # before and after take turns
                cmd, extra = command(src)
                project = folder / f"lib{size}-{name}"
                env = {**os.environ, **net_env, **extra, "CITEKIT_CACHE_DIR": str(project / "lookup-cache")}
                argv = [a.format(round=r + 1) for a in args]  # a new paper each round
                wall, cpu, text = run(prefix, [*cmd, "-C", str(project), *argv], env)
                out[name].setdefault(label, []).append((wall, cpu, requests_of(text)))
    return {name: {label: {"wall_s": round(statistics.median(w for w, _, _ in xs), 3),
                           "cpu_s": round(statistics.median(c for _, c, _ in xs), 3),
                           "requests": max((q or 0) for _, _, q in xs)}
                   for label, xs in rows.items()}
            for name, rows in out.items()}


def show(title: str, table: dict) -> None:
    print(title)
    names = list(table)
    if not names or not isinstance(table[names[0]], dict) or "skipped" in table:
        print(f"  {table}")
        return
    print(f"  {'run':<24}" + "".join(f"{n + ' wall/CPU s (req)':>30}" for n in names))
    for run_name in table[names[0]]:
        cells = []
        for n in names:
            x = table[n].get(run_name, {})
            cells.append(f"{x.get('wall_s', 0):>10.3f} / {x.get('cpu_s', 0):.3f} ({x.get('requests', 0)})")
        print(f"  {run_name:<24}" + "".join(f"{c:>30}" for c in cells))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="daily commands with no network, before and after")
    parser.add_argument("--before", default="main", help="commit whose src/ gives the 'before' figures, or 'none'")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--size", type=int, default=10000, help="entries of the big library (0: skip it)")
    args = parser.parse_args(argv)
    net = no_network()
    print(f"no network: {'unshare -n' if net[0] else 'services at a closed loopback port'}")
    with tempfile.TemporaryDirectory(prefix="citekit-offline-daily-") as tmp:
        folder = Path(tmp)
        versions: dict[str, Path] = {}
        before = before_src(args.before, folder)
        if before is not None:
            versions["before"] = before
        versions["after"] = this_tree(folder)
        result = {"network": "unshare -n" if net[0] else "closed port",
                  "demo": demo_rounds(versions, net, args.rounds, folder)}
        show("1. demo project (bundled notes → refs), median of rounds", result["demo"])
        if args.size:
            result["library"] = big_library(versions, net, args.size, args.rounds, folder)
            show(f"2. daily commands on {args.size:,} entries, no network, median of rounds", result["library"])
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "offline-daily-latest.json").write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
