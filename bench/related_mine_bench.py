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
  still placed;
- position sentences on real shared ground: the phrase the sentence says both papers deal with
  ("our work involves/addresses/deals with P", "X also deal with P") has content words the user's
  abstract and a cited record of the sentence both use (matched by their first five letters, so
  "gestural" meets "gestures"), none of them the topic's, and is used by at most half of the
  section's records (a phrase most of the section uses is the section's ground, no group's); a
  sentence that names no shared phrase ("Unlike X, which ...", "Where X ...") has none;
- the same reading with the user's title read as part of its paper (a link only the title names,
  "Speech and Gesture Understanding", is shared ground with that paper, not the abstract's);
- of those, the ones with a two-sided contrast: what the cited paper addresses has a content word
  the user's abstract never uses, and the user's side one no cited record uses;
- of those, the ones whose shared phrase a title names (the user's or a cited record's): a stricter
  reading of "content phrase" that leaves out words said in passing ("sessions", "literature");
  it is the same idea as the writer's own rule for one-word grounds, so it is no independent check;
- position sentences with a second link ("Like A, our work deals with P, and like B, with Q, but ..."),
  and whether that second phrase is real shared ground by the same reading (the user's abstract and B's
  record use it, no topic word, at most half of the section);
- TODOs told apart: honest (the section's abstract states no claim, or no content word of the
  user's abstract is used by a record of the paragraph and by at most half of the section) and
  missed (such a word exists: a reader could have named a link).

The shared-ground and TODO measures use their own crude matching on purpose (five-letter
prefixes, the checkout's word lists), not the code under test.

A sentence that says only the link ("Like X, our work deals with P.", written where no difference is
true of both records) is no position: it is counted apart, with whether its P is real shared ground.

Run: .venv/bin/python bench/related_mine_bench.py [BASELINE=main] [-v [--both]]   (needs ../shared/corpora)
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
from draft_todos import inline_todos  # noqa: E402

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
        out.append({"topic": topic, "mine": own.key, "abstract": mine.abstract, "title": mine.title,
                    "titles": {e.key: latex_to_text(e.fields.get("title") or "") for e in rest},
                    "text": related_work(rest, fmt="markdown", tags=[topic], mine=mine),
                    "records": {e.key: latex_to_text((e.fields.get("title") or "") + " " + e.abstract) for e in rest}})
print(json.dumps(out))
"""

_POSITION = re.compile(r"^(?:Like|Unlike|Where)\b.*\b(?:our|we)\b|;\s*in contrast,\s*(?:our|we)\b", re.S)
#: a sentence that says the link alone, with no difference ("Like X, our work deals with P."): no position, but
#: true where P is real shared ground (read by the same measure), and the paragraph keeps its TODO for the contrast
_LINK_ONLY = re.compile(r"^Like\b[^;]*?,\s*our work (?:involves|addresses|deals with|concerns)\s+([^,;]+)\.$")


def write(src: Path) -> list[dict]:
    result = subprocess.run([sys.executable, "-c", WRITER, str(src), str(LIBRARY), json.dumps(TOPICS), str(PER_TOPIC)],
                            capture_output=True, text=True, check=True)
    return json.loads(result.stdout)


def _words(text: str) -> str:
    return " ".join(re.sub(r"[^\w\s\-]", " ", text.lower()).split())


#: the phrase a position sentence says the user's paper shares with the cited ones
_GROUND = re.compile(r"\b(?:our work (?:involves|addresses|deals with|concerns)|also (?:deals?|address(?:es)?|stud(?:y|ies)) "
                     r"(?:with )?)\s*(.+?)(?:,|;|\s+but\b)")
#: what the cited paper does, as the sentence says it
_THEIRS = re.compile(r"\b(?:address|addresses|focus on|focuses on)\s+(.+?)(?:,|;|\s+and\s+@|$)")


def _roots(text: str, skip: frozenset) -> set[str]:
    return {w[:5] for w in re.findall(r"[a-z][a-z\-]+", text.lower()) for w in w.split("-")
            if len(w) > 3 and w not in skip}


def _skip_words() -> frozenset:
    from citekit.output.related_topics import FUNCTION_WORDS, GENERIC, WEAK_ALONE

    return frozenset(FUNCTION_WORDS | GENERIC | WEAK_ALONE | {"work", "deals", "deal", "involves", "addresses"})


def measure(sections: list[dict], verbose: bool = False) -> Counter:
    from citekit.output.sentences import contribution

    skip = _skip_words()
    n: Counter = Counter()
    for s in sections:
        n["sections"] += 1
        own = _words(s["abstract"])
        own_roots = _roots(s["abstract"], skip)
        claimless = contribution(s["abstract"]) is None
        n["claimless_sections"] += claimless
        said: set[str] = set()
        rule = re.compile(TOPICS[s["topic"]], re.I)
        docs = {k: _roots(t, skip) for k, t in s["records"].items()}
        # the topic's words as the records write them ("gestural", "gestures" under "gestur"), by prefix
        on_topic = {w[:5] for t in s["records"].values() for w in re.findall(r"[a-z][a-z\-]+", t.lower())
                    if rule.search(w)}
        for block in re.split(r"^### ", inline_todos(s["text"]), flags=re.M)[1:]:
            n["paragraphs"] += 1
            n["claimless_paragraphs"] += claimless
            body = " ".join(l for l in block.splitlines()[1:] if l and not l.startswith("<!--"))
            cited = set(re.findall(r"@([\w:.\-+/]*\w)", body))
            if "TODO(citekit)" in block:
                n["todo"] += 1
                shared = {w for k in cited for w in docs.get(k, set()) & own_roots if w not in on_topic
                          and sum(w in d for d in docs.values()) <= len(docs) / 2}
                n["todo_missed" if shared and not claimless else "todo_honest"] += 1
            sentences = re.split(r"(?<=\.)\s+(?=[A-Z@])", body)
            for x in sentences:
                link = _LINK_ONLY.match(x)
                if not link:
                    continue
                n["link_only"] += 1
                keys = set(re.findall(r"@([\w:.\-+/]*\w)", x))
                words = _roots(link.group(1), skip)
                n["link_only_real"] += bool(words) and all(
                    w in own_roots and any(w in docs.get(k, set()) for k in keys) and w not in on_topic for w in words) \
                    and sum(all(w in d for w in words) for d in docs.values()) <= len(docs) / 2
                if verbose:
                    print(f"  [{s['topic']} / {s['mine']}] link only: {x[:240]}")
            positions = [x for x in sentences if _POSITION.search(x) and not _LINK_ONLY.match(x)]
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
            ground = _GROUND.search(x)
            keys = set(re.findall(r"@([\w:.\-+/]*\w)", x))
            words = _roots(ground.group(1), skip) if ground else set()
            real = bool(words) and all(w in own_roots and any(w in docs.get(k, set()) for k in keys)
                                       and w not in on_topic for w in words) \
                and sum(all(w in d for w in words) for d in docs.values()) <= len(docs) / 2
            n["real_ground"] += real
            # the same reading with the user's title counted as part of its paper (a link only the title names)
            paper_roots = own_roots | _roots(s["title"], skip)
            n["real_with_title"] += bool(words) and all(
                w in paper_roots and any(w in docs.get(k, set()) for k in keys) and w not in on_topic for w in words) \
                and sum(all(w in d for w in words) for d in docs.values()) <= len(docs) / 2
            titled = _roots(" ".join([s["title"], *(s["titles"].get(k, "") for k in keys)]), skip)
            n["real_titled"] += real and all(w in titled for w in words)
            theirs = _THEIRS.search(x)
            user_side = re.split(r",\s+(?=(?:we|our|in our)\b)|;\s*in contrast,\s*", x)[-1]
            two_sided = bool(theirs) and bool(_roots(theirs.group(1), skip) - own_roots) and bool(
                _roots(user_side, skip) - set().union(*(docs.get(k, set()) for k in keys)))
            n["real_and_contrast"] += real and two_sided
            second = re.search(r", and like @([\w:.\-+/]*\w), with ([^,;]+),", x)
            if second:  # a second link, to another paper: its phrase read by the same measure as the first
                n["two_links"] += 1
                words2 = _roots(second.group(2), skip)
                n["two_links_real"] += bool(words2) and all(
                    w in own_roots and w in docs.get(second.group(1), set()) and w not in on_topic for w in words2) \
                    and sum(all(w in d for w in words2) for d in docs.values()) <= len(docs) / 2
            if verbose:
                print(f"  [{s['topic']} / {s['mine']}] {'REAL ' if real else 'weak '}"
                      f"{'2-sided ' if two_sided else ''}{x[:240]}")
    return n


def report(name: str, n: Counter) -> None:
    def share(a: str, b: str) -> str:
        return f"{n[a]}/{n[b]} ({n[a] / n[b]:.2f})" if n[b] else f"{n[a]}/0"

    print(f"{name}: {n['sections']} sections ({n['claimless_sections']} whose abstract states no claim), "
          f"{n['paragraphs']} paragraphs")
    print(f"  paragraphs placing the user's paper           : {share('positioned', 'paragraphs')}; TODO: {n['todo']} "
          f"(honest {n['todo_honest']}, missed {n['todo_missed']})")
    print(f"  ... on real shared ground                     : {share('real_ground', 'positioned')}")
    print(f"  ... on real shared ground with the user's title: {share('real_with_title', 'positioned')}")
    print(f"  ... on real shared ground, two-sided contrast : {share('real_and_contrast', 'positioned')}")
    print(f"  ... on real shared ground a title names       : {share('real_titled', 'positioned')}")
    print(f"  ... with a second link to another paper       : {share('two_links', 'positioned')}; "
          f"its ground real: {share('two_links_real', 'two_links')}")
    print(f"  ... in sections whose abstract states no claim : {share('claimless_positioned', 'claimless_paragraphs')}")
    print(f"  position sentences ending in the user's words : {share('own_words', 'positioned')}")
    print(f"  position sentences repeating an earlier one   : {share('repeated', 'positioned')}")
    print(f"  'Unlike' with a word no cited record uses     : {share('unlike_new_word', 'unlike')}")
    print(f"  links said without a contrast (paragraph keeps its TODO): {n['link_only']}; "
          f"on real shared ground: {share('link_only_real', 'link_only')}")


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
        report(f"before ({baseline})", measure(before, verbose and "--both" in sys.argv))
    report("now", measure(now, verbose))


if __name__ == "__main__":
    main()
