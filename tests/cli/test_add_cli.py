"""`citekit add THING...` end to end through the CLI, against the loopback fake services.

The fake world (tests/fakeservices/data) knows ICML 2026 papers with their arXiv and
OpenReview records and a Crossref journal article; the notes start empty so every entry
comes from what ``add`` wrote in ``notes/inbox.md``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from citekit.cli import main
from citekit.library.store import Library
from citekit.notes import extract_text, group_mentions

FOAM = "FOAM: Frequency and Operator-Error Based Adaptive Damping Method for Reducing Staleness-Oriented Error for Shampoo"
FOAM_ARXIV = "2602.50082"
FOAM_OPENREVIEW = "q2SoUBpsnt"
RDO_DOI = "10.3390/math14061234"  # Crossref: "Riemannian Dueling Optimization" (Mathematics, 2026)


@pytest.fixture()
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fake_services) -> Path:
    monkeypatch.setenv("CITEKIT_RATE_LIMITS", "off")
    monkeypatch.setenv("CITEKIT_MAILTO", "researcher@example.org")
    monkeypatch.setenv("CITEKIT_CACHE_DIR", str(tmp_path / "cache"))
    root = tmp_path / "proj"
    (root / "notes").mkdir(parents=True)
    (root / "citekit.yaml").write_text("# test project\n", encoding="utf-8")
    return root


def _add(root: Path, *args: str, code: int = 0) -> dict:
    result = CliRunner().invoke(main, ["-C", str(root), "add", "--json", *args])
    assert result.exit_code == code, result.output
    return json.loads(result.stdout)


def _only(data: dict) -> dict:
    assert len(data["added"]) == 1, data
    return data["added"][0]


def _inbox(root: Path) -> str:
    return (root / "notes" / "inbox.md").read_text(encoding="utf-8")


def _read_back(root: Path, item: dict):
    """The entry a fresh extraction of the inbox groups the recorded line with: the mention
    at ``item['where']`` must be one the library's entry holds."""
    mentions = extract_text(_inbox(root), "notes/inbox.md").mentions
    at = [m for m in mentions if str(m.location) == item["where"]]
    assert len(at) == 1, (item["where"], [str(m.location) for m in mentions])
    groups = group_mentions(mentions)
    assert sum(1 for g in groups if at[0] in g) == 1
    lib = Library.load(root / "refs")
    owners = [e for e in lib.entries.values() if item["where"] in {str(loc) for loc in e.mentions}]
    return at[0], owners


@pytest.mark.parametrize("thing", [
    f"arXiv:{FOAM_ARXIV}",
    f"https://arxiv.org/abs/{FOAM_ARXIV}v2",
    f"https://openreview.net/forum?id={FOAM_OPENREVIEW}",
    "https://icml.cc/virtual/2026/poster/63117",
    f'"{FOAM}"',
    f"Kyunghun Nam and Sumyeong Ahn. {FOAM}. In ICML, 2026.",
])
def test_each_kind_of_thing_resolves_to_the_icml_paper_and_reads_back(project, thing):
    item = _only(_add(project, thing, "--tag", "shampoo"))
    assert item["status"] == "resolved", item
    assert item["title"] == FOAM
    assert item["where"].startswith("notes/inbox.md:")
    lib = Library.load(project / "refs")
    entry = lib.get(item["key"])
    assert entry is not None and entry.status == "resolved"
    assert entry.fields["booktitle"] == "Forty-third International Conference on Machine Learning"
    assert "shampoo" in entry.tags
    # the appended line, extracted again, is the same work: the entry holds its mention
    mention, owners = _read_back(project, item)
    assert [e.key for e in owners] == [item["key"]]
    assert "shampoo" in mention.hashtags
    # and a sync of the notes changes nothing: the notes are the source of truth
    sync = CliRunner().invoke(main, ["-C", str(project), "sync", "--json"])
    assert sync.exit_code == 0, sync.output
    assert json.loads(sync.stdout)["created"] == []
    assert set(Library.load(project / "refs").entries) == {item["key"]}


def test_a_doi_resolves_to_its_journal_article(project):
    item = _only(_add(project, f"https://doi.org/{RDO_DOI}"))
    assert item["status"] == "resolved", item
    entry = Library.load(project / "refs").get(item["key"])
    assert entry.fields.get("doi", "").lower() == RDO_DOI
    _, owners = _read_back(project, item)
    assert [e.key for e in owners] == [item["key"]]


