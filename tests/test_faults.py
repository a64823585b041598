"""Kill -9 at random moments and writers at once, on real citekit processes (bench/faults.py).

At least 30 kills per writing command: after the next command the project holds exactly
the old or the new files, no temporary file, and every reader succeeds; ten pairs of
concurrent writers lose no update.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import faults  # noqa: E402

KILLS = 30


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    folder = tmp_path_factory.mktemp("faults")
    base = faults.make_base(folder)
    return folder, base, {s.name: s for s in faults.scenarios(folder, base)}


@pytest.mark.parametrize("command", ["sync", "import", "dedup --apply", "tag", "tag-spliced", "rekey"])
def test_random_kills_leave_the_old_or_the_new_state(world, command):
    folder, _base, scenarios = world
    result = faults.kill_trials(scenarios[command], folder, KILLS, seed=len(command))
    assert result.kills == KILLS
    assert result.ok, result.details
    assert result.old_state + result.new_state == KILLS


def test_concurrent_writers_lose_no_update(world):
    folder, base, _ = world
    result = faults.writer_pairs(base, folder / "pairs", 10)
    assert result.pairs == 10
    # a writer either succeeds and its tag is there, or exits 2 with the lock message
    assert result.lost_updates == 0 and result.unexplained_failures == 0, result.details


#: holds the project lock as ``sync --offline`` until its stdin closes
_HOLDER = """
import sys
from citekit.library.lock import ProjectLock
with ProjectLock(sys.argv[1], "sync --offline"):
    print("held", flush=True)
    sys.stdin.read()
"""


def test_a_writer_that_cannot_wait_says_who_holds_the_lock(world, tmp_path):
    _folder, base, _ = world
    project = tmp_path / "nowait"
    shutil.copytree(base, project)
    refs = project / "refs"
    before = {p.name: p.read_bytes() for p in refs.iterdir() if p.is_file()}
    holder = subprocess.Popen([sys.executable, "-c", _HOLDER, str(refs)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        writer = faults.run(project, "tag", "old0", "+nowait", env={"CITEKIT_LOCK_WAIT": "0"}, check=False)
        assert writer.returncode == 2, writer.stderr
        assert f"`citekit sync --offline` (process {holder.pid}, since" in writer.stderr
        assert "is writing this library; waited 0 s" in writer.stderr
        reader = faults.run(project, "list", check=False)  # readers go on meanwhile
        assert reader.returncode == 0 and "old0" in reader.stdout, reader.stderr
    finally:
        holder.communicate(input="")
    assert holder.returncode == 0
    # the refused writer changed nothing, left no temporary file, and the library is whole
    assert {p.name: p.read_bytes() for p in refs.iterdir() if p.is_file()} == before
    assert "nowait" not in _tags(project, "old0")
    assert faults.run(project, "tag", "old0", "+nowait", check=False).returncode == 0
    assert "nowait" in _tags(project, "old0")


def _tags(project: Path, key: str) -> list[str]:
    return json.loads(faults.run(project, "show", key, "--json").stdout)["tags"]
