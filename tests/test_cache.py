"""The lookup cache: answers persist, failures do not, damage is survived."""

from __future__ import annotations

import logging
import sqlite3
import threading
import time

import pytest

from citekit.sources.base import SourceError
from citekit.sources.cache import LookupCache, cache_key


class Producer:
    """Counts how often the service would have been asked."""

    def __init__(self, payload):
        self.payload = payload
        self.calls = 0

    def __call__(self):
        self.calls += 1
        return self.payload


def test_second_fetch_is_served_from_disk_without_asking(tmp_path):
    path = tmp_path / "cache.sqlite"
    produce = Producer({"notes": [{"id": "abc"}]})
    first = LookupCache(path)
    assert first.fetch("openreview", "note", {"id": "abc"}, produce) == {"notes": [{"id": "abc"}]}
    first.close()
    again = LookupCache(path)  # a new run
    assert again.fetch("openreview", "note", {"id": "abc"}, produce) == {"notes": [{"id": "abc"}]}
    assert produce.calls == 1
    assert again.hits == 1 and again.misses == 0


def test_keys_ignore_parameter_order_and_spacing():
    assert cache_key({"q": "Flat  minima ", "h": 10}) == cache_key({"h": 10, "q": "Flat minima"})
    assert cache_key({"q": "flat minima"}) != cache_key({"q": "sharp minima"})


def test_refresh_ignores_but_rewrites(tmp_path):
    path = tmp_path / "cache.sqlite"
    LookupCache(path).put("dblp", "search", {"q": "x"}, {"old": True})
    fresh = LookupCache(path, refresh=True)
    produce = Producer({"new": True})
    assert fresh.fetch("dblp", "search", {"q": "x"}, produce) == {"new": True}
    assert fresh.fetch("dblp", "search", {"q": "x"}, produce) == {"new": True}  # once per run
    assert produce.calls == 1
    assert LookupCache(path).get("dblp", "search", {"q": "x"}).payload == {"new": True}


def test_failures_are_not_cached(tmp_path):
    cache = LookupCache(tmp_path / "cache.sqlite")

    def broken():
        raise SourceError("crossref", "HTTP 503 after 5 attempts")

    with pytest.raises(SourceError):
        cache.fetch("crossref", "work", {"doi": "10.1/x"}, broken)
    assert cache.get("crossref", "work", {"doi": "10.1/x"}) is None
    produce = Producer({"message": {}})
    cache.fetch("crossref", "work", {"doi": "10.1/x"}, produce)
    assert produce.calls == 1


def test_not_found_is_cached_then_expires(tmp_path):
    now = [1000.0]
    cache = LookupCache(tmp_path / "cache.sqlite", negative_ttl=3600, clock=lambda: now[0])
    produce = Producer(None)
    assert cache.fetch("arxiv", "id", {"id": "2699.99999"}, produce) is None
    assert cache.fetch("arxiv", "id", {"id": "2699.99999"}, produce) is None
    assert produce.calls == 1
    hit = cache.get("arxiv", "id", {"id": "2699.99999"})
    assert hit is not None and not hit.found
    now[0] += 3601
    reopened = LookupCache(tmp_path / "cache.sqlite", negative_ttl=3600, clock=lambda: now[0])
    assert reopened.get("arxiv", "id", {"id": "2699.99999"}) is None


def test_positive_answers_expire_after_their_ttl(tmp_path):
    now = [0.0]
    cache = LookupCache(tmp_path / "c.sqlite", ttl=10, clock=lambda: now[0])
    cache.put("dblp", "record", {"key": "k"}, "@misc{x,}")
    now[0] = 11
    assert LookupCache(tmp_path / "c.sqlite", ttl=10, clock=lambda: now[0]).get("dblp", "record", {"key": "k"}) is None


def test_corrupt_file_is_moved_aside_and_rebuilt(tmp_path, caplog):
    path = tmp_path / "cache.sqlite"
    path.write_bytes(b"this is not a database, it was truncated by a crash" * 50)
    with caplog.at_level(logging.WARNING):
        cache = LookupCache(path)
    assert "moved it to" in caplog.text
    aside = list(tmp_path.glob("cache.sqlite.corrupt-*"))
    assert len(aside) == 1
    cache.put("dblp", "search", {"q": "x"}, {"ok": 1})
    assert LookupCache(path).get("dblp", "search", {"q": "x"}).payload == {"ok": 1}
    sqlite3.connect(path).execute("SELECT count(*) FROM lookups").fetchone()


def test_concurrent_threads_share_one_request_per_key(tmp_path):
    cache = LookupCache(tmp_path / "cache.sqlite")
    calls: dict[str, int] = {}
    lock = threading.Lock()

    def produce_for(key: str):
        def produce():
            with lock:
                calls[key] = calls.get(key, 0) + 1
            time.sleep(0.01)
            return {"key": key}
        return produce

    def worker(i: int) -> None:
        key = f"k{i % 4}"
        assert cache.fetch("openreview", "search", {"term": key}, produce_for(key)) == {"key": key}

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(32)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert calls == {"k0": 1, "k1": 1, "k2": 1, "k3": 1}
    assert len(cache) == 4


def test_memory_cache_when_no_path():
    cache = LookupCache(None)
    produce = Producer("<feed/>")
    cache.fetch("arxiv", "search", {"q": 1}, produce)
    cache.fetch("arxiv", "search", {"q": 1}, produce)
    assert produce.calls == 1
