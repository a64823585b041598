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
