"""`citekit sync` online, end to end through the CLI, against the loopback fake services.

The fake answers like OpenReview, Crossref, dblp and arXiv (see tests/fakeservices), with
ICLR submissions, arXiv versions, renamed papers and Crossref decoys planted.
"""

from __future__ import annotations

import json
import shutil
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

from citekit.cli import main
from citekit.core.text import normalize_title
from citekit.library.store import Library

from .fakeservices.world import World
from .helpers_project import make_project


@pytest.fixture()
def project(tmp_path, monkeypatch, fake_services):
    monkeypatch.setenv("CITEKIT_RATE_LIMITS", "off")
    monkeypatch.setenv("CITEKIT_MAILTO", "researcher@example.org")
    monkeypatch.setenv("CITEKIT_CACHE_DIR", str(tmp_path / "cache"))
    return make_project(tmp_path)


def _run(root, *args):
    result = CliRunner().invoke(main, ["-C", str(root), *args])
    assert result.exit_code == 0, result.output
    return result.output


def _sync(root, *args):
    result = CliRunner().invoke(main, ["-C", str(root), "sync", "--json", *args])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_offline_entries_upgrade_online_and_keep_their_keys(project, fake_services):
    offline = _sync(project, "--offline")
    keys_before = {w["key"] for w in offline["works_detail"]}
    online = _sync(project)
    lib = Library.load(project / "refs")
    # provisional keys (never exported or cited) may be re-formed from a better year or
    # first author; the old key then stays an alias, so every key issued still finds its entry
    assert all(lib.get(k) is not None for k in keys_before), "keys issued offline must survive the upgrade"
    renamed = {k: lib.get(k).key for k in keys_before if k not in lib.entries}
    assert all(old in lib.get(new).aliases for old, new in renamed.items())
    assert online["counts"]["resolved"] >= 60
    assert online["upgraded"], "notes-only entries should be upgraded"
    entry = lib.get("huang2026limuon")
    assert entry.status == "resolved"
    assert entry.fields["booktitle"] == "Forty-third International Conference on Machine Learning"
    assert entry.fields["url"].startswith("https://openreview.net/forum?id=")
    assert entry.ids.openreview
    # the abstract of LiMuon from the abstracts file is the same work: one entry, both mentions
    assert any("abstracts" in str(m) for m in entry.mentions)


def test_resolves_to_icml_records_never_decoys_or_earlier_submissions(project):
    data = _sync(project)
    accepted = 0
    for work in data["works_detail"]:
        if work["status"] != "resolved":
            continue
        chosen = work["chosen"]
        assert chosen is not None
        stages = {v["stage"] for v in work["versions"]}
        if "accepted" in stages:
            # the ICML 2026 record (the conference's own list, or OpenReview's accepted note),
            # not the ICLR submission or the arXiv version
            assert chosen["source"] in ("conferences", "openreview"), work
            assert next(v for v in work["versions"] if (v["source"], v["id"]) == (chosen["source"], chosen["id"]))[
                "stage"] == "accepted", work
            accepted += 1
    assert accepted >= 10  # the check above ran on the accepted papers, not on none
    lib = Library.load(project / "refs")
    for entry in lib.entries.values():
        if entry.status == "resolved" and entry.fields.get("booktitle"):
            assert "Learning Representations" not in entry.fields["booktitle"], entry.key
        assert "Anonymous" not in entry.fields.get("author", "")


def test_renamed_paper_resolves_to_its_conference_title(project):
    _sync(project)
    lib = Library.load(project / "refs")
    entry = next(e for e in lib.entries.values() if "Risk Control for Reasoning" in e.title)
    assert entry.status == "resolved"
    assert entry.title.startswith("Conformal Thinking")
    assert any(v.get("title", "").startswith("Compute When Worth It") for v in entry.versions)


def test_second_sync_makes_no_request_and_changes_no_byte(project, fake_services):
    first = _sync(project)
    assert first["requests"] > 0
    before = {p.name: p.read_bytes() for p in (project / "refs").iterdir()}
    count = fake_services.requests()
    second = _sync(project)
    assert second["requests"] == 0
    assert fake_services.requests() == count
    assert {p.name: p.read_bytes() for p in (project / "refs").iterdir()} == before


def test_refresh_asks_again(project, fake_services):
    _sync(project)
    count = fake_services.requests()
    again = _sync(project, "--refresh")
    assert again["requests"] > 0 and fake_services.requests() > count


def test_unknown_papers_stay_notes_only_with_a_reason(project):
    notes = project / "notes" / "notes-icml2026-trip-report.txt"
    with notes.open("a", encoding="utf-8") as fh:  # a paper no source knows, with its authors
        fh.write("\n• Sparse Tangent Kernels Explain Nothing At All\n  • 著者: Una Nadie ⋅ Otra Persona\n")
    data = _sync(project)
    not_resolved = [w for w in data["works_detail"] if w["status"] != "resolved"]
    assert not_resolved, "the fake leaves some papers unknown on purpose"
    assert all(w["reason"] for w in not_resolved)


