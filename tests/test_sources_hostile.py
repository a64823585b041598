"""Hostile networks, against the loopback fakes: every service, every kind of misbehaviour.

A truncated or junk answer, a redirect to another origin, or an answer that drips one byte
every few seconds is that service failing: retried, counted towards marking it down, said
once. Resolution finishes with what the other sources give, and attaches nothing wrongly.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from citekit.notes import extract_paths, group_mentions
from citekit.resolve.pipeline import resolve_groups
from citekit.sources import SourceSettings, build_client, build_sources, open_cache

from .fakeservices.world import World

REPO = Path(__file__).resolve().parents[1]
WORLD = World.load()
#: which paths of each service the bundled notes make citekit ask
SERVICES = ("conferences", "openreview", "crossref", "dblp", "arxiv")
MODES = ("junk", "truncated", "redirect", "drip")


def _groups():
    notes = REPO / "notes" / "notes-icml2026-trip-report.txt"
    if not notes.exists():
        pytest.skip("the bundled notes/ are missing from this checkout")
    groups = group_mentions(extract_paths([notes], REPO).mentions)
    # a slice with URL mentions (conference list), titled mentions without URLs and a preprint
    with_url = [g for g in groups if any("icml.cc/virtual" in u for m in g for u in m.urls)][:4]
    titled = [g for g in groups if g not in with_url and any(m.title for m in g)][:6]
    return with_url + titled


def _resolve(fake, groups, *, enabled):
    env = dict(fake.env(), CITEKIT_RATE_LIMITS="off")
    settings = SourceSettings.from_env({"sources": {"enabled": list(enabled), "timeout": 1.0}}, REPO, env=env)
    settings.cache_dir = None
    settings.retries = 1
    client = build_client(settings)
    client.sleep = lambda seconds: None
    return resolve_groups(groups, build_sources(settings, client=client, cache=open_cache(settings)), jobs=4)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("service", SERVICES)
def test_a_misbehaving_service_is_one_message_and_the_others_carry_on(fake_services, service, mode):
    groups = _groups()
    # the conference list answers nearly everything at once: to make each service work, it
    # is paired with one that finds preprints only (never settling a search on its own)
    enabled = {"conferences": SERVICES, "arxiv": ("dblp", "arxiv")}.get(service, (service, "arxiv"))
    fake_services.fail(service, mode, drip_interval=0.5)
    report = _resolve(fake_services, groups, enabled=enabled)
    lines = [p for p in report.problems if p.startswith(service)]
    assert len(lines) == 1, report.problems
    assert "Traceback" not in lines[0]
    expected = {"junk": "not complete", "truncated": "not complete", "redirect": "another site",
                "drip": "no complete answer"}[mode]
    assert expected in lines[0], lines[0]
    if mode == "drip":  # each dripping answer was cut off while still coming, not waited out
        drips = fake_services.drips(service)
        assert drips and all(sent < size for sent, size in drips), drips
    resolved = [w for w in report.works if w.status == "resolved"]
    assert len(resolved) >= 5, [w.reason for w in report.works]
    for work in resolved:  # what the other sources give is still right
        paper = WORLD.meant_paper(work.mentions)
        assert paper is not None and WORLD.is_record_of(work.chosen, paper), work.chosen
    assert all(w.chosen is None or w.chosen.source != service for w in report.works)


def test_a_redirect_within_the_same_origin_is_followed(fake_services):
    groups = _groups()
    fake_services.fail("openreview", "redirect-same", times=3)
    report = _resolve(fake_services, groups, enabled=("openreview", "arxiv"))
    assert not [p for p in report.problems if p.startswith("openreview")]
    assert len([w for w in report.works if w.status == "resolved"]) >= 5


def test_the_sync_deadline_ends_network_work_and_says_so_once(fake_services):
    notes = REPO / "notes"
    groups = group_mentions(extract_paths([notes], REPO).mentions)  # the few the list lacks ask OpenReview
    fake_services.fail("openreview", "drip", drip_interval=0.5)
    env = dict(fake_services.env(), CITEKIT_RATE_LIMITS="off")
    settings = SourceSettings.from_env({"sources": {"timeout": 60, "deadline": 8}}, REPO, env=env)
    settings.cache_dir = None
    client = build_client(settings)
    report = resolve_groups(groups, build_sources(settings, client=client, cache=open_cache(settings)), jobs=8)
    assert client.deadline_passed
    # each dripping answer was cut at the deadline, before the 60 s one request may take
    # would have let 60 / 0.5 bytes through (the fake cannot send faster than its interval)
    drips = fake_services.drips("openreview")
    assert drips and max(sent for sent, _ in drips) < 60 / 0.5, drips
    deadline_lines = [p for p in report.problems if "sources.deadline" in p]
    assert len(deadline_lines) == 1, report.problems
    # what the conference list answered before the deadline stays resolved
    assert len([w for w in report.works if w.status == "resolved"]) >= 50
