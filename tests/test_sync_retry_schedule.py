"""When a plain `citekit sync` asks the services again about what it could not resolve.

Without network, every plain sync used to try every source again (a second or two on the
bundled notes, against a tenth of that for `sync --offline`), and a paper no source knows
was asked about again as soon as the lookup cache let it. Now what could not be looked up
waits for its next try (no network: 15 minutes, then an hour, then four; nothing found: a
day, then three, a week, a month), the output says until when, and `--retry` asks now.
Against the loopback fakes of the services, through the CLI and the API, on notes written
for these tests.
"""

from __future__ import annotations

import json
import socket
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from citekit import api
from citekit.api import pending_lookups
from citekit.cli import main
from citekit.library.store import Library

from tests.helpers_project import count_lookups

SERVICES = ("conferences", "openreview", "crossref", "dblp", "arxiv")
KNOWN = "LiMuon: Light and Fast Muon Optimizer for Large Models"  # the fake services know it
UNKNOWN = "Counting Pebbles with Sparse Lanterns"  # no service knows this one
LATER = "Folding Maps for Quiet Gradients"

NOTES = f"""# Reading list

- {KNOWN}
  - Authors: Feihu Huang, Yuning Luo, Songcan Chen
- {UNKNOWN}
  - Authors: Mira Okonkwo, Tal Berger
"""


@pytest.fixture()
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fake_services) -> Path:
    monkeypatch.setenv("CITEKIT_RATE_LIMITS", "off")
    monkeypatch.setenv("CITEKIT_MAILTO", "researcher@example.org")
    monkeypatch.setenv("CITEKIT_CACHE_DIR", str(tmp_path / "cache"))
    root = tmp_path / "proj"
    (root / "notes").mkdir(parents=True)
    (root / "citekit.yaml").write_text("# test project\n", encoding="utf-8")
    (root / "notes" / "reading.md").write_text(NOTES, encoding="utf-8")
    return root


