"""How much of each paper's related-work sentence is the abstract's own words, and whether it reads.

A careful co-author rewrites a sentence copied whole from an abstract ("a plagiarism
checker would flag it"): they keep the method's name, what it is and the main finding, in
their own frame. This bench runs :func:`citekit.output.related_work.describe` (Markdown)
over real abstracts nobody on the team wrote (``../shared/corpora``: the Papers3 -> Zotero
HCI library, Michael Ernst's group's bibliography, a JabRef physics library, a Mendeley
export), for another commit's ``src/`` (the "before", default ``main``) and this
checkout's, in the same run, and prints per set:

- longest run of words copied from the abstract (median, 90th percentile, share <= 10);
- sentence length in words (median);
- share whose verb says a method or a finding ("propose", "built", "show that", ...);
- share grammatical by simple checks: ends with a period, no dangling conjunction,
  preposition or article before it, balanced brackets and quotes, no word glued to a
  comma, no broken "de- vice" split;
- share still holding an acronym the sentence does not define
  (:func:`citekit.output.standalone.undefined_acronyms`, the same reading for both);
- share made from the title although the record has an abstract.

Entries: an English abstract of 40+ words; the held-out quarter (first byte of sha1(key)
< 64, never tuned on) is reported apart from the rest. ``--show N`` prints N random
sentences of the held-out set beside their abstracts, for a reader to judge.

Run: .venv/bin/python bench/sentences_words_bench.py [--before REF] [--show N]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from baseline_src import sources_at
from sentences_data import HCI, MORE, REPO, held_out

WRITER = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
from citekit.bibtex.reader import read_bib_file
from citekit.core.text import latex_to_text
from citekit.output.related_work import _Style, describe, abstract_of
from citekit.output.sentences import is_english
style = _Style("markdown", "natbib", False)
out, seen = [], set()
for path in sys.argv[2:]:
    for e in read_bib_file(path).entries:
        abstract = (e.fields.get("abstract") or "").strip()
        plain = latex_to_text(abstract)
        if e.key in seen or len(plain.split()) < 40 or not is_english(plain) or not e.title:
            continue
        seen.add(e.key)
        e.summary = None
        out.append({"key": e.key, "title": latex_to_text(e.title), "abstract": plain, "sentence": describe(e, style)})
print(json.dumps(out))
"""

#: verbs that say what the paper made or found (base, third person and past forms)
_CLAIM_VERBS = re.compile(
    r"^(?:propose|introduce|present|describe|develop|design|build|built|create|devise|formulate|implement|"
    r"show|find|found|prove|demonstrate|establish|derive|report|reveal|identify|compare|evaluate|measure|"
    r"extend|adapt|combine|apply|augment|improve|enable|model|predict|contribute|offer|provide|"
    r"investigate|examine|study|analy[sz]e|explore|survey|review)(?:s|es|d|ed|ies)?$", re.I)
_DANGLING = {"and", "or", "but", "of", "for", "to", "with", "the", "a", "an", "in", "on", "by", "that", "which",
             "from", "as", "at", "via", "its", "their", "while", "whereas", "than", "against", "about", "between",
             "into", "onto", "upon", "within", "without", "through", "across", "over", "under", "toward", "towards",
             "per", "like", "including", "is", "are", "was", "were", "be", "not", "who", "whose", "when", "where"}