def test_all_services_down_means_notes_only_said_once(project, fake_services):
    for service in ("conferences", "openreview", "crossref", "dblp", "arxiv"):
        fake_services.down(service)
    result = CliRunner().invoke(main, ["-C", str(project), "sync"])
    assert result.exit_code == 0, result.output
    assert result.output.count("no source could be reached") == 1
    assert "notes-only    54" in result.output
    lib = Library.load(project / "refs")
    assert all(e.status == "notes-only" for e in lib.entries.values())


def test_offline_sync_after_online_keeps_what_abstracts_resolved(project, fake_services, tmp_path):
    online = _sync(project)
    lib = Library.load(project / "refs")
    from_abstracts = {k for k, e in lib.entries.items() if any("abstracts" in str(m) for m in e.mentions)}
    assert len(from_abstracts) >= 10
    before = {k: (list(lib.entries[k].mentions), lib.entries[k].tags) for k in from_abstracts}
    shutil.rmtree(tmp_path / "cache")  # a fresh clone has no cache, and no network
    offline = _sync(project, "--offline")
    after = Library.load(project / "refs")
    assert {k: (list(after.entries[k].mentions), after.entries[k].tags) for k in from_abstracts} == before
    assert offline["counts"]["resolved"] == online["counts"]["resolved"]


def test_openreview_refusing_id_lookups_still_searches_by_title(project, fake_services):
    notes = project / "notes" / "notes-icml2026-trip-report.txt"
    text = notes.read_text(encoding="utf-8")
    # pin one paper to an OpenReview id that no conference list names (its ICLR submission):
    # that lookup needs an account and is refused
    forum = next(p["iclr"]["id"] for p in World.load().papers if p["title"].startswith("LiMuon"))
    line = next(ln for ln in text.splitlines() if "著者: Feihu Huang" in ln)
    indent = line[: len(line) - len(line.lstrip())]
    notes.write_text(text.replace(line, f"{indent}• openreview: {forum}\n{line}", 1), encoding="utf-8")
    fake_services.fail("openreview", "403", paths=("POST /notes/search",))
    result = CliRunner().invoke(main, ["-C", str(project), "sync"])
    assert result.exit_code == 0, result.output
    assert result.output.count("note: openreview needs credentials") == 1  # said once for the run
    lib = Library.load(project / "refs")
    assert lib.get("schaipp2026stepsize").status == "resolved"  # found by title search
    assert lib.get("schaipp2026stepsize").ids.openreview


def test_presentation_type_reaches_the_sidecar(project):
    _sync(project)
    lib = Library.load(project / "refs")
    by_title = {e.title.replace("{", "").replace("}", ""): e for e in lib.entries.values()}
    def presentation(prefix):
        entry = next(e for t, e in by_title.items() if t.startswith(prefix))
        return {v.get("presentation") for v in entry.versions if v.get("source") == "conferences"}
    assert presentation("Flat Minima and Generalization") == {"spotlight"}
    assert presentation("LiMuon") == {"poster"}
    text = (project / "refs" / "library.yaml").read_text(encoding="utf-8")
    assert '"presentation": "spotlight"' in text and '"presentation": "poster"' in text


def test_a_source_down_is_said_once_and_keys_issued_before_stay(project, fake_services, tmp_path, monkeypatch):
    first = _sync(project)
    keys = {w["key"] for w in first["works_detail"]}
    fake_services.down("conferences")
    # the stored list serves when the site cannot be asked, and the sync says so once
    result = CliRunner().invoke(main, ["-C", str(project), "sync", "--refresh"])
    assert result.exit_code == 0, result.output
    assert result.output.count("paper list could not be refreshed") == 1, result.output
    # with nothing stored, the other sources carry the sync, said once
    monkeypatch.setenv("CITEKIT_CACHE_DIR", str(tmp_path / "fresh-cache"))
    result = CliRunner().invoke(main, ["-C", str(project), "sync"])
    assert result.exit_code == 0, result.output
    assert result.output.count("unreachable (connection refused): the ICML 2026 paper list was skipped") == 1, result.output
    lib = Library.load(project / "refs")
    assert keys <= set(lib.entries)
    assert all(lib.entries[k].status == "resolved" for k in keys
               if next(w for w in first["works_detail"] if w["key"] == k)["status"] == "resolved")


def test_misbehaving_services_leave_refs_as_they_were(project, fake_services):
    _sync(project)
    before = {p.name: p.read_bytes() for p in (project / "refs").iterdir()}
    fake_services.fail("crossref", "junk")
    fake_services.fail("dblp", "truncated")
    fake_services.fail("openreview", "redirect")
    fake_services.fail("arxiv", "junk")
    result = CliRunner().invoke(main, ["-C", str(project), "sync", "--refresh"])
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    for service in ("crossref", "dblp", "openreview", "arxiv"):
        assert result.output.count(f"{service} unreachable") <= 1, result.output
    assert result.output.count("redirected to another site") == 1, result.output
    assert {p.name: p.read_bytes() for p in (project / "refs").iterdir()} == before


