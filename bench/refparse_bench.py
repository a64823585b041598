"""The learned reference parser: accuracy on AnyStyle's gold.xml and on held-out rendered strings, and speed.

Prints:
  1. on ``../shared/corpora/anystyle/res/parser/gold.xml`` (1,669 labelled references that
     no training string repeats): token error rate, sequence error rate, and per field the
     exact-match F1 of the normalised field text and the token-level F1 (targets: title and
     author exact F1 >= 0.95);
  2. the same on the held-out part of the rendered corpus (papers whose titles fall in the
     seeded 5% held out from training, printed through the same styles and damage);
  3. model load time (first ``parse`` in a fresh process) and parse speed in references per
     second over the gold strings.

``--model PATH`` measures another model file. Needs ``../shared/corpora``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPORA = ROOT.parent / "shared" / "corpora"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", type=Path, default=None)
    ap.add_argument("--corpora", type=Path, default=CORPORA)
    ap.add_argument("--dev", action="store_true",
                    help="score the development split of core.xml/good.xml instead of gold.xml "
                         "(for a model trained with --dev-split)")
    ap.add_argument("--no-heldout", action="store_true", help="skip the held-out rendered strings")
    args = ap.parse_args()
    if not (args.corpora / "anystyle").exists():
        print(f"skipped: no corpora at {args.corpora}")
        return 0
    from citekit.notes.refparse import model, parse
    from citekit.notes.refparse.train.anystyle import read_sequences
    from citekit.notes.refparse.train.evaluate import score
    from citekit.notes.refparse.train.trainer import dev_sequences, held_out_rendered

    if args.model:
        model.use_model(args.model)
    print(f"model: {args.model or model.model_path()}")
    if args.dev:
        gold = dev_sequences(args.corpora)
        print(score(gold).report("development split of core.xml and good.xml"))
    else:
        gold = read_sequences(args.corpora / "anystyle" / "res" / "parser" / "gold.xml")
        t0 = time.perf_counter()
        print(score(gold).report("gold.xml (AnyStyle, held out)"))
        print(f"  ({time.perf_counter() - t0:.1f} s)")
    if not args.no_heldout:
        held = held_out_rendered(args.corpora)
        print(score(held).report("rendered corpus, held-out 5% of papers"))
    code = ("import time; t=time.perf_counter(); from citekit.notes.refparse import parse; "
            "parse('A. Author. A title. In Venue, 2020.'); print(time.perf_counter()-t)")
    if args.model:
        code = (f"from pathlib import Path; from citekit.notes.refparse import model; "
                f"model.use_model(Path({str(args.model)!r})); " + code)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    print(f"first parse in a fresh process (imports + model load): {float(out.stdout):.3f} s")
    texts = [t for t, _, _ in gold]
    t0 = time.perf_counter()
    for t in texts:
        parse(t)
    dt = time.perf_counter() - t0
    print(f"parse speed: {len(texts) / dt:.0f} references/s ({len(texts)} gold strings, {dt:.2f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
