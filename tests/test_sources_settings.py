"""Source settings from citekit.yaml and the environment, and the source factory."""

from __future__ import annotations


import pytest
import responses

from citekit.core.model import Location
from citekit.core.resolution import Mention
from citekit.sources import build_client, build_sources, open_cache
from citekit.sources.base import Source
from citekit.sources.settings import SourceSettings

CONFIG = {
    "sources": {
        "crossref": {"url": "https://crossref.mirror.test/"},
        "dblp": {"url": "https://dblp.mirror.test", "interval": 2},
        "arxiv": {"concurrency": 1},
        "mailto": "config@example.org",
        "enabled": ["dblp", "arxiv"],
        "password": "never-read-from-here",
    }
}


def test_defaults(tmp_path):
    s = SourceSettings.from_env({}, tmp_path, env={})
    assert s.url("openreview") == "https://api2.openreview.net"
    assert s.url("crossref") == "https://api.crossref.org"
    assert s.url("dblp") == "https://dblp.org"
    assert s.url("arxiv") == "https://export.arxiv.org/api/query"
    assert s.cache_path == tmp_path / ".citekit" / "cache.sqlite"
    assert s.enabled == ["conferences", "openreview", "crossref", "dblp", "arxiv", "web"]
    assert s.policies["arxiv"].min_interval == 3.0 and s.policies["arxiv"].concurrency == 1
    assert s.policies["arxiv"].after_answer  # arXiv's 3 s count from the end of the answer
    assert s.policies["openreview"].per_minute == 20  # OpenReview's guest budget
    assert s.policies["dblp"].min_interval == 1.0
    assert s.urls_of("conferences") == {"icml": "https://icml.cc", "neurips": "https://neurips.cc",
                                 "iclr": "https://iclr.cc", "mlsys": "https://mlsys.org"}
    assert s.deadline == 900
    assert s.mailto is None and not s.has_openreview_credentials


def test_config_section_is_read(tmp_path):
    s = SourceSettings.from_env(CONFIG, tmp_path, env={})
    assert s.url("crossref") == "https://crossref.mirror.test"
    assert s.url("dblp") == "https://dblp.mirror.test"
    assert s.policies["dblp"].min_interval == 2.0
    assert s.mailto == "config@example.org"
    assert s.enabled == ["dblp", "arxiv"]
    assert s.openreview_password is None


def test_environment_overrides_config(tmp_path):
    env = {
        "CITEKIT_OPENREVIEW_URL": "http://127.0.0.1:9001",
        "CITEKIT_CROSSREF_URL": "http://127.0.0.1:9002",
        "CITEKIT_DBLP_URL": "http://127.0.0.1:9003/",
        "CITEKIT_ARXIV_URL": "http://127.0.0.1:9004/api/query",
        "CITEKIT_MAILTO": "env@example.org",
        "CITEKIT_CACHE_DIR": str(tmp_path / "elsewhere"),
        "OPENREVIEW_USERNAME": "me@example.org",
        "OPENREVIEW_PASSWORD": "secret",
    }
    s = SourceSettings.from_env(CONFIG, tmp_path, env=env)
    assert (s.url("openreview"), s.url("crossref"), s.url("dblp"), s.url("arxiv")) == (
        "http://127.0.0.1:9001", "http://127.0.0.1:9002", "http://127.0.0.1:9003", "http://127.0.0.1:9004/api/query")
    assert s.mailto == "env@example.org"
    assert s.cache_path == tmp_path / "elsewhere" / "cache.sqlite"
    assert s.has_openreview_credentials
    assert "secret" not in repr(s)


def test_rate_limits_can_be_switched_off_for_local_servers(tmp_path):
    s = SourceSettings.from_env({}, tmp_path, env={"CITEKIT_RATE_LIMITS": "off"})
    assert all(p.min_interval == 0 and not p.adaptive for p in s.policies.values())
    assert s.policies["arxiv"].concurrency == 1  # still one connection at a time


def test_bad_config_says_what_to_write(tmp_path):
    with pytest.raises(ValueError, match="unknown source.*scholar.*choose from"):
        SourceSettings.from_env({"sources": {"enabled": ["scholar"]}}, tmp_path, env={})
    with pytest.raises(ValueError, match="sources.dblp.interval"):
        SourceSettings.from_env({"sources": {"dblp": {"interval": "fast"}}}, tmp_path, env={})


def test_build_sources_in_order_sharing_client_and_cache(tmp_path):
    s = SourceSettings.from_env({"sources": {"enabled": ["arxiv", "openreview", "crossref", "dblp"]}}, tmp_path, env={})
    client, cache = build_client(s), open_cache(s)
    sources = build_sources(s, client=client, cache=cache)
    assert [src.name for src in sources] == ["arxiv", "openreview", "crossref", "dblp"]
    assert all(isinstance(src, Source) for src in sources)
    assert all(src.client is client and src.cache is cache for src in sources)
    assert s.cache_path.exists()


@responses.activate
def test_env_base_url_is_where_requests_go(tmp_path, api_fixture):
    responses.get("https://dblp.mirror.test/search/publ/api", body=api_fixture("dblp/search_zero_hits.json"),
                  content_type="application/json")
    s = SourceSettings.from_env({"sources": {"enabled": ["dblp"]}}, tmp_path,
                                env={"CITEKIT_DBLP_URL": "https://dblp.mirror.test", "CITEKIT_RATE_LIMITS": "off",
                                     "CITEKIT_MAILTO": "env@example.org"})
    client = build_client(s)
    (dblp,) = build_sources(s, client=client)
    dblp.search(Mention(kind="titled", location=Location("n", 1), title="Factored Gossip DiLoCo"))
    assert len(responses.calls) == 1
    assert "(mailto:env@example.org)" in responses.calls[0].request.headers["User-Agent"]
    assert client.stats.total == 1


def test_second_sync_makes_zero_requests(tmp_path, api_fixture):
    """The whole point of the cache: unchanged notes, a second run, nothing sent."""
    s = SourceSettings.from_env({}, tmp_path, env={"CITEKIT_RATE_LIMITS": "off"})
    mention = Mention(kind="titled", location=Location("notes/trip.txt", 30), venue="ICML", year=2026,
                      title="Inconsistency-Aware Minimization: Improving Generalization with Unlabeled Data")
    with responses.RequestsMock(assert_all_requests_are_fired=False) as rsps:
        rsps.get(f"{s.url('openreview')}/notes/search", body=api_fixture("openreview/search_icml2026.json"),
                 content_type="application/json")
        rsps.get(f"{s.url('dblp')}/search/publ/api", body=api_fixture("dblp/search_zero_hits.json"),
                 content_type="application/json")
        rsps.get(s.url("arxiv"), body=api_fixture("arxiv/empty.xml"), content_type="application/atom+xml")
        s.enabled = ["openreview", "dblp", "arxiv"]
        first_client = build_client(s)
        first = [c.id for src in build_sources(s, client=first_client) for c in src.search(mention)]
        second_client = build_client(s)
        second = [c.id for src in build_sources(s, client=second_client) for c in src.search(mention)]
    assert first == second and first
    assert first_client.stats.total == 3
    assert second_client.stats.total == 0
