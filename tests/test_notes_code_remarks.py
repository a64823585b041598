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



def test_a_reference_with_its_implementation_linked_in_a_remark_is_a_paper() -> None:
    # the code link comes after the reference's sentence, in a remark on the paper ("impl
    # in [repo](…)"): the paper's implementation, not a reference to software
    from citekit.notes.extract import extract_text

    text = ("- GNR — Mensah et al. 2022 “Gated Noise for Sparse Mixture Routers”. noise + top-2 gating. "
            "impl in [gnr-torch](https://github.com/example-lab/gnr-torch)\n"
            "- PEFTX — Mensah et al. 2022. PEFTX: parameter-efficient tuning methods. https://github.com/example-lab/peftx\n")
    got = [(m.title, m.authors, m.year) for m in extract_text(text, "notes.md").mentions]
    assert got == [("Gated Noise for Sparse Mixture Routers", ["Mensah"], 2022)]
