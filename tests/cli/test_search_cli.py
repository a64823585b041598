"""``citekit search`` and the filters of ``citekit list``, end to end through the CLI on a
library built in the test by importing a .bib file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from citekit.cli import main

BIB = r"""
@inproceedings{foret2021sharpness,
  title = {Sharpness-Aware Minimization for Efficiently Improving Generalization},
  author = {Foret, Pierre and Kleiner, Ariel and Mobahi, Hossein and Neyshabur, Behnam},
  booktitle = {International Conference on Learning Representations},
  year = {2021},
  abstract = {In today's heavily overparameterized models, the value of the training loss provides few guarantees.}
}
@inproceedings{islamov2024loss,
  title = {Loss Landscape Characterization of Neural Networks without Over-Parametrization},
  author = {Islamov, Rustem and Ajroldi, Niccol{\`o} and Orvieto, Antonio and Lucchi, Aurelien},
  booktitle = {Advances in Neural Information Processing Systems},
  year = {2024}
}
@inproceedings{islamov2025asgrad,
  title = {{AsGrad}: A Sharp Unified Analysis of Asynchronous-{SGD} Algorithms},
  author = {Islamov, Rustem and Safaryan, Mher and Alistarh, Dan},
  booktitle = {Proceedings of the 42nd International Conference on Machine Learning},
  year = {2025}
}
@article{horvath2026muon,
  title = {On the Convergence of {Muon} under Heavy-Tailed Noise},
  author = {Horv{\'a}th, Samuel and others},
  journal = {Transactions on Machine Learning Research},
  year = {2026},
  abstract = {We study sharpness and the landscape of the loss for the Muon optimizer.}
}
@misc{jordan2024muon,
  title = {Muon: An optimizer for hidden layers in neural networks},
  author = {Jordan, Keller},
  year = {2024},
  howpublished = {Blog post}
}
"""


def run(root: Path, *args: str):
    return CliRunner().invoke(main, ["-C", str(root), *args])


@pytest.fixture(scope="module")
def root(tmp_path_factory) -> Path:
    """A project whose library was imported from :data:`BIB`, one entry tagged by hand."""
    root = tmp_path_factory.mktemp("search") / "proj"
    (root / "notes").mkdir(parents=True)
    (root / "citekit.yaml").write_text("# a test project\n", encoding="utf-8")
    (root / "old.bib").write_text(BIB, encoding="utf-8")
    result = run(root, "import", str(root / "old.bib"), "-q")
    assert result.exit_code == 0, result.output
    assert run(root, "tag", "jordan2024muon", "+muon").exit_code == 0
    return root


def keys_of(result) -> list[str]:
    assert result.exit_code == 0, result.output
    return [line.split()[0] for line in result.stdout.splitlines() if line.strip()]


def search_json(root: Path, *query: str) -> dict:
    result = run(root, "search", *query, "--json")
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.stdout)


def test_words_are_ranked_title_before_abstract(root: Path) -> None:
    hits = search_json(root, "sharpness")["results"]
    assert [h["key"] for h in hits][:1] == ["foret2021sharpness"]  # in the title
    assert "horvath2026muon" in [h["key"] for h in hits]  # only in the abstract: found, ranked lower
    assert hits[0]["score"] > hits[-1]["score"] > 0


def test_all_words_must_match_and_plurals_and_case_do_not_matter(root: Path) -> None:
    assert keys_of(run(root, "search", "MUON", "Optimizers")) == ["jordan2024muon", "horvath2026muon"]
    assert run(root, "search", "muon", "asynchronous").exit_code == 1


def test_a_bare_word_finds_authors_too(root: Path) -> None:
    assert set(keys_of(run(root, "search", "islamov"))) == {"islamov2024loss", "islamov2025asgrad"}


def test_accents_and_latex_are_folded(root: Path) -> None:
    for query in ("author:horvath", "author:Horváth", "author:HORVATH"):
        assert keys_of(run(root, "search", query)) == ["horvath2026muon"], query
    assert keys_of(run(root, "search", "author:niccolo")) == ["islamov2024loss"]
    assert keys_of(run(root, "search", "asgrad", "sgd")) == ["islamov2025asgrad"]  # braces are no words


def test_year_filters(root: Path) -> None:
    assert set(keys_of(run(root, "search", "author:islamov", "year:2024"))) == {"islamov2024loss"}
    assert set(keys_of(run(root, "search", "year:2024..2025"))) == {"islamov2024loss", "islamov2025asgrad",
                                                                   "jordan2024muon"}
    assert set(keys_of(run(root, "search", "year:2025.."))) == {"islamov2025asgrad", "horvath2026muon"}
    assert keys_of(run(root, "search", "year:..2021")) == ["foret2021sharpness"]
    # a query of filters only lists the newest first
    assert keys_of(run(root, "search", "author:islamov")) == ["islamov2025asgrad", "islamov2024loss"]


def test_venue_tag_status_and_key_filters(root: Path) -> None:
    assert keys_of(run(root, "search", "venue:icml")) == ["islamov2025asgrad"]  # from the long name
    assert keys_of(run(root, "search", "venue:iclr")) == ["foret2021sharpness"]
    assert keys_of(run(root, "search", 'venue:"neural information"')) == ["islamov2024loss"]
    assert keys_of(run(root, "search", "tag:muon")) == ["jordan2024muon"]
    assert keys_of(run(root, "search", "muon", "tag:-muon")) == ["horvath2026muon"]
    assert keys_of(run(root, "search", "key:FORET")) == ["foret2021sharpness"]
    status = search_json(root, "key:foret")["results"][0]["status"]
    assert keys_of(run(root, "search", "key:foret", f"status:{status}")) == ["foret2021sharpness"]
    assert run(root, "search", "key:foret", "status:ambiguous").exit_code == 1


def test_quoted_phrases_keep_their_order(root: Path) -> None:
    assert keys_of(run(root, "search", '"landscape characterization"')) == ["islamov2024loss"]
    assert run(root, "search", '"characterization landscape"').exit_code == 1
    assert keys_of(run(root, "search", '"neural networks" islamov')) == ["islamov2024loss"]


def test_json_shape_limit_and_quiet(root: Path) -> None:
    data = search_json(root, "muon", "--limit", "1")
    assert set(data) == {"query", "total", "shown", "results", "pending", "found"} and data["found"] is True
    assert data["query"] == "muon" and data["total"] == 2 and data["shown"] == 1
    row = data["results"][0]
    assert {"key", "title", "authors", "authors_incomplete", "year", "venue", "tags", "status", "score"} <= set(row)
    horvath = search_json(root, "key:horvath")["results"][0]
    assert horvath["authors"] == ["Horváth, Samuel"] and horvath["authors_incomplete"] is True
    quiet = run(root, "search", "muon", "-q")
    assert quiet.exit_code == 0 and "match" not in quiet.stderr
    loud = run(root, "search", "muon", "-n", "1")
    assert "2 entries match (the best 1" in loud.stderr


def test_nothing_matching_is_exit_1_and_a_bad_filter_exit_2(root: Path) -> None:
    result = run(root, "search", "zebra")
    assert result.exit_code == 1 and "nothing matches" in result.stderr
    bad = run(root, "search", "year:20x4")
    assert bad.exit_code == 2 and "year:2024..2026" in bad.stderr


def test_list_has_the_same_filters(root: Path) -> None:
    assert keys_of(run(root, "list", "--author", "islamov", "--year", "2025..", "-q")) == ["islamov2025asgrad"]
    assert keys_of(run(root, "list", "--venue", "icml", "-q")) == ["islamov2025asgrad"]
    assert keys_of(run(root, "list", "--key", "jordan", "--tag", "muon", "-q")) == ["jordan2024muon"]
    rows = json.loads(run(root, "list", "--author", "horváth", "--json").stdout)
    assert [r["key"] for r in rows] == ["horvath2026muon"]
    none = run(root, "list", "--author", "nobody")
    assert none.exit_code == 1 and "--author nobody" in none.stderr
    assert run(root, "list", "--year", "soon").exit_code == 2


def test_a_warm_search_parses_nothing_and_a_change_is_seen(tmp_path: Path, monkeypatch) -> None:
    root = tmp_path / "proj"
    (root / "notes").mkdir(parents=True)
    (root / "citekit.yaml").write_text("# a test project\n", encoding="utf-8")
    (root / "a.bib").write_text(BIB, encoding="utf-8")
    assert run(root, "import", str(root / "a.bib"), "-q").exit_code == 0
    assert keys_of(run(root, "search", "muon", "-q"))  # builds the terms and the index
    from citekit.library.store.cache.library import CachedLibrary

    def no_parse(*args, **kwargs):
        raise AssertionError("a warm search parsed the library")

    with monkeypatch.context() as patch:
        patch.setattr(CachedLibrary, "_parse", classmethod(no_parse))
        assert set(keys_of(run(root, "search", "muon", "-q"))) == {"jordan2024muon", "horvath2026muon"}
    (root / "b.bib").write_text("@article{liu2025muon, title = {Muon is Scalable for LLM Training},"
                                " author = {Liu, Jingyuan}, journal = {arXiv}, year = {2025}}\n", encoding="utf-8")
    assert run(root, "import", str(root / "b.bib"), "-q").exit_code == 0
    assert "liu2025muon" in keys_of(run(root, "search", "muon", "-q"))
    assert keys_of(run(root, "search", "scalable", "-q")) == ["liu2025muon"]


def test_edits_after_the_index_was_built_are_searched(tmp_path: Path) -> None:
    """A write after the index was stored patches it (the changed entries scored beside
    it); a hand edit of library.bib is seen too; nothing stale is found."""
    root = tmp_path / "proj"
    (root / "notes").mkdir(parents=True)
    (root / "citekit.yaml").write_text("# a test project\n", encoding="utf-8")
    (root / "a.bib").write_text(BIB, encoding="utf-8")
    assert run(root, "import", str(root / "a.bib"), "-q").exit_code == 0
    assert keys_of(run(root, "search", "asynchronous", "-q")) == ["islamov2025asgrad"]
    assert run(root, "tag", "islamov2025asgrad", "+async").exit_code == 0
    assert keys_of(run(root, "search", "asynchronous", "tag:async", "-q")) == ["islamov2025asgrad"]
    assert search_json(root, "asynchronous")["results"][0]["tags"] == ["async"]
    bib = root / "refs" / "library.bib"
    text = bib.read_text(encoding="utf-8")
    assert "Asynchronous-{SGD}" in text
    bib.write_text(text.replace("Asynchronous-{SGD}", "Decentralized-{SGD}"), encoding="utf-8")
    assert run(root, "search", "asynchronous").exit_code == 1
    assert keys_of(run(root, "search", "decentralized", "sgd", "-q")) == ["islamov2025asgrad"]


def test_phrases_read_the_remembered_words_when_many_entries_match(root: Path, monkeypatch) -> None:
    from citekit.library.search import index

    few = keys_of(run(root, "search", '"neural networks"', "-q"))
    monkeypatch.setattr(index, "FEW_FOR_PHRASE", 0)
    assert keys_of(run(root, "search", '"neural networks"', "-q")) == few
    assert set(few) == {"islamov2024loss", "jordan2024muon"}
    assert run(root, "search", '"networks neural"').exit_code == 1


def test_the_python_api_gives_what_the_command_prints(root: Path) -> None:
    from citekit import api

    found = api.search_library("author:islamov year:2024..", root)
    assert found.to_json() == search_json(root, "author:islamov", "year:2024..")
    rows = api.list_json(root, author="islamov", year="2025")
    assert [r["key"] for r in rows] == ["islamov2025asgrad"]


@pytest.mark.parametrize("query, message", [
    ("tags:muon", "did you mean tag:?"),
    ("venu:icml", "did you mean venue:?"),
    ("foo:bar", "unknown filter 'foo:'"),
    ("author:", "author: needs a value"),
    ("muon author:", "author: needs a value"),
    ("year:2026..2024", "runs backwards"),
])
def test_a_mistyped_filter_is_a_usage_error_that_says_what_to_write(root: Path, query: str, message: str) -> None:
    res = run(root, "search", query)
    assert res.exit_code == 2, res.output
    assert message in res.output


def test_an_identifier_with_a_colon_is_searched_as_text(root: Path) -> None:
    """arXiv:..., doi:... are words someone searches, not filters."""
    assert run(root, "search", "arxiv:2101.03961").exit_code == 1  # (no such text: nothing matches, not an error)


def test_the_notes_summary_is_searched(tmp_path: Path) -> None:
    """What the user wrote about a paper in the notes finds it."""
    root = tmp_path / "p"
    (root / "notes").mkdir(parents=True)
    (root / "citekit.yaml").write_text("# test\n", encoding="utf-8")
    (root / "notes" / "reading.md").write_text(
        "- Controlled LLM Training on Spectral Sphere\n  - Authors: Ann Xie, Bo Li\n"
        "  - Summary: a spectral sphere optimizer keeps weights on the sphere\n",
        encoding="utf-8")
    assert run(root, "sync", "--offline", "-q").exit_code in (0, 1)
    res = run(root, "search", '"spectral sphere" optimizer', "--json")
    assert res.exit_code == 0, res.output
    assert [r["title"] for r in json.loads(res.output)["results"]] == ["Controlled LLM Training on Spectral Sphere"]


@pytest.fixture(autouse=True)
def _index_built_at_once(monkeypatch) -> None:
    """The index a first search leaves to the background is built in the test's process."""
    monkeypatch.setenv("CITEKIT_SEARCH_INDEX", "now")


def test_a_search_without_the_index_ranks_exactly_as_the_index(tmp_path: Path) -> None:
    """Same query, same ordered keys and scores: scanned (no index) and from the index,
    on a generated library with LaTeX, accents, ``others``, plurals and ``and`` in names."""
    import random

    from citekit.core.model import Entry
    from citekit.library.search import parse_query, search
    from citekit.library.search.index import build_index, cold_scores, _scores
    from citekit.library.search.terms import query_words
    from citekit.library.store import Library

    rng = random.Random(7)
    vocab = ["quantum", "dots", "dot", "studies", "study", "optimizer", "optimizers", "{Muon}", "loss", "and",
             "Horv{\\'a}th", "Müller", "sharpness-aware", "$O(n)$", "100\\%", "graph_nets", "x", "andes"]
    names = ["Wang, Li", "M{\\\"u}ller, Hans", "Horváth, Samuel", "Anderson, Ann", "Li, X.", "Andy And", "others"]
    lib = Library(refs_dir=tmp_path / "refs")
    for i in range(400):
        authors = " and ".join(rng.sample(names, rng.randint(1, 3)))
        fields = {"title": " ".join(rng.choice(vocab) for _ in range(rng.randint(0, 8))),
                  "abstract": " ".join(rng.choice(vocab) for _ in range(rng.randint(0, 40))),
                  "author": authors, "year": str(2000 + i % 25),
                  rng.choice(["journal", "booktitle"]): rng.choice(["Physical Review B", "ICML", "Proc. {IEEE}"])}
        lib.entries[f"k{i}"] = Entry(key=f"k{i}", entry_type="article", fields=fields, status="resolved")
    lib.save()
    lib = Library.load(tmp_path / "refs")
    index = build_index(lib)
    for text in ["quantum dots", "study", "and", "muller", "horvath", "wang li", "optimizer loss", "o n", "graph",
                 "x", "andy", "ann", "review", "icml", "ieee", "100", "nothing"]:
        terms = list(dict.fromkeys(query_words(text)))
        assert cold_scores(lib, terms) == _scores(index, terms), text
    hits, _ = search(lib, parse_query("quantum author:wang"))
    assert hits == search(lib, parse_query("quantum author:wang"))[0]


def test_the_first_search_leaves_the_index_for_the_next(tmp_path: Path) -> None:
    import shutil

    root = tmp_path / "p"
    (root / "notes").mkdir(parents=True)
    (root / "citekit.yaml").write_text("# t\n", encoding="utf-8")
    bib = tmp_path / "in.bib"
    bib.write_text(BIB, encoding="utf-8")
    assert run(root, "import", str(bib)).exit_code == 0
    for path in (root / ".citekit").glob("*apart*"):
        path.unlink()
    first = search_json(root, "sharpness")
    assert list((root / ".citekit").glob("*apart*")), "the index is stored after a first search"
    assert search_json(root, "sharpness") == first
    shutil.rmtree(root / ".citekit")
