"""Paragraphs with a point, measured on a library the team did not write, against the former code.

Library: Michael Ernst's group's bibliography (``../shared/corpora/plume-bib``, software
engineering), each entry tagged by the file it is filed in (``testing.bib`` -> ``testing``:
the library's own topics). Only entries with an English abstract count; every file with at
least MIN of them is one section. The paragraphs were never read while the grouping, the
names and the topic sentences were developed (that was done on HCI tags, see
``tests/data/related_work``).

For each section the snippet is written by this checkout and by a former revision (``git
archive`` of BASELINE, run in a subprocess from a temporary copy), and both are read by the
same measures:

- paragraphs citing two or more papers that open with a topic sentence (a first sentence
  that is about the group, not one paper), and whether each topic phrase is used by at least
  two of the paragraph's records (drawn from the records, not filler);
- headings that name nothing (a repeated word, a record's structure) or repeat another, and headings a
  reader strikes as stray (:func:`.related_headings.stray_word`: a verb form, a discourse word, the
  section's topic word or a form of it, a single word none of the paragraph's titles uses);
- the share of papers in "Other related work", and whether it is last;
- ``--mine``: one paper of the section (the last with an abstract, by key) plays the user's
  paper; paragraphs that position it (a sentence from its abstract) versus a TODO, and
  whether every contrast phrase is the user's own words.

Run: .venv/bin/python bench/related_paragraphs_bench.py [BASELINE=ab1ac81] [-v]  (needs ../shared/corpora)
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from draft_todos import inline_todos

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
LIBRARY = REPO.parent / "shared" / "corpora" / "plume-bib"
MIN, MAX = 6, 40
BASELINE = "ab1ac81"

WRITER = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
from citekit.bibtex.reader import read_bib_file
from citekit.output.related_work import related_work, Mine
from citekit.output.sentences import is_english
from citekit.core.text import latex_to_text
from pathlib import Path
out = {}
for path in sorted(Path(sys.argv[2]).glob("*.bib")):
    tag = path.stem
    seen, entries = set(), []
    for e in read_bib_file(path).entries:
        abstract = latex_to_text(e.fields.get("abstract", ""))
        if e.key in seen or len(abstract.split()) < 40 or not is_english(abstract):
            continue
        seen.add(e.key)
        e.tags_auto = [tag]
        entries.append(e)
    if len(entries) < int(sys.argv[3]):
        continue
    entries = sorted(entries, key=lambda e: e.key)[: int(sys.argv[4]) + 1]
    mine_entry = entries[-1]
    rest = entries[:-1]
    mine = Mine(title=latex_to_text(mine_entry.fields.get("title", "")),
                abstract=latex_to_text(mine_entry.fields.get("abstract", "")), tags=[tag], name=mine_entry.key)
    out[tag] = {"plain": related_work(rest, fmt="markdown", tags=[tag]),
                "mine": related_work(rest, fmt="markdown", tags=[tag], mine=mine),
                "abstract": mine.abstract,
                "records": {e.key: latex_to_text(e.fields.get("title", "") + " " + e.fields.get("abstract", ""))
                            for e in rest},
                "titles": {e.key: latex_to_text(e.fields.get("title", "")) for e in rest},
                "abstracts": {e.key: latex_to_text(e.fields.get("abstract", "")) for e in rest}}
print(json.dumps(out))
"""


def write(src: Path) -> dict:
    result = subprocess.run([sys.executable, "-c", WRITER, str(src), str(LIBRARY), str(MIN), str(MAX)],
                            capture_output=True, text=True, check=True)
    return json.loads(result.stdout)


def paragraphs(text: str) -> list[tuple[str, str]]:
    parts = re.split(r"^### (.*)$", text, flags=re.M)[1:]
    return [(parts[i].strip(), " ".join(l for l in parts[i + 1].strip().splitlines() if l.strip()))
            for i in range(0, len(parts), 2)]


