"""OpenReview API v2: where ML conference papers first appear, accepted or not.

Since mid-2026 anonymous ``GET /notes`` answers 403 ``ChallengeRequiredError`` while the
full-text ``/notes/search`` stays open, so search is the main path: a note found by title
(within the venue's group) carries everything a candidate needs. ``GET /notes?id=`` is
used only with credentials; without them an id is fetched through ``POST /notes/search``
with ``{"ids": [...]}``. When both are refused the source says "needs credentials" once
and stops trying for the rest of the run instead of failing every lookup slowly.
"""

from __future__ import annotations

import datetime as dt
import logging
import re
import threading
from typing import Any

import bibtexparser
import requests

from citekit.core import venues
from citekit.core.ids import ids_from_url, normalize_arxiv
from citekit.core.model import Ids, Person
from citekit.core.resolution import Candidate, Mention
from citekit.core.names import parse_name
from citekit.sources.base import SourceError
from citekit.sources.cache import LookupCache
from citekit.sources.http import HttpClient, body_json
from citekit.sources.queries import abstract_phrase, title_terms
from citekit.sources.settings import SourceSettings

log = logging.getLogger(__name__)

SITE_URL = "https://openreview.net"
NEEDS_CREDENTIALS = ("OpenReview refuses anonymous fetches by id; set OPENREVIEW_USERNAME and "
                     "OPENREVIEW_PASSWORD (or OPENREVIEW_TOKEN) in the environment to look up "
                     "OpenReview ids. Title search still works without an account.")
#: the last part of a venueid that says where a submission stands: conferences use
#: ``…/Rejected_Submission``; journals (TMLR and the like) move a paper through
#: ``TMLR/Submitted``, ``/Assigning_AE``, ``/Under_Review``, ``/Decision_Pending`` to
#: ``TMLR`` itself (accepted), or ``/Rejected``, ``/Desk_Rejected``, ``/Withdrawn_Submission``,
#: ``/Retracted_Acceptance``
_CLOSED_VENUEIDS = {
    "Rejected_Submission": "rejected",
    "Withdrawn_Submission": "rejected",
    "Desk_Rejected_Submission": "rejected",
    "Rejected": "rejected",
    "Desk_Rejected": "rejected",
    "Withdrawn": "rejected",
    "Retracted_Acceptance": "rejected",
    "Retracted": "rejected",
    "Submission": "submitted",
    "Submitted": "submitted",
    "Under_Review": "submitted",
    "Decision_Pending": "submitted",
    "Assigning_AE": "submitted",
    "Assigning_AC": "submitted",
    "Assigning_Reviewers": "submitted",
    "Camera_Ready_Pending": "submitted",
}
_CLOSED_WORDS = (("reject", "rejected"), ("withdraw", "rejected"), ("retract", "rejected"),
                 ("submi", "submitted"), ("review", "submitted"), ("pending", "submitted"),
                 ("assigning", "submitted"))


def _value(content: dict[str, Any], key: str) -> Any:
    """A content field's value: v2 wraps every field in ``{"value": …}``, v1 does not."""
    field = content.get(key)
    if isinstance(field, dict):
        return field.get("value")
    return field


def _clean(text: str | None) -> str | None:
    return " ".join(text.split()) if isinstance(text, str) and text.strip() else None


def _year_from_ms(ms: Any) -> int | None:
    if not isinstance(ms, (int, float)) or ms <= 0:
        return None
    return dt.datetime.fromtimestamp(ms / 1000, tz=dt.timezone.utc).year


def _bibtex_hint(text: Any) -> dict[str, str]:
    """Fields of the note's generated ``_bibtex`` (only used to fill gaps)."""
    if not isinstance(text, str) or "@" not in text:
        return {}
    try:
        library = bibtexparser.parse_string(text)
    except Exception:  # a hint only: a broken one is ignored
        return {}
    if not library.entries:
        return {}
    return {f.key.lower(): str(f.value) for f in library.entries[0].fields}