def test_adding_a_paper_already_there_names_it_and_writes_nothing(project, fake_services):
    first = _only(_add(project, f"arXiv:{FOAM_ARXIV}"))
    inbox = _inbox(project)
    bib = (project / "refs" / "library.bib").read_bytes()
    again = _add(project, f"https://openreview.net/forum?id={FOAM_OPENREVIEW}")
    item = _only(again)
    assert item["status"] == "already" and item["key"] == first["key"]
    assert not again["changed"]
    assert _inbox(project) == inbox
    assert (project / "refs" / "library.bib").read_bytes() == bib
    text = CliRunner().invoke(main, ["-C", str(project), "add", f'"{FOAM}"'])
    assert text.exit_code == 0 and f"{first['key']}: already in the library" in text.stdout


@pytest.mark.parametrize("again", [f'"{FOAM}"', f"arXiv:{FOAM_ARXIV}", f"https://arxiv.org/abs/{FOAM_ARXIV}v1"])
def test_a_title_or_id_already_in_the_library_is_named_with_no_request(project, fake_services, again):
    first = _only(_add(project, f"arXiv:{FOAM_ARXIV}"))
    inbox = _inbox(project)
    bib = (project / "refs" / "library.bib").read_bytes()
    import shutil

    shutil.rmtree(project.parent / "cache")  # no cached answer either: nothing may be asked at all
    before = fake_services.requests()
    result = CliRunner().invoke(main, ["-C", str(project), "add", again])
    assert result.exit_code == 0, result.output
    assert f"{first['key']}: already in the library" in result.stdout
    assert fake_services.requests() == before, "an add of a paper already there must not ask any service"
    assert _inbox(project) == inbox
    assert (project / "refs" / "library.bib").read_bytes() == bib
    data = _add(project, again)
    assert _only(data)["status"] == "already" and _only(data)["key"] == first["key"] and data["requests"] == 0
    assert fake_services.requests() == before


def test_only_the_added_paper_is_looked_up_the_rest_comes_from_the_cache(project, fake_services):
    _add(project, f"arXiv:{FOAM_ARXIV}")
    before = fake_services.requests()
    _add(project, f"https://doi.org/{RDO_DOI}")
    for_second = fake_services.requests() - before
    assert 0 < for_second <= 8, for_second
    # the first paper was not asked about again
    before = fake_services.requests()
    sync = CliRunner().invoke(main, ["-C", str(project), "sync", "--json"])
    assert json.loads(sync.stdout)["requests"] == 0 and fake_services.requests() == before


def test_offline_records_now_and_the_next_sync_resolves(project, fake_services):
    data = _add(project, "--offline", f"arXiv:{FOAM_ARXIV}", "--tag", "later")
    item = _only(data)
    assert item["status"] == "offline" and fake_services.requests() == 0
    assert f"https://arxiv.org/abs/{FOAM_ARXIV} #later" in _inbox(project)
    sync = CliRunner().invoke(main, ["-C", str(project), "sync", "--json"])
    assert sync.exit_code == 0, sync.output
    lib = Library.load(project / "refs")
    (entry,) = lib.entries.values()
    assert entry.status == "resolved" and "Operator-Error Based Adaptive Damping" in entry.title and "later" in entry.tags


def test_unresolvable_title_is_recorded_as_notes_only_with_exit_1(project):
    data = _add(project, '"Quantum Gardening for Sentient Tomatoes: A Survey"', code=1)
    item = _only(data)
    assert item["status"] in ("notes-only", "pending"), item
    assert item["message"]
    assert "Quantum Gardening for Sentient Tomatoes" in _inbox(project)


def test_pasted_bibtex_goes_in_as_the_users_record_and_in_the_notes(project):
    bib = ("@article{mine2026rdo, title = {Riemannian Dueling Optimization}, "
           "author = {Hoffmann, Lena and Rossi, Marco and Mori, Ayaka}, journal = {Mathematics}, "
           "year = {2026}, doi = {10.3390/math14061234}, note = {my own note}}")
    item = _only(_add(project, bib, "--tag", "mine"))
    assert item["kind"] == "bibtex"
    lib = Library.load(project / "refs")
    assert list(lib.entries) == ["mine2026rdo"], list(lib.entries)
    entry = lib.get("mine2026rdo")
    assert entry.fields.get("note") == "my own note"
    assert "mine" in entry.tags
    assert "```bibtex" in _inbox(project) and "@article{mine2026rdo" in _inbox(project)
    _, owners = _read_back(project, item)
    assert [e.key for e in owners] == ["mine2026rdo"]