def measure(sections: dict, verbose: bool) -> dict[str, float]:
    sys.path.insert(0, str(REPO / "src"))
    from citekit.output.related_check import _opens_with_topic, paragraph_defects

    from citekit.output.related_headings import stray_word

    n = {k: 0 for k in ("sections", "paragraphs", "multi", "topic", "topic_supported", "hollow", "duplicate", "stray",
                        "papers", "other", "closing_not_last", "mine_paragraphs", "positioned", "todo",
                        "contrast_own_words", "contrasts", "positions", "repeated", "tail_own", "unlike",
                        "unlike_new_word")}
    for tag, s in sections.items():
        n["sections"] += 1
        text, records = s["plain"], s["records"]
        paras = paragraphs(text)
        for d in paragraph_defects(text, "markdown"):
            if d.category == "hollow-heading" and "last" not in d.message:
                n["hollow"] += 1
            if d.category == "duplicate-heading":
                n["duplicate"] += 1
        for i, (heading, body) in enumerate(paras):
            keys = re.findall(r"@([\w:.\-+/]*\w)", body)
            n["paragraphs"] += 1
            n["papers"] += len(keys)
            if heading != "Other related work" and len(paras) > 1 and stray_word(
                    heading, [s["titles"][k] for k in dict.fromkeys(keys)], [s["abstracts"][k] for k in dict.fromkeys(keys)],
                    [tag]):
                n["stray"] += 1  # a verb form, a discourse word, the section's topic, or a word no title of it uses
                if verbose:
                    print(f"  [{tag}] stray heading: {heading}")
            if heading == "Other related work":
                n["other"] += len(keys)
                n["closing_not_last"] += i != len(paras) - 1
                continue
            if len(set(keys)) < 2:
                continue
            n["multi"] += 1
            if _opens_with_topic(body, "markdown"):
                n["topic"] += 1
                first = re.split(r"(?<=\.)\s+(?=@|[A-Z])", body)[0]
                # (the shared phrase, before the colon that lists what each paper brings)
                m = re.search(r"(?:address|examine) (.+?)(?::.*)?\.$", first)
                phrases = m.group(1).split(" and ") if m else []
                ok = bool(phrases) and all(sum(_uses(records[k], p) for k in set(keys)) >= 2 for p in phrases)
                n["topic_supported"] += ok
                if verbose:
                    print(f"  [{tag}] {heading}: {first}" + ("" if ok else "   <- NOT SUPPORTED"))
            elif verbose:
                print(f"  [{tag}] {heading}: (no topic sentence)")
        own = s["abstract"].lower()
        said_before: set[str] = set()
        for heading, body in paragraphs(inline_todos(s["mine"])):
            n["mine_paragraphs"] += 1
            if "TODO(citekit)" in body:
                n["todo"] += 1
            # a sentence that places the paper against the group: a contrast ("Unlike", "Like ... but none of
            # them") about "our work" or "we" (the former "Closest to our work is research on X" is no contrast)
            # (read as the check reads it: a positioning sentence with no "no-contrast" or "hollow-topic" defect;
            # the former bench counted any "Like ... our work" sentence, which the blind readers marked as no contrast)
            from citekit.output.related_check import _POSITION, check_snippet

            sentences = [x for x in re.split(r"(?<=\.)\s+", body) if _POSITION.search(x) and "TODO" not in x]
            flagged = {d.excerpt.removesuffix("...")[:60] for d in check_snippet(" ".join(sentences), "markdown")
                       if d.category in ("no-contrast", "hollow-topic")}
            if any(not any(f in x for f in flagged) for x in sentences):
                n["positioned"] += 1
            for x in sentences:
                # the user's side, read the same way for every shape: the sentence ends in words of the user's
                # abstract; a repeat is the same ending as an earlier paragraph's position in the section; an
                # "Unlike" sentence names at least one word none of the cited records uses
                n["positions"] += 1
                tail = " ".join(re.sub(r"[^\w\s\-]", " ", x.lower()).split()[-6:])
                n["tail_own"] += tail in " ".join(re.sub(r"[^\w\s\-]", " ", own).split())
                n["repeated"] += tail in said_before
                said_before.add(tail)
                if x.startswith("Unlike"):
                    n["unlike"] += 1
                    cited = " ".join(records.get(k, "") for k in re.findall(r"@([\w:.\-+/]*\w)", x)).lower()
                    clause = x.split(",", 1)[-1] if "which" not in x.split(",")[0] else x
                    n["unlike_new_word"] += any(len(w) > 3 and w not in cited for w in re.findall(r"[a-z][a-z\-]+",
                                                                                             clause.lower().split(", ", 2)[-1]))
                # the user's side of the contrast: "our <method> <does ...>" or "we <verb> <claim>", in its own words
                # (the last "our X does ..." or "we do ...": "Like ..., our work addresses Y, but our X does ...")
                found = list(re.finditer(r"(?:,|;\s*in contrast,)\s+(?:but\s+)?(?:our [\w\-]+(?: [\w\-]+)*? "
                                         r"(?=(?:[a-z]+s|is)\b)|we [a-z]+ )", x))
                if found:
                    n["contrasts"] += 1
                    said = re.sub(r"^(?:[a-z]+s|is)\s+", "", x[found[-1].end():].rstrip(". ")).lower()
                    n["contrast_own_words"] += said[:50] in " ".join(own.split())
    return n


