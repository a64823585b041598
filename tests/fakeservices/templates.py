"""The recorded real answers in ``tests/fixtures/api/`` as templates for the fakes' answers.

Every envelope a fake sends starts as a copy of a recorded answer of that service; the fake
only puts the world's records and the request's counts into it. So the fakes keep the
services' envelopes, field names and awkward parts (Crossref's ``message``/``items``,
dblp's ``result.hits.hit`` with ``@`` keys and string numbers, OpenReview's notes and error
bodies, the Atom feed's head, the conference lists' pages) exactly as recorded, and a
fixture that changes changes the fakes with it. ``tests/test_fakeservices.py`` checks
that each fake answer has the shape of its fixture. Only ``tests/fixtures/`` is read:
it is what every clone of the repository has.
"""

from __future__ import annotations

import copy
import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape, quoteattr

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "api"

#: the recorded answer each kind of fake answer is made from
TEMPLATES = {
    "crossref.work": "crossref/work_journal.json",
    "crossref.list": "crossref/search_empty.json",
    "crossref.invalid": "crossref/validation_failure.json",
    "dblp.search": "dblp/search_single_author.json",
    "dblp.records": "dblp/search_icml.json",
    "openreview.notes": "openreview/search_icml2026.json",
    "openreview.note": "openreview/note_icml2025.json",
    "openreview.not_found": "openreview/not_found.json",
    "openreview.rate_limit": "openreview/rate_limit.json",
    "openreview.challenge": "openreview/challenge_required.json",
    "openreview.login": "openreview/login.json",
    "conferences.page": "conferences/iclr-2026-orals-posters.page1.json",
    "arxiv.feed": "arxiv/empty.xml",
}


@lru_cache(maxsize=None)
def _recorded(kind: str) -> str:
    return (FIXTURES / TEMPLATES[kind]).read_text(encoding="utf-8")


def recorded(kind: str) -> Any:
    """A fresh copy of the recorded JSON answer behind ``kind``."""
    return copy.deepcopy(_json(kind))


@lru_cache(maxsize=None)
def _json(kind: str) -> Any:
    return json.loads(_recorded(kind))


def _fill(template: dict[str, Any], **values: Any) -> dict[str, Any]:
    """``template`` with ``values`` put in; a key the template lacks is a mistake here."""
    unknown = set(values) - set(template)
    if unknown:
        raise KeyError(f"not in the recorded answer: {sorted(unknown)}")
    template.update(values)
    return template


# ------------------------------------------------------------------------------ records


@lru_cache(maxsize=None)
def _record_keys(kind: str) -> tuple[str, ...]:
    """The field names of the recorded records of ``kind``, in the order the service sends them."""
    if kind == "openreview.note":
        return tuple(_json("openreview.note")["notes"][0])
    if kind == "openreview.content":
        return tuple(_json("openreview.note")["notes"][0]["content"])
    if kind == "conferences.event":
        return tuple(_json("conferences.page")["results"][0])
    if kind == "dblp.info":  # a CoRR record (as the world's are), then a conference record's own fields
        keys: list[str] = []
        for hit in reversed(_json("dblp.records")["result"]["hits"]["hit"]):
            keys += [k for k in hit["info"] if k not in keys]
        return tuple(keys)
    raise KeyError(kind)


def shaped(kind: str, values: dict[str, Any], *, extra: tuple[str, ...] = ()) -> dict[str, Any]:
    """A world record with the recorded record's field names, in the recorded order.

    A field no recorded record has is a mistake (the fake would invent a shape), unless it
    is named in ``extra`` — a field the services send only on some records (say why there).
    """
    keys = _record_keys(kind)
    unknown = set(values) - set(keys) - set(extra)
    if unknown:
        raise KeyError(f"{kind}: not in the recorded records: {sorted(unknown)}")
    return {**{k: values[k] for k in keys if k in values}, **{k: values[k] for k in extra if k in values}}


def openreview_note(note: dict[str, Any]) -> dict[str, Any]:
    """A v2 note in the recorded note's field order, its ``content`` too (every value wrapped
    as ``{"value": …}``). ``content.arxiv`` is a venue's own field (workshops ask for the
    preprint's link; citekit reads it) that the recorded ICML notes do not have."""
    content = shaped("openreview.content", note["content"], extra=("arxiv",))
    if not all(isinstance(v, dict) and set(v) == {"value"} for v in content.values()):
        raise ValueError("OpenReview v2 content values are {'value': …}")
    return dict(shaped("openreview.note", note), content=content)


def conference_event(event: dict[str, Any]) -> dict[str, Any]:
    """A virtual site's event with the recorded event's fields, in their order."""
    return shaped("conferences.event", event)


def dblp_info(info: dict[str, Any]) -> dict[str, Any]:
    """A dblp hit's ``info`` with the recorded fields (``authors.author`` an object for one author)."""
    return shaped("dblp.info", info)


# ------------------------------------------------------------------------------ Crossref

def crossref_work(item: dict[str, Any]) -> dict[str, Any]:
    """``GET /works/<doi>``: the recorded envelope around one world item."""
    return _fill(recorded("crossref.work"), message=item)


