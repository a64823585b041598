"""Tag rules, selection and counts, checked on the bundled trip report and on toy entries."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from citekit.library.tags import (
    TagRuleError,
    apply_manual,
    compile_item,
    compute_auto_tags,
    load_rules,
    normalize_tag,
    select,
    tag_counts,
)
from citekit.core.model import Entry
from citekit.core.text import normalize_title

REPO = Path(__file__).resolve().parents[1]
TRIP_REPORT = REPO / "notes" / "notes-icml2026-trip-report.txt"
_BULLET = re.compile(r"^(\s*)•\s*(.*)$")


@dataclass
class NotePaper:
    title: str
    summaries: list[str] = field(default_factory=list)
    sections: list[str] = field(default_factory=list)


def read_trip_report(path: Path = TRIP_REPORT) -> dict[str, NotePaper]:
    """Normalized title -> paper for each bullet whose own sub-bullets hold a summary.

    A deliberately small reader (title bullet, its ``まとめ:`` or first sentence-like
    sub-bullet, nearest heading), so the rules are checked against the real notes text
    independently of the notes extractor.
    """
    bullets: list[tuple[int, str, str]] = []
    heading = ""
    for line in path.read_text(encoding="utf-8").splitlines():
        m = _BULLET.match(line)
        if m:
            bullets.append((len(m.group(1)), m.group(2).strip(), heading))
        elif line.strip() and line.strip() != "---" and len(line.strip()) < 40:
            heading = line.strip()
    papers: dict[str, NotePaper] = {}
    for i, (indent, text, head) in enumerate(bullets):
        children: list[tuple[int, str]] = []
        for ind2, text2, _ in bullets[i + 1:]:
            if ind2 <= indent:
                break
            children.append((ind2, text2))
        if not children:
            continue
        child_indent = min(ind for ind, _ in children)
        direct = [t for ind, t in children if ind == child_indent]
        labelled = [c.split(":", 1)[1].strip() for c in direct if c.startswith("まとめ:")]
        plain = [c for c in direct if c.endswith("。")]
        summary = (labelled or plain or [None])[0]
        if not summary or text.startswith("http"):
            continue
        paper = papers.setdefault(normalize_title(text), NotePaper(title=text))
        paper.summaries.append(summary)
        if head not in paper.sections:
            paper.sections.append(head)
    return papers


@pytest.fixture(scope="module")
def notes_papers() -> dict[str, NotePaper]:
    if not TRIP_REPORT.exists():
        pytest.skip(f"{TRIP_REPORT} is not in this checkout")
    return read_trip_report()


@pytest.fixture(scope="module")
def notes_tags(notes_papers: dict[str, NotePaper]) -> dict[str, list[str]]:
    """Title -> automatic tags with the default rules, each paper built as a notes-only entry."""
    rules = load_rules({})
    out = {}
    for paper in notes_papers.values():
        entry = Entry(key="k", entry_type="inproceedings", fields={"title": paper.title})
        out[paper.title] = compute_auto_tags(entry, paper.summaries, [], paper.sections, rules)
    return out


def _tagged(notes_tags: dict[str, list[str]], tag: str) -> set[str]:
    return {title for title, tags in notes_tags.items() if tag in tags}


def _has(titles: set[str], prefix: str) -> bool:
    return any(t.startswith(prefix) for t in titles)


def test_notes_reader_sees_the_papers(notes_papers):
    # The reader must find the poster papers and the later sections' papers, not people.
    assert len(notes_papers) > 50
    assert "fabian schaipp flatiron" not in notes_papers
    assert any(p.title.startswith("MuLoCo") for p in notes_papers.values())


MUON = [
    "LiMuon", "Lions and Muons", "Can Muon Fine-tune", "An Exploration of Non-Euclidean Gradient Descent",
    "Delving into Muon", "General Analysis of LMO-based Optimizers", "OLion", "Controlled LLM Training on Spectral",
    "PRISM", "From Muon to Gluon", "MuLoCo", "Depth scaling and Muon",
]
QUANTIZATION = ["MixQuant", "Float8@2bits", "FPTQuant", "ECO:", "Unveiling the Potential of Quantization with MXFP4",
                "Rethinking 1-bit"]
SAM = ["Understanding SAM", "Adaptive Sharpness-Aware Minimization", "Flat Minima and Generalization",
       "Inconsistency-Aware Minimization"]
DISTRIBUTED = ["Factored Gossip DiLoCo", "LoRDO", "One-Step Gradient Delay", "Mitigating Staleness in Asynchronous",
               "Improved Convergence Analysis of Topology Dependence in Decentralized", "Clipping Makes Distributed",
               "MuLoCo"]


@pytest.mark.parametrize("tag,expected", [("muon", MUON), ("quantization", QUANTIZATION), ("sam", SAM),
                                          ("distributed", DISTRIBUTED)])
def test_default_rules_find_what_a_researcher_expects(notes_tags, tag, expected):
    titles = _tagged(notes_tags, tag)
    missing = [p for p in expected if not _has(titles, p)]
    assert not missing, f"{tag} should tag {missing}"


@pytest.mark.parametrize("tag,not_expected", [
    ("sam", ["From Flat Facts to Sharp Hallucinations", "Compute When Worth It", "Zeroth-Order Optimization",
             "LiMuon"]),
    ("quantization", ["On the Interaction of Batch Noise", "LiMuon", "Understanding SAM"]),
    ("distributed", ["LiMuon", "Understanding SAM", "MixQuant", "Can Muon Fine-tune"]),
    ("muon", ["MixQuant", "Understanding SAM", "FOAM", "Factored Gossip DiLoCo", "AdaGC", "WildCat"]),
    ("sign", ["Factored Gossip DiLoCo", "MixQuant", "FPTQuant"]),
])
def test_default_rules_avoid_false_positives(notes_tags, tag, not_expected):
    titles = _tagged(notes_tags, tag)
    wrong = [p for p in not_expected if _has(titles, p)]
    assert not wrong, f"{tag} should not tag {wrong}"


def test_step_size_and_theory_tags_for_the_schaipp_paper(notes_tags):
    tags = notes_tags["Step-Size Stability in Stochastic Optimization: A Theoretical Perspective"]
    assert {"step-size", "theory"} <= set(tags)


def _entry(title: str = "", abstract: str | None = None, summary: str | None = None, **kw) -> Entry:
    return Entry(key=kw.pop("key", "k"), entry_type="misc", fields={"title": title}, abstract=abstract,
                 summary=summary, **kw)


def test_word_prefix_keywords_do_not_match_inside_words():
    rules = load_rules({"tags_defaults": False, "tags": {"sam": ["sam"], "lion": ["lion"]}})
    assert compute_auto_tags(_entry("The same result for a million samples"), [], [], [], rules) == ["sam"]
    # "samples" starts with "sam" (a word-prefix match) but "same"/"million" must not trigger "lion".
    assert compute_auto_tags(_entry("A million reasons"), [], [], [], rules) == []
    assert compute_auto_tags(_entry("Lions and tigers"), [], [], [], rules) == ["lion"]


def test_default_sam_and_sign_rules_respect_word_boundaries():
    rules = load_rules({})
    same = compute_auto_tags(_entry("The same step for a million samples", "Samuel uses the same data."), [], [], [],
                             rules)
    assert "sam" not in same and "sign" not in same
    assert "sam" in compute_auto_tags(_entry("Revisiting SAM-style updates"), [], [], [], rules)
    assert "sign" in compute_auto_tags(_entry("Symbolic discovery: Lion"), [], [], [], rules)
    assert "sign" not in compute_auto_tags(_entry("A significant signal design"), [], [], [], rules)


def test_regex_items_are_case_sensitive_unless_flagged():
    rules = load_rules({"tags_defaults": False, "tags": {"a": ["/\\bSAM\\b/"], "b": ["/\\bsam\\b/i"]}})
    assert compute_auto_tags(_entry("sam is here"), [], [], [], rules) == ["b"]
    assert compute_auto_tags(_entry("SAM is here"), [], [], [], rules) == ["a", "b"]


def test_spaces_and_hyphens_in_keywords_match_each_other():
    pattern = compile_item("step size")
    assert pattern.search("Step-Size Stability")
    assert pattern.search("the step  size")
    assert not pattern.search("stepsize")


def test_rules_read_title_abstract_summary_and_mention_texts():
    rules = load_rules({"tags_defaults": False, "tags": {"muon": ["Muon", "Newton-Schulz", "orthogonaliz"]}})
    assert compute_auto_tags(_entry("Plain"), [], [], [], rules) == []
    assert compute_auto_tags(_entry("Plain", abstract="uses newton-schulz steps"), [], [], [], rules) == ["muon"]
    assert compute_auto_tags(_entry("Plain", summary="Orthogonalized updates"), [], [], [], rules) == ["muon"]
    assert compute_auto_tags(_entry("Plain"), ["Muon を上回る"], [], [], rules) == ["muon"]


def test_latex_in_titles_is_read_as_text():
    rules = load_rules({})
    assert "muon" in compute_auto_tags(_entry("{LiMuon}: Light and Fast {Muon} Optimizer"), [], [], [], rules)


def test_hashtags_and_mapped_sections_become_tags():
    config = {"tags_defaults": False, "tag_sections": {"深く理解しとかないとなという論文": "must-read",
                                                       "Reading  group": ["reading", "Group Work"]}}
    rules = load_rules(config)
    tags = compute_auto_tags(_entry("x"), [], ["#Muon", "step size"], ["深く理解しとかないとなという論文"], rules)
    assert tags == ["muon", "must-read", "step-size"]
    # Headings compare folded: spacing and case do not matter.
    assert compute_auto_tags(_entry("x"), [], [], ["reading group"], rules) == ["group-work", "reading"]
    assert compute_auto_tags(_entry("x"), [], [], ["Day2 (7/7 Tue)"], rules) == []


def test_config_rules_extend_override_and_disable_defaults():
    text = _entry("Understanding SAM; Shampoo and muon", abstract="a custom-keyword here")
    base = compute_auto_tags(text, [], [], [], load_rules({}))
    assert {"sam", "preconditioning", "muon"} <= set(base)

    # A list replaces the default rule of that name.
    replaced = load_rules({"tags": {"sam": ["never-present"]}})
    assert "sam" not in compute_auto_tags(text, [], [], [], replaced)
    # {extend: [...]} adds to it and keeps the default label.
    extended = load_rules({"tags": {"muon": {"extend": ["custom-keyword"]}}})
    assert "muon" in compute_auto_tags(_entry("x", abstract="custom-keyword"), [], [], [], extended)
    assert extended.label("muon") == load_rules({}).label("muon")
    # [] drops one default rule; tags_defaults: false drops them all.
    dropped = load_rules({"tags": {"preconditioning": []}})
    assert "preconditioning" not in compute_auto_tags(text, [], [], [], dropped)
    assert compute_auto_tags(text, [], [], [], load_rules({"tags_defaults": False})) == []
    # New rules add tags beside the defaults.
    added = load_rules({"tags": {"custom": ["custom-keyword"]}})
    got = compute_auto_tags(text, [], [], [], added)
    assert "custom" in got and "sam" in got


@pytest.mark.parametrize("bad", [
    {"tags": {"x": ["/([/"]}},
    {"tags": {"x": [""]}},
    {"tags": {"x": 3}},
    {"tags": ["muon"]},
    {"tags": {"x": {"match": ["a"], "extend": ["b"]}}},
    {"tags": {"x": {"keywords": ["a"]}}},
    {"tag_sections": ["heading"]},
])
def test_bad_rules_are_reported_with_what_to_do(bad):
    with pytest.raises(TagRuleError) as exc:
        load_rules(bad)
    assert "citekit.yaml" in str(exc.value)


def test_manual_tags_are_never_overridden_by_rules():
    rules = load_rules({})
    entry = _entry("Understanding SAM through Minimax Perspective")
    entry.tags_auto = compute_auto_tags(entry, [], [], [], rules)
    assert "sam" in entry.tags
    apply_manual(entry, ["-sam", "+must-read", "theory"])
    assert "sam" not in entry.tags and {"must-read", "theory"} <= set(entry.tags)
    # A re-sync recomputes tags_auto; the user's decisions stay.
    entry.tags_auto = compute_auto_tags(entry, [], [], [], rules)
    assert "sam" in entry.tags_auto
    assert "sam" not in entry.tags and "must-read" in entry.tags
    # Adding back lifts the removal; removing an added tag takes it away.
    apply_manual(entry, ["+SAM", "-must-read"])
    assert "sam" in entry.tags and "must-read" not in entry.tags
    assert entry.tags_removed == ["must-read"]


def test_manual_addition_survives_rules_that_stop_matching():
    entry = _entry("Muon things")
    entry.tags_auto = ["muon"]
    apply_manual(entry, ["+muon"])
    entry.tags_auto = []
    assert entry.tags == ["muon"]


def test_empty_manual_tag_is_an_error():
    with pytest.raises(TagRuleError):
        apply_manual(_entry("x"), ["+"])


def _lib() -> list[Entry]:
    return [
        Entry(key="a", entry_type="misc", tags_auto=["muon", "theory"]),
        Entry(key="b", entry_type="misc", tags_auto=["muon"], tags_added=["sam"]),
        Entry(key="c", entry_type="misc", tags_auto=["theory", "sam"], tags_removed=["sam"]),
        Entry(key="d", entry_type="misc", tags_auto=["quantization"]),
    ]


def test_select_all_any_and_exclusions():
    keys = lambda es: [e.key for e in es]  # noqa: E731
    lib = _lib()
    assert keys(select(lib, ["muon", "theory"])) == ["a"]
    assert keys(select(lib, ["muon", "theory"], any_=True)) == ["a", "b", "c"]
    assert keys(select(lib, ["muon", "-theory"])) == ["b"]
    assert keys(select(lib, ["muon", "not:sam"])) == ["a"]
    assert keys(select(lib, ["-muon"])) == ["c", "d"]
    assert keys(select(lib, [])) == ["a", "b", "c", "d"]
    # Removed tags do not count: c's "sam" was removed by hand.
    assert keys(select(lib, ["sam"])) == ["b"]
    assert keys(select(lib, ["MUON"])) == ["a", "b"]


def test_tag_counts_most_used_first():
    assert tag_counts(_lib()) == [("muon", 2), ("theory", 2), ("quantization", 1), ("sam", 1)]
    assert tag_counts([]) == []


def test_normalize_tag():
    assert normalize_tag("#Step Size") == "step-size"
    assert normalize_tag("  Low_Rank ") == "low-rank"
    assert normalize_tag("ＭＵＯＮ") == "muon"


# --- CLI --------------------------------------------------------------------------------

@pytest.fixture()
def project(tmp_path: Path) -> Path:
    from citekit.library.store import Library

    lib = Library.load(tmp_path / "refs")
    for e in _lib():
        e.fields = {"title": f"Paper {e.key}", "author": "Doe, Jane", "year": "2026"}
        lib.add(e)
    lib.get("a").aliases = ["oldkey2025"]
    lib.save()
    return tmp_path


def test_cli_tags_counts_and_json(project):
    import json

    from click.testing import CliRunner

    from citekit.cli import main

    res = CliRunner().invoke(main, ["-C", str(project), "tags"])
    assert res.exit_code == 0, res.output
    assert res.output.splitlines()[:2] == ["2  muon", "2  theory"]
    res = CliRunner().invoke(main, ["-C", str(project), "tags", "--json"])
    assert json.loads(res.output)[0] == {"tag": "muon", "count": 2}


def test_cli_tag_edits_by_alias_and_saves(project):
    from click.testing import CliRunner

    from citekit.cli import main
    from citekit.library.store import Library

    res = CliRunner().invoke(main, ["-C", str(project), "tag", "oldkey2025", "+must-read", "-theory"])
    assert res.exit_code == 0, res.output
    assert res.output.startswith("oldkey2025 -> a: muon, must-read")
    entry = Library.load(project / "refs").get("a")
    assert entry.tags == ["muon", "must-read"] and entry.tags_removed == ["theory"]
    assert "keywords" in (project / "refs" / "library.bib").read_text()
    res = CliRunner().invoke(main, ["-C", str(project), "tag", "nosuchkey", "+x"])
    assert res.exit_code == 2 and "citekit list" in res.output  # an unknown KEY is an input error


def test_manual_tags_that_would_break_keywords_are_refused():
    from citekit.library.tags import TagRuleError, apply_manual
    from citekit.core.model import Entry

    entry = Entry(key="k", entry_type="misc")
    for bad in ("+a,b", "+x}y", "+back\\slash"):
        with pytest.raises(TagRuleError, match="do not survive"):
            apply_manual(entry, [bad])
    apply_manual(entry, ["+must-read", "+cs.LG", "+Step Size"])
    assert entry.tags_added == ["cs.lg", "must-read", "step-size"]


# --- a passing mention in a long abstract is not the paper's topic ---------------------------

ABSTRACTS = REPO / "notes" / "notes-icml2026-abstracts.txt"


def _real_abstract(word: str) -> str:
    if not ABSTRACTS.exists():
        pytest.skip(f"{ABSTRACTS} is not in this checkout")
    paragraphs = [p.strip() for p in ABSTRACTS.read_text(encoding="utf-8").split("\n\n") if word in p]
    assert len(paragraphs) == 1, word
    return paragraphs[0]


def test_one_passing_mention_in_an_abstract_gives_no_topic_tag():
    rules = load_rules({})
    # Proximal methods; "federated learning" appears once, as an application.
    cortes = _entry("Last-Iterate Convergence of Proximal Stochastic Methods without Bounded Variance",
                    abstract=_real_abstract("graph-guided regularizers"))
    assert "distributed" not in compute_auto_tags(cortes, [], [], [], rules)
    # An Adam variant evaluated, among others, on quantization-aware training.
    silva = _entry("Singularity-aware Adam: Stabilizing Non-Smooth Optimization with Local Geometric Instability",
                   abstract=_real_abstract("Singularity-aware Adam"))
    assert "quantization" not in compute_auto_tags(silva, [], [], [], rules)
    assert "adam" in compute_auto_tags(silva, [], [], [], rules)


def test_substantive_mentions_still_give_the_tag():
    rules = load_rules({})
    gossip = _entry("Plain", abstract="We study decentralized SGD where nodes talk by gossip over a graph.")
    assert "distributed" in compute_auto_tags(gossip, [], [], [], rules)
    compression = _entry("Plain", abstract="Communication compression with DCSGD and error feedback reduces "
                                           "the cost of distributed training.")
    assert "distributed" in compute_auto_tags(compression, [], [], [], rules)
    assert "distributed" in compute_auto_tags(_entry("Federated averaging revisited"), [], [], [], rules)
    assert "distributed" in compute_auto_tags(_entry("Plain", summary="federated learning の研究"), [], [], [], rules)
    quant = _entry("Plain", abstract="We quantize weights to 4-bit and study quantization error in quantized LLMs.")
    assert "quantization" in compute_auto_tags(quant, [], [], [], rules)


def test_abstract_hits_is_configurable():
    rules = load_rules({"tags_defaults": False, "tags": {"fed": {"match": ["federated"], "abstract_hits": 2}}})
    assert compute_auto_tags(_entry("Plain", abstract="federated once"), [], [], [], rules) == []
    assert compute_auto_tags(_entry("Plain", abstract="federated, federated"), [], [], [], rules) == ["fed"]
    assert compute_auto_tags(_entry("Federated"), [], [], [], rules) == ["fed"]
    with pytest.raises(TagRuleError):
        load_rules({"tags": {"fed": {"match": ["federated"], "abstract_hits": 0}}})


def test_the_shipped_rules_read_as_pyyaml_safe_load_reads_them() -> None:
    """(They are read with libyaml's loader when PyYAML has it: the data must be the same.)"""
    from importlib import resources

    import yaml

    from citekit.library.tags import default_rules_data

    text = resources.files("citekit").joinpath("data/tags.yaml").read_text(encoding="utf-8")
    assert default_rules_data() == yaml.safe_load(text)


IMPORTED = """@book{vale1968theory,
  title = {The Theory of Parsing Sentences in Old Norse},
  author = {Vale, Orm},
  year = {1968},
  keywords = {linguistics}
}
@inproceedings{ostby2019attention,
  title = {Guiding Visual Attention on Small Screens},
  author = {Ostby, Lene},
  year = {2019},
  booktitle = {CHI}
}
"""


def test_rule_tags_of_imported_entries_stay_out_of_their_keywords(tmp_path):
    """The shipped ML rules give "theory" and "attention" to imported entries (selection by
    tag still finds them), but their keywords, and so the paper's refs.bib, keep only the
    entry's own keywords and tags added by hand; a hand edit of keywords removes no rule tag."""
    from click.testing import CliRunner

    from citekit.cli import main
    from citekit.library.store import Library

    root = tmp_path / "proj"
    (root / "notes").mkdir(parents=True)
    (root / "citekit.yaml").write_text("paths: {notes: notes, refs: refs}\n", encoding="utf-8")
    (root / "old.bib").write_text(IMPORTED, encoding="utf-8")

    def cli(*args: str):
        result = CliRunner().invoke(main, ["-C", str(root), *args])
        assert result.exit_code == 0, result.output
        return result

    cli("import", str(root / "old.bib"), "-q")
    cli("sync", "--offline", "-q")
    lib = Library.load(root / "refs")
    assert "theory" in lib.entries["vale1968theory"].tags and "attention" in lib.entries["ostby2019attention"].tags
    assert "vale1968theory" in cli("list", "--tag", "theory").output
    cli("export", "-o", str(root / "refs-paper.bib"), "-q")
    for bib in (root / "refs" / "library.bib", root / "refs-paper.bib"):
        text = bib.read_text(encoding="utf-8")
        assert "keywords      = {linguistics}" in text and "theory" not in text.lower().split("title")[0], text
        assert "attention}" not in text.replace("Attention on", ""), text
    cli("tag", "vale1968theory", "+norse")
    assert "keywords      = {linguistics, norse}" in (root / "refs" / "library.bib").read_text(encoding="utf-8")
    edited = (root / "refs" / "library.bib").read_text(encoding="utf-8").replace("{linguistics, norse}",
                                                                                "{linguistics, norse, parsing}")
    (root / "refs" / "library.bib").write_text(edited, encoding="utf-8")
    tags = Library.load(root / "refs").entries["vale1968theory"].tags
    assert {"parsing", "theory", "norse", "linguistics"} <= set(tags), tags