_CITE = re.compile(r"@[\w:.\-+/]+|\[@[^\]]*\]")


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+(?:['\u2019][a-z]+)?", text.lower())


def copied_run(sentence: str, abstract: str) -> int:
    """The longest run of consecutive words of ``sentence`` that the abstract also has in that order."""
    a, b = _words(_CITE.sub(" ", sentence)), _words(abstract)
    best, prev = 0, [0] * (len(b) + 1)
    for x in a:
        cur = [0] * (len(b) + 1)
        for j, y in enumerate(b, 1):
            if x == y:
                cur[j] = prev[j - 1] + 1
                best = max(best, cur[j])
        prev = cur
    return best


def grammatical(sentence: str) -> bool:
    """Simple checks a reader's eye makes: an ending, nothing dangling, brackets that close, spacing."""
    s = sentence.strip()
    if not s.endswith((".", "?", "!")):
        return False
    words = re.findall(r"[A-Za-z]+", s)
    if not words or words[-1].lower() in _DANGLING:
        return False
    if s.count("(") != s.count(")") or s.count("[") != s.count("]") or s.count('"') % 2:
        return False
    if re.search(r"[a-z],[A-Za-z]|[a-z]\.[A-Z][a-z]|\b\w+- [a-z]+\b(?<!and)|\s[,.;:]|,\s*[.;]|\b(\w+) \1\b", s):
        return False
    return True


def claim_verb(sentence: str) -> bool:
    """Whether the verb after the citation (or after "Building on X,") says a method or a finding."""
    s = re.sub(r"^Building on [^,]+,\s*", "", sentence.strip())
    m = re.match(r"^(?:@[\w:.\-+/]+|\S+(?: et al\.)?)\s+(?:has\s+|have\s+)?(\w+)", s)
    return bool(m and _CLAIM_VERBS.match(m.group(1)))


def write(src: Path) -> list[dict]:
    files = [str(HCI), *(str(p) for p in MORE)]
    done = subprocess.run([sys.executable, "-c", WRITER, str(src), *files], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def measure(rows: list[dict]) -> dict[str, float]:
    from citekit.output.standalone import undefined_acronyms

    runs = sorted(copied_run(r["sentence"], r["abstract"]) for r in rows)
    lengths = [len(_CITE.sub(" ", r["sentence"]).split()) for r in rows]
    n = len(rows)
    return {
        "n": n,
        "copied run, median": statistics.median(runs),
        "copied run, 90th pct": runs[int(0.9 * (n - 1))],
        "copied run <= 10": sum(r <= 10 for r in runs) / n,
        "words, median": statistics.median(lengths),
        "method/finding verb": sum(claim_verb(r["sentence"]) for r in rows) / n,
        "grammatical (simple checks)": sum(grammatical(r["sentence"]) for r in rows) / n,
        "undefined acronym": sum(bool(undefined_acronyms(_CITE.sub(" ", r["sentence"]))) for r in rows) / n,
        "from the title": sum(copied_run(r["sentence"], r["abstract"]) < 3 and copied_run(r["sentence"], r["title"]) >= 3
                              for r in rows) / n,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--before", default="main")
    parser.add_argument("--show", type=int, default=0)
    parser.add_argument("--seed", type=int, default=25)
    args = parser.parse_args()
    sys.path.insert(0, str(REPO / "src"))
    with tempfile.TemporaryDirectory() as tmp:
        before_src = sources_at(args.before, Path(tmp))
        before = write(before_src) if before_src else []
        after = write(REPO / "src")
    print(f"before = {args.before}, after = this checkout")
    for label, keep in (("held out (never tuned on)", True), ("development", False)):
        b = measure([r for r in before if held_out(r["key"]) == keep]) if before else {}
        a = measure([r for r in after if held_out(r["key"]) == keep])
        print(f"\n{label}: {a['n']} abstracts")
        print(f"  {'':30} {'before':>8} {'after':>8}")
        for name, value in a.items():
            if name != "n":
                print(f"  {name:30} {b.get(name, float('nan')):8.2f} {value:8.2f}")
    if args.show:
        shown = [r for r in after if held_out(r["key"])]
        old = {r["key"]: r["sentence"] for r in before}
        for r in random.Random(args.seed).sample(shown, min(args.show, len(shown))):
            print(f"\n## {r['key']} (copied run {copied_run(r['sentence'], r['abstract'])})\n"
                  f"TITLE: {r['title']}\nABSTRACT: {r['abstract']}\nBEFORE: {old.get(r['key'])}\nAFTER:  {r['sentence']}")


if __name__ == "__main__":
    main()