def crossref_list(items: list[dict[str, Any]], total: int, rows: int, offset: int, terms: str) -> dict[str, Any]:
    """``GET /works?query…``: the recorded work-list envelope around the world's items."""
    answer = recorded("crossref.list")
    message = _fill(answer["message"], items=items)
    message["total-results"] = total
    message["items-per-page"] = rows
    message["query"] = _fill(message["query"], **{"start-index": offset, "search-terms": terms})
    return answer


def crossref_invalid(value: str, message: str) -> dict[str, Any]:
    """A 400 validation failure as recorded, naming the refused parameter."""
    answer = recorded("crossref.invalid")
    answer["message"] = [_fill(answer["message"][0], value=value, message=message)]
    return answer


# ------------------------------------------------------------------------------ dblp

def dblp_search(query: str, infos: list[dict[str, Any]], total: int, first: int) -> dict[str, Any]:
    """``/search/publ/api?format=json``: the recorded result, hits replaced by the world's.

    The recorded counts are strings (``"@total": "1"``) and a search without hits has no
    ``hit`` key at all; both stay so.
    """
    answer = recorded("dblp.search")
    result = _fill(answer["result"], query=query)
    hits = result["hits"]
    hit_template = hits.pop("hit")[0]
    _fill(hits, **{"@total": str(total), "@computed": str(total), "@sent": str(len(infos)), "@first": str(first)})
    if infos:
        hits["hit"] = [_fill(copy.deepcopy(hit_template), **{"@score": "5", "@id": str(1000 + i),
                                                             "info": info, "url": f"URL#{1000 + i}"})
                       for i, info in enumerate(infos)]
    return answer


# ------------------------------------------------------------------------------ OpenReview

def openreview_notes(notes: list[dict[str, Any]], count: int) -> dict[str, Any]:
    """``GET /notes`` and ``/notes/search``: the recorded ``{"notes", "count"}`` envelope."""
    return _fill(recorded("openreview.notes"), notes=notes, count=count)


def openreview_not_found(message: str, path: str | None = None, value: str | None = None) -> dict[str, Any]:
    """A 404 ``NotFoundError`` as recorded; ``details`` names the id when there is one."""
    answer = _fill(recorded("openreview.not_found"), message=message)
    if path is None:
        answer["details"] = {"reqId": answer["details"]["reqId"]}
    else:
        _fill(answer["details"], path=path, value=value)
    return answer


def openreview_rate_limit(message: str, limit: int, used: int) -> dict[str, Any]:
    """A 429 ``RateLimitError`` as recorded (JSON body, no ``Retry-After`` header)."""
    answer = _fill(recorded("openreview.rate_limit"), message=message)
    _fill(answer["details"], limit=limit, used=used, current=used)
    return answer


def openreview_challenge() -> dict[str, Any]:
    """A 403 ``ChallengeRequiredError`` as recorded."""
    return recorded("openreview.challenge")


def openreview_login(token: str, user_id: str) -> dict[str, Any]:
    """``POST /login`` as recorded, with the fake's own token and user."""
    answer = _fill(recorded("openreview.login"), token=token)
    answer["user"] = _fill(answer["user"], id=user_id)
    _fill(answer["user"]["profile"], id=user_id, usernames=[user_id])
    return answer


# ------------------------------------------------------------------------------ conference lists

def conference_page(results: list[dict[str, Any]], count: int, next_url: str | None,
                    previous_url: str | None) -> dict[str, Any]:
    """One page of a virtual site's list: the recorded ``{"count", "next", "previous", "results"}``."""
    return _fill(recorded("conferences.page"), count=count, next=next_url, previous=previous_url, results=results)


# ------------------------------------------------------------------------------ arXiv

_HEAD_VALUE = re.compile(r"<(?P<tag>id|title|updated|opensearch:\w+)>[^<]*</(?P=tag)>")


def arxiv_feed(query_echo: str, entries: list[str], total: int, start: int, per_page: int,
               updated: str) -> str:
    """An Atom feed: the recorded feed's XML declaration, namespaces and head, with this
    query's values, then ``entries`` (each an ``<entry>`` element's text)."""
    values = {"id": "https://arxiv.org/api/fake", "title": f"arXiv Query: {escape(query_echo)}",
              "updated": updated, "opensearch:itemsPerPage": str(per_page),
              "opensearch:totalResults": str(total), "opensearch:startIndex": str(start)}
    text = _HEAD_VALUE.sub(lambda m: f"<{m['tag']}>{values[m['tag']]}</{m['tag']}>", _recorded("arxiv.feed"))
    text = re.sub(r'<link href="[^"]*" type="application/atom\+xml"/>',
                  lambda _m: f'<link href={quoteattr("https://arxiv.org/api/query?" + query_echo)} '
                             'type="application/atom+xml"/>', text, count=1)
    head, tail = text.rsplit("</feed>", 1)
    return head + "".join(entry + "\n" for entry in entries) + "</feed>" + tail
