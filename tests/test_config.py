"""Where a project is: the folder holding citekit.yaml, found upwards, else the cwd."""

from pathlib import Path

import pytest

from citekit.core.config import ConfigError, load_config


def test_found_upwards_with_configured_paths(tmp_path):
    (tmp_path / "citekit.yaml").write_text("paths:\n  notes: my-notes\n  refs: bib\nkeys:\n  formula: '{author}{year}'\n")
    deep = tmp_path / "paper" / "sections"
    deep.mkdir(parents=True)
    cfg = load_config(deep)
    assert cfg.root == tmp_path.resolve()
    assert cfg.notes_dir == tmp_path.resolve() / "my-notes"
    assert cfg.refs_dir == tmp_path.resolve() / "bib"
    assert cfg.key_formula == "{author}{year}"


def test_without_config_the_start_folder_is_the_project(tmp_path):
    cfg = load_config(tmp_path)
    assert cfg.root == tmp_path.resolve()
    assert cfg.notes_dir.name == "notes" and cfg.refs_dir.name == "refs"
    assert cfg.path is None


@pytest.mark.parametrize("text,needle", [("a: [1, 2", "not valid YAML"), ("- just\n- a list\n", "mapping")])
def test_bad_config_is_reported_with_what_to_do(tmp_path, text, needle):
    (tmp_path / "citekit.yaml").write_text(text)
    with pytest.raises(ConfigError, match=needle):
        load_config(tmp_path)


ONE_STEP = "One-Step Gradient Delay is Not a Barrier for Large-Scale Asynchronous Pipeline Parallel LLM Pretraining"


def test_unquoted_arxiv_pin_keeps_its_trailing_zero(tmp_path, monkeypatch, fake_services):
    """YAML reads ``2602.75060`` as the number 2602.7506: the pin must still name 2602.75060."""
    from citekit import api

    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "n.md").write_text(f"## Papers\n\n- {ONE_STEP}\n  - Authors: Philip Zmushko, Egor Petrov\n",
                                             encoding="utf-8")
    (tmp_path / "citekit.yaml").write_text(f'paths: {{notes: notes, refs: refs}}\nsources: {{enabled: [arxiv]}}\n'
                                           f'pins:\n  "{ONE_STEP}": {{arxiv: 2602.75060}}\n', encoding="utf-8")
    monkeypatch.setenv("CITEKIT_RATE_LIMITS", "off")
    monkeypatch.setenv("CITEKIT_CACHE_DIR", str(tmp_path / "cache"))
    api.sync(tmp_path)
    (entry,) = api.load_library(tmp_path).entries.values()
    assert entry.status == "resolved" and entry.ids.arxiv == "2602.75060"