def venue_stage(venueid: str | None, venue_text: str | None) -> tuple[str, str | None, int | None]:
    """``(stage, short venue, year)`` from ``content.venueid`` / ``content.venue``.

    ``ICML.cc/2026/Conference`` → accepted at ICML 2026; ``…/Rejected_Submission`` and
    withdrawals → rejected; ``…/Submission`` → submitted (under review); a workshop
    group → workshop. The decision tier (``poster``, ``oral``) is not a venue.
    """
    text = venue_text or ""
    short: str | None = None
    year: int | None = None
    stage = "submitted"
    if venueid:
        parts = venueid.lstrip(".").split("/")  # ".TMLR/Under_Review" on test instances
        short = venues.canonical(re.split(r"[.]", parts[0])[0])
        year = next((int(p) for p in parts if re.fullmatch(r"(?:19|20)\d{2}", p)), None)
        last = parts[-1]
        lifecycle = _CLOSED_VENUEIDS.get(last) or (
            next((st for word, st in _CLOSED_WORDS if word in last.lower()), None)
            if len(parts) > 1 and "workshop" not in venueid.lower() else None)
        if lifecycle:
            stage = lifecycle
        elif "workshop" in venueid.lower():
            stage = "workshop"
        else:
            stage = "accepted"
    elif text:
        low = text.lower()
        if low.startswith(("submitted to", "under review")) or "decision pending" in low:
            stage = "submitted"
        elif "withdrawn" in low or "rejected" in low:
            stage = "rejected"
        elif "workshop" in low:
            stage = "workshop"
        else:
            stage = "accepted"
    text_short, text_year = venues.from_text(text)
    short = short or text_short
    year = year or text_year
    if short is None and venueid and venues.canonical(parts[0]):  # journals: venueid "TMLR"
        short = venues.canonical(parts[0])
    return stage, short, year


#: content fields where submissions link their preprint (venues name them differently)
_ARXIV_FIELDS = ("arxiv", "arxiv_id", "arxiv_url", "arxiv_link", "preprint", "preprint_url")


def _arxiv_link(content: dict[str, Any], bib: dict[str, str]) -> str | None:
    """The arXiv id a note links (a content field, or its BibTeX's eprint): a version link
    that resolution follows to the preprint and from there to later versions."""
    for key in _ARXIV_FIELDS:
        value = _value(content, key)
        if isinstance(value, str) and value.strip():
            found = normalize_arxiv(value) or ids_from_url(value).arxiv
            if found:
                return found
    if bib.get("eprint") and bib.get("archiveprefix", bib.get("eprinttype", "")).lower() == "arxiv":
        return normalize_arxiv(bib["eprint"])
    return None


def note_to_candidate(note: dict[str, Any]) -> Candidate:
    """One v2 (or v1) note as a candidate, from the note's own fields."""
    content = note.get("content") or {}
    forum = note.get("forum") or note.get("id")
    title = _clean(_value(content, "title")) or ""
    raw_authors = _value(content, "authors") or []
    if isinstance(raw_authors, str):
        raw_authors = [raw_authors]
    authors: list[Person] = []
    if not all(str(a).strip().lower() in ("anonymous", "anonymous authors", "") for a in raw_authors):
        authors = [parse_name(str(a)) for a in raw_authors if str(a).strip()]
    venueid = _value(content, "venueid")
    venue_text = _clean(_value(content, "venue"))
    stage, short, year = venue_stage(venueid, venue_text)
    bib = _bibtex_hint(_value(content, "_bibtex"))
    if year is None:
        y = bib.get("year", "")
        year = int(y) if y.isdigit() else None
    if year is None:
        year = _year_from_ms(note.get("pdate")) or _year_from_ms(note.get("odate")) or _year_from_ms(note.get("cdate"))
    extra: dict[str, str] = {}
    if venue_text:
        extra["openreview_venue"] = venue_text
    pdf = _value(content, "pdf")
    if isinstance(pdf, str) and pdf:
        extra["pdf"] = pdf if pdf.startswith("http") else SITE_URL + pdf
    venue: str | None = None
    container: str | None = None
    entry_type = "misc"
    if stage in ("accepted", "workshop"):
        entry_type = venues.entry_type(short) if short else "inproceedings"
        if stage == "accepted" and short:
            venue = f"{short} {year}" if year else short
            container = venues.long_name(short, year)
        else:
            venue = venue_text
        container = container or bib.get("booktitle") or bib.get("journal") or (venue_text if stage == "workshop" else None)
    elif short:
        extra["submitted_to"] = f"{short} {year}" if year else short
    keywords = _value(content, "keywords")
    if isinstance(keywords, list) and keywords:
        extra["keywords"] = ", ".join(str(k) for k in keywords)
    return Candidate(
        source="openreview",
        id=str(forum),
        title=title,
        authors=authors,
        year=year,
        venue=venue,
        container=container,
        entry_type=entry_type,
        stage=stage,
        ids=Ids(openreview=str(forum), arxiv=_arxiv_link(content, bib)),
        abstract=_clean(_value(content, "abstract")),
        url=f"{SITE_URL}/forum?id={forum}",
        extra=extra,
        raw=note,
    )


