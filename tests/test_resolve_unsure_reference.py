"""A pasted reference whose title the reference parser is not sure of: kept whole, looked up
whole through Crossref's ``query.bibliographic`` by an online sync, and attached only to a
record whose own whole title is a field of the string and whose first author it names
(through resolution, against the loopback fakes with Crossref's response shape)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citekit.notes.extract import extract_text

from .fakeservices import FakeServices
from .fakeservices.resolving import resolve_each

REPO = Path(__file__).resolve().parents[1]
FIXTURE = REPO / "tests" / "fixtures" / "api" / "crossref" / "search_reference_lstm.json"
NOTES = ("References\n\n"
         "[1] ZHANG H, CISSE M, DAUPHIN YN, LOPEZ-PAZ D: mixup – beyond empirical risk minimization; ICLR 2018\n"
         "[2] HOCHREITER S, SCHMIDHUBER J: long short-term memory; NEURAL COMPUT 9:1735-80, 1997\n")


@pytest.fixture()
def fake():
    with FakeServices() as services:
        for item in json.loads(FIXTURE.read_text(encoding="utf-8"))["message"]["items"]:
            item.pop("score", None)
            services.world.crossref_items.append({"item": item, "bias": 0.0})
        yield services


def _resolve(fake: FakeServices, mentions):
    return resolve_each(fake, mentions)


def test_an_unread_reference_resolves_to_the_record_it_holds_and_no_other(fake) -> None:
    mixup, lstm = extract_text(NOTES, "refs.txt").mentions
    assert mixup.title is None and lstm.title is None  # (no title guessed from either string)
    works = _resolve(fake, [mixup, lstm])
    by_line = {w.mentions[0].location.line: w for w in works}
    resolved = by_line[4]
    assert resolved.status == "resolved", resolved.reason
    assert resolved.chosen.ids.doi == "10.1162/neco.1997.9.8.1735"
    assert resolved.chosen.title == "Long Short-Term Memory"
    sent = [params.get("query.bibliographic") for _at, _what, params in fake.log("crossref")]
    assert lstm.reference in sent and mixup.reference in sent
    # mixup has no record among Crossref's answers (only decoys): nothing is attached to it
    assert by_line[3].chosen is None and by_line[3].status != "resolved"