def test_a_library_rebuilt_from_the_notes_keeps_a_pasted_entrys_own_key(project, tmp_path):
    """The notes are the source of truth: a labmate's clone that syncs them from scratch cites the
    pasted paper by the key the user gave it, not by the formula's key. A pasted key another
    paper already holds is not taken from it."""
    import shutil

    bib = ("@inproceedings{chen2023lion, title = {Symbolic Discovery of Optimization Algorithms}, "
           "author = {Chen, Xiangning and Liang, Chen and Huang, Da}, booktitle = {NeurIPS}, year = {2023}}")
    assert _only(_add(project, bib, "--offline"))["key"] == "chen2023lion"
    def rebuild(name: str, *extra: str) -> dict[str, str]:
        rebuilt = tmp_path / name
        (rebuilt / "notes").mkdir(parents=True)
        shutil.copy(project / "citekit.yaml", rebuilt / "citekit.yaml")
        shutil.copy(project / "notes" / "inbox.md", rebuilt / "notes" / "inbox.md")
        for i, text in enumerate(extra):
            (rebuilt / "notes" / f"a{i}.md").write_text(f"```bibtex\n{text}\n```\n", encoding="utf-8")
        synced = CliRunner().invoke(main, ["-C", str(rebuilt), "sync", "--offline", "-q"])
        assert synced.exit_code == 0, synced.output
        return {e.fields.get("title", "").strip("{}"): key for key, e in Library.load(rebuilt / "refs").entries.items()}

    assert rebuild("alone") == {"Symbolic Discovery of Optimization Algorithms": "chen2023lion"}
    other = ("@article{chen2023lion, title = {A Different Paper on Lions}, author = {Chen, Wei}, "
             "journal = {Zoology}, year = {2023}}")
    both = rebuild("clash", other)
    assert len(both) == 2 and sorted(both.values()).count("chen2023lion") == 1, both


def test_not_a_paper_is_a_usage_error_and_writes_nothing(project):
    result = CliRunner().invoke(main, ["-C", str(project), "add", "hello"])
    assert result.exit_code == 2
    assert "not a DOI" in result.output
    assert not (project / "notes" / "inbox.md").exists()


