"""A plain ``citekit sync`` on a machine without a network: it stops asking once the network
is plainly gone (fast, like ``--offline``), and runs that learn nothing new leave
``library.yaml`` as it was, whichever way they ran."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from citekit import api

#: made-up papers under a conference heading: the paper list is asked first, then a few
#: of them elsewhere in its place when the list cannot be read
NOTES = "# ICML 2026\n\n" + "".join(
    f"- {title} #demo\n  - Authors: {authors}\n" for title, authors in (
        ("Quiet Gradients for Loud Models", "Ines Varga, Tomas Lindqvist"),
        ("Sparse Echoes in Recurrent Memory", "Aiko Tanabe, Rui Costa"),
        ("A Ledger of Learning Rates", "Marta Kowal, Eli Brenner"),
        ("Folding Attention Maps into Trees", "Sven Aaltonen, Priya Raman"),
        ("Warm Starts Without Warm-Up", "Lucia Ferri, Omar Haddad"),
        ("Counting Curvature on a Budget", "Hana Novak, Jonas Weber"),
        ("Low-Rank Drift in Optimizer States", "Keiko Mori, Paul Durand"),
        ("When Momentum Forgets", "Nadia Petrova, Luis Ortega"),
    ))


def _no_dns(host, *args, **kwargs):
    """The resolver of a machine without a network: every name outside it fails."""
    if str(host) in ("localhost", "127.0.0.1", "::1"):
        return socket._real_getaddrinfo(host, *args, **kwargs)  # type: ignore[attr-defined]
    raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")


@pytest.fixture
def offline_machine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    import tests.conftest as guard

    monkeypatch.setattr(socket, "_real_getaddrinfo", guard._real_getaddrinfo, raising=False)
    monkeypatch.setattr(socket, "getaddrinfo", _no_dns)
    monkeypatch.setenv("CITEKIT_CACHE_DIR", str(tmp_path / "cache"))
    for name in ("OPENREVIEW", "CROSSREF", "DBLP", "ARXIV", "WEB", "ICML", "NEURIPS", "ICLR", "MLSYS"):
        monkeypatch.delenv(f"CITEKIT_{name}_URL", raising=False)
    root = tmp_path / "proj"
    (root / "notes").mkdir(parents=True)
    (root / "citekit.yaml").write_text("# no network here\n", encoding="utf-8")
    (root / "notes" / "icml.md").write_text(NOTES, encoding="utf-8")
    return root


def test_a_sync_without_a_network_stops_asking_and_rewrites_nothing(offline_machine: Path) -> None:
    root = offline_machine
    first = api.sync(root)
    assert first.offline and first.counts.get("notes-only") == 8
    # the second service whose name does not resolve settles it: no service is asked again,
    # and none is retried (7 requests before)
    assert first.requests <= 3, first.requests
    written = (root / "refs" / "library.yaml").read_bytes()
    assert b"asked elsewhere" not in written  # nothing was reachable, so nothing was asked in its place
    for offline in (True, False, True, False):
        api.sync(root, offline=offline)
        assert (root / "refs" / "library.yaml").read_bytes() == written, f"offline={offline}"