# One paper noted twice, under the workshop/preprint title (with its arXiv link) and under the
# conference title (with its poster page): the notes alone cannot tell they are one paper
# (different titles, different links), resolution can (both lead to one ICML record).
TWICE = """# ICML 2026

- Compute When Worth It: Risk Control for Reasoning on a Compute Budget
  - Authors: Xi Wang, Anushri Suresh, Alvin Zhang, William Jurayj
  - URL: https://arxiv.org/abs/2510.80326

## At the poster session

- Conformal Thinking: Risk Control for Reasoning on a Compute Budget
  - Authors: Xi Wang, Anushri Suresh, Alvin Zhang, Rishi More, Laura Brandt
  - URL: https://icml.cc/virtual/2026/poster/61680
"""


@pytest.fixture()
def twice(project):
    shutil.rmtree(project / "notes")
    (project / "notes").mkdir()
    (project / "notes" / "reading.md").write_text(TWICE, encoding="utf-8")
    return project


def test_one_paper_noted_under_two_titles_is_one_entry(twice):
    data = _sync(twice)
    assert data["works"] == 2  # two groups of the notes ...
    lib = Library.load(twice / "refs")
    assert len(lib.entries) == 1  # ... one paper, one entry, holding both mentions
    entry = next(iter(lib.entries.values()))
    assert entry.status == "resolved" and entry.title.startswith("Conformal Thinking")
    assert [str(m) for m in entry.mentions] == ["notes/reading.md:3", "notes/reading.md:9"]
    assert entry.ids.arxiv == "2510.80326" and entry.ids.openreview
    assert any(v.get("title", "").startswith("Compute When Worth It") for v in entry.versions)
    assert not data["problems"] and not data["notices"]


def test_two_entries_made_offline_for_one_paper_are_reported_not_merged(twice):
    offline = _sync(twice, "--offline")
    assert len(offline["created"]) == 2  # the notes alone: two titles, two papers
    online = _sync(twice)
    lib = Library.load(twice / "refs")
    # every key issued stays (a paper may cite either); the mentions all land on one entry,
    # and the other is named for `citekit dedup`, which merges with a key map
    assert set(offline["created"]) == set(lib.entries)
    holding = [e for e in lib.entries.values() if e.mentions]
    assert len(holding) == 1 and len(holding[0].mentions) == 2 and holding[0].status == "resolved"
    assert any("now have the same title" in n and "citekit dedup" in n for n in online["notices"])


def test_the_bundled_notes_resolve_every_paper_the_services_know_with_none_wrong(project, fake_services):
    """The project page noted as a bare URL and the paper noted under its earlier title
    (its OpenReview submission's) both resolve, and no work is attached to a wrong record."""
    data = _sync(project)
    world = fake_services.world
    resolved = {w["chosen"]["id"]: w for w in data["works_detail"] if w["status"] == "resolved"}
    hyperscale = resolved["2511.16652"]
    assert "read from the page https://eshyperscale.github.io/" in hyperscale["reason"]
    gluon = resolved["2505.13416"]
    assert normalize_title(gluon["title"]).startswith(normalize_title("Gluon: Making Muon & Scion Great Again!"))
    assert "OpenReview submission" in gluon["reason"]
    lib = Library.load(project / "refs")
    titles = {e.title for e in lib.entries.values() if e.status == "resolved"}
    assert "Evolution Strategies at the Hyperscale" in titles
    # work by work: the paper its mentions mean (the world's truth, from the notes' own
    # lines) is the paper of the record the sync chose and of the entry it wrote
    mentions = {f"{m['location']['file']}:{m['location']['line']}": SimpleNamespace(**m)
                for m in json.loads(_run(project, "extract", "--json"))["mentions"]}
    right, wrong = set(), []
    for work in data["works_detail"]:
        if work["status"] != "resolved":
            continue
        paper = world.meant_paper([mentions[where] for where in work["mentions"]])
        entry = lib.get(work["key"])
        record = SimpleNamespace(ids=entry.ids, title=entry.title, **work["chosen"])
        if paper is not None and world.is_record_of(record, paper):
            right.add(paper["title"])
        else:
            wrong.append((work["mentions"], work["chosen"], paper and paper["title"]))
    assert wrong == []
    # every paper the services know is found: the fake world is those papers
    assert right == {p["title"] for p in world.papers}, {p["title"] for p in world.papers} - right
    # a second sync asks nothing: the page and the earlier-title searches are cached
    count = fake_services.requests()
    assert _sync(project)["requests"] == 0 and fake_services.requests() == count
