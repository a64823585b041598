"""One failure, one scope: a conference site that cannot be reached (no DNS, connection
refused) costs only its own venue-year's list; every other list stays in use, the failure is
one plain sentence, it is remembered for a few minutes, and no other service is asked
beyond its limit in its place."""

from __future__ import annotations

import socket

import pytest

from citekit.core.model import Location
from citekit.core.resolution import Mention
from citekit.resolve.pipeline import resolve_groups
from citekit.sources import SourceSettings, build_client, build_sources, open_cache
from citekit.sources.base import SourceError, SourceUnavailable
from citekit.sources.conferences import skipped_sentence

from .fakeservices.world import World

WORLD = World.load()
ICML = WORLD.papers[:3]


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _sources(fake, iclr_url: str, cache_dir):
    env = dict(fake.env(), CITEKIT_RATE_LIMITS="off", CITEKIT_ICLR_URL=iclr_url)
    settings = SourceSettings.from_env({}, ".", env=env)
    settings.cache_dir = cache_dir
    settings.retries = 1
    client = build_client(settings)
    return build_sources(settings, client=client, cache=open_cache(settings))


def _groups():
    icml = [[Mention(kind="titled", location=Location("notes/trip.md", i + 1), title=p["title"],
                     authors=list(p["authors"][:3]), venue="ICML", year=2026)] for i, p in enumerate(ICML)]
    iclr = [[Mention(kind="titled", location=Location("notes/trip.md", 20), title="Deep Nets of 2019 We Liked",
                     authors=["Some One"], venue="ICLR", year=2019)]]
    return icml + iclr


