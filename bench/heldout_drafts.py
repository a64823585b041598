"""Write the related-work drafts a blind reader judges, for topics fixed before any output is read.

The Papers3 -> Zotero HCI library of ``../shared/corpora/zotero-bbt-export`` (a library the
team did not write), entries whose abstract is longer than 80 characters, that have an
author, that no earlier judged set in ``tests/data/related_work`` cites, and whose title
matches a topic rule below (case ignored); the first nine keys of each topic in key order, no
key in two topics. Two topics are also written with ``--mine``: the topic's last key stands
for the user's own paper (its record is marked ``"mine": true``).

For each draft ``hci-<topic>.md`` (Markdown, the generator comment removed so a reader cannot
tell versions apart) and ``hci-<topic>.records.json`` (the records the reader checks the
sentences against) are written to OUT. ``--src`` writes them with another checkout's
``src`` folder (a baseline), so two versions can be judged side by side.

Run: .venv/bin/python bench/heldout_drafts.py OUT [--src DIR] [--set 8]
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
LIBRARY = REPO.parent / "shared" / "corpora" / "zotero-bbt-export" / "Cache does not seem to fill #1296.bibtex"
JUDGED = REPO / "tests" / "data" / "related_work"

#: held-out sets: topic rules over titles, fixed before any output of them was read
SETS = {
    "4": {
        "topics": {
            "game": r"\b(game|games|gaming|play|playful)\b",
            "visualization": r"\b(visuali[sz]ation|visual analytics)\b",
            "speech": r"\b(speech|voice|spoken|conversation)\b",
            "learning": r"\b(learning|teach|teaching)\b",
        },
        "mine": ["game", "speech"],
    },
    #: held-out set 5: fixed on 2026-12-07 before any output of them was read; set 4 is development data from then on
    "5": {
        "topics": {
            "gesture": r"\b(gesture|gestures|gestural)\b",
            "touch": r"\b(touch|multi-touch|multitouch|touchscreen|touchscreens)\b",
            "typing": r"\b(text entry|typing|keyboard|keyboards)\b",
            "robot": r"\b(robot|robots|robotic)\b",
        },
        "mine": ["touch", "robot"],
    },
    #: held-out set 6: fixed on 2026-12-07 before any output of them was read; set 5 is development data from then on
    "6": {
        "topics": {
            "haptic": r"\b(haptic|haptics|tactile|vibrotactile)\b",
            "gaze": r"\b(gaze|eye|eyes|eye-tracking)\b",
            "pen": r"\b(pen|stylus|sketch|sketching|ink)\b",
            "mobile": r"\b(mobile|phone|phones|smartphone|smartphones)\b",
        },
        "mine": ["haptic", "mobile"],
    },
    #: held-out set 7: fixed on 2026-12-07 before any output of them was read; set 6 is development data from then on
    "7": {
        "topics": {
            "display": r"\b(display|displays|screen|screens|projector|projection)\b",
            "audio": r"\b(audio|sound|sounds|music|musical|auditory)\b",
            "wearable": r"\b(wearable|wearables|wrist|watch|smartwatch|glove|clothing|textile)\b",
            "collaboration": r"\b(collaboration|collaborative|cooperative|groupware|co-located|colocated)\b",
        },
        "mine": ["audio", "collaboration"],
    },
    #: held-out set 8: fixed on 2026-12-07 (second day) before any output of them was read; set 7 is development data from then on
    "8": {
        "topics": {
            "fabrication": r"\b(printing|printed|fabrication|manufacturing|prototyping)\b",
            "reality": r"\b(virtual reality|augmented reality|mixed reality|immersive|virtual environments?)\b",
            "sensing": r"\b(sensing|sensor|sensors|wireless|capacitive)\b",
            "motion": r"\b(motion|body|tracking|posture)\b",
        },
        "mine": ["fabrication", "sensing"],
    },
    #: held-out set 9: fixed on 2026-12-07 (third day) before any output of them was read; set 8 is development data from then on
    "9": {
        "topics": {
            "social": r"\b(social|community|communities|online)\b",
            "evaluation": r"\b(evaluation|evaluating|usability|user study|user studies)\b",
            "navigation": r"\b(navigation|map|maps|location|spatial|wayfinding)\b",
            "surface": r"\b(tabletop|tabletops|surface|surfaces)\b",
        },
        "mine": ["social", "navigation"],
    },
    #: held-out set 10: fixed on 2026-12-07 (a later session) before any output of them was read; set 9 is development data from then on
    "10": {
        "topics": {
            "hand": r"\b(hand|hands|finger|fingers|fingertip|fingertips)\b",
            "recognition": r"\b(recognition|recognizer|recognizing|classification|classifier)\b",
            "camera": r"\b(camera|cameras|video|vision|image|images)\b",
            "tangible": r"\b(tangible|physical|object|objects|material|materials)\b",
        },
        "mine": ["recognition", "tangible"],
    },
    #: held-out set 11: fixed on 2026-12-08 before any output of them was read (a first choice of topics, accessibility/health/children/privacy, had too few records and was replaced unread); set 10 is development data from then on
    "11": {
        "topics": {
            "input": r"\b(input|interaction technique|interaction techniques|pointing|cursor|selection)\b",
            "information": r"\b(information|search|browsing|web|retrieval)\b",
            "shape": r"\b(shape|shape-changing|deformable|flexible|paper)\b",
            "text": r"\b(text|reading|writing|document|documents)\b",
        },
        "mine": ["input", "shape"],
    },
}
PER_TOPIC = 9

WRITER = r"""
import json, re, sys
sys.path.insert(0, sys.argv[1])
from pathlib import Path
from citekit.bibtex.reader import read_bib_file
from citekit.core.model import Entry
from citekit.core.text import latex_to_text
from citekit.output.related_work import Mine, related_work
plan = json.loads(sys.argv[3])
raw = {e.key: e for e in read_bib_file(Path(sys.argv[2])).entries}
out = {}
for topic, keys in plan["topics"].items():
    chosen = [Entry(key=k, entry_type=raw[k].entry_type, abstract=raw[k].fields.get("abstract", ""), tags_auto=[topic],
                    fields={f: v for f, v in raw[k].fields.items() if f != "abstract"}) for k in keys]
    out[topic] = related_work(chosen, fmt="markdown", tags=[topic])
    if topic in plan["mine"]:
        own, rest = chosen[-1], chosen[:-1]
        mine = Mine(title=latex_to_text(own.fields.get("title", "")), abstract=latex_to_text(own.abstract),
                    tags=[topic], name=own.key)
        out[topic + "-mine"] = related_work(rest, fmt="markdown", tags=[topic], mine=mine)
