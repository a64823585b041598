"""A remark in sentences that links only a repository (how someone ran the code) is no
title, however many capitals it holds; the papers it cites in it are read as in any sentence."""

from __future__ import annotations

from tests.helpers_extract import api_mentions as _mentions


def test_a_remark_in_sentences_with_a_code_link_cites_its_papers(tmp_path):
    text = ("## Week 3\n\n"
            "- Ana ran the baseline with PyG's `GATConv` ([https://github.com/pyg-team/pytorch_geometric](https://github.com/pyg-team/pytorch_geometric)) "
            "on Cora, 3 seeds. Had to add DropEdge (Rong et al., 2020) to stop it oversmoothing, as the GCNII paper (Chen et al. 2020) suggests\n")
    got = [(m.kind, m.title, m.authors, m.year) for m in _mentions(tmp_path, "notes.md", text)]
    assert got == [("cited", None, ["Rong"], 2020), ("cited", None, ["Chen"], 2020)]

