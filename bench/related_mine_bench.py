"""``related-work --mine``: does each paragraph place the user's paper, by its own difference from that group?

Setups nobody tuned on (the held-out HCI topics of ``tests/data/related_work/blind_hci_heldout*`` are
left out on purpose): the Papers3 -> Zotero HCI library of ``../shared/corpora/zotero-bbt-export``,
entries with an abstract of 40+ words whose title matches a topic rule fixed here (below), the first
nine by key per topic; each of the topic's papers in turn plays the user's paper ("mine") against the
others. The same sections are written by this checkout and by BASELINE (``git archive``, same run) and
read by the same measures:

- paragraphs that end with a position sentence ("Like/Unlike/Where ... our/we ...", "...; in
  contrast, our/we ..."), against those left with a ``TODO(citekit)``;
- position sentences whose last six words are word for word the user's abstract (drawn from it);
- position sentences that repeat one already said in the section (the same last six words): the
  reader's "the first sentence of the abstract under every group";
- "Unlike" sentences whose user side has a content word none of the cited records uses (the least
  an "unlike" needs to be true to both records);
- sections whose abstract states no "we propose" sentence, and how many of their paragraphs are
  still placed.

Run: .venv/bin/python bench/related_mine_bench.py [BASELINE=main] [-v]   (needs ../shared/corpora)
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from baseline_src import REPO, sources_at  # noqa: E402

LIBRARY = REPO.parent / "shared" / "corpora" / "zotero-bbt-export" / "Cache does not seem to fill #1296.bibtex"
#: topic rules over titles, fixed before any output was read (none of the held-out topics: VR/AR, children,
#: pen/sketching, collaboration)
TOPICS = {"printing": r"\b(3d print|fabricat)", "gesture": r"\bgestur", "touch": r"\b(touch|multi-touch)",
          "audio": r"\b(music|sound|audio)", "haptics": r"\bhaptic", "smartwatch": r"\b(smartwatch|wrist)",
          "eye": r"\b(eye[- ]tracking|gaze)\b", "access": r"\b(blind|visually impaired|accessib)",
          "tangible": r"\btangible", "text": r"\b(text entry|keyboard|typing)"}
PER_TOPIC = 9

WRITER = r"""
import json, re, sys
sys.path.insert(0, sys.argv[1])
from pathlib import Path
from citekit.bibtex.reader import read_bib_file
from citekit.core.model import Entry
from citekit.core.text import latex_to_text
from citekit.output.related_work import Mine, related_work
topics = json.loads(sys.argv[3])
raw = sorted(read_bib_file(Path(sys.argv[2])).entries, key=lambda e: e.key)
out = []
for topic, rule in topics.items():
    chosen = []
    for e in raw:
        title, abstract = e.fields.get("title", ""), e.fields.get("abstract", "")
        if abstract and len(abstract.split()) > 40 and re.search(rule, title, re.I):
            chosen.append(Entry(key=e.key, entry_type=e.entry_type, abstract=abstract, tags_auto=[topic],
                                fields={k: v for k, v in e.fields.items() if k != "abstract"}))
    chosen = chosen[:int(sys.argv[4])]
    for own in chosen:
        rest = [e for e in chosen if e is not own]
        mine = Mine(title=latex_to_text(own.fields.get("title", "")), abstract=latex_to_text(own.abstract), name=own.key)
        out.append({"topic": topic, "mine": own.key, "abstract": mine.abstract,
                    "text": related_work(rest, fmt="markdown", tags=[topic], mine=mine),
                    "records": {e.key: latex_to_text((e.fields.get("title") or "") + " " + e.abstract) for e in rest}})
print(json.dumps(out))
"""

_POSITION = re.compile(r"^(?:Like|Unlike|Where)\b.*\b(?:our|we)\b|;\s*in contrast,\s*(?:our|we)\b", re.S)


def write(src: Path) -> list[dict]:
    result = subprocess.run([sys.executable, "-c", WRITER, str(src), str(LIBRARY), json.dumps(TOPICS), str(PER_TOPIC)],
                            capture_output=True, text=True, check=True)
    return json.loads(result.stdout)


def _words(text: str) -> str:
    return " ".join(re.sub(r"[^\w\s\-]", " ", text.lower()).split())


def measure(sections: list[dict], verbose: bool = False) -> Counter:
    from citekit.output.sentences import contribution

    n: Counter = Counter()
    for s in sections:
        n["sections"] += 1
        own = _words(s["abstract"])
        claimless = contribution(s["abstract"]) is None
        n["claimless_sections"] += claimless
        said: set[str] = set()
        for block in re.split(r"^### ", s["text"], flags=re.M)[1:]:
            n["paragraphs"] += 1
            n["claimless_paragraphs"] += claimless
            n["todo"] += "TODO(citekit)" in block
            body = " ".join(l for l in block.splitlines()[1:] if l and not l.startswith("<!--"))
            positions = [x for x in re.split(r"(?<=\.)\s+(?=[A-Z@])", body) if _POSITION.search(x)]
            if not positions:
                continue
            n["positioned"] += 1
            n["claimless_positioned"] += claimless
            x = positions[-1]
            tail = " ".join(_words(x).split()[-6:])
            n["own_words"] += tail in own
            n["repeated"] += tail in said
            said.add(tail)
            if x.startswith("Unlike"):
                n["unlike"] += 1
                cited = _words(" ".join(s["records"].get(k, "") for k in re.findall(r"@([\w:.\-+/]*\w)", x)))
                user_side = x.split(", ", 2)[-1] if ", which " in x else x.split(", ", 1)[-1]
                n["unlike_new_word"] += any(len(w) > 3 and w not in cited.split() for w in _words(user_side).split()
                                            if w not in ("our", "work", "starts", "from", "observation", "that"))
            if verbose:
                print(f"  [{s['topic']} / {s['mine']}] {x[:220]}")
    return n


def report(name: str, n: Counter) -> None:
    def share(a: str, b: str) -> str:
        return f"{n[a]}/{n[b]} ({n[a] / n[b]:.2f})" if n[b] else f"{n[a]}/0"

    print(f"{name}: {n['sections']} sections ({n['claimless_sections']} whose abstract states no claim), "
          f"{n['paragraphs']} paragraphs")
    print(f"  paragraphs placing the user's paper           : {share('positioned', 'paragraphs')}; TODO: {n['todo']}")
    print(f"  ... in sections whose abstract states no claim : {share('claimless_positioned', 'claimless_paragraphs')}")
    print(f"  position sentences ending in the user's words : {share('own_words', 'positioned')}")
    print(f"  position sentences repeating an earlier one   : {share('repeated', 'positioned')}")
    print(f"  'Unlike' with a word no cited record uses     : {share('unlike_new_word', 'unlike')}")


def main() -> None:
    verbose = "-v" in sys.argv
    baseline = next((a for a in sys.argv[1:] if not a.startswith("-")), "main")
    if not LIBRARY.is_file():
        raise SystemExit(f"{LIBRARY} is missing: these figures need the shared corpora beside the checkout.")
    sys.path.insert(0, str(REPO / "src"))
    with tempfile.TemporaryDirectory() as tmp:
        src = sources_at(baseline, Path(tmp))
        before = write(src) if src else []
    now = write(REPO / "src")
    if before:
        report(f"before ({baseline})", measure(before))
    report("now", measure(now, verbose))


if __name__ == "__main__":
    main()
