"""Kill -9 at random moments and writers at once, on real citekit processes (bench/faults.py).

At least 30 kills per writing command: after the next command the project holds exactly
the old or the new files, no temporary file, and every reader succeeds; ten pairs of
concurrent writers lose no update.
"""

from __future__ import annotations

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


@pytest.mark.parametrize("command", ["sync", "import", "dedup --apply", "tag", "rekey"])
def test_random_kills_leave_the_old_or_the_new_state(world, command):
    folder, _base, scenarios = world
    result = faults.kill_trials(scenarios[command], folder, KILLS, seed=len(command))
    assert result.kills == KILLS
    assert result.ok, result.details
    assert result.old_state + result.new_state == KILLS


def test_concurrent_writers_lose_no_update(world):
    folder, base, _ = world
    result = faults.writer_pairs(base, folder / "pairs", 10)
    assert result.ok, result.details
    assert result.pairs == 10 and result.both_succeeded + result.lock_messages >= 10


def test_a_writer_that_cannot_wait_says_who_holds_the_lock(world):
    folder, base, _ = world
    result = faults.writer_pairs(base, folder / "nowait", 4, wait=0)
    assert result.ok, result.details
    assert result.lock_messages + result.both_succeeded >= 4