def _error_name(resp: requests.Response) -> tuple[str, str]:
    try:
        body = resp.json()
    except ValueError:
        return "Error", resp.text[:200]
    if isinstance(body, dict):
        return str(body.get("name", "Error")), str(body.get("message", ""))
    return "Error", str(body)[:200]


class OpenReviewSource:
    """Looks up and searches OpenReview notes (API v2)."""

    name = "openreview"

    def __init__(self, client: HttpClient, cache: LookupCache, settings: SourceSettings) -> None:
        self.client = client
        self.cache = cache
        self.settings = settings
        self.base = settings.url("openreview").rstrip("/")
        self._token: str | None = settings.openreview_token
        self._lock = threading.Lock()
        #: GET /notes answered ChallengeRequiredError: do not ask it again this run
        self.get_blocked = False
        #: POST /notes/search by ids was refused too: ids need credentials
        self.id_search_blocked = False
        self.needs_credentials = False
        #: /notes/search itself asked for a challenge: searching is pointless this run
        self.search_blocked = False

    # -- identifiers ------------------------------------------------------------------
    def lookup(self, scheme: str, value: str) -> Candidate | None:
        if scheme != "openreview":
            return None
        payload = self.cache.fetch(self.name, "note", {"id": value}, lambda: self._fetch_note(value))
        notes = [n for n in (payload or {}).get("notes", []) if n.get("id") == value or n.get("forum") == value]
        return note_to_candidate(notes[0]) if notes else None

    def _fetch_note(self, note_id: str) -> dict[str, Any] | None:
        if self.settings.has_openreview_credentials and not self.get_blocked:
            resp = self.client.request(self.name, "GET", f"{self.base}/notes", params={"id": note_id},
                                       headers=self._auth_headers(), expect="json")
            if resp.status_code == 200:
                body = self._json(resp)
                return body if body.get("notes") else None
            name, message = _error_name(resp)
            if resp.status_code == 404 or name == "NotFoundError":
                return None
            if resp.status_code == 403 and name == "ChallengeRequiredError":
                self._block_get(message)
            elif resp.status_code == 403:  # ForbiddenError: a note we may not read is not a record for us
                return None
            else:
                raise SourceError(self.name, f"GET /notes?id={note_id} answered {resp.status_code} {name}: {message}")
        return self._search_ids(note_id)

    def _block_get(self, message: str) -> None:
        with self._lock:
            if not self.get_blocked:
                log.warning("OpenReview asks for a challenge on GET /notes even when logged in (%s); "
                            "using /notes/search for the rest of this run.", message)
            self.get_blocked = True

    def _search_ids(self, note_id: str) -> dict[str, Any] | None:
        if self.id_search_blocked:
            raise SourceError(self.name, NEEDS_CREDENTIALS, needs_credentials=True)
        resp = self.client.request(self.name, "POST", f"{self.base}/notes/search", json={"ids": [note_id]},
                                   headers=self._auth_headers() if self.settings.has_openreview_credentials else None,
                                   expect="json")
        if resp.status_code == 200:
            body = self._json(resp)
            notes = [n for n in body.get("notes", []) if n.get("id") == note_id or n.get("forum") == note_id]
            return {"notes": notes, "count": len(notes)} if notes else None
        name, message = _error_name(resp)
        with self._lock:
            first = not self.id_search_blocked
            self.id_search_blocked = True
            self.needs_credentials = True
        if first:
            log.debug("OpenReview: %s (%s %s)", NEEDS_CREDENTIALS, name, message)  # the run reports it once
        raise SourceError(self.name, NEEDS_CREDENTIALS, needs_credentials=True)

    # -- search -----------------------------------------------------------------------
    def search(self, mention: Mention) -> list[Candidate]:
        """Notes for a mention, within the venue's group when the notes name a venue-year.

        A title is searched in every venue at once and the answer kept to the venue's group
        here: the earlier-title step (:meth:`search_everywhere`) wants that same request for
        the rest, so one request serves both instead of two. A pasted abstract, which has
        no earlier-title step, is searched within the group."""
        group = "all"
        if mention.venue and mention.year:
            group = venues.openreview_group(mention.venue, mention.year) or "all"
        if group != "all" and title_terms(mention):
            return [note_to_candidate(n) for n in self._notes(mention, "all") if _in_group(n, group)]
        return [note_to_candidate(n) for n in self._notes(mention, group)]

    def group_only(self, mention: Mention) -> bool:
        """Whether :meth:`search` looks for this mention only within one venue's group (a
        pasted abstract under its venue-year): a loaded list of that venue-year with its
        abstracts has answered for the group's accepted papers already."""
        return (not title_terms(mention) and bool(mention.venue and mention.year)
                and venues.openreview_group(mention.venue or "", mention.year or 0) is not None)

    def search_everywhere(self, mention: Mention) -> list[Candidate]:
        """Notes for a mention's title in every venue: where an earlier title lives (the
        submission to an earlier conference, under the name the notes still use). Asks
        nothing when :meth:`search` already searched every venue (the same request, cached)."""
        return [note_to_candidate(n) for n in self._notes(mention, "all")]

    def searched_everywhere(self, mention: Mention) -> list[Candidate] | None:
        """What :meth:`search_everywhere` will give, when its answer is already stored (no
        request); None when it is not. Lets a batched search ask, in the same request, for
        what the earlier-title step would ask next."""
        params = self._params(mention, "all")
        hit = self.cache.get(self.name, "search", params) if params else None
        if hit is None:
            return None
        return [note_to_candidate(n) for n in _forums(hit.payload)]

    def _params(self, mention: Mention, group: str) -> dict[str, Any] | None:
        term = title_terms(mention)
        if term is None and mention.kind == "abstract":
            term = abstract_phrase(mention)
        if not term:
            return None
        return {"term": term, "type": "terms", "content": "all", "group": group, "source": "forum", "limit": 10}

    def _notes(self, mention: Mention, group: str) -> list[dict[str, Any]]:
        params = self._params(mention, group)
        if params is None:
            return []
        if self.search_blocked:
            raise SourceError(self.name, f"search needs a challenge; {NEEDS_CREDENTIALS}", needs_credentials=True)
        return _forums(self.cache.fetch(self.name, "search", params, lambda: self._search(params)))

    def _search(self, params: dict[str, Any]) -> dict[str, Any] | None:
        headers = self._auth_headers() if self.settings.has_openreview_credentials else None
        resp = self.client.request(self.name, "GET", f"{self.base}/notes/search", params=params, headers=headers,
                                   expect="json")
        if resp.status_code != 200:
            name, message = _error_name(resp)
            if resp.status_code == 403 and name == "ChallengeRequiredError":
                self.needs_credentials = self.search_blocked = True
                raise SourceError(self.name, f"search needs a challenge ({message}); {NEEDS_CREDENTIALS}",
                                  needs_credentials=True)
            raise SourceError(self.name, f"search answered {resp.status_code} {name}: {message}")
        body = self._json(resp)
        if body.get("searchUnavailable"):
            raise SourceError(self.name, "the search index is temporarily unavailable; run sync again later")
        return body if body.get("notes") else None

    # -- plumbing ---------------------------------------------------------------------
    def _json(self, resp: requests.Response) -> dict[str, Any]:
        try:
            body = body_json(resp)
        except ValueError:
            raise SourceError(self.name, f"expected JSON from {resp.url}, got {resp.headers.get('Content-Type')}; "
                                         "check sources.openreview.url points at the API (api2.openreview.net)") from None
        if not isinstance(body, dict):
            raise SourceError(self.name, f"unexpected answer from {resp.url}")
        return body

    def _auth_headers(self) -> dict[str, str] | None:
        token = self._login()
        return {"Authorization": f"Bearer {token}"} if token else None

    def _login(self) -> str | None:
        """Bearer token: the configured one, or one from ``POST /login`` (kept in memory only)."""
        with self._lock:
            if self._token:
                return self._token
            user, password = self.settings.openreview_username, self.settings.openreview_password
            if not (user and password):
                return None
            resp = self.client.request(self.name, "POST", f"{self.base}/login",
                                       json={"id": user, "password": password, "expiresIn": 7200})
            body = self._json(resp) if resp.status_code == 200 else {}
            token = body.get("token")
            if not token:
                reason = "multi-factor login is not supported; use OPENREVIEW_TOKEN" if body.get("mfaPending") \
                    else f"{resp.status_code} {_error_name(resp)[1]}"
                raise SourceError(self.name, f"login failed ({reason}); check OPENREVIEW_USERNAME/OPENREVIEW_PASSWORD",
                                  needs_credentials=True)
            self._token = str(token)
            return self._token


def _forums(payload: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The forum notes (papers) of a search answer, not its replies."""
    return [n for n in (payload or {}).get("notes", []) if n.get("forum", n.get("id")) == n.get("id")]


def _in_group(note: dict[str, Any], group: str) -> bool:
    """Whether a note belongs to a venue's group (its ``domain``, or its ``venueid`` under
    the group: ``ICML.cc/2026/Conference/Rejected_Submission``), as a search within the
    group would have found it."""
    venueid = _value(note.get("content") or {}, "venueid")
    return str(note.get("domain") or "").startswith(group) or str(venueid or "").startswith(group)
