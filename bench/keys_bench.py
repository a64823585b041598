"""What freezing provisional keys costs ``export``, as ratios to baselines of the same run.

Run from the repository root::

    .venv/bin/python bench/keys_bench.py

A scratch project gets the largest real library beside the repository (the 7,166-entry
Better BibTeX export ``Unabbreviate_on_import_1436-3.bib``, imported: frozen keys) and the
bundled notes (an offline sync: provisional keys). Then, as real processes (start-up
included), CPU seconds (wall time swings with other people's load on a shared machine):

- the first ``export -o all.bib``, which freezes the sync's provisional keys (one write of
  the sidecar under the lock);
- the same export every day after (median of 5): nothing left to freeze, the provisional
  flags read from the remembered table;
- what the look-up adds to that export, in this process: a warm ``Library.load`` and the
  provisional keys read (``freeze.provisional_among``), minus the load alone (median of 9);
- baseline: one ``bibtexparser`` parse of the same ``library.bib`` in this process.

Targets: the first export leaves no provisional key; the look-up is under 5% of the warm
export (the export's own speed against the parse is ``library_bench.py``'s target).
Results go to ``bench/out/keys-latest.json``.
"""

from __future__ import annotations

import json
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from library_bench import CORPUS, LAST_CPU, OUT, REPO, citekit_cmd, parse_baseline, timed  # noqa: E402


def cpu(cmd: list[str], cwd: Path) -> float:
    timed(cmd, cwd)
    return LAST_CPU[0]


def look_up(refs: Path) -> float:
    """CPU seconds the provisional keys' look-up adds to a warm whole-library export."""
    import time

    from citekit.library.freeze import provisional_among
    from citekit.library.store import Library

    start = time.process_time()
    Library.load(refs)
    load = time.process_time() - start
    start = time.process_time()
    provisional_among(Library.load(refs))
    return max(0.0, time.process_time() - start - load)


def main() -> int:
    if not CORPUS.exists():
        print(f"skipped: {CORPUS} is not there (the corpora beside the repository)")
        return 0
    exe = citekit_cmd()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "proj"
        root.mkdir()
        (root / "citekit.yaml").write_text("# bench\n", encoding="utf-8")
        shutil.copytree(REPO / "notes", root / "notes")
        timed([*exe, "-C", str(root), "import", str(CORPUS), "-q"], root)
        timed([*exe, "-C", str(root), "sync", "--offline", "-q"], root)
        side = (root / "refs" / "library.yaml").read_text(encoding="utf-8")
        provisional = side.count("key_provisional: true")
        export = [*exe, "-C", str(root), "export", "-o", str(Path(tmp) / "all.bib")]
        first = cpu(export, root)
        left = (root / "refs" / "library.yaml").read_text(encoding="utf-8").count("key_provisional: true")
        cpu(export, root)  # its cache after the write
        warm = statistics.median(cpu(export, root) for _ in range(5))
        lookup = statistics.median(look_up(root / "refs") for _ in range(9))
        parse_wall, parse_cpu = parse_baseline(root / "refs" / "library.bib")
    figures = {
        "provisional_keys_after_sync": provisional, "provisional_keys_after_first_export": left,
        "first_export_cpu_s": round(first, 3), "warm_export_cpu_s": round(warm, 3),
        "look_up_cpu_s": round(lookup, 4), "bibtexparser_parse_cpu_s": round(parse_cpu, 3),
        "look_up_share_of_warm_export": round(lookup / warm, 3), "warm_vs_parse": round(warm / parse_cpu, 3),
        "first_vs_parse": round(first / parse_cpu, 3),
    }
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "keys-latest.json").write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    for name, value in figures.items():
        print(f"{name:40} {value}")
    ok = figures["look_up_share_of_warm_export"] < 0.05 and left == 0
    print("targets:", "met" if ok else "NOT met")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
