"""How close ``citekit import FILE.json`` comes to what Better BibTeX itself exports.

Run from the repository root::

    .venv/bin/python bench/zotero_bbt_bench.py            # every fixture, dev and held-out
    .venv/bin/python bench/zotero_bbt_bench.py --misses   # and each field that differs

The shared corpus ``zotero-bbt-export/`` holds, for each of Better BibTeX's export tests,
the Zotero library as BBT JSON and the ``.bibtex`` BBT writes from it. Each JSON is mapped
to entries the way ``import`` maps it (:mod:`citekit.library.zotero_import`) and compared
with BBT's output: the same key for every item, and the same title, authors, year, DOI
and journal/booktitle after normalisation (LaTeX, braces, case and punctuation folded;
authors as their folded family names). Target: keys all equal, fields >= 95 %.

Printed: the figures of the development fixtures and of the held-out fixtures (a quarter,
chosen by a hash of the file name, not looked at while the mapping was written), and as
the baseline in the same run the figures of the keys the items carry themselves (no BBT
export to take keys from).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

from citekit.bibtex.reader import read_bib_file  # noqa: E402
from citekit.core.names import parse_name, split_bibtex_names  # noqa: E402
from citekit.core.text import latex_to_text, normalize_title  # noqa: E402
from citekit.library.zotero_import import keys_from_export, read_json_export, records_of  # noqa: E402
from citekit.library.zotero_items import comparable_title  # noqa: E402

CORPUS = Path(os.environ.get("CITEKIT_SHARED", REPO.parent / "shared")) / "corpora" / "zotero-bbt-export"
#: the fields compared (journal and booktitle count as one: the item's container)
COMPARED = ("title", "author", "year", "doi", "container")


def held_out(path: Path) -> bool:
    """A quarter of the fixtures, by a hash of the name: kept out of sight during development."""
    return hashlib.sha1(path.name.encode("utf-8")).hexdigest()[0] in "0123"


def pairs(corpus: Path = CORPUS) -> list[tuple[Path, Path]]:
    """Every JSON fixture with BBT's ``.bibtex`` for it (the plain one, else its first variant)."""
    out = []
    for js in sorted(corpus.glob("*.json")):
        base = js.name[:-len(".json")]
        plain = corpus / f"{base}.bibtex"
        variants = sorted(p for p in corpus.glob("*.bibtex") if p.name.startswith(base + "."))
        bib = plain if plain.exists() else (variants[0] if variants else None)
        if bib is not None:
            out.append((js, bib))
    return out


def _norm(name: str, value: str) -> str:
    if not value:
        return ""
    if name in ("title", "container"):
        return comparable_title(value)
    if name == "author":
        return " | ".join(comparable_title(_family(n)) for n in split_bibtex_names(value))
    if name == "doi":
        return value.strip().lower().replace("\\_", "_")
    return latex_to_text(value).strip()


def _family(name: str) -> str:
    """A name's family part with its particles (``vom und zum Stein``), however it was braced."""
    person = parse_name(latex_to_text(name), family_first=None)
    return " ".join(p for p in (person.von, person.family) if p) or name


def _values(fields: dict[str, str]) -> dict[str, str]:
    out = {n: _norm(n, fields.get(n, "")) for n in ("title", "author", "year", "doi")}
    if not out["author"] and fields.get("editor"):
        out["author"] = _norm("author", fields["editor"])
    out["container"] = _norm("container", fields.get("journal") or fields.get("booktitle") or "")
    return out


@dataclass
class Score:
    items: int = 0
    keys_same: int = 0
    fields: int = 0
    fields_same: int = 0
    misses: list[str] = field(default_factory=list)
    by_field: Counter[str] = field(default_factory=Counter)

    def add(self, other: "Score") -> None:
        self.items += other.items
        self.keys_same += other.keys_same
        self.fields += other.fields
        self.fields_same += other.fields_same
        self.misses += other.misses
        self.by_field.update(other.by_field)

    def line(self, label: str) -> str:
        keys = 100 * self.keys_same / max(self.items, 1)
        fields = 100 * self.fields_same / max(self.fields, 1)
        return (f"{label:<34} items {self.items:4d}  same key {self.keys_same:4d} ({keys:5.1f} %)  "
                f"fields same {self.fields_same:4d}/{self.fields:4d} ({fields:5.1f} %)")


def score_fixture(js: Path, bib: Path, *, keys_from_bbt: bool = True) -> Score:
    """One fixture: its items mapped as ``import`` maps them, against BBT's export."""
    records, _skipped = records_of(read_json_export(js))
    if keys_from_bbt:
        keys_from_export(records, bib)
    parsed = read_bib_file(bib)
    expected: dict[str, list] = {}
    for e in parsed.entries:
        expected.setdefault(e.key, []).append(e)
    # BBT writes one key twice when two items pin it; the reader keeps the first of them
    repeated = Counter(key for key, _line in parsed.duplicates)
    score = Score(items=len(records))
    for record in records:
        want = expected[record.entry.key].pop(0) if expected.get(record.entry.key) else None
        if want is None and repeated[record.entry.key]:
            repeated[record.entry.key] -= 1
            score.keys_same += 1
            continue
        if want is None:
            score.misses.append(f"{js.name}: key {record.entry.key or '(none)'!r} ({record.key_source or 'no key'}) "
                                f"not in BBT's export")
            continue
        score.keys_same += 1
        ours, theirs = _values(record.entry.fields), _values(want.fields)
        for name in COMPARED:
            if not ours[name] and not theirs[name]:
                continue
            score.fields += 1
            if ours[name] == theirs[name]:
                score.fields_same += 1
            else:
                score.by_field[name] += 1
                score.misses.append(f"{js.name}: {record.entry.key} {name}: ours {ours[name]!r} BBT {theirs[name]!r}")
    return score


def run(corpus: Path = CORPUS, *, keys_from_bbt: bool = True) -> dict[str, Score]:
    """Scores of the development and the held-out fixtures."""
    scores = {"dev": Score(), "held-out": Score()}
    for js, bib in pairs(corpus):
        scores["held-out" if held_out(js) else "dev"].add(score_fixture(js, bib, keys_from_bbt=keys_from_bbt))
    return scores


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--misses", action="store_true", help="print every key and field that differs")
    parser.add_argument("--held-out", action="store_true", help="with --misses: the held-out fixtures' misses too")
    args = parser.parse_args()
    if not CORPUS.is_dir():
        print(f"no corpus at {CORPUS}; set CITEKIT_SHARED to the folder holding corpora/", file=sys.stderr)
        return 2
    print(f"{len(pairs())} BBT JSON fixtures with BBT's .bibtex")
    baseline = run(keys_from_bbt=False)
    scores = run()
    for part in ("dev", "held-out"):
        print(baseline[part].line(f"{part}: keys the items carry"))
        print(scores[part].line(f"{part}: + keys of BBT's export"))
        print(f"{'':<34} fields that differ: {dict(scores[part].by_field)}")
    if args.misses:
        for part in ("dev", "held-out") if args.held_out else ("dev",):
            for miss in scores[part].misses:
                print(f"  {part}: {miss}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