def test_unknown_key_formula_placeholder_is_a_message_not_a_traceback(tmp_path):
    from click.testing import CliRunner

    from citekit.cli import main

    (tmp_path / "citekit.yaml").write_text("keys:\n  formula: '{first_author}{year}'\n")
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "n.md").write_text("# ICML 2026\n\n- A Paper Title Here\n  - Authors: Ann Smith\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["-C", str(tmp_path), "sync", "--offline"])
    assert result.exit_code == 2
    assert "keys.formula" in result.output and "{first_author}" in result.output and "Traceback" not in result.output


# ---- the schema: every mistake named with its key and what was expected -----------------

import json as _json  # noqa: E402

from click.testing import CliRunner  # noqa: E402

from citekit.cli import main  # noqa: E402


def _run(tmp_path, text, *args):
    (tmp_path / "citekit.yaml").write_text(text, encoding="utf-8")
    (tmp_path / "notes").mkdir(exist_ok=True)
    return CliRunner().invoke(main, ["-C", str(tmp_path), *(args or ("sync", "--offline"))])


@pytest.mark.parametrize("text,needles", [
    ("keys: 5\n", ["keys:", "expected a mapping", "formula", "got 5"]),
    ('pins: "x"\n', ["pins:", "expected a mapping of title -> identifiers", "got 'x'"]),
    ("sources: {enabled: 7}\n", ["sources.enabled:", "a list of source names", "got 7"]),
    ("sourcse:\n  mailto: a@b.org\n", ["sourcse: unknown key (did you mean 'sources'?)"]),
    ("bibtex: {ascii: maybe}\n", ["bibtex.ascii: expected true or false, got 'maybe'"]),
    ("bibtex: {asci: true}\n", ["bibtex.asci: unknown key (did you mean 'ascii'?)"]),
    ("sources: {enabled: [crossref, dblb]}\n", ["sources.enabled[1]:", "got 'dblb'"]),
    ("sources: {crossref: {per_minute: fast}}\n", ["sources.crossref.per_minute: expected a number above 0"]),
    ("sources: {neurips: {url: 12}}\n", ["sources.neurips.url: expected text, got 12"]),
    ("sources: {deadline: -3}\n", ["sources.deadline: expected a number above 0, got -3"]),
    ("sources: {arxiv: {concurrency: 0}}\n", ["sources.arxiv.concurrency: expected a whole number of at least 1"]),
    ("sources: {timeout: true}\n", ["sources.timeout: expected a number above 0, got True"]),
    ("sources: {retries: 2.5}\n", ["sources.retries: expected a whole number"]),
    ("sources: {rate_limits: sometimes}\n", ["sources.rate_limits: expected on or off"]),
    ("resolve: {precedence: published}\n", ["resolve.precedence: expected a list of stages"]),
    ("resolve: {precedence: [published, acepted]}\n", ["resolve.precedence[1]:", "got 'acepted'"]),
    ("paths: [notes]\n", ["paths: expected a mapping like {notes: notes, refs: refs}"]),
    ("paths: {note: n}\n", ["paths.note: unknown key (did you mean 'notes'?)"]),
    ("tags: {muon: 5}\n", ["tags.muon: expected a list of keywords"]),
    ("tags: {muon: {extend: [Muon], abstract_hits: 0}}\n", ["tags.muon.abstract_hits: expected a whole number of at least 1"]),
    ("tags: {muon: {extnd: [Muon]}}\n", ["tags.muon.extnd: unknown key (did you mean 'extend'?)"]),
    ("tags_defaults: nope\n", ["tags_defaults: expected true or false"]),
    ("tag_sections: {Must read: {a: b}}\n", ["tag_sections.Must read: expected a tag or a list of tags"]),
    ("pins: {Some title: {arxive: '2602.22890'}}\n", ["pins.Some title.arxive: unknown key (did you mean 'arxiv'?)"]),
    ("pins: {Some title: [openreview]}\n", ["pins.Some title: expected a mapping like {openreview: AbCdEfGhIj}"]),
    ("related_work: {groups: [theory]}\n", ["related_work.groups: expected a mapping of paragraph name -> tags"]),
    ("zzzz: 1\n", ["zzzz: unknown key; known keys here: paths, keys, sources"]),
])
def test_config_mistakes_are_named_with_key_and_expected_type(tmp_path, text, needles):
    result = _run(tmp_path, text)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and "citekit.yaml" in result.output
    for needle in needles:
        assert needle in result.output, (needle, result.output)
    assert not (tmp_path / "refs").exists()  # nothing was written


def test_every_mistake_of_a_file_is_listed_at_once(tmp_path):
    result = _run(tmp_path, "keys: 5\nsourcse: {}\nbibtex: {ascii: maybe}\n")
    assert result.exit_code == 2
    assert "3 setting(s)" in result.output
    assert all(n in result.output for n in ("keys:", "sourcse:", "bibtex.ascii:"))


def test_the_schema_is_checked_by_every_command_that_reads_the_project(tmp_path):
    for args in (["list"], ["tags"], ["export"], ["show", "x"], ["extract"], ["dedup"]):
        result = _run(tmp_path, "keys: 5\n", *args)
        assert result.exit_code == 2 and "keys: expected a mapping" in result.output, (args, result.output)


VALID = """
paths: {notes: notes, refs: refs}
keys: {formula: "{author}{year}{title}"}
sources:
  mailto: you@example.org
  enabled: [openreview, crossref, dblp, arxiv, conferences]
  timeout: 20
  retries: 4
  deadline: 120.5
  rate_limits: off
  cache_dir: .citekit
  openreview: {url: https://api2.openreview.net, per_minute: 20}
  crossref: {url: https://api.crossref.org, interval: 0.2, concurrency: 3, per_minute: 300}
  dblp: {interval: 1}
  arxiv: {url: https://export.arxiv.org/api/query, interval: 3.0, concurrency: 1}
  icml: {url: https://icml.cc, per_minute: 30}
  neurips: {url: https://neurips.cc}
  iclr: {url: https://iclr.cc}
  mlsys: {url: https://mlsys.org}
resolve:
  precedence: [published, accepted, preprint, submitted, rejected, workshop]
bibtex: {ascii: true}
tags:
  my-topic: [keyword, /Regex\\d+/]
  muon: {extend: [Newton-Schulz], abstract_hits: 2, label: Muon}
  sam: []
  single: one keyword
tags_defaults: true
tag_sections:
  "Papers to read closely": must-read
  "Both": [a, b]
pins:
  "Title as written in the notes": {openreview: AbCdEfGhIj}
  "Another": {arxiv: 2602.22890, doi: 10.1234/x}
related_work:
  groups: {"Muon analysis": [theory], "Warm-up": warmup}
"""


def test_every_documented_key_is_accepted(tmp_path):
    (tmp_path / "citekit.yaml").write_text(VALID, encoding="utf-8")
    cfg = load_config(tmp_path)
    assert cfg.data["sources"]["deadline"] == 120.5
    from citekit.library.tags import load_rules

    rules = load_rules(cfg.data)
    assert "my-topic" in rules.rules and "sam" not in rules.rules


def test_the_init_template_and_the_readme_example_validate(tmp_path):
    from importlib.resources import files

    import yaml

    assert validate(yaml.safe_load(files("citekit").joinpath("data/citekit.template.yaml").read_text()), SCHEMA) == []
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Configuration", 1)[1]
    block = section.split("```yaml", 1)[1].split("```", 1)[0]
    assert validate(yaml.safe_load(block), SCHEMA) == []


def test_empty_sections_mean_not_set(tmp_path):
    (tmp_path / "citekit.yaml").write_text("paths:\nkeys:\ntags:\npins:\nsources:\n  mailto:\n", encoding="utf-8")
    cfg = load_config(tmp_path)
    assert cfg.notes_dir.name == "notes" and cfg.key_formula == "{author}{year}{title}"


def test_schema_names_match_the_code():
    """The schema's fixed names are the ones the stages use (no drift when either changes)."""
    from citekit.core.config_schema import PIN_SCHEMES, STAGES
    from citekit.core.model import Ids
    from citekit.matching.works import DEFAULT_PRECEDENCE
    from citekit.sources import registry
    from citekit.sources.settings import SOURCE_NAMES, SourceSettings

    # the sources' names are not in the schema any more: it takes them from the registry,
    # the same list the settings read
    sources = SCHEMA.keys["sources"]
    assert set(sources.keys) - {"mailto", "enabled", "timeout", "retries", "deadline", "rate_limits",
                                "cache_dir"} == set(registry.HOSTS) == set(SourceSettings().policies)
    assert set(sources.keys["enabled"].item.choices) == set(SOURCE_NAMES) == set(registry.SOURCE_NAMES)
    assert set(STAGES) == set(DEFAULT_PRECEDENCE)
    assert set(PIN_SCHEMES) == set(Ids().as_dict())


def test_unknown_key_without_a_close_match_lists_the_known_ones():
    from citekit.sources.registry import HOSTS

    problems = validate({"sources": {"zzz": 1}}, SCHEMA)
    assert problems == ["sources.zzz: unknown key; known keys here: " + ", ".join(
        ["mailto", "enabled", "timeout", "retries", "deadline", "rate_limits", "cache_dir", *HOSTS])]
    assert {"openreview", "crossref", "dblp", "arxiv", "icml", "neurips", "iclr", "mlsys"} <= set(HOSTS)
    assert _json.dumps(problems)  # plain strings


# ---- any config the schema accepts is one the stages can use ----------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from citekit.core.config_schema import AnyOf, Kind, ListOf, MapOf, Section, schema, validate, without_unset  # noqa: E402
from citekit.sources.registry import config_keys  # noqa: E402

#: the table as commands check it: with the sources' names from their registry
SCHEMA = schema(*config_keys())

_WORDS = st.sampled_from(["Muon", "Newton-Schulz", "/re+/", "x", "must-read", "2602.22890", "https://example.org",
                          "you@example.org", "{author}{year}", "notes", "refs"])
_JUNK = st.one_of(st.none(), st.booleans(), st.integers(-3, 30), st.floats(-1, 50, allow_nan=False),
                  st.sampled_from(["maybe", "", "on"]), st.lists(st.integers(), max_size=2),
                  st.dictionaries(st.sampled_from(["a", "url"]), st.integers(), max_size=1))


def _valid(spec):
    """Values of the shape ``spec`` describes, from the schema table itself."""
    if isinstance(spec, Kind):
        if spec.choices:
            return st.sampled_from([c for c in spec.choices if c not in ("0", "1")])
        if spec.types == (bool,):
            return st.booleans()
        if str in spec.types:
            return _WORDS if int not in spec.types else st.one_of(_WORDS, st.floats(1, 3000, allow_nan=False))
        low = spec.low if spec.low is not None else (spec.above or 0) + 1
        whole = st.integers(int(low), 50)
        return whole if float not in spec.types else st.one_of(whole, st.floats(low, 50, allow_nan=False))
    if isinstance(spec, ListOf):
        return st.lists(_valid(spec.item), max_size=4)
    if isinstance(spec, MapOf):
        return st.dictionaries(st.sampled_from(["muon", "Must read", "A Title", "theory"]), _valid(spec.value), max_size=3)
    if isinstance(spec, AnyOf):
        return st.one_of(*[_valid(o) for o in spec.options])
    if isinstance(spec, Section):
        return st.fixed_dictionaries({}, optional={k: _valid(v) for k, v in spec.keys.items()})
    raise TypeError(spec)


def _mutated(data, junk, path):
    """``data`` with the value at ``path`` (indices into its nested mappings) replaced by ``junk``."""
    if not isinstance(data, dict) or not data:
        return junk
    key = sorted(data, key=str)[path[0] % len(data)]
    return {**data, key: _mutated(data[key], junk, path[1:]) if path[1:] else junk}


def _use(data):
    """Hand ``data`` to every stage that reads citekit.yaml, as a command would."""
    from citekit.api.sync_pipeline import _pins
    from citekit.core.config import Config
    from citekit.library.tags import TagRuleError, load_rules
    from citekit.sources.settings import SourceSettings

    data = without_unset(data, SCHEMA)  # what load_config hands on
    cfg = Config(root=Path("/p"), notes_dir=Path("/p/notes"), refs_dir=Path("/p/refs"), data=data)
    assert isinstance(cfg.key_formula, str)
    SourceSettings.from_env(data, Path("/p"), env={})
    _pins(cfg)
    try:  # the shipped rules are tested on their own; leaving them out keeps each example fast
        load_rules({**data, "tags_defaults": False})
    except TagRuleError as exc:  # meanings the schema cannot see (match with extend): exit 2 as well
        assert "citekit.yaml" in str(exc)


@settings(max_examples=200, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(_valid(SCHEMA))
def test_every_config_of_the_documented_shape_is_accepted_and_usable(data):
    assert validate(data, SCHEMA) == []
    _use(data)


@settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(_valid(SCHEMA), _JUNK, st.lists(st.integers(0, 20), min_size=1, max_size=4))
def test_a_wrong_value_anywhere_is_named_or_harmless(data, junk, path):
    data = _mutated(data, junk, path)
    problems = validate(data, SCHEMA)
    assert all(isinstance(p, str) and ": " in p for p in problems)
    if not problems:
        _use(data)  # the schema let it through: then every stage copes with it


def test_a_key_formula_typo_is_named_before_anything_runs(tmp_path):
    """`{autor}` used to pass the check and fail only once a new key was needed."""
    from citekit.core.config import ConfigError

    for formula in ("{autor}{year}", "{author}{year", "{author}{yaer}{title}"):
        (tmp_path / "citekit.yaml").write_text(f'keys: {{formula: "{formula}"}}\n', encoding="utf-8")
        with pytest.raises(ConfigError) as err:
            load_config(tmp_path)
        assert "keys.formula" in str(err.value) and "{author}" in str(err.value)
    (tmp_path / "citekit.yaml").write_text('keys: {formula: "{authors}-{year}-{title2}"}\n', encoding="utf-8")
    assert load_config(tmp_path).key_formula == "{authors}-{year}-{title2}"


def test_the_sources_keys_come_from_the_registry(tmp_path):
    """The core reads citekit.yaml but cannot know the sources; every command checks the
    ``sources:`` names against the registry all the same (they reach the core from above)."""
    from citekit.sources.registry import HOSTS

    result = _run(tmp_path, "sources: {scopus: {url: https://api.elsevier.com}}\n", "list")
    assert result.exit_code == 2 and "sources.scopus: unknown key" in result.output, result.output
    for host in HOSTS:
        assert _run(tmp_path, f"sources: {{{host}: {{url: https://mirror.example}}}}\n", "list").exit_code == 0, host
