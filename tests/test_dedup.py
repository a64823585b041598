"""The "same work" rules of citekit dedup, on entries shaped like real BibTeX records."""

from __future__ import annotations

import random


from citekit.library.dedup import candidate_pairs, find_clusters
from citekit.matching.people import parse_authors, plain_name, same_person
from citekit.matching.works import Record, title_markers
from citekit.matching import works


def same_work(a: Entry, b: Entry) -> str | None:
    """The reason two entries belong in one entry, or None (versions of one work are not merged)."""
    verdict = works.same_work(a, b)
    return verdict.reason if verdict is not None and verdict.kind == "same" else None
from citekit.matching.works import entry_stage as version_stage
from citekit.core.model import Entry, Ids
from citekit.core.text import normalize_title

ADAM = "Adam: A Method for Stochastic Optimization"


def entry(key: str, title: str, author: str, year: str = "2015", kind: str = "inproceedings", ids: Ids | None = None,
          **fields: str) -> Entry:
    f = {"title": title, "author": author, "year": year, **fields}
    if kind == "inproceedings" and "booktitle" not in f and "journal" not in f:
        f["booktitle"] = "International Conference on Learning Representations"
    return Entry(key=key, entry_type=kind, fields=f, ids=ids or Ids())


def preprint(key: str, title: str, author: str, year: str, arxiv: str) -> Entry:
    return Entry(key=key, entry_type="article",
                 fields={"title": title, "author": author, "year": year, "journal": f"arXiv preprint arXiv:{arxiv}"},
                 ids=Ids(arxiv=arxiv))


# ---- same work -------------------------------------------------------------------------------

def test_preprint_and_proceedings_version_are_one_work() -> None:
    pub = entry("kingma2015adam", ADAM, "Kingma, Diederik P. and Ba, Jimmy")
    pre = preprint("kingma2014adam", "Adam: a method for stochastic optimization", "Diederik P Kingma and Jimmy Ba", "2014", "1412.6980")
    assert same_work(pub, pre)


def test_arxiv_doi_on_the_preprint_does_not_veto_the_published_doi() -> None:
    pub = entry("a", ADAM, "Kingma, D. P. and Ba, J.", ids=Ids(doi="10.5555/iclr.2015.adam"), doi="10.5555/iclr.2015.adam")
    pre = Entry(key="b", entry_type="misc",
                fields={"title": ADAM, "author": "Kingma, Diederik and Ba, Jimmy", "year": "2014", "doi": "10.48550/arXiv.1412.6980"},
                ids=Ids(doi="10.48550/arxiv.1412.6980", arxiv="1412.6980"))
    assert same_work(pub, pre)


def test_two_different_publisher_dois_are_two_works() -> None:
    a = entry("a", "Band structure of core-shell nanowires", "Pistol, M.-E. and Pryor, C. E.", "2008",
              kind="article", journal="Phys. Rev. B", ids=Ids(doi="10.1103/physrevb.78.115319"))
    b = entry("b", "Band structure of core-shell nanowires", "Pistol, M.-E. and Pryor, C. E.", "2008",
              kind="article", journal="Phys. Rev. B", ids=Ids(doi="10.1103/physrevb.80.035316"))
    assert same_work(a, b) is None


def test_shared_identifier_wins_over_a_changed_title() -> None:
    workshop = entry("compute2025", "Compute When Worth It: Risk Control for Reasoning on a Compute Budget",
                     "Smith, Ann and Lee, Bo", "2025", kind="misc", ids=Ids(arxiv="2510.01234"))
    paper = entry("conformal2026", "Conformal Thinking: Risk Control for Reasoning on a Compute Budget",
                  "Smith, Ann and Lee, Bo and Park, Chan", "2026", ids=Ids(arxiv="2510.01234"))
    assert "arXiv id" in same_work(workshop, paper)


def test_identifier_pasted_onto_an_unrelated_entry_is_not_trusted() -> None:
    # Reference managers copy a stale arXiv id onto other records (seen in real libraries).
    a = entry("choi", "Exploiting the colloidal nanocrystal library to construct electronic devices",
              "Choi, J.-H. and Kagan, Cherie R", "2016", kind="article", journal="Science", ids=Ids(arxiv="1011.1669"))
    b = entry("koma", "Van der Waals epitaxy for highly lattice-mismatched systems", "Koma, Atsushi", "1999",
              kind="article", journal="J. Cryst. Growth", ids=Ids(arxiv="1011.1669"))
    assert same_work(a, b) is None


