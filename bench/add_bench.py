"""What ``citekit add`` costs, against the baseline of an online ``citekit sync``, in one run.

Run from the repository root::

    .venv/bin/python bench/add_bench.py                 # 50 ms per request
    .venv/bin/python bench/add_bench.py --latency 0.1

A project with the bundled ``notes/`` (about 80 works), synced offline only, then:

- baseline: a cold online ``sync`` of a copy of it (every work looked up);
- ``add`` of one paper the notes do not mention, by DOI, on the never-synced copy, cold;
- ``add`` of a paper the library already holds (by its arXiv id), after the sync.

Printed: requests and wall time of each, and the ratio add / sync (target: an add sends
at most 5 requests, whatever the size of the notes). The services are the loopback fakes
(``tests/fakeservices``) with ``--latency`` seconds added to every request.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(REPO))


def _project(base: Path, name: str) -> Path:
    root = base / name
    root.mkdir()
    (root / "citekit.yaml").write_text("# bench project\n", encoding="utf-8")
    shutil.copytree(REPO / "notes", root / "notes")
    return root


def _run(root: Path, *args: str) -> tuple[dict, float]:
    from click.testing import CliRunner

    from citekit.cli import main

    started = time.perf_counter()
    result = CliRunner().invoke(main, ["-C", str(root), *args, "--json"])
    took = time.perf_counter() - started
    if result.exit_code not in (0, 1):
        raise SystemExit(f"citekit {' '.join(args)} failed: {result.output}")
    return json.loads(result.stdout), took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--latency", type=float, default=0.05, help="seconds added to every request")
    args = parser.parse_args()
    from tests.fakeservices import FakeServices

    with tempfile.TemporaryDirectory() as tmp, FakeServices(latency=args.latency) as fake:
        base = Path(tmp)
        os.environ.update(fake.env())
        os.environ.update({"CITEKIT_RATE_LIMITS": "off", "CITEKIT_MAILTO": "bench@example.org"})
        # a paper the bundled notes do not mention: a Crossref journal article
        item = json.loads(json.dumps(fake.world.crossref_items[0]["item"]))
        item.update({"DOI": "10.5555/bench.1", "title": ["Spectral Conditioning of Stochastic Orthogonal Updates"],
                     "author": [{"given": "Aikaterini", "family": "Karoni", "sequence": "first", "affiliation": []}]})
        fake.world.crossref_items.append({"item": item, "bias": 0.0})

        sync_root, add_root = _project(base, "sync"), _project(base, "add")
        for root, cache in ((sync_root, "cache-sync"), (add_root, "cache-add")):
            os.environ["CITEKIT_CACHE_DIR"] = str(base / cache)
            _run(root, "sync", "--offline")

        os.environ["CITEKIT_CACHE_DIR"] = str(base / "cache-sync")
        n = fake.requests()
        synced, sync_time = _run(sync_root, "sync")
        sync_requests = fake.requests() - n
        n = fake.requests()
        from citekit.library.store import Library

        known = next(e.ids.arxiv for e in Library.load(sync_root / "refs").entries.values()
                     if e.status == "resolved" and e.ids.arxiv)
        already, already_time = _run(sync_root, "add", f"arXiv:{known}")
        already_requests = fake.requests() - n

        os.environ["CITEKIT_CACHE_DIR"] = str(base / "cache-add")
        n = fake.requests()
        added, add_time = _run(add_root, "add", "10.5555/bench.1")
        add_requests = fake.requests() - n

    print(f"works in the notes: {synced['works']}  (latency {args.latency * 1000:.0f} ms per request)")
    print(f"baseline  sync, cold            {sync_requests:5d} requests  {sync_time:6.2f} s")
    print(f"add       new paper by DOI, cold{add_requests:5d} requests  {add_time:6.2f} s   "
          f"status {added['added'][0]['status']}  (target <= 5 requests)")
    print(f"add       paper already there   {already_requests:5d} requests  {already_time:6.2f} s   "
          f"status {already['added'][0]['status']}")
    print(f"add / sync: {add_requests / max(1, sync_requests):.3f} of the requests, {add_time / sync_time:.3f} of the time")


if __name__ == "__main__":
    main()
