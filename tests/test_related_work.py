"""Related-work snippets: sentences from real abstracts, grouping, escaping, ranking, CLI."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from citekit.cli import main
from citekit.library.store import Library
from citekit.core.model import Entry
from citekit.output.markdown_text import escape_markdown
from citekit.output.related_work import (
    GroupSpec,
    Mine,
    RelatedWorkError,
    closeness,
    describe,
    load_mine,
    related_work,
)
from citekit.output.related_work import _Style as Style
from citekit.output.sentences import contribution, is_english, split_sentences, to_third_person

REPO = Path(__file__).resolve().parents[1]
ABSTRACTS = REPO / "notes" / "notes-icml2026-abstracts.txt"
MALICIOUS = r"Evil \input{/etc/passwd} \write18{rm -rf ~} 100% & #1 _x_ $\x$ [@fake] *b* <b> {unbalanced"
LATEX = Style("latex", "natbib", False)


@pytest.fixture(scope="module")
def abstracts() -> dict[str, str]:
    """Abstracts of the bundled file, by a word that identifies each."""
    if not ABSTRACTS.exists():
        pytest.skip(f"{ABSTRACTS} is not in this checkout")
    paragraphs = [p.strip() for p in ABSTRACTS.read_text(encoding="utf-8").split("\n\n") if len(p.strip()) > 200]
    found = {}
    for word in ("SoftSignum", "LiMuon", "MineDraft", "Riemannian", "FedCDWA", "BaLoRA", "MetaDistill", "NCRS",
                 "SE}(3)"):
        matches = [p for p in paragraphs if word in p]
        assert len(matches) == 1, word
        found[word] = matches[0]
    return found


def entry(key: str, title: str, *, authors: str = "Doe, Jane and Roe, Rick", year: str = "2026",
          abstract: str | None = None, summary: str | None = None, tags: list[str] | None = None,
          url: str | None = None) -> Entry:
    fields = {"title": title, "author": authors, "year": year}
    if url:
        fields["url"] = url
    return Entry(key=key, entry_type="misc", fields=fields, abstract=abstract, summary=summary,
                 tags_auto=list(tags or []))


def cited_keys(text: str) -> list[str]:
    keys = []
    for group in re.findall(r"\\(?:citet|citep|textcite|parencite)\{([^}]*)\}", text):
        keys += group.split(",")
    return keys


def braces_balanced(text: str) -> bool:
    depth = 0
    for m in re.finditer(r"\\.|[{}]", text):
        tok = m.group(0)
        if tok == "{":
            depth += 1
        elif tok == "}":
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


# --- sentences ---------------------------------------------------------------------------

def test_sentence_split_respects_math_and_abbreviations(abstracts):
    sentences = split_sentences(abstracts["LiMuon"])
    assert any("$O(\\epsilon^{-3})$ for finding an $\\epsilon$-stationary solution" in s for s in sentences)
    assert all(s.endswith(".") for s in sentences)
    assert split_sentences("We use e.g. SGD and Adam et al. for training. Then we stop.") == [
        "We use e.g. SGD and Adam et al. for training.", "Then we stop."]
    assert split_sentences("A value of 0.5 is used. Next.") == ["A value of 0.5 is used.", "Next."]


def test_softsignum_contribution_in_third_person(abstracts):
    soft = entry("doe2026softsignum", "SoftSignum", abstract=abstracts["SoftSignum"])
    # the method, what it is; how it works ("that replaces the hard sign map ...") is the abstract's to say
    assert describe(soft, LATEX) == \
        "\\citet{doe2026softsignum} propose SoftSignum, a smooth relaxation of sign-based optimization."
    single = entry("doe2026single", "SoftSignum", authors="Doe, Jane", abstract=abstracts["SoftSignum"])
    assert describe(single, LATEX).startswith("\\citet{doe2026single} proposes SoftSignum, a smooth relaxation")


def test_limuon_drops_the_linking_clause_and_first_person(abstracts):
    limuon = entry("huang2026limuon", "LiMuon", abstract=abstracts["LiMuon"])
    sentence = describe(limuon, LATEX)
    # the name leads, as an author writes it, not in a parenthesis
    assert sentence.startswith("\\citet{huang2026limuon} propose LiMuon, a light and fast Muon optimizer for "
                               "training large models")
    assert "To fill this gap" not in sentence
    assert not re.search(r"\b(we|our|We|Our)\b", sentence)


def test_minedraft_this_paper_proposes(abstracts):
    mine = entry("x2026minedraft", "MineDraft", abstract=abstracts["MineDraft"])
    assert describe(mine, LATEX) == (
        "\\citet{x2026minedraft} propose MineDraft, a batch parallel speculative decoding framework designed "
        "to hide drafting latency.")
    fed = contribution(abstracts["FedCDWA"])
    assert fed and fed.verb == "propose" and fed.rest.strip().startswith("FedCDWA, a decoupled hierarchical")


def test_the_main_claim_beats_a_side_result(abstracts):
    """"In this work, we study dueling optimization over Riemannian manifolds" (the paper's scope, which the ranker
    prefers), never the add-on "We also propose a projection-free algorithm"."""
    found = contribution(abstracts["Riemannian"])
    assert found.index in (3, 4) and "Riemannian" in found.rest and "projection-free" not in found.rest
    assert contribution("Background here. In this work, we study dueling optimization over manifolds.").rest \
        == "dueling optimization over manifolds."
    # the method the title names (BaLoRA) marks the contribution sentence
    assert contribution("LoRA is popular. Its factors are not unique. We show that the gap closes fast. We introduce "
                        "BaLoRA, a variant of LoRA. Experiments on GLUE confirm it.", "BaLoRA").verb == "introduce"
    assert contribution("Sign-based methods are popular. They help a lot.") is None


# unit: one sentence needs describe() and its output style, which only the module gives
def test_markdown_emphasis_and_latex_in_abstracts_are_cleaned(abstracts):
    md = Style("markdown", "natbib", False)
    sentence = describe(entry("k2026meta", "MetaDistill", abstract=abstracts["MetaDistill"]), md)
    # MetaBBO is written out as the abstract defined it
    assert sentence.startswith("@k2026meta propose MetaDistill, a general Meta Black-Box Optimization training framework")
    ddsvm = describe(entry("k2026dd", "DDSVM", abstract="We propose the **Differentiable Deep SVM (DDSVM)**, an "
                           "iterative framework for margins."), LATEX)
    assert "**" not in ddsvm and "\\emph{Differentiable Deep SVM (DDSVM)}, an iterative framework" in ddsvm


def test_third_person_conversion():
    assert to_third_person("our LiMuon improves on what we had and helps us") == \
        "their LiMuon improves on what they had and helps them"
    assert to_third_person("provide proof in this work that GRPO works") == "provide proof that GRPO works"


def test_summaries_only_when_english():
    assert not is_english("Adam-pretrained models を Muon で fine-tuning する研究。")
    assert is_english("Muon fine-tunes Adam-pretrained models; LoRA mitigates the mismatch.")
    japanese = entry("qu2026muon", "Can {Muon} Fine-tune {Adam}-Pretrained Models?",
                     summary="Adam-pretrained models を Muon で fine-tuning する際の optimizer mismatch を解析する研究。")
    # falls back to the title, never a Japanese sentence
    assert describe(japanese, LATEX) == "\\citet{qu2026muon} ask whether Muon can fine-tune Adam-pretrained models."
    # an English note is the user's, not the paper's: the title speaks for the paper
    english = entry("qu2026muon", "Can Muon Fine-tune?", summary="Shows that LoRA mitigates the optimizer mismatch.")
    assert "LoRA" not in describe(english, LATEX)
    statement = entry("qu2026muon", "Can Muon Fine-tune?", summary="Muon and Adam mismatch; LoRA helps.")
    assert "LoRA" not in describe(statement, LATEX)


# --- snippets ----------------------------------------------------------------------------

@pytest.fixture()
def muon_entries(abstracts) -> list[Entry]:
    return [
        entry("huang2026limuon", "{LiMuon}: Light and Fast {Muon} Optimizer for Large Models",
              authors="Huang, Feihu and Luo, Yuning and Chen, Songcan", abstract=abstracts["LiMuon"],
              tags=["muon", "theory"], url="https://icml.cc/virtual/2026/poster/61819"),
        entry("doe2026softsignum", "{SoftSignum}: Smooth Sign-Based Optimization", abstract=abstracts["SoftSignum"],
              tags=["muon", "sign"]),
        entry("sfyraki2026lions", "Lions and {Muons}: Optimization via Stochastic {Frank--Wolfe}",
              authors="Sfyraki, Maria-Eleni and Wang, Jun-Kun", tags=["muon", "sign", "theory"]),
        entry("qu2026muon", "Can {Muon} Fine-tune {Adam}-Pretrained Models?",
              authors="Qu, Xingyu and Huang, Peigeng and Horváth, Samuel", tags=["muon", "adam"],
              summary="Adam-pretrained models を Muon で fine-tuning する研究。"),
        entry("qi2026delving", "Delving into {Muon} and Beyond: Deep Analysis and Extensions", tags=["muon"],
              year="2025"),
    ]


def test_header_comment_and_headings(muon_entries):
    out = related_work(muon_entries, tags=["muon"], command_line="citekit related-work --tag muon")
    assert re.fullmatch(r"% citekit related-work --tag muon \(5 papers; generated from refs/library\.bib, "
                        r"edit freely; citekit-draft:sha256=[0-9a-f]{16}\)", out.splitlines()[0])
    assert "\\paragraph{Sign-based methods.}" in out  # the two sign papers share a tag and words
    headings = re.findall(r"\\paragraph\{([^}]*)\}", out)
    assert len(headings) == len(set(headings))


def test_citations_use_the_given_keys_only_and_every_paper_once(muon_entries):
    out = related_work(muon_entries, tags=["muon"])
    keys = cited_keys(out)
    assert sorted(keys) == sorted(e.key for e in muon_entries)


def test_grouping_by_co_occurring_tags_and_user_groups(muon_entries):
    out = related_work(muon_entries, tags=["muon"])
    sign_part = out.split("\\paragraph{Sign-based methods.}")[1].split("\\paragraph")[0]
    assert {"doe2026softsignum", "sfyraki2026lions"} <= set(cited_keys(sign_part))
    named = related_work(muon_entries, tags=["muon"], groups=[GroupSpec.parse("Muon analysis=theory")])
    analysis = named.split("\\paragraph{Muon analysis.}")[1].split("\\paragraph")[0]
    assert {"huang2026limuon", "sfyraki2026lions"} == set(cited_keys(analysis))
    with pytest.raises(RelatedWorkError):
        GroupSpec.parse("no tags here")


def test_papers_known_by_title_get_a_sentence_each_not_a_quoted_list(muon_entries):
    out = related_work(muon_entries, tags=["muon"])
    assert "``" not in out and "includes" not in out
    # (not "delve into Muon and beyond, with deep analysis and extensions": the title's gerund made the authors'
    # verb, and its subtitle tacked on after a comma, both of which --check flags)
    assert "\\citet{qi2026delving} address Muon and beyond (deep analysis and extensions)." in out
    assert "\\citet{qu2026muon} ask whether Muon can fine-tune Adam-pretrained models." in out
    titles_only = [entry("a2026x", "Alpha", tags=["t"]), entry("b2026y", "Beta", tags=["t"])]
    out = related_work(titles_only, tags=["t"])
    # two unrelated papers are two sentences, never one joined by ";"
    assert "\\citet{a2026x} study alpha. \\citet{b2026y} study beta." in out


def test_sentences_come_from_the_records(muon_entries, abstracts):
    out = related_work(muon_entries, tags=["muon"])
    # The LiMuon sentence is made of the abstract's own words after the verb, fewer of them, none added.
    m = re.search(r"\\citet\{huang2026limuon\} propose (.+?)(?:, while|\.\n|\. |; \\citet)", out)
    assert m, out
    source = iter(re.findall(r"[\w\-]+", abstracts["LiMuon"].lower()))
    words = [w for w in re.findall(r"[\w\-]+", m.group(1).lower()) if w not in {"a", "an"}]
    assert len(words) >= 5 and all(any(w == s for s in source) for w in words if w != "limuon"), m.group(1)
    # No Japanese summary text leaks into the English paragraph.
    assert not re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", out)


def test_citation_styles(muon_entries):
    bib = related_work(muon_entries, tags=["muon"], cite="biblatex")
    assert "\\textcite{huang2026limuon}" in bib and "\\citet" not in bib
    md = related_work(muon_entries, tags=["muon"], fmt="markdown")
    assert re.match(r"<!-- citekit related-work \(5 papers; generated from refs/library\.bib, edit freely; "
                    r"citekit-draft:sha256=[0-9a-f]{16}\) -->\n", md)
    assert "### Sign-based methods" in md
    assert "@huang2026limuon propose LiMuon, a light and fast Muon optimizer" in md
    assert "@qi2026delving address Muon" in md and "\\cite" not in md
    links = related_work(muon_entries, tags=["muon"], fmt="markdown", links=True)
    assert "Huang et al. ([LiMuon: Light and Fast Muon Optimizer for Large Models]" \
           "(https://icml.cc/virtual/2026/poster/61819)) propose" in links
    assert "@" not in links
    with pytest.raises(RelatedWorkError):
        related_work(muon_entries, links=True)  # links are a Markdown feature
    with pytest.raises(RelatedWorkError):
        related_work(muon_entries, fmt="html")


def test_deterministic_whatever_the_input_order(muon_entries):
    first = related_work(muon_entries, tags=["muon"])
    shuffled = list(muon_entries)
    random.Random(4).shuffle(shuffled)
    assert related_work(shuffled, tags=["muon"]) == first


def test_malicious_record_is_inert_in_latex():
    evil = entry("evil2026", MALICIOUS, abstract=r"We propose \input{/etc/passwd} and \write18{x}, a 50% {{method.",
                 tags=["t"])
    other = entry("good2026", "Good", tags=["t"])
    out = related_work([evil, other], tags=["t"])
    assert not re.search(r"\\(input|write18|def|csname|x)(?![A-Za-z])", out)
    assert braces_balanced(out)
    body = "\n".join(line for line in out.splitlines() if not line.startswith("%"))
    assert not re.search(r"(?<!\\)[%#&_]", body.replace("\\citet", "").replace("\\citep", ""))
    summary_evil = entry("evil2026", "T", summary="Shows \\input{x} and } unbalanced", tags=["t"])
    assert braces_balanced(related_work([summary_evil], tags=["t"]))


def test_malicious_record_is_inert_in_markdown():
    evil = entry("evil2026", MALICIOUS, abstract=r"We propose \input{/etc/passwd}, a [@fake] $x$ method_name.",
                 tags=["t"])
    out = related_work([evil], tags=["t"], fmt="markdown")
    text = out.split("-->", 1)[1]
    # The abstract's sentence has a macro nothing resolves: the title describes the paper,
    # shown as written, every backslash from the record escaped so pandoc prints it.
    assert "\\\\input" in text and "passwd" in text
    assert not re.search(r"(?<!\\)\\(input|write18)", text)
    stripped = text.replace("[@evil2026]", "").replace("@evil2026", "")
    assert "*b*" in stripped  # the record's Markdown emphasis, kept as emphasis on purpose
    stripped = stripped.replace("*b*", "b")
    for ch in "$@[]_*<#":
        assert not re.search(r"(?<!\\)" + re.escape(ch), stripped.replace("###", "")), ch
    assert escape_markdown("a_b [c] $d$ @e <f> #g *h* \\i") == \
        "a\\_b \\[c\\] \\$d\\$ \\@e \\<f\\> \\#g \\*h\\* \\\\i"


def test_unsafe_keys_are_left_out_and_counted():
    out = related_work([entry("bad}key", "X", tags=["t"]), entry("ok2026", "Y", tags=["t"])], tags=["t"])
    assert "bad}key" not in out and "1 entry left out" in out and "ok2026" in out


# --- positioning against one's own paper --------------------------------------------------

def test_mine_ranks_the_closest_first_and_leaves_placeholders(muon_entries, abstracts):
    mine = Mine(title="Variance-reduced Muon with randomized SVD",
                abstract="We propose a memory-light Muon optimizer using momentum-based variance reduction and "
                         "randomized singular value decomposition, with sample complexity guarantees.",
                tags=["muon", "theory"], name="mine.yaml")
    scores = closeness(muon_entries, mine)
    assert max(scores, key=scores.get) == "huang2026limuon"
    out = related_work(muon_entries, tags=["muon"], mine=mine)
    paragraphs = out.split("\\paragraph")[1:]
    assert paragraphs[-1].startswith("{Other related work.}")  # the leftovers close, even the closest paper's
    # a position drawn from the user's abstract, or a placeholder where it gives no contrast
    todos = [line for line in out.splitlines() if "TODO(citekit)" in line]
    assert all(line.startswith("% TODO(citekit): contrast with ") for line in todos)
    for paragraph in paragraphs:  # every paragraph positions the paper or says why it cannot
        assert "our work" in paragraph or "we propose" in paragraph or "TODO(citekit): contrast with" in paragraph
    for todo in todos:
        assert "(closest to mine.yaml" in todo
    assert "TODO" not in related_work(muon_entries, tags=["muon"])


def test_ranking_prefers_other_text_when_mine_differs(muon_entries):
    mine = Mine(abstract="A smooth relaxation of sign-based optimization with temperature-controlled soft-sign maps.")
    scores = closeness(muon_entries, mine)
    assert max(scores, key=scores.get) == "doe2026softsignum"


def test_load_mine(tmp_path):
    path = tmp_path / "paper.yaml"
    path.write_text(yaml.safe_dump({"title": "T", "abstract": "A", "tags": ["Muon", "theory"], "claims": "c"}))
    mine = load_mine(path)
    assert mine.tags == ["muon", "theory"] and mine.claims == ["c"] and mine.name == "paper.yaml"
    (tmp_path / "bad.yaml").write_text("- a list\n")
    with pytest.raises(RelatedWorkError):
        load_mine(tmp_path / "bad.yaml")


# --- CLI --------------------------------------------------------------------------------

@pytest.fixture()
def project(tmp_path, muon_entries) -> Path:
    (tmp_path / "citekit.yaml").write_text("related_work:\n  groups:\n    Muon analysis: [theory]\n")
    lib = Library.load(tmp_path / "refs")
    for e in muon_entries:
        lib.add(e)
    lib.add(entry("nikdan2026eco", "{ECO}: Quantized Training without Full-Precision Master Weights",
                  tags=["quantization"]))
    lib.save()
    return tmp_path


def test_cli_related_work_latex_and_markdown(project):
    runner = CliRunner()
    res = runner.invoke(main, ["-C", str(project), "related-work", "--tag", "muon"])
    assert res.exit_code == 0, res.output
    assert res.output.startswith("% citekit related-work --tag muon (5 papers; generated from refs/library.bib")
    assert "\\paragraph{Muon analysis.}" in res.output  # the group from citekit.yaml
    assert "nikdan2026eco" not in res.output
    res = runner.invoke(main, ["-C", str(project), "related-work", "--tag", "muon", "--group", "Signs=sign",
                               "--format", "markdown"])
    assert res.exit_code == 0, res.output
    assert "### Signs" in res.output and "Muon analysis" not in res.output


def test_cli_related_work_output_file_and_mine(project, tmp_path):
    mine = tmp_path / "mine.yaml"
    mine.write_text(yaml.safe_dump({"title": "Light Muon", "abstract": "randomized SVD variance reduction Muon",
                                    "tags": ["muon"]}))
    out = tmp_path / "rw.tex"
    res = CliRunner().invoke(main, ["-C", str(project), "related-work", "--mine", str(mine), "-o", str(out)])
    assert res.exit_code == 0, res.output
    text = out.read_text()
    assert "TODO(citekit): contrast with huang2026limuon" in text and "(closest to mine.yaml" in text


def test_cli_related_work_errors_say_what_to_do(project):
    runner = CliRunner()
    res = runner.invoke(main, ["-C", str(project), "related-work"])
    assert res.exit_code == 2 and "--tag" in res.output
    res = runner.invoke(main, ["-C", str(project), "related-work", "--tag", "nonexistent"])
    assert res.exit_code == 1 and "citekit tags" in res.output  # an empty selection is a finding
    res = runner.invoke(main, ["-C", str(project), "related-work", "--tag", "muon", "--links"])
    assert res.exit_code == 2 and "--format markdown" in res.output


def test_workflow_tags_do_not_name_paragraphs():
    papers = [entry("a2026x", "Alpha sign descent", tags=["muon", "must-read", "sign"]),
              entry("b2026y", "Beta sign descent", tags=["muon", "must-read", "sign"]),
              entry("c2026z", "Gamma rays", tags=["muon", "must-read"]),
              entry("d2026w", "Delta rivers", tags=["muon", "must-read"])]
    out = related_work(papers, tags=["muon"])
    assert "\\paragraph{Sign-based methods.}" in out and "Must read" not in out


def test_a_tag_every_paper_shares_names_no_paragraph():
    """``theory`` on all papers must not name a paragraph; ``adam``/``sign`` still can."""
    papers = [entry("a2026x", "Adaptive moments alpha", tags=["muon", "theory", "adam"]),
              entry("b2026y", "Adaptive moments beta", tags=["muon", "theory", "adam"]),
              entry("c2026z", "Adaptive moments gamma", tags=["muon", "theory", "adam"]),
              entry("d2026w", "Sign descent delta", tags=["muon", "theory", "sign"]),
              entry("e2026v", "Sign descent epsilon", tags=["muon", "theory", "sign"]),
              entry("f2026u", "Unrelated zeta", tags=["muon", "theory"])]
    out = related_work(papers, tags=["muon"])
    headings = re.findall(r"\\paragraph\{([^}]*)\}", out)
    assert headings == ["Adaptive methods.", "Sign-based methods.", "Other related work."]
    assert "Theory and convergence" not in out
    adaptive = out.split("\\paragraph{Adaptive methods.}")[1].split("\\paragraph")[0]
    assert set(cited_keys(adaptive)) == {"a2026x", "b2026y", "c2026z"}
    closing = out.split("\\paragraph{Other related work.}")[1]
    assert set(cited_keys(closing)) == {"f2026u"}  # fits nowhere: the closing paragraph, not a wrong one


def test_paragraphs_hold_two_to_six_papers_and_leftovers_close():
    topics = ["spectral orthogonal update", "federated client communication", "quantized integer weights"]
    papers = [entry(f"p{t}{i}2026x", f"{topics[t]} paper {i}", tags=["muon"],
                    abstract=f"We propose a method for {topics[t]} with {topics[t]} experiments number {i}.")
              for t in range(3) for i in range(5 if t == 0 else 3)]
    papers.append(entry("lone2026x", "Protein folding", tags=["muon"],
                        abstract="We propose a protein folding model for chemistry."))
    out = related_work(papers, tags=["muon"])
    paragraphs = out.split("\\paragraph")[1:]
    assert len(paragraphs) >= 3, out  # one per topic, then the leftovers
    for para in paragraphs[:-1]:
        keys = cited_keys(para)
        assert 2 <= len(keys) <= 6
        assert len({k[1] for k in keys}) == 1, para  # one topic per paragraph
    assert cited_keys(paragraphs[-1]) == ["lone2026x"] and paragraphs[-1].startswith("{Other related work.}")


# --- record text in Markdown keeps every word --------------------------------------------

@pytest.mark.parametrize("raw, plain", [
    (r"beating 100% of baselines & Adam_W", "beating 100% of baselines & Adam_W"),
    (r"so that \input{/etc/passwd} gets", r"so that \input{/etc/passwd} gets"),
    (r"Spectral and \ell_\infty Implicit Biases", "Spectral and ℓ_∞ Implicit Biases"),
    (r"Spectral and $\ell_\infty$ Implicit", "Spectral and ℓ_∞ Implicit"),
    (r"{LiMuon}: {\'e}t\'e \& \textbf{bold} \foo{bar}", r"LiMuon: été & bold \foo{bar}"),
    (r"on $\mathrm{SE}(3)$ at $O(\epsilon^{-3})$", "on SE(3) at O(ϵ⁻³)"),
])
def test_latex_to_plain_loses_no_text(raw, plain):
    from citekit.core.text import latex_to_text
    assert latex_to_text(raw) == plain


def test_markdown_shows_record_text_as_written():
    paper = entry("a2026", "T", abstract=r"We propose Adam_W tricks so that 100% & more of the runs converge.",
                  tags=["t"])
    out = related_work([paper], tags=["t"], fmt="markdown")
    assert r"Adam\_W tricks so that 100% \& more of the runs converge" in out


def test_an_abstract_kept_as_a_bib_field_is_used(abstracts):
    """Imported or hand-written entries hold their abstract in ``fields``, not the sidecar."""
    imported = entry("huang2026limuon", "{LiMuon}: Light and Fast {Muon} Optimizer", tags=["muon"])
    imported.fields["abstract"] = (r"Training is costly. We propose {LiMuon}, a light \emph{and} fast optimizer "
                                   r"with \& without $O(\epsilon^{-3})$ sample complexity.")
    assert describe(imported, LATEX) == ("\\citet{huang2026limuon} propose LiMuon, a light and fast optimizer with "
                                         "\\& without $O(\\epsilon^{-3})$ sample complexity.")
    md = related_work([imported], tags=["muon"], fmt="markdown")
    assert "@huang2026limuon propose LiMuon, a light and fast optimizer with \\& without O(ϵ⁻³)" in md
    both = entry("a2026a", "A", abstract="We propose the sidecar method for everything.", tags=["t"])
    both.fields["abstract"] = "We propose the field method for everything."
    assert "sidecar method" in describe(both, LATEX)


def test_merged_sentences_are_joined_neutrally_and_keep_their_case():
    """No ", while" (a contrast the papers never claimed), no capital letter mid-sentence."""
    a = entry("a2026a", "A", abstract="We propose a short method for large models.", tags=["t"], year="2024")
    b = entry("b2026b", "B", abstract="Fine-tuning Adam-pretrained models with Muon is hard.", tags=["t"], year="2025")
    c = entry("c2026c", "C", abstract="We study a short question about small models.", tags=["t"], year="2026")
    out = related_work([a, b, c], tags=["t"])
    assert ", while" not in out
    assert not re.search(r"[,;] [A-Z]", out.replace("; \\citet", ""))
    assert "models. \\citet{b2026b}" in out
    two = related_work([a, c], tags=["t"])
    # a method and a question are not one claim: two sentences, not a ";" join
    assert ("\\citet{a2026a} propose a short method for large models. \\citet{c2026c} study a short question "
            "about small models.") in two
    same = entry("d2026d", "D", abstract="We propose a short method for large language models.", tags=["t"],
                 year="2026")
    md = related_work([a, same], tags=["t"], fmt="markdown")
    assert "@a2026a propose a short method for large models; @d2026d propose a short method for large language" in md


def test_a_sentence_that_only_repeats_the_title_falls_back_to_the_title():
    """"We study deep analysis and extensions" says less than the title it copies."""
    echo = entry("qi2026delving", "Delving into {Muon} and Beyond: Deep Analysis and Extensions", tags=["muon"],
                 abstract="We study deep Analysis and Extensions. Theory and experiments support the approach.")
    # (the title's sentence, in the plainer shape the check passes: not "delve into Muon and beyond, with deep
    # analysis and extensions", a title's gerund made the authors' verb with its subtitle tacked on)
    assert describe(echo, LATEX) == "\\citet{qi2026delving} address Muon and beyond (deep analysis and extensions)."
    real = entry("ren2026riemannian", "Riemannian Dueling Optimization", tags=["muon"],
                 abstract="In this work, we study dueling optimization over Riemannian manifolds, which covers "
                          "important applications that cannot be solved by existing dueling optimization algorithms.")
    assert describe(real, LATEX).startswith("\\citet{ren2026riemannian} study dueling optimization over Riemannian")


def test_unicode_punctuation_in_abstracts_is_text_not_math():
    for raw in ("tasks—and", r"tasks$\textemdash$and"):  # OpenReview abstracts write the latter
        dash = entry("a2026a", "A", abstract=f"We propose a method for reasoning {raw} reach peak performance.",
                     tags=["t"])
        sentence = describe(dash, LATEX)
        assert "$" not in sentence and "tasks{\\textemdash}and" in sentence, sentence
        md = related_work([dash], tags=["t"], fmt="markdown")
        assert "tasks—and" in md, md
    greek = entry("b2026b", "B", abstract="We propose an ε-accurate method with rate ≤ 1/T for all problems.",
                  tags=["t"])
    assert "$\\epsilon$" in describe(greek, LATEX) or "$\\varepsilon$" in describe(greek, LATEX)


def test_check_flags_a_notes_hashtag_carried_into_the_prose():
    """`Summary: ... norms. #optim` once reached the text as `\\#optim`; the linter must see it."""
    from citekit.output.related_check import check_snippet

    latex = ("\\citet{bernstein2024old} show that Adam, Shampoo and Prodigy are steepest descent under "
             "particular norms. \\#optim \\citep{bernstein2024old}.")
    markdown = ("@bernstein2024old show that Adam, Shampoo and Prodigy are steepest descent under particular "
                "norms. \\#optim [@bernstein2024old].")
    assert any("hashtag" in d.message for d in check_snippet(latex, "latex"))
    assert any("hashtag" in d.message for d in check_snippet(markdown, "markdown"))
    clean = "\\citet{k2024x} improve C\\# bindings and rank \\#1 on the benchmark."
    assert not any("hashtag" in d.message for d in check_snippet(clean, "latex"))
