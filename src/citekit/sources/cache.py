"""A persistent cache of what the services answered, so a second sync asks them nothing.

Entries are keyed by (source, operation, normalized parameters) and hold the raw payload
(JSON or XML text), not parsed candidates: a fix to a parser applies to everything
already cached. Only real answers are stored. Failures (timeouts, 5xx, 429, refused
credentials) raise before anything is written, so they are retried on the next sync.
A "not found" is an answer too, but records appear later (dblp lags the conferences,
arXiv ids get published), so negative entries expire after ``negative_ttl`` seconds.

Text from a service can hold what no file can: ``"\\ud800"`` is valid JSON, and decodes
to a lone surrogate that UTF-8 cannot encode. :func:`safe_json` replaces such characters
with U+FFFD where answers are parsed, and :meth:`LookupCache.put` does it again, so no
answer can stop a sync at the cache, the library or the sidecar.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping
from citekit.core.lazyre import lazy

log = logging.getLogger(__name__)

#: the answers each thread read or stored inside :func:`answers_used`
_used = threading.local()

#: "not found" answers are asked again after three days: new papers reach dblp and
#: Crossref days to weeks after the conference, and a stale negative would hide them.
NEGATIVE_TTL = 3 * 24 * 3600.0
#: found records are kept 90 days: metadata of a published paper rarely changes, and
#: ``--refresh`` renews everything on demand.
POSITIVE_TTL = 90 * 24 * 3600.0

_SCHEMA = """
CREATE TABLE IF NOT EXISTS lookups (
    source    TEXT NOT NULL,
    operation TEXT NOT NULL,
    params    TEXT NOT NULL,
    found     INTEGER NOT NULL,
    payload   TEXT,
    fetched   REAL NOT NULL,
    PRIMARY KEY (source, operation, params)
);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS documents (
    url           TEXT PRIMARY KEY,
    status        INTEGER NOT NULL,
    etag          TEXT,
    last_modified TEXT,
    checked       REAL NOT NULL,
    body          TEXT
);
"""
_VERSION = "1"


@dataclass
class Document:
    """A whole file a site publishes (a conference's paper list), with its HTTP validators.

    ``checked`` is when the site last confirmed it (a 200 or a 304); ``status`` 404 means
    "not published yet", remembered so that it is not asked on every sync.
    """

    url: str
    status: int
    etag: str | None
    last_modified: str | None
    checked: float
    body: Any

    def age(self, now: float) -> float:
        return now - self.checked


@dataclass
class CacheHit:
    """One stored answer: ``payload`` is None when the service said "not found"."""

    payload: Any
    fetched: float

    @property
    def found(self) -> bool:
        return self.payload is not None


#: a lone surrogate: the only kind of character a Python string holds that UTF-8 cannot encode
_SURROGATE = lazy("[\ud800-\udfff]")


def safe_text(text: str) -> str:
    """``text`` with every unencodable character (a lone surrogate) replaced by U+FFFD.

    A high and low surrogate in a row are joined into the character they stand for.
    """
    if text.isascii() or not _SURROGATE.search(text):
        return text
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def safe_json(value: Any) -> Any:
    """A parsed JSON answer with :func:`safe_text` applied to every string (keys too).

    Returns ``value`` itself when nothing needed replacing, so the common case copies nothing.
    """
    if isinstance(value, str):
        return safe_text(value)
    if isinstance(value, list):
        cleaned = [safe_json(v) for v in value]
        return value if all(a is b for a, b in zip(cleaned, value)) else cleaned
    if isinstance(value, dict):
        items = [(safe_json(k), safe_json(v)) for k, v in value.items()]
        if all(k is k0 and v is v0 for (k, v), (k0, v0) in zip(items, value.items())):
            return value
        return dict(items)
    return value


def _dumped(payload: Any, **options: Any) -> tuple[str, Any]:
    """The JSON text to store, and the payload it stands for (cleaned if it had to be)."""
    text = json.dumps(payload, ensure_ascii=False, **options)
    if _SURROGATE.search(text):
        payload = safe_json(payload)
        text = json.dumps(payload, ensure_ascii=False, **options)
    return text, payload


@dataclass(frozen=True)
class UsedAnswer:
    """One stored answer a lookup relied on: enough to :meth:`~LookupCache.dispute` it."""

    cache: "LookupCache"
    key: tuple[str, str, str]

    def dispute(self) -> None:
        self.cache.dispute(self.key)


@contextmanager
def answers_used() -> Iterator[list[UsedAnswer]]:
    """Collect the stored answers this thread reads or stores meanwhile.

    Resolution wraps one lookup in it: when the record that comes back turns out to be
    another paper, it can say so to the cache, which alone knows which answers served it.
    """
    outer = getattr(_used, "answers", None)
    _used.answers = answers = []
    try:
        yield answers
    finally:
        _used.answers = outer
        if outer is not None:
            outer.extend(answers)


def _note_used(cache: "LookupCache", key: tuple[str, str, str]) -> None:
    answers = getattr(_used, "answers", None)
    if answers is not None:
        answers.append(UsedAnswer(cache, key))


def cache_key(params: Mapping[str, Any]) -> str:
    """Canonical text of a parameter set: order, case of keys and surrounding spaces ignored."""

    def norm(v: Any) -> Any:
        if isinstance(v, str):
            return " ".join(v.split())
        if isinstance(v, (list, tuple)):
            return [norm(x) for x in v]
        if isinstance(v, Mapping):
            return {str(k).lower(): norm(x) for k, x in v.items()}
        return v

    return safe_text(json.dumps(norm(dict(params)), sort_keys=True, ensure_ascii=False, separators=(",", ":")))


class LookupCache:
    """SQLite-backed, thread-safe store of service answers.

    ``refresh=True`` ignores what is stored but still writes fresh answers (and serves a
    key refreshed earlier in the same run from the store, so one run never asks twice).
    ``path=None`` keeps everything in memory: nothing persists, but repeated lookups in a
    run are still shared.
    """

    def __init__(
        self,
        path: Path | str | None,
        *,
        refresh: bool = False,
        ttl: float | None = POSITIVE_TTL,
        negative_ttl: float | None = NEGATIVE_TTL,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.path = Path(path) if path is not None else None
        self.refresh = refresh
        self.ttl = ttl
        self.negative_ttl = negative_ttl
        self.clock = clock
        self.hits = 0
        self.misses = 0
        self._lock = threading.RLock()
        self._key_locks: dict[tuple[str, str, str], threading.Lock] = {}
        self._refreshed: set[tuple[str, str, str]] = set()
        #: the earliest moment an answer this run relied on is due to be asked again (its
        #: ``ttl`` or a document's revalidation window): until then the same lookups give
        #: the same answers without a request, which is what lets a sync that changed
        #: nothing be replayed (:mod:`citekit.api.sync_stamp`) with unresolved papers left
        #: (an in-memory cache keeps nothing for the next run: nothing is valid beyond this one)
        self.valid_until = float("inf") if path is not None else 0.0
        self._conn = self._open()

    # -- opening, and surviving a damaged file ------------------------------------------
    def _open(self) -> sqlite3.Connection:
        if self.path is None:
            conn = self._connect(":memory:")
            self._check(conn)
            return conn
        self.path.parent.mkdir(parents=True, exist_ok=True)
        conn: sqlite3.Connection | None = None
        try:
            conn = self._connect(str(self.path))
            self._check(conn)
            return conn
        except sqlite3.DatabaseError as exc:
            aside = self.path.with_name(f"{self.path.name}.corrupt-{int(self.clock())}")
            log.warning("lookup cache %s is unreadable (%s); moved it to %s and starting an empty one. "
                        "Nothing is lost but time: the next sync asks the services again.", self.path, exc, aside)
            if conn is not None:
                conn.close()
            self.path.replace(aside)
            for suffix in ("-wal", "-shm"):
                side = self.path.with_name(self.path.name + suffix)
                if side.exists():
                    side.replace(aside.with_name(aside.name + suffix))
            conn = self._connect(str(self.path))
            self._check(conn)
            return conn

    @staticmethod
    def _connect(target: str) -> sqlite3.Connection:
        conn = sqlite3.connect(target, timeout=30.0, check_same_thread=False, isolation_level=None)
        return conn

    @staticmethod
    def _check(conn: sqlite3.Connection) -> None:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.executescript(_SCHEMA)
        row = conn.execute("SELECT value FROM meta WHERE key='version'").fetchone()
        if row is None:
            conn.execute("INSERT OR REPLACE INTO meta VALUES ('version', ?)", (_VERSION,))
        elif row[0] != _VERSION:
            conn.execute("DELETE FROM lookups")
            conn.execute("INSERT OR REPLACE INTO meta VALUES ('version', ?)", (_VERSION,))
        conn.execute("SELECT count(*) FROM lookups").fetchone()

    # -- reading and writing ----------------------------------------------------------
    def get(self, source: str, operation: str, params: Mapping[str, Any]) -> CacheHit | None:
        """The stored answer, unless missing, expired, or being refreshed."""
        key = (source, operation, cache_key(params))
        if self.refresh and key not in self._refreshed:
            return None
        with self._lock:
            row = self._conn.execute(
                "SELECT found, payload, fetched FROM lookups WHERE source=? AND operation=? AND params=?", key
            ).fetchone()
        if row is None:
            return None
        found, payload, fetched = row
        if key not in self._refreshed:
            if fetched < 0:  # disputed on an earlier run: ask the service again
                return None
            ttl = self.ttl if found else self.negative_ttl
            if ttl is not None and self.clock() - fetched > ttl:
                return None
            self.expires(fetched + ttl if ttl is not None else float("inf"))
        _note_used(self, key)
        return CacheHit(payload=json.loads(payload) if found else None, fetched=fetched)

    def put(self, source: str, operation: str, params: Mapping[str, Any], payload: Any) -> Any:
        """Store an answer; ``payload=None`` records "the service does not know this".

        Returns the payload as stored: with any unencodable text replaced (U+FFFD).
        """
        key = (source, operation, cache_key(params))
        text = None
        if payload is not None:
            text, payload = _dumped(payload)
        with self._lock:
            self._conn.execute(
                "INSERT OR REPLACE INTO lookups (source, operation, params, found, payload, fetched) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (*key, 1 if payload is not None else 0, text, self.clock()),
            )
            self._refreshed.add(key)
        ttl = self.ttl if payload is not None else self.negative_ttl
        self.expires(self.clock() + ttl if ttl is not None else float("inf"))
        _note_used(self, key)
        return payload

    def expires(self, at: float) -> None:
        """An answer this run used is due to be asked again at ``at`` (see ``valid_until``)."""
        with self._lock:
            self.valid_until = min(self.valid_until, at)

    def dispute(self, key: tuple[str, str, str]) -> None:
        """The answer stored under ``key`` described another paper than the one asked about.

        It stays in use for the rest of this run (every work sees the same answer), and
        the next run asks the service again instead of trusting it for ``ttl``: a service
        that answered wrongly once should not decide the paper for three months. Marked by
        a negative ``fetched`` time, so the file's layout stays the same.
        """
        with self._lock:
            self._conn.execute("UPDATE lookups SET fetched = -1 WHERE source=? AND operation=? AND params=?", key)
            self._refreshed.add(key)
            self.valid_until = min(self.valid_until, self.clock())  # asked again next run

    def fetch(self, source: str, operation: str, params: Mapping[str, Any],
              produce: Callable[[], Any]) -> Any:
        """The cached payload, or ``produce()``'s, stored on the way.

        ``produce`` returns the payload, or None for "not found"; whatever it raises is
        not stored. Concurrent callers with the same key wait for the first one, so eight
        threads resolving the same paper make one request.
        """
        key = (source, operation, cache_key(params))
        with self._lock:
            key_lock = self._key_locks.setdefault(key, threading.Lock())
        with key_lock:
            hit = self.get(source, operation, params)
            if hit is not None:
                self.hits += 1
                return hit.payload
            self.misses += 1
            return self.put(source, operation, params, produce())

    # -- whole documents, revalidated with conditional requests ----------------------
    def get_document(self, url: str) -> Document | None:
        with self._lock:
            row = self._conn.execute(
                "SELECT status, etag, last_modified, checked, body FROM documents WHERE url=?", (url,)).fetchone()
        if row is None:
            return None
        status, etag, modified, checked, body = row
        return Document(url, status, etag, modified, checked, json.loads(body) if body is not None else None)

    def put_document(self, url: str, status: int, body: Any, *, etag: str | None = None,
                     last_modified: str | None = None) -> None:
        text = _dumped(body, separators=(",", ":"))[0] if body is not None else None
        with self._lock:
            self._conn.execute("INSERT OR REPLACE INTO documents VALUES (?, ?, ?, ?, ?, ?)",
                               (url, status, etag, last_modified, self.clock(), text))

    def touch_document(self, url: str) -> None:
        """The site confirmed the stored copy (304 Not Modified): it is fresh again."""
        with self._lock:
            self._conn.execute("UPDATE documents SET checked=? WHERE url=?", (self.clock(), url))

    def __len__(self) -> int:
        with self._lock:
            return self._conn.execute("SELECT count(*) FROM lookups").fetchone()[0]

    def clear(self, source: str | None = None) -> None:
        with self._lock:
            if source:
                self._conn.execute("DELETE FROM lookups WHERE source=?", (source,))
            else:
                self._conn.execute("DELETE FROM lookups")
                self._conn.execute("DELETE FROM documents")

    def close(self) -> None:
        with self._lock:
            self._conn.close()