@pytest.mark.parametrize("how, cause", [("dns", "DNS"), ("refused", "connection refused")])
def test_an_unreachable_conference_site_skips_only_its_own_list(fake_services, tmp_path, monkeypatch, how, cause):
    guarded = socket.getaddrinfo

    def no_such_host(host, *args, **kwargs):  # the resolver's answer for a name that does not exist
        if host == "iclr-site.invalid":
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return guarded(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", no_such_host)
    url = "http://iclr-site.invalid" if how == "dns" else f"http://127.0.0.1:{_closed_port()}"
    host = url.split("//")[1]
    report = resolve_groups(_groups(), _sources(fake_services, url, tmp_path / "cache"))
    # the ICML list was still used: its papers resolve
    assert [w.status for w in report.works[:3]] == ["resolved"] * 3, [w.reason for w in report.works]
    assert fake_services.requests("conferences") >= 1
    sentence = f"{host} unreachable ({cause}): the ICLR 2019 paper list was skipped; 1 mention left pending"
    assert any(sentence in p for p in report.problems), report.problems
    assert not any("ConnectionPool" in p or "Error(" in p for p in report.problems), report.problems
    # no fallback multiplies requests: one search per service at most for the skipped paper
    assert fake_services.requests("openreview") <= len(_groups())
    assert fake_services.refused("openreview") == 0
    # remembered for a few minutes: a second run does not try the dead site again
    fake_services.clear()
    again = resolve_groups(_groups(), _sources(fake_services, url, tmp_path / "cache"))
    assert any(sentence.split(" (")[0] in p for p in again.problems), again.problems


@pytest.mark.parametrize("err, cause, state", [
    (SourceUnavailable("iclr", "x", cause="no network (the host name does not resolve)"), "DNS", "unreachable"),
    (SourceUnavailable("iclr", "x", cause="connection refused"), "connection refused", "unreachable"),
    (SourceError("iclr", "request failed after 3 attempts (read timed out); run sync again later"), "timeout",
     "unreachable"),
    (SourceError("iclr", "HTTP 503"), "HTTP 503", "failed"),
    (SourceError("iclr", "HTTP 429"), "HTTP 429", "failed"),
])
def test_each_failure_is_one_plain_sentence(err, cause, state):
    line = skipped_sentence("https://iclr.cc", "iclr", 2019, err, 2)
    assert line == f"iclr.cc {state} ({cause}): the ICLR 2019 paper list was skipped; 2 mentions left pending"


_ADJ = ("Sparse", "Robust", "Lazy", "Curious", "Frugal")
_NOUN = ("Widget Networks", "Lattice Critics", "Hollow Planners", "Ribbon Encoders", "Tidal Memories")
_PEOPLE = ("Ana Silva", "Bo Chen", "Cleo Park", "Dev Rao", "Eli Moss")


def _many_iclr_notes() -> str:
    """Twenty-five ICLR 2019 references no service knows, and three ICML 2026 papers of the list."""
    lines = ["Papers I liked", ""]
    lines += [f"• {_PEOPLE[i]}, {_PEOPLE[j]} Jr. {a} {n} Learn to Count Pebbles. ICLR 2019."
              for i, a in enumerate(_ADJ) for j, n in enumerate(_NOUN)]
    lines += [f"• {', '.join(p['authors'][:2])}. {p['title']}. ICML 2026." for p in ICML]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("how, cause", [("dns", "DNS"), ("refused", "connection refused")])
def test_a_dead_site_with_many_mentions_costs_a_few_requests_not_minutes(fake_services, tmp_path, monkeypatch, how,
                                                                        cause):
    """Twenty-five mentions of the dead site's list: only a handful are asked of the other
    services in its place (a budget per service, OpenReview never past its limit), the rest
    are left pending, said in the list's one sentence; the ICML list's papers resolve."""
    import json
    import time

    from click.testing import CliRunner

    from citekit.cli import main
    from citekit.resolve.fallback import FALLBACK_WORKS

    guarded = socket.getaddrinfo

    def no_such_host(host, *args, **kwargs):
        if host == "iclr-site.invalid":
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return guarded(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", no_such_host)
    url = "http://iclr-site.invalid" if how == "dns" else f"http://127.0.0.1:{_closed_port()}"
    monkeypatch.setenv("CITEKIT_ICLR_URL", url)
    monkeypatch.setenv("CITEKIT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("CITEKIT_MAILTO", "researcher@example.org")
    fake_services.latency = 0.02
    fake_services.real_limits()  # the services' limits as shipped: OpenReview 20 a minute
    root = tmp_path / "proj"
    (root / "notes").mkdir(parents=True)
    (root / "citekit.yaml").write_text("# test project\n", encoding="utf-8")
    (root / "notes" / "papers.txt").write_text(_many_iclr_notes(), encoding="utf-8")

    start = time.monotonic()
    result = CliRunner().invoke(main, ["-C", str(root), "sync", "--json"])
    elapsed = time.monotonic() - start
    data = json.loads(result.output)
    host = url.split("//")[1]
    said = {p for p in data["problems"] + data["source_problems"] + data["notices"] if "paper list was skipped" in p}
    assert said == {f"conferences: {host} unreachable ({cause}): the ICLR 2019 paper list was skipped; "
                    "25 mentions left pending"}, said
    # the other list stayed in use: its papers resolve, with no request of their own
    assert data["counts"]["resolved"] == len(ICML), data["works_detail"]
    # a few requests per service in the list's place, never one per mention
    for service in ("openreview", "dblp", "crossref"):
        assert fake_services.requests(service) <= FALLBACK_WORKS, (service, fake_services.requests(service))
    assert fake_services.requests("arxiv") <= 1
    assert fake_services.refused("openreview") == 0
    assert elapsed < 30, elapsed  # seconds, not the minutes twenty-five OpenReview searches take
    left = [w for w in data["works_detail"] if "not looked up" in w["reason"]]
    assert len(left) == 25 - FALLBACK_WORKS, [w["reason"] for w in data["works_detail"]]
    assert all("the ICLR 2019 paper list was skipped" in w["reason"] and "next sync" in w["reason"] for w in left)
    asked = [w for w in data["works_detail"] if "no other source knows this title" in w["reason"]]
    assert len(asked) == FALLBACK_WORKS and all("the ICLR 2019 paper list was skipped" in w["reason"] for w in asked)


def test_with_the_budget_spent_a_noted_arxiv_id_still_resolves_and_nothing_else_is_asked(fake_services, tmp_path,
                                                                                        monkeypatch):
    """The notes' own arXiv ids were fetched in one batch before the works: a work whose list
    was skipped takes its record from there even when no lookup elsewhere is left to it."""
    import json

    from click.testing import CliRunner

    from citekit.cli import main
    from citekit.resolve import fallback

    monkeypatch.setattr(fallback, "FALLBACK_WORKS", 0)
    monkeypatch.setenv("CITEKIT_ICLR_URL", f"http://127.0.0.1:{_closed_port()}")
    monkeypatch.setenv("CITEKIT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("CITEKIT_RATE_LIMITS", "off")
    root = tmp_path / "proj"
    (root / "notes").mkdir(parents=True)
    (root / "citekit.yaml").write_text("# test project\n", encoding="utf-8")
    lines = [f"• {_PEOPLE[i]}, {_PEOPLE[i + 1]}. {_ADJ[i]} {_NOUN[i]} Learn to Count Pebbles. ICLR 2019." for i in range(3)]
    lines.append("• Benjamin Thérien, Xiaolong Huang. MuLoCo: Muon is a practical inner optimizer for DiLoCo. "
                 "ICLR 2019. arXiv:2505.23725")
    (root / "notes" / "papers.txt").write_text("Papers I liked\n\n" + "\n".join(lines) + "\n", encoding="utf-8")
    data = json.loads(CliRunner().invoke(main, ["-C", str(root), "sync", "--json"]).output)
    muloco = next(w for w in data["works_detail"] if "MuLoCo" in w["title"])
    assert muloco["status"] == "resolved" and muloco["chosen"]["id"] == "2505.23725", muloco
    assert [fake_services.requests(s) for s in ("openreview", "dblp", "crossref")] == [0, 0, 0]
    assert sum(1 for w in data["works_detail"] if w["reason"].startswith("not looked up")) == 3
    said = data["problems"] + data["source_problems"] + data["notices"]
    assert any(p.endswith("the ICLR 2019 paper list was skipped; 3 mentions left pending") for p in said), said