def test_inbox_is_configurable(project):
    (project / "citekit.yaml").write_text("paths:\n  inbox: reading/queue.md\n", encoding="utf-8")
    item = _only(_add(project, f"arXiv:{FOAM_ARXIV}"))
    assert item["where"].startswith("notes/reading/queue.md:")
    assert (project / "notes" / "reading" / "queue.md").exists()
    (project / "citekit.yaml").write_text("paths:\n  inbox: ../outside.md\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["-C", str(project), "add", f"arXiv:{FOAM_ARXIV}"])
    assert result.exit_code == 2 and "paths.inbox" in result.output


def test_quiet_prints_the_keys(project):
    result = CliRunner().invoke(main, ["-C", str(project), "add", "-q", f"arXiv:{FOAM_ARXIV}"])
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == list(Library.load(project / "refs").entries)[0]


def test_adding_offline_twice_notes_it_once(project, fake_services):
    _add(project, "--offline", f"arXiv:{FOAM_ARXIV}")
    inbox = _inbox(project)
    item = _only(_add(project, "--offline", f"https://arxiv.org/abs/{FOAM_ARXIV}"))
    assert item["status"] == "already" and item["where"].startswith("notes/inbox.md:")
    assert _inbox(project) == inbox
    both = _add(project, "--offline", f'"{FOAM}"', f'"{FOAM}"')
    assert [i["status"] for i in both["added"]] == ["offline", "already"]
    assert _inbox(project).count(FOAM) == 1


TWIN = "Spectral Conditioning of Stochastic Orthogonal Updates in Sparse Mixture Models"


def _twins(fake_services) -> None:
    """Two Crossref journal articles sharing one title, by different people: a bare title
    cannot tell them apart (the shape of Crossref's work items, as in data/crossref.json)."""
    base = fake_services.world.crossref_items[0]["item"]
    for doi, family, given in (("10.5555/twin.a", "Karoni", "Aikaterini"), ("10.5555/twin.b", "Costa", "Bruno")):
        item = json.loads(json.dumps(base))
        item.update({"DOI": doi, "title": [TWIN], "URL": f"https://doi.org/{doi}",
                     "author": [{"given": given, "family": family, "sequence": "first", "affiliation": []}]})
        fake_services.world.crossref_items.append({"item": item, "bias": 0.0})


def test_unsure_shows_the_runner_up_and_records_without_choosing(project, fake_services):
    _twins(fake_services)
    result = CliRunner().invoke(main, ["-C", str(project), "add", f'"{TWIN}"'])
    assert result.exit_code == 1, result.output
    assert "runner-up: crossref 10.5555/twin." in result.stdout
    assert "--pick" in result.stdout
    entries = Library.load(project / "refs").entries
    assert all(e.status != "resolved" for e in entries.values())  # never a guess


def test_pick_chooses_among_equally_fitting_records_and_pins_the_choice(project, fake_services):
    _twins(fake_services)
    result = CliRunner().invoke(main, ["-C", str(project), "add", "--pick", f'"{TWIN}"'], input="2\n")
    assert result.exit_code == 0, result.output
    assert "Several records fit" in result.output
    inbox = _inbox(project)
    pinned = "10.5555/twin.b" if "doi: 10.5555/twin.b" in inbox else "10.5555/twin.a"
    assert f"doi: {pinned}" in inbox
    (entry,) = Library.load(project / "refs").entries.values()
    assert entry.status == "resolved" and entry.ids.doi == pinned
    # the pin is in the notes: a later sync keeps the choice
    sync = CliRunner().invoke(main, ["-C", str(project), "sync", "--refresh", "--json"])
    assert sync.exit_code == 0, sync.output
    (again,) = Library.load(project / "refs").entries.values()
    assert again.key == entry.key and again.ids.doi == pinned and again.status == "resolved"


def test_pick_later_settles_a_paper_recorded_without_choosing(project, fake_services):
    _twins(fake_services)
    CliRunner().invoke(main, ["-C", str(project), "add", f'"{TWIN}"'])
    result = CliRunner().invoke(main, ["-C", str(project), "add", "--pick", f'"{TWIN}"'], input="1\n")
    assert result.exit_code == 0, result.output
    resolved = [e for e in Library.load(project / "refs").entries.values() if e.status == "resolved"]
    assert len(resolved) == 1 and resolved[0].ids.doi in ("10.5555/twin.a", "10.5555/twin.b")


@pytest.mark.parametrize("thing, kind", [
    ("10.1162/neco.1997.9.8.1735", "doi"),
    ("doi:10.1162/neco.1997.9.8.1735", "doi"),
    ("2101.03961", "arxiv"),
    ("https://arxiv.org/pdf/2101.03961v3", "arxiv"),
    ("https://openreview.net/pdf?id=6Tm1mposlrM", "openreview"),
    ("https://dblp.org/rec/conf/iclr/ForetKMN21", "dblp"),
    ("https://aclanthology.org/2020.acl-main.1/", "url"),
    ("https://proceedings.mlr.press/v139/foret21a.html", "url"),
    ("https://www.semanticscholar.org/paper/a2f6f7b1e0c2c3f1d9b9f2d8e1c0b7a6f5e4d3c2", "url"),
    ("https://icml.cc/virtual/2026/poster/62214", "url"),
])
def test_every_kind_of_link_is_recorded_as_a_line_the_notes_read_back(project, fake_services, thing, kind):
    item = _only(_add(project, "--offline", thing, "--tag", "queue"))
    assert item["kind"] == kind and item["status"] == "offline"
    assert fake_services.requests() == 0
    mentions = extract_text(_inbox(project), "notes/inbox.md").mentions
    (at,) = [m for m in mentions if str(m.location) == item["where"]]
    assert at.urls and "queue" in at.hashtags
    if kind in ("doi", "arxiv", "openreview", "dblp"):
        assert getattr(at.ids, kind)


def test_pasted_bibtex_of_a_paper_already_there_changes_nothing(project):
    first = _only(_add(project, f"https://doi.org/{RDO_DOI}"))
    bib = (project / "refs" / "library.bib").read_bytes()
    item = _only(_add(project, "@article{other, title = {Riemannian Dueling Optimization}, "
                               "author = {Hoffmann, Lena}, year = {2026}, doi = {10.3390/MATH14061234}}"))
    assert item["status"] == "already" and item["key"] == first["key"]
    assert (project / "refs" / "library.bib").read_bytes() == bib
    assert "@article{other" not in _inbox(project)


def test_adding_to_notes_never_synced_online_asks_about_the_added_paper_only(tmp_path, monkeypatch, fake_services):
    import shutil

    monkeypatch.setenv("CITEKIT_RATE_LIMITS", "off")
    monkeypatch.setenv("CITEKIT_CACHE_DIR", str(tmp_path / "cache"))
    root = tmp_path / "bundled"
    root.mkdir()
    (root / "citekit.yaml").write_text("# test project\n", encoding="utf-8")
    shutil.copytree(Path(__file__).resolve().parents[2] / "notes", root / "notes")  # the bundled notes: ~80 works
    offline = CliRunner().invoke(main, ["-C", str(root), "sync", "--offline", "--json"])
    assert offline.exit_code == 0, offline.output
    before = {k: e.status for k, e in Library.load(root / "refs").entries.items()}
    _twins(fake_services)  # two journal articles the notes do not mention
    item = _only(_add(root, "https://doi.org/10.5555/twin.a"))
    assert item["status"] == "resolved" and item["key"] not in before
    assert fake_services.requests() <= 4, fake_services.requests()
    after = Library.load(root / "refs").entries
    assert {k: after[k].status for k in before} == before  # nothing else looked up or changed status


def test_two_papers_in_one_argument_are_refused_before_anything_is_written(project):
    result = CliRunner().invoke(main, ["-C", str(project), "add", f"arXiv:{FOAM_ARXIV} https://doi.org/{RDO_DOI}"])
    assert result.exit_code == 2 and "argument of its own" in result.output
    assert not (project / "notes" / "inbox.md").exists()


def test_a_title_recorded_unresolved_carries_no_invented_summary(project):
    _add(project, "--offline", '"Quantum Gardening for Sentient Tomatoes: A Survey"', "--tag", "queue")
    assert "- Quantum Gardening for Sentient Tomatoes: A Survey #queue\n  - Summary: …\n" in _inbox(project)
    (mention,) = extract_text(_inbox(project), "notes/inbox.md").mentions
    assert mention.title == "Quantum Gardening for Sentient Tomatoes: A Survey" and mention.hashtags == ["queue"]


def test_a_page_no_source_knows_is_recorded_and_says_what_to_write(project):
    item = _only(_add(project, "https://aclanthology.org/2020.acl-main.1/", code=1))
    assert item["status"] == "pending" and item["key"] is None
    assert "no source knows this page" in item["message"] and item["where"] in item["message"]
    assert "- https://aclanthology.org/2020.acl-main.1/\n" in _inbox(project)


def test_an_acl_anthology_page_is_looked_up_by_the_doi_the_acl_gives_it(project, fake_services):
    base = fake_services.world.crossref_items[0]["item"]
    item = json.loads(json.dumps(base))
    item.update({"DOI": "10.18653/v1/2020.acl-main.1", "title": ["Learning to Understand Child-directed and Adult-directed Speech"],
                 "container-title": ["Proceedings of the 58th Annual Meeting of the Association for Computational Linguistics"],
                 "type": "proceedings-article", "URL": "https://doi.org/10.18653/v1/2020.acl-main.1",
                 "author": [{"given": "Lieke", "family": "Gelderloos", "sequence": "first", "affiliation": []},
                            {"given": "Grzegorz", "family": "Chrupała", "sequence": "additional", "affiliation": []}]})
    fake_services.world.crossref_items.append({"item": item, "bias": 0.0})
    added = _only(_add(project, "https://aclanthology.org/2020.acl-main.1/"))
    assert added["status"] == "resolved", added
    entry = Library.load(project / "refs").get(added["key"])
    assert entry.fields["doi"].lower() == "10.18653/v1/2020.acl-main.1"
    assert "  - URL: https://aclanthology.org/2020.acl-main.1/\n" in _inbox(project)
    _, owners = _read_back(project, added)
    assert [e.key for e in owners] == [added["key"]]


@pytest.mark.parametrize("richer", [
    "@inproceedings{kingma2015adam, title={Adam: A Method for Stochastic Optimization}, "
    "author={Kingma, Diederik P. and Ba, Jimmy}, booktitle={ICLR}, year={2015}}",
    "Kingma, D. P., & Ba, J. (2015). Adam: A Method for Stochastic Optimization. In International Conference on "
    "Learning Representations.",
])
def test_a_richer_form_of_a_title_noted_earlier_is_recorded_not_dropped(project: Path, richer: str) -> None:
    """A title added offline waits in the inbox with no authors; pasting the paper's BibTeX or
    reference later brings authors, year and venue: they are recorded (one paper), with the tag."""
    _add(project, "--offline", '"Adam: A Method for Stochastic Optimization"')
    item = _only(_add(project, "--offline", "--tag", "optim", richer))
    assert item["status"] != "already", item
    assert "Kingma" in _inbox(project)
    lib = Library.load(project / "refs")
    adams = [e for e in lib.entries.values() if "adam" in (e.title or "").lower()]
    assert len(adams) == 1 and "optim" in adams[0].tags, [(e.key, e.tags) for e in adams]
    assert not adams[0].import_record  # (a pasted entry came from no file a later import follows)


# ---- what the messages say (issue 26) -------------------------------------------------------

def _add_text(root: Path, *args: str):
    return CliRunner().invoke(main, ["-C", str(root), "add", *args])


def _all_down(fake_services) -> None:
    for service in ("openreview", "crossref", "dblp", "arxiv", "conferences"):
        fake_services.down(service)


def test_no_service_reachable_is_said_once_and_the_paper_is_recorded_not_added(project, fake_services):
    _all_down(fake_services)
    ref = ("Kaplan, J., McCandlish, S., Henighan, T., & Amodei, D. (2020). Scaling laws for neural language "
           "models. arXiv preprint arXiv:2001.08361.")
    result = _add_text(project, ref, '"Quantum Gardening for Sentient Tomatoes: A Survey"')
    out = result.output
    assert result.exit_code == 1, out  # matches the help: nothing could be looked up, run again online
    assert out.count("offline: 2 papers not looked up (no service could be reached)") == 1
    assert "no source knows" not in out and "no source found" not in out
    assert "give its DOI or arXiv id" not in out
    assert "0 added, 1 pending, 1 notes-only, 0 already there" in out, out
    assert "next:" not in out  # the offline: line said what to do, once
    assert "HTTPConnectionPool" not in out and "Max retries" not in out and "NameResolutionError" not in out
    warnings = [line for line in out.splitlines() if line.startswith("warning:")]
    assert all(len(line) < 200 for line in warnings), warnings
    assert "Scaling laws for neural language models" in _inbox(project)
    data = json.loads(CliRunner().invoke(main, ["-C", str(project), "add", "--json", "--offline", "arXiv:2001.08361"]
                                         ).stdout)
    assert data["added"][0]["status"] == "already"


def test_a_notes_only_paper_given_with_its_arxiv_id_is_not_asked_for_it(project):
    result = _add_text(project, "Doe, J. (2020). Quantum gardening for sentient tomatoes. arXiv preprint "
                                "arXiv:2001.99999.")
    assert result.exit_code == 1, result.output
    assert "give its DOI or arXiv id" not in result.output
    assert "DOI or arXiv id under that line" not in result.output


def test_a_paper_waiting_in_the_notes_is_not_called_already_in_the_library(project, fake_services):
    assert _add_text(project, "--offline", f"arXiv:{FOAM_ARXIV}").exit_code == 0
    again = _add_text(project, "--offline", f"https://arxiv.org/abs/{FOAM_ARXIV}")
    assert again.exit_code == 0
    assert "already in the library" not in again.output
    assert f"https://arxiv.org/abs/{FOAM_ARXIV}: already in the notes" in again.output
    assert "pending (no key yet): `citekit sync` online looks it up" in again.output


def test_offline_add_says_recorded_not_added_and_exits_0_as_the_help_says(project):
    result = _add_text(project, "--offline", f"arXiv:{FOAM_ARXIV}")
    assert result.exit_code == 0, result.output
    assert f"arXiv:{FOAM_ARXIV}: pending, not looked up (--offline)" in result.output
    assert "0 added, 1 pending, 0 already there" in result.output
    help_text = " ".join(CliRunner().invoke(main, ["add", "-h"]).output.split())
    assert "0 when every paper was added, recorded with --offline, or already there" in help_text


def test_an_entry_with_no_venue_shows_its_year_alone_and_counts_are_singular(project):
    bib = "@misc{doe2017note, title = {A Note on Tomatoes}, author = {Doe, Jane}, year = {2017}}"
    result = _add_text(project, bib)
    assert result.exit_code == 0, result.output
    assert "( 2017)" not in result.output and "(2017)" in result.output
    assert "1 requests" not in result.output
