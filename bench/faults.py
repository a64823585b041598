"""Faults injected into real citekit processes: kill -9 at random moments, writers at once.

For each writing command (sync, import, dedup --apply, tag, tag with a warm cache: a
spliced write, rekey) a project is copied, the command is started and killed with SIGKILL after a random delay within its normal
run time, and then the next command (a reader: ``citekit list``) runs. The files the
command may change must then be *exactly* the old set or the new set (computed by an
uninterrupted run), with no temporary file left. Then pairs of writers run at once
(``tag A +x`` with ``tag B +y``, and ``sync`` with ``tag``): no update may be lost, and a
writer that gives up must have said which command held the lock.

    python bench/faults.py            # 30 kills per command, 10 writer pairs
    python bench/faults.py --kills 5  # quicker

tests/test_faults.py runs the same functions in CI. "The next command" after a kill is a
library read in this process (what every citekit command does first).
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from citekit.library.store import Library

ROOT = Path(__file__).resolve().parents[1]
NOTES = ROOT / "notes"
TEMP_MARKS = (".citekit-new-", ".citekit-journal")


def citekit_cmd() -> list[str]:
    exe = Path(sys.executable).with_name("citekit")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "citekit.cli"]


def run(project: Path, *args: str, env: dict[str, str] | None = None, check: bool = True) -> subprocess.CompletedProcess:
    proc = subprocess.run([*citekit_cmd(), "-C", str(project), *args], capture_output=True, text=True, cwd=project,
                          env={**os.environ, **(env or {})})
    if check and proc.returncode not in (0, 1):
        raise RuntimeError(f"citekit {' '.join(args)} failed ({proc.returncode}): {proc.stderr}")
    return proc


# ---- projects -------------------------------------------------------------------------

def _bib_entries(n: int, prefix: str, seed: int, duplicate_every: int = 0) -> str:
    rnd = random.Random(seed)
    words = ("sparse adaptive robust neural gradient kernel quantum stochastic latent spectral graph convex "
             "federated causal bayesian optimal diffusion transformer").split()
    out = []
    for i in range(n):
        title = " ".join(rnd.choice(words) for _ in range(6)).capitalize() + f" {prefix} {i}"
        author = f"{rnd.choice(['Smith', 'Lee', 'Garcia', 'Müller', 'Chen'])}, {rnd.choice(['Ana', 'Bo', 'Cy'])}"
        fields = (f"  title = {{{title}}},\n  author = {{{author}}},\n  year = {{{2000 + i % 25}}},\n"
                  f"  journal = {{Journal of {rnd.choice(words).capitalize()}}},\n  doi = {{10.1000/{prefix}.{i}}},\n")
        out.append(f"@article{{{prefix}{i},\n{fields}}}\n")
        if duplicate_every and i % duplicate_every == 0:
            out.append(f"@article{{{prefix}{i}dup,\n{fields}}}\n")
    return "\n".join(out)


def make_base(folder: Path) -> Path:
    """A project with the bundled notes synced offline and a few hundred imported entries."""
    project = folder / "base"
    (project / "notes").mkdir(parents=True)
    for note in NOTES.iterdir():
        shutil.copy(note, project / "notes" / note.name)
    (project / "citekit.yaml").write_text("paths: {notes: notes, refs: refs}\n", encoding="utf-8")
    (folder / "old.bib").write_text(_bib_entries(300, "old", 1), encoding="utf-8")
    run(project, "sync", "--offline", "-q")
    run(project, "import", str(folder / "old.bib"))
    return project


@dataclass
class Scenario:
    """A writing command, the project it starts from and the files it may change."""

    name: str
    args: list[str]
    project: Path
    watched: list[str] = field(default_factory=lambda: ["refs"])


def scenarios(folder: Path, base: Path) -> list[Scenario]:
    out = []

    def copy(name: str) -> Path:
        target = folder / name
        shutil.copytree(base, target)
        shutil.rmtree(target / ".citekit", ignore_errors=True)
        return target

    sync_project = copy("sync")
    (sync_project / "notes" / "more.md").write_text(
        "\n\n".join(f"## A new paper about thing {i}\nAuthors: Ann Lee, Bo Chen\n" for i in range(40)), encoding="utf-8")
    out.append(Scenario("sync", ["sync", "--offline", "-q"], sync_project))

    import_project = copy("import")
    (folder / "new.bib").write_text(_bib_entries(300, "new", 2), encoding="utf-8")
    out.append(Scenario("import", ["import", str(folder / "new.bib")], import_project))

    dedup_project = copy("dedup")
    (folder / "dups.bib").write_text(_bib_entries(60, "dup", 3, duplicate_every=3), encoding="utf-8")
    bib = dedup_project / "refs" / "library.bib"
    bib.write_text(bib.read_text(encoding="utf-8") + "\n" + (folder / "dups.bib").read_text(encoding="utf-8"),
                   encoding="utf-8")
    run(dedup_project, "list")  # hand-added entries: read once so the project starts consistent
    out.append(Scenario("dedup --apply", ["dedup", "--apply"], dedup_project))

    tag_project = copy("tag")
    out.append(Scenario("tag", ["tag", "old7", "+fault-a", "-theory"], tag_project))

    # the same with the cache kept: the write splices both files (spans of the old ones)
    spliced_project = copy("tag-spliced")
    run(spliced_project, "tag", "old7", "+warm")
    out.append(Scenario("tag-spliced", ["tag", "old7", "+fault-b", "-theory"], spliced_project))

    rekey_project = folder / "rekey"
    shutil.copytree(dedup_project, rekey_project)
    run(rekey_project, "dedup", "--apply")
    paper = rekey_project / "paper"
    paper.mkdir()
    for i in range(3):
        cites = ", ".join(f"dup{j}dup" for j in range(0, 60, 3))
        (paper / f"part{i}.tex").write_text(f"Text \\cite{{{cites}}} and \\citep{{old{i}}}.\n" * 200, encoding="utf-8")
    out.append(Scenario("rekey", ["rekey", *[f"paper/part{i}.tex" for i in range(3)]], rekey_project,
                        watched=["refs", "paper"]))
    return out


def snapshot(project: Path, watched: list[str]) -> dict[str, bytes]:
    out = {}
    for folder in watched:
        for path in sorted((project / folder).rglob("*")):
            if path.is_file():
                out[str(path.relative_to(project))] = path.read_bytes()
    return out


def leftovers(project: Path, watched: list[str]) -> list[str]:
    found = []
    for folder in watched:
        for path in (project / folder).rglob("*"):
            if path.name.startswith(TEMP_MARKS) or (path.name.startswith(".") and path.name.endswith(".tmp")):
                found.append(str(path.relative_to(project)))
    return found


# ---- kills -----------------------------------------------------------------------------

@dataclass
class KillResult:
    command: str
    kills: int = 0
    old_state: int = 0
    new_state: int = 0
    mixed: int = 0
    leftover_temps: int = 0
    reader_failures: int = 0
    seconds: float = 0.0
    details: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.mixed == 0 and self.leftover_temps == 0 and self.reader_failures == 0


def kill_trials(scenario: Scenario, folder: Path, kills: int, seed: int, workers: int = 2) -> KillResult:
    """``kills`` runs of the scenario's command, each killed at a random moment
    (``workers`` trials at a time, each in its own copy of the project)."""
    rnd = random.Random(seed)
    result = KillResult(scenario.name)
    started = time.perf_counter()
    old = snapshot(scenario.project, scenario.watched)
    reference = folder / f"ref-{scenario.name.split()[0]}"
    shutil.copytree(scenario.project, reference)
    t0 = time.perf_counter()
    run(reference, *scenario.args)
    duration = time.perf_counter() - t0
    new = snapshot(reference, scenario.watched)
    if new == old:
        raise RuntimeError(f"{scenario.name} changes nothing: the scenario is wrong")
    delays = [duration * 1.1 * rnd.random() ** 0.5 for _ in range(kills)]  # biased late, where writing happens

    def trial_run(i: int) -> tuple[str, list[str]]:
        trial = folder / f"trial-{scenario.name.split()[0]}-{i}"
        shutil.copytree(scenario.project, trial)
        proc = subprocess.Popen([*citekit_cmd(), "-C", str(trial), *scenario.args], stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, cwd=trial)
        time.sleep(delays[i])
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
        proc.wait()
        notes: list[str] = []
        outcome = "old"
        try:  # the next command: a reader, which finishes or undoes the interrupted write
            Library.load(trial / "refs", use_cache=False)
        except Exception as exc:  # noqa: BLE001 - any failure is what we count
            notes.append(f"trial {i}: reader failed: {exc}"[:300])
            outcome = "reader"
        after = snapshot(trial, scenario.watched)
        if outcome == "reader":
            pass
        elif after == old:
            outcome = "old"
        elif after == new:
            outcome = "new"
        else:
            outcome = "mixed"
            differ = sorted(k for k in set(old) | set(new) | set(after) if after.get(k) not in (old.get(k), new.get(k)))
            notes.append(f"trial {i}: mixed state ({', '.join(differ)[:200]})")
        temps = leftovers(trial, scenario.watched)
        if temps:
            notes.append(f"trial {i}: temporary files left: {temps}")
        shutil.rmtree(trial, ignore_errors=True)
        return outcome, notes

    with ThreadPoolExecutor(max_workers=workers) as pool:
        for outcome, notes in pool.map(trial_run, range(kills)):
            result.kills += 1
            result.old_state += outcome == "old"
            result.new_state += outcome == "new"
            result.mixed += outcome == "mixed"
            result.reader_failures += outcome == "reader"
            result.leftover_temps += any("temporary files left" in n for n in notes)
            result.details.extend(notes)
    result.seconds = time.perf_counter() - started
    return result


# ---- concurrent writers ----------------------------------------------------------------

@dataclass
class PairResult:
    pairs: int = 0
    lost_updates: int = 0
    lock_messages: int = 0
    both_succeeded: int = 0
    unexplained_failures: int = 0
    details: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.lost_updates == 0 and self.unexplained_failures == 0


def _tags_of(project: Path, key: str) -> set[str]:
    proc = run(project, "show", key, "--json")
    import json

    return set(json.loads(proc.stdout)["tags"])


def writer_pairs(base: Path, folder: Path, pairs: int, wait: float | None = None) -> PairResult:
    """``pairs`` times two writers at once: tag+tag on two entries, then sync+tag."""
    result = PairResult()
    env = {"CITEKIT_LOCK_WAIT": str(wait)} if wait is not None else {}
    for i in range(pairs):
        project = folder / f"pair-{i}"
        shutil.copytree(base, project)
        a, b = f"old{2 * i}", f"old{2 * i + 1}"
        if i % 2 == 0:
            first = [*citekit_cmd(), "-C", str(project), "tag", a, f"+pair-x{i}"]
        else:
            first = [*citekit_cmd(), "-C", str(project), "sync", "--offline", "-q"]
        second = [*citekit_cmd(), "-C", str(project), "tag", b, f"+pair-y{i}"]
        procs = [subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                  env={**os.environ, **env}) for cmd in (first, second)]
        outs = [p.communicate() for p in procs]
        result.pairs += 1
        codes = [p.returncode for p in procs]
        tags_a, tags_b = _tags_of(project, a), _tags_of(project, b)
        if i % 2 == 0 and codes[0] == 0 and f"pair-x{i}" not in tags_a:
            result.lost_updates += 1
            result.details.append(f"pair {i}: tag on {a} reported success but is gone")
        if codes[1] == 0 and f"pair-y{i}" not in tags_b:
            result.lost_updates += 1
            result.details.append(f"pair {i}: tag on {b} reported success but is gone")
        for code, (_out, err) in zip(codes, outs):
            if code == 2 and "is writing this library" in err:
                result.lock_messages += 1
            elif code != 0:
                result.unexplained_failures += 1
                result.details.append(f"pair {i}: exit {code}: {err.strip()[:300]}")
        if codes == [0, 0]:
            result.both_succeeded += 1
        shutil.rmtree(project, ignore_errors=True)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=30, help="kills per command (default 30)")
    parser.add_argument("--pairs", type=int, default=10, help="concurrent writer pairs (default 10)")
    parser.add_argument("--seed", type=int, default=14)
    args = parser.parse_args(argv)
    ok = True
    with tempfile.TemporaryDirectory(prefix="citekit-faults-") as tmp:
        folder = Path(tmp)
        base = make_base(folder)
        for n, scenario in enumerate(scenarios(folder, base)):
            r = kill_trials(scenario, folder, args.kills, args.seed + n)
            ok &= r.ok
            print(f"{r.command:<14} kills {r.kills:3d}: old {r.old_state:3d}, new {r.new_state:3d}, mixed {r.mixed}, "
                  f"temps left {r.leftover_temps}, reader failures {r.reader_failures} ({r.seconds:.0f} s)")
            for d in r.details[:5]:
                print("   ", d)
        p = writer_pairs(base, folder, args.pairs)
        ok &= p.ok
        print(f"writer pairs   {p.pairs:3d}: lost updates {p.lost_updates}, both succeeded {p.both_succeeded}, "
              f"lock messages {p.lock_messages}, unexplained failures {p.unexplained_failures}")
        for d in p.details[:5]:
            print("   ", d)
        p = writer_pairs(base, folder / "short", max(2, args.pairs // 5), wait=0)
        print(f"no-wait pairs  {p.pairs:3d}: lost updates {p.lost_updates}, lock messages {p.lock_messages}, "
              f"unexplained failures {p.unexplained_failures}")
        ok &= p.ok
    print("faults: " + ("all kept" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