def test_author_spellings_still_match() -> None:
    a = entry("a", "Deep Residual Learning for Image Recognition",
              "He, Kaiming and Zhang, Xiangyu and Ren, Shaoqing and Sun, Jian", "2016")
    b = entry("b", "Deep residual learning for image recognition.", "K. He and X. Zhang and S. Ren and J. Sun", "2016")
    assert same_work(a, b)


def test_family_first_accents_and_two_word_family_names_match() -> None:
    (mine,), _ = parse_authors("Monzio Compagnoni, Enea")
    (theirs,), _ = parse_authors("Enea Monzio Compagnoni")
    assert same_person(mine, theirs)
    (a,), _ = parse_authors("Horv{\\'a}th, Samuel")
    (b,), _ = parse_authors("Samuel Horváth")
    assert same_person(a, b)
    (c,), _ = parse_authors("Tanaka Tsunehiko")
    (d,), _ = parse_authors("Tsunehiko Tanaka")
    assert same_person(c, d)


def test_a_dropped_author_is_still_the_same_work() -> None:
    a = entry("a", "Lions and Muons: Optimization via Stochastic Frank-Wolfe", "Sfyraki, M. and Wang, J. and Doe, A.", "2026")
    b = entry("b", "Lions and {Muons}: Optimization via Stochastic {Frank--Wolfe}", "Sfyraki, Maria and Wang, Jun", "2026")
    assert same_work(a, b)


def test_title_typo_is_tolerated() -> None:
    a = entry("a", "Step-Size Stability in Stochastic Optimization: A Theoretical Perspective", "Schaipp, Fabian and Gower, Robert M.", "2026")
    b = entry("b", "Step-Size Stabilty in Stochastic Optimisation: A Theoretical Perspective", "Schaipp, F. and Gower, R. M.", "2026")
    assert same_work(a, b)


# ---- not the same work ----------------------------------------------------------------------------

def test_part_one_and_part_two_are_different_works() -> None:
    a = entry("a", "Phänomenologische Theorie der Kristallabscheidung an Oberflächen. I", "Bauer, Ernst", "1958", kind="article", journal="Z. Kristallogr.")
    b = entry("b", "Phänomenologische Theorie der Kristallabscheidung an Oberflächen. II", "Bauer, Ernst", "1958", kind="article", journal="Z. Kristallogr.")
    assert same_work(a, b) is None
    c = entry("c", "Convex optimization, Part 1", "Doe, Jane", "2020")
    d = entry("d", "Convex optimization, Part 2", "Doe, Jane", "2020")
    assert same_work(c, d) is None


def test_erratum_is_not_the_paper() -> None:
    paper = entry("a", "Dielectric GaAs antenna ensuring an efficient broadband coupling", "Munsch, M. and Claudon, J.", "2013", kind="article", journal="PRL")
    erratum = entry("b", "Erratum: Dielectric GaAs antenna ensuring an efficient broadband coupling", "Munsch, M. and Claudon, J.", "2013", kind="article", journal="PRL")
    assert same_work(paper, erratum) is None


def test_homonym_by_other_authors_is_another_work() -> None:
    a = entry("vaswani", "Attention is all you need", "Vaswani, Ashish and Shazeer, Noam and Parmar, Niki", "2017")
    b = entry("other", "Attention Is All You Need", "Rossi, Paolo and Bianchi, Carla", "2017", kind="article", journal="Some Journal")
    assert same_work(a, b) is None


def test_thesis_is_not_the_paper_from_it() -> None:
    paper = entry("p", "Scalable Bayesian inference for deep networks", "Ng, Wei", "2020")
    thesis = Entry(key="t", entry_type="phdthesis",
                   fields={"title": "Scalable Bayesian inference for deep networks", "author": "Ng, Wei", "year": "2020", "school": "MIT"})
    assert same_work(paper, thesis) is None


def test_workshop_and_journal_paper_with_different_author_sets_are_different() -> None:
    workshop = entry("w", "Learning rate warmup for adaptive methods", "Liu, A. and Kim, B.", "2021", booktitle="ICML Workshop on Optimization")
    journal = entry("j", "Learning rate warmup for adaptive methods", "Liu, A. and Garcia, C. and Novak, D.", "2021", kind="article", journal="TMLR")
    assert same_work(workshop, journal) is None