def _uses(record: str, phrase: str) -> bool:
    """Whether a record uses a phrase, compared as the topic sentences are made (stems: "models" is "model")."""
    from citekit.output.related_topics import phrases

    want = max(phrases(phrase), key=len, default=())
    return bool(want) and want in phrases(record)


def report(name: str, n: dict) -> None:
    def share(a: str, b: str) -> str:
        return f"{n[a]}/{n[b]} ({n[a] / n[b]:.2f})" if n[b] else f"{n[a]}/0"

    print(f"{name}: {n['sections']} sections, {n['paragraphs']} paragraphs, {n['papers']} papers cited")
    print(f"  paragraphs of 2+ papers with a topic sentence : {share('topic', 'multi')}")
    print(f"  topic phrases used by 2+ of their records     : {share('topic_supported', 'topic')}")
    print(f"  hollow headings / duplicate headings          : {n['hollow']} / {n['duplicate']}")
    print(f"  stray or topic-word headings                  : {n['stray']} (a verb form, a discourse word, the "
          "section's topic, a single word no title of the paragraph uses)")
    print(f"  papers in 'Other related work'                : {share('other', 'papers')}; not last: "
          f"{n['closing_not_last']}")
    print(f"  --mine paragraphs positioning the paper       : {share('positioned', 'mine_paragraphs')}; TODO left: "
          f"{n['todo']}")
    print(f"  contrasts in the user's own words             : {share('contrast_own_words', 'contrasts')}")
    print(f"  position sentences ending in the user's words : {share('tail_own', 'positions')}")
    print(f"  position sentences repeating an earlier one   : {share('repeated', 'positions')}")
    print(f"  'Unlike' sentences naming a word no cited record uses: {share('unlike_new_word', 'unlike')}")


def main() -> None:
    verbose = "-v" in sys.argv
    baseline = next((a for a in sys.argv[1:] if not a.startswith("-")), BASELINE)
    if not LIBRARY.exists():
        raise SystemExit(f"{LIBRARY} is missing: these figures need the shared corpora beside the checkout.")
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "-C", str(REPO), "archive", baseline, "src"], capture_output=True,
                                 check=True).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        before = write(Path(tmp) / "src")
    now = write(REPO / "src")
    report(f"former ({baseline})", measure(before, False))
    report("now", measure(now, verbose))


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    main()
