"""Ctrl-C and a reader that goes away are not findings and not disk faults."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

CITEKIT = [sys.executable, "-c", "from citekit.cli import main; main()"]


def _project(root: Path, n: int) -> Path:
    notes = root / "notes"
    notes.mkdir(parents=True)
    first = ["Alice", "Bruno", "Chiara", "Dmitri", "Elena", "Farid", "Grace", "Hiro"]
    last = ["Smith", "Okafor", "Rossi", "Ivanov", "Larsen", "Nakamura", "Dubois", "Kim"]
    words = ["Sharp", "Adaptive", "Stochastic", "Sparse", "Robust", "Spectral", "Implicit", "Federated"]
    lines = []
    for i in range(n):
        title = f"{words[i % 8]} {words[(i // 8) % 8]} Descent for {['Transformers', 'Deep Networks'][i % 2]} {i}"
        lines.append(f"- **{title}** — {first[i % 8]} {last[(i * 3) % 8]}, {first[(i + 3) % 8]} {last[(i + 5) % 8]}")
    (notes / "reading.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return root


def test_ctrl_c_is_exit_130_with_a_message_never_exit_1(tmp_path):
    root = _project(tmp_path / "p", 4000)  # ~30 s of sync even on a fast machine: the signal lands inside it
    proc = subprocess.Popen([*CITEKIT, "-C", str(root), "sync", "--offline"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(2.5)  # inside the command: start-up takes a fraction of this, the sync far longer
    proc.send_signal(signal.SIGINT)
    _out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err and "Aborted!" not in err
    check = subprocess.run([*CITEKIT, "-C", str(root), "doctor", "--json"], capture_output=True, text=True, timeout=120)
    assert check.returncode == 0, check.stdout + check.stderr  # old or new state, never a mixed one


def test_a_reader_that_goes_away_is_not_reported_as_a_disk_fault(tmp_path):
    root = _project(tmp_path / "p", 300)
    assert subprocess.run([*CITEKIT, "-C", str(root), "sync", "--offline", "-q"], capture_output=True,
                          timeout=300).returncode == 0
    proc = subprocess.Popen([*CITEKIT, "-C", str(root), "list"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None
    proc.stdout.readline()
    proc.stdout.close()  # like `citekit list | head -1`
    err = proc.stderr.read().decode() if proc.stderr else ""
    proc.wait(timeout=120)
    assert "disk" not in err.lower() and "Traceback" not in err
    assert proc.returncode in (0, 1)
