"""Another commit's ``src/``, unpacked beside a benchmark's own: the "before" it is measured
against in the same run (``git archive``, byte-compiled so its first command is not also
its compile)."""

from __future__ import annotations

import subprocess
import sys
import tarfile
from io import BytesIO
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def sources_at(ref: str, into: Path) -> Path | None:
    """``ref``'s ``src/`` unpacked under ``into`` (created), or None (said once) when git
    cannot give it."""
    try:
        tar = subprocess.run(["git", "-C", str(REPO), "archive", ref, "src"], check=True, capture_output=True).stdout
    except (OSError, subprocess.CalledProcessError) as exc:
        print(f"  (no 'before' figures for {ref}: {getattr(exc, 'stderr', b'').decode().strip() or exc})")
        return None
    into.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=BytesIO(tar)) as archive:
        archive.extractall(into, filter="data")
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(into / "src")], capture_output=True, check=False)
    return into / "src"