def _sync(root: Path, *args: str) -> dict:
    result = CliRunner().invoke(main, ["-C", str(root), "sync", "--json", *args])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def _count_connections(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Every connection citekit tries from now on (refused ones too)."""
    tried: list[object] = []
    real = socket.socket.connect

    def counted(self, address):
        tried.append(address)
        return real(self, address)

    monkeypatch.setattr(socket.socket, "connect", counted)
    return tried


def _titles(groups: list[list]) -> set[str]:
    return {m.title for g in groups for m in g if m.title}


def _no_network(fake_services) -> None:
    for service in SERVICES:
        fake_services.down(service)


def test_a_second_plain_sync_without_network_tries_no_connection(project, fake_services, monkeypatch) -> None:
    _no_network(fake_services)
    first = _sync(project)
    assert first["offline"] and first["source_problems"]
    assert first["retry_after"] and first["retry_after"] > time.time()
    tried = _count_connections(monkeypatch)
    again = _sync(project)  # the first wrote the library: this one reads it, as --offline would
    assert tried == []  # not one connection, refused or not
    assert again["requests"] == 0 and not again["changed"] and again["offline"]
    assert again["counts"] == first["counts"]
    third = _sync(project)  # and from then on the report of the last one is replayed
    assert third["up_to_date"] and tried == []
    text = CliRunner().invoke(main, ["-C", str(project), "sync"]).output
    assert "sync offline" in text and "`citekit sync --retry` asks now" in text
    assert tried == []


def test_a_new_paper_without_network_is_tried_and_the_others_wait(project, fake_services, monkeypatch) -> None:
    _no_network(fake_services)
    _sync(project)
    (project / "notes" / "later.md").write_text(f"- {LATER}\n  - Authors: Ines Varga\n", encoding="utf-8")
    asked = count_lookups(monkeypatch)
    report = api.sync(project)
    assert _titles(asked) == {LATER}  # only the new paper is tried
    assert report.offline and not report.up_to_date
    assert any("2 works not looked up: no service could be reached" in n for n in report.notices)
    assert sum("--retry" in n for n in report.notices) == 1  # said once
    asked.clear()
    again = api.sync(project)  # nothing new: nothing tried
    assert asked == [] and again.requests == 0


def test_back_online_the_waiting_papers_are_asked_on_retry(project, fake_services, monkeypatch) -> None:
    _no_network(fake_services)
    _sync(project)
    for service in SERVICES:
        fake_services.up(service)
    count = fake_services.requests()
    waiting = _sync(project)
    assert fake_services.requests() == count and waiting["requests"] == 0
    assert waiting["counts"]["resolved"] == 0
    retried = _sync(project, "--retry")
    assert retried["requests"] > 0 and retried["counts"]["resolved"] == 1
    assert retried["retry_after"] is None and not retried["offline"]
    keys = [k for k, e in Library.load(project / "refs").entries.items() if e.title and "LiMuon" in e.title]
    assert len(keys) == 1 and Library.load(project / "refs").entries[keys[0]].status == "resolved"


def test_the_network_wait_runs_out(project, fake_services, monkeypatch) -> None:
    _no_network(fake_services)
    _sync(project)
    for service in SERVICES:
        fake_services.up(service)
    stored = json.loads(pending_lookups.memo_path(project / "refs").read_text("utf-8"))["groups"]
    assert {g["why"] for g in stored.values()} == {"unreachable"}
    later = max(g["until"] for g in stored.values()) + 1
    assert later - time.time() < 16 * 60  # the first wait is a quarter of an hour
    monkeypatch.setattr(time, "time", lambda: later)
    report = api.sync(project)
    assert report.requests > 0 and report.counts["resolved"] == 1


def test_a_paper_no_source_found_waits_a_day_then_three(project, fake_services, monkeypatch) -> None:
    first = api.sync(project)
    assert first.requests > 0 and first.counts["resolved"] == 1
    stored = json.loads(pending_lookups.memo_path(project / "refs").read_text("utf-8"))["groups"]
    assert [(g["why"], g["tries"]) for g in stored.values()] == [("nothing", 1)]
    until = next(iter(stored.values()))["until"]
    assert 23 * 3600 < until - time.time() <= 24 * 3600

    (project / "notes" / "later.md").write_text(f"- {LATER}\n  - Authors: Ines Varga\n", encoding="utf-8")
    asked = count_lookups(monkeypatch)
    report = api.sync(project)  # another notes file changed: the unknown paper waits
    assert UNKNOWN not in _titles(asked) and LATER in _titles(asked)
    assert any("no source found" in n and "--retry" in n for n in report.notices)

    now = until + 1
    monkeypatch.setattr(time, "time", lambda: now)
    asked.clear()
    api.sync(project, retry=False)
    assert UNKNOWN in _titles(asked)  # due: asked again
    stored = json.loads(pending_lookups.memo_path(project / "refs").read_text("utf-8"))["groups"]
    waits = {g["tries"]: g["until"] - now for g in stored.values()}
    assert 2 in waits and waits[2] == pytest.approx(3 * 24 * 3600)

    asked.clear()
    api.sync(project, retry=True)  # not due, but asked for
    assert UNKNOWN in _titles(asked)


def test_retry_is_in_the_help() -> None:
    result = CliRunner().invoke(main, ["sync", "--help"])
    assert result.exit_code == 0 and "--retry" in result.output


def test_a_paper_added_without_network_is_not_tried_again_by_the_next_sync(project, fake_services, monkeypatch) -> None:
    _no_network(fake_services)
    _sync(project)
    result = CliRunner().invoke(main, ["-C", str(project), "add", "--json", f'"{LATER}"'])
    assert result.exit_code == 1, result.output  # recorded, not looked up
    assert json.loads(result.stdout)["not_looked_up"]
    tried = _count_connections(monkeypatch)
    again = _sync(project)
    assert tried == [] and again["requests"] == 0 and again["offline"]


def test_once_a_new_paper_is_answered_the_papers_waiting_for_the_network_are_asked_too(
        project, fake_services, monkeypatch) -> None:
    _no_network(fake_services)
    _sync(project)
    for service in SERVICES:
        fake_services.up(service)
    (project / "notes" / "later.md").write_text(f"- {LATER}\n  - Authors: Ines Varga\n", encoding="utf-8")
    asked = count_lookups(monkeypatch)
    report = api.sync(project)  # the new paper is asked, the services answer: the network is back
    assert {LATER, KNOWN, UNKNOWN} <= _titles(asked)
    assert report.counts["resolved"] == 1 and not report.offline and report.retry_after is None
    assert not any("no service could be reached" in n for n in report.notices)
    stored = json.loads(pending_lookups.memo_path(project / "refs").read_text("utf-8"))["groups"]
    assert {g["why"] for g in stored.values()} == {"nothing"}  # what no source found waits a day now