print(json.dumps(out))
"""


def _judged_keys(set_name: str) -> set[str]:
    """Keys an earlier judged set cites. The set's own folder (``blind_hci_heldout_<set>``, once its
    judgements are stored there) and later sets do not count, so that ``--set N`` writes the
    judged drafts again from the same records."""
    own = JUDGED / f"blind_hci_heldout_{set_name}"
    later = {JUDGED / f"blind_hci_heldout_{n}" for n in SETS if n.isdigit() and int(n) > int(set_name)}
    keys: set[str] = set()
    for path in JUDGED.rglob("*.json"):
        if any(folder in path.parents for folder in later | {own}):
            continue
        data = json.loads(path.read_text(encoding="utf-8"))
        records = data if isinstance(data, list) else data.get("records", [])
        keys.update(r["key"] for r in records if isinstance(r, dict) and "key" in r)
    return keys


def plan(set_name: str) -> tuple[dict[str, list[str]], dict[str, dict]]:
    """The keys of each topic and every chosen key's record (read with this checkout's reader)."""
    sys.path.insert(0, str(REPO / "src"))
    from citekit.bibtex.reader import read_bib_file
    from citekit.core.text import latex_to_text

    rules = SETS[set_name]["topics"]
    used = _judged_keys(set_name)
    entries = sorted(read_bib_file(LIBRARY).entries, key=lambda e: e.key)
    topics: dict[str, list[str]] = {}
    records: dict[str, dict] = {}
    for topic, rule in rules.items():
        keys: list[str] = []
        for e in entries:
            title, abstract = e.fields.get("title", ""), e.fields.get("abstract", "")
            if (len(abstract) > 80 and e.fields.get("author") and e.key not in used and e.key not in records
                    and re.search(rule, title, re.I)):
                keys.append(e.key)
                records[e.key] = {"key": e.key, "title": latex_to_text(title),
                                  "author": latex_to_text(e.fields.get("author", "")),
                                  "year": e.fields.get("year", ""),
                                  "venue": latex_to_text(e.fields.get("booktitle") or e.fields.get("journal") or ""),
                                  "abstract": latex_to_text(abstract)}
                if len(keys) == PER_TOPIC:
                    break
        topics[topic] = keys
    return topics, records


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--src", type=Path, default=REPO / "src", help="the citekit src folder that writes")
    parser.add_argument("--set", default="11", choices=sorted(SETS))
    args = parser.parse_args()
    if not LIBRARY.is_file():
        raise SystemExit(f"{LIBRARY} is missing: the drafts need the shared corpora beside the checkout.")
    topics, records = plan(args.set)
    mine = SETS[args.set]["mine"]
    result = subprocess.run([sys.executable, "-c", WRITER, str(args.src.resolve()), str(LIBRARY),
                             json.dumps({"topics": topics, "mine": mine})],
                            capture_output=True, text=True, check=True)
    drafts = json.loads(result.stdout)
    args.out.mkdir(parents=True, exist_ok=True)
    for name, text in drafts.items():
        body = "\n".join(line for line in text.splitlines() if not line.startswith("<!-- citekit")).strip() + "\n"
        (args.out / f"hci-{name}.md").write_text(body, encoding="utf-8")
        topic = name.removesuffix("-mine")
        rows = [dict(records[k]) for k in topics[topic]]
        if name.endswith("-mine"):
            rows[-1]["mine"] = True
        (args.out / f"hci-{name}.records.json").write_text(json.dumps(rows, indent=1, ensure_ascii=False) + "\n",
                                                           encoding="utf-8")
    print(f"{len(drafts)} drafts in {args.out}: " + ", ".join(f"{t} {len(k)}" for t, k in topics.items()))


if __name__ == "__main__":
    main()