def test_two_published_versions_years_apart_are_two_works() -> None:
    a = entry("nelson1999", "Impact ionization of excitons in an electric field in GaN", "Nelson, D. K. and Gil, Bernard", "1999", kind="article", journal="Phys. Status Solidi B")
    b = entry("nelson2001", "Impact ionization of excitons in an electric field in GaN", "Nelson, D and Gil, Bernard", "2001", kind="article", journal="J. Phys. Condens. Matter")
    assert same_work(a, b) is None


def test_markers_read_numbers_inside_words() -> None:
    assert title_markers(normalize_title("InAs/Al$_x$In$_{1-x}$As core-shell")) == title_markers(normalize_title("InAs/AlxIn1-xAs core-shell"))
    assert title_markers(normalize_title("SemEval-2017 Task 4")) != title_markers(normalize_title("SemEval-2016 Task 4"))
    assert "erratum" in title_markers(normalize_title("Corrigendum to: a paper"))


# ---- stages ------------------------------------------------------------------------------------

def test_version_stage_reads_bibtex_fields() -> None:
    assert version_stage(entry("a", "T", "A, B", kind="article", journal="Journal of Machine Learning Research")) == "published"
    assert version_stage(preprint("b", "T", "A, B", "2020", "2001.00001")) == "preprint"
    assert version_stage(Entry("c", "article", {"title": "T", "journal": "CoRR", "volume": "abs/1909.05311"})) == "preprint"
    assert version_stage(Entry("d", "article", {"title": "T", "journal": "ArXiv", "volume": "abs/1909.05311"})) == "preprint"
    assert version_stage(Entry("e", "inproceedings", {"title": "T", "booktitle": "NeurIPS", "note": "To appear"})) == "accepted"
    assert version_stage(Entry("f", "misc", {"title": "T"})) == "notes"


# ---- normalisation and blocking ------------------------------------------------------------------

def test_plain_name_drops_accent_commands_only() -> None:
    assert plain_name("Ko{\\v{c}}isk{\\'y}, Tom{\\'a}{\\v{s}}") == "Kocisky, Tomas"
    assert plain_name("Lo{\\\"\\i}c") == "Loic"
    assert plain_name("{\\O}stergaard, J{\\o}rn") == "Ostergaard, Jorn"


def test_blocking_finds_typo_pairs_hidden_among_thousands() -> None:
    rng = random.Random(3)
    vocab = sorted({"".join(rng.choice("abcdefghklmnoprstu") for _ in range(7)) for _ in range(3000)})
    entries = []
    for i in range(3000):
        title = " ".join(rng.sample(vocab, 6))
        entries.append(entry(f"e{i}", title, f"Author{i}, A.", "2020"))
    planted = []
    for i in range(0, 3000, 100):
        original = entries[i]
        t = original.title
        typo = t[:3] + t[4] + t[3] + t[5:]  # swap two letters in the first word
        entries.append(entry(f"e{i}dup", typo, original.fields["author"], "2020"))
        planted.append((f"e{i}", f"e{i}dup"))
    clusters = find_clusters(entries)
    found = {tuple(c.keys) for c in clusters}
    assert found == set(planted)
    records = [Record(i, e) for i, e in enumerate(entries)]
    assert len(candidate_pairs(records)) < 3 * len(entries)  # far from the 4.6M of all pairs


def test_clusters_are_deterministic_and_keep_first_on_a_tie() -> None:
    a = entry("first", ADAM, "Kingma, D. and Ba, J.")
    b = entry("second", ADAM + ".", "Kingma, Diederik and Ba, Jimmy")
    (cluster,) = find_clusters([a, b])
    assert cluster.keys == ["first", "second"] and cluster.kept == "first"
    (again,) = find_clusters([b, a])
    assert again.kept == "second"


def test_best_version_survives_over_issue_order() -> None:
    pre = preprint("kingma2014adam", ADAM, "Kingma, D. and Ba, J.", "2014", "1412.6980")
    pub = entry("kingma2015adam", ADAM, "Kingma, D. and Ba, J.")
    (cluster,) = find_clusters([pre, pub])
    assert cluster.kept == "kingma2015adam"
    assert cluster.to_json() == {"keys": ["kingma2014adam", "kingma2015adam"], "kept": "kingma2015adam",
                                 "reason": cluster.reason}
