"""Tags: where they come from, how rules match, and how a selection like ``--tag muon`` reads.

A paper's tags have four sources, kept apart on :class:`~citekit.core.model.Entry` so that a
re-sync can recompute the automatic ones without touching what the user decided:

* hashtags written in the notes (``#muon``) and note headings the user maps to a tag
  (``tag_sections`` in ``citekit.yaml``),
* keyword/regex rules over the title, the abstract and the notes' summary
  (``data/tags.yaml`` plus ``tags`` in ``citekit.yaml``),

all of which land in ``Entry.tags_auto``; and manual ``citekit tag KEY +t -t``, which lands
in ``tags_added`` / ``tags_removed`` and always wins.
"""

from __future__ import annotations

import functools
import operator
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Pattern, TypeVar

from citekit.core.errors import CitekitError
from citekit.core.model import Entry
from citekit.core.text import latex_to_text

T = TypeVar("T")

#: prefixes that turn a selection tag into an exclusion (``-sam``, ``not:sam``)
EXCLUDE_PREFIXES = ("-", "not:")


class TagRuleError(CitekitError, ValueError):
    """A tag rule in ``citekit.yaml`` (or the defaults) cannot be used as written."""

    exit_code = 2
    NEXT_STEP = "Fix the tag rule in citekit.yaml as the message says."


@dataclass(frozen=True)
class TagRule:
    """One tag and the patterns that give it; ``label`` names a paragraph about it."""

    tag: str
    patterns: tuple[Pattern[str], ...]
    label: str = ""
    #: matches an abstract needs: a broad word ("federated") said once in passing is not the topic
    abstract_hits: int = 1

    def matches(self, text: str) -> bool:
        return any(p.search(text) for p in self.patterns)

    def hits(self, text: str) -> int:
        """Distinct places in ``text`` where some pattern matches."""
        return len({m.start() for p in self.patterns for m in p.finditer(text)})


@dataclass
class TagRules:
    """Everything needed to compute automatic tags, loaded once per run."""

    rules: dict[str, TagRule] = field(default_factory=dict)
    sections: dict[str, list[str]] = field(default_factory=dict)  # folded heading -> tags

    def label(self, tag: str) -> str:
        """Human heading for a tag: the rule's label, else the tag itself, capitalised."""
        rule = self.rules.get(tag)
        if rule and rule.label:
            return rule.label
        words = tag.replace("-", " ").replace("_", " ")
        return words[:1].upper() + words[1:]


_TAG_CHAR = r"[^\s,;{}\\\"'%#&$~^]"
#: what a tag may contain: it goes into a comma-separated BibTeX ``keywords`` field, so
#: no separator, brace or LaTeX special; words inside it are kept apart by single spaces
#: (a Zotero tag such as ``deep learning`` stays as the user wrote it)
VALID_TAG = re.compile(rf"{_TAG_CHAR}+(?: {_TAG_CHAR}+)*")


#: what a tag typed in ``citekit tag`` may be, once normalised: it starts with a letter or a
#: digit (so a folder such as ``../b`` given in the wrong place is never taken for one) and holds
#: letters, digits, ``-``, ``.``, ``/``, ``:`` and ``+`` -- the spelling of the notes' hashtags
TAG_NAME = re.compile(r"[^\W_][\w.:/+-]*")
TAG_NAME_RULE = ("a tag starts with a letter or a digit and holds letters, digits, '-', '.', '/', ':' or '+' "
                 "(spaces become '-'), e.g. must-read, cs.lg")


class BadTag(TagRuleError):
    """A tag typed in ``citekit tag`` that is not a tag name (exit 2, nothing saved)."""

    NEXT_STEP = "Write +tag to add a tag and -tag to remove one (`citekit tag -h`)."


def normalize_tag(tag: str) -> str:
    """One spelling per tag: ``#Step Size`` and ``step-size`` are the same tag. This is a
    tag's identity: selections, removals and duplicates compare it. A tag imported from a
    keywords field (Zotero's) keeps its own text (:func:`keep_tag`); one typed in
    ``citekit tag`` or the notes takes this spelling."""
    tag = unicodedata.normalize("NFKC", tag).strip().lstrip("#").strip().lower()
    return re.sub(r"[\s_]+", "-", tag)


@functools.lru_cache(maxsize=4096)
def tag_identity(tag: str) -> str:
    """:func:`normalize_tag`, remembered (selecting by tag compares every entry's tags)."""
    return normalize_tag(tag)


def keep_tag(text: str) -> str:
    """A tag as the user wrote it (Zotero's ``Deep Learning``): only the surrounding space,
    a leading ``#`` and runs of inner whitespace are tidied, so it round-trips through
    ``keywords``, ``library.yaml`` and a re-import unchanged."""
    return " ".join(unicodedata.normalize("NFKC", text).strip().lstrip("#").split())


def tags_from_keywords(value: str) -> list[str]:
    """Tags from a BibTeX ``keywords`` value (``,`` or ``;`` separated), each as written
    (:func:`keep_tag`; the first spelling of one tag wins); words that could not be written
    back into ``keywords`` are left out."""
    tags: dict[str, str] = {}
    for piece in re.split(r"[,;]", value or ""):
        tag = keep_tag(piece)
        if tag and VALID_TAG.fullmatch(tag):
            tags.setdefault(tag_identity(tag), tag)
    return sorted(tags.values())


def _fold_heading(heading: str) -> str:
    """Headings compare after width/space/case folding (full-width spaces are common in notes)."""
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", heading)).strip().casefold()


def compile_item(item: str, *, where: str = "tags") -> Pattern[str]:
    """Compile one rule item.

    ``/regex/`` (optionally ``/regex/i``) is used as a regular expression; anything else is
    a keyword that must start a word, case-insensitively, so ``sam`` never matches
    ``same`` in the middle of text but ``SAM`` can still be matched exactly with a regex.
    Spaces and hyphens in a keyword match either, because titles and notes spell
    ``step size`` and ``step-size`` interchangeably.
    """
    if not isinstance(item, str) or not item.strip():
        raise TagRuleError(f"{where}: rule items must be non-empty strings, got {item!r}; "
                           "write a keyword like 'Muon' or a regex like '/\\bSAM\\b/'.")
    item = item.strip()
    m = re.fullmatch(r"/(.+)/(i?)", item, flags=re.S)
    if m:
        try:
            return re.compile(m.group(1), re.IGNORECASE if m.group(2) else 0)
        except re.error as exc:
            raise TagRuleError(f"{where}: invalid regular expression {item}: {exc}; "
                               "fix the pattern, or drop the slashes to match it as a plain keyword.") from exc
    parts = [re.escape(p) for p in re.split(r"[\s\-]+", item) if p]
    body = r"[\s\-]+".join(parts)
    return re.compile(r"(?<![^\W_])" + body, re.IGNORECASE)


def _rule_items(tag: str, spec: Any, where: str) -> tuple[list[str], str, bool, int | None]:
    """Read one rule spec: a list of items, or a mapping with match/extend/label/abstract_hits.

    Returns ``(items, label, extend, abstract_hits)`` (None: not given).
    """
    if spec is None:
        return [], "", False, None
    if isinstance(spec, str):
        return [spec], "", False, None
    if isinstance(spec, list):
        return spec, "", False, None
    if isinstance(spec, dict):
        unknown = set(spec) - {"match", "extend", "label", "abstract_hits"}
        if unknown:
            raise TagRuleError(f"{where}.{tag}: unknown key(s) {sorted(unknown)}; use 'match' (replace), "
                               "'extend' (add to the default rule), 'label' or 'abstract_hits'.")
        if "match" in spec and "extend" in spec:
            raise TagRuleError(f"{where}.{tag}: give either 'match' (replace) or 'extend' (add), not both.")
        extend = "extend" in spec
        items = spec.get("extend" if extend else "match") or []
        if isinstance(items, str):
            items = [items]
        if not isinstance(items, list):
            raise TagRuleError(f"{where}.{tag}: '{'extend' if extend else 'match'}' must be a list of keywords or /regexes/.")
        return items, str(spec.get("label") or ""), extend, _abstract_hits(spec.get("abstract_hits"), f"{where}.{tag}")
    raise TagRuleError(f"{where}.{tag}: expected a list of keywords or /regexes/, got {type(spec).__name__}.")


def _abstract_hits(value: Any, where: str) -> int | None:
    """``abstract_hits``: a whole number of at least 1, or absent."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise TagRuleError(f"{where}: abstract_hits must be a whole number of at least 1 (got {value!r}); "
                           "it is how many matches an abstract needs to give the tag.")
    return value


def _merge_rules(base: dict[str, TagRule], data: Any, where: str) -> dict[str, TagRule]:
    if data is None:
        return base
    if not isinstance(data, dict):
        raise TagRuleError(f"{where}: expected a mapping of tag -> keywords, e.g. 'tags: {{muon: [Muon, Newton-Schulz]}}'.")
    rules = dict(base)
    for raw_tag, spec in data.items():
        tag = normalize_tag(str(raw_tag))
        items, label, extend, hits = _rule_items(tag, spec, where)
        patterns = tuple(compile_item(i, where=f"{where}.{tag}") for i in items)
        old = rules.get(tag)
        if extend and old:
            patterns = old.patterns + patterns
        if not patterns:
            rules.pop(tag, None)  # `name: []` switches a default rule off
            continue
        rules[tag] = TagRule(tag=tag, patterns=patterns, label=label or (old.label if old else ""),
                             abstract_hits=hits or (old.abstract_hits if old and extend else 1))
    return rules


def default_rules_data() -> dict[str, Any]:
    """The shipped rule set (``citekit/data/tags.yaml``) as plain data."""
    from importlib import resources  # tempfile, shutil and the archive modules: only for the rules

    text = resources.files("citekit").joinpath("data/tags.yaml").read_text(encoding="utf-8")
    import yaml

    # libyaml's safe loader when PyYAML has it: the same data, a fifth of the time (it is
    # read on every sync and add); the pure-Python one otherwise
    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)) or {}


def load_rules(config_data: dict[str, Any] | None) -> TagRules:
    """Rules from the defaults and ``citekit.yaml``.

    Config keys: ``tags`` (rules; a list replaces a default rule of the same name,
    ``{extend: [...]}`` adds to it, ``[]`` drops it), ``tags_defaults: false`` (start from
    nothing), ``tag_sections`` (note heading -> tag or list of tags).
    """
    config_data = config_data or {}
    rules: dict[str, TagRule] = {}
    if config_data.get("tags_defaults", True) is not False:
        rules = _merge_rules(rules, default_rules_data(), "citekit/data/tags.yaml")
    rules = _merge_rules(rules, config_data.get("tags"), "citekit.yaml: tags")
    sections: dict[str, list[str]] = {}
    raw_sections = config_data.get("tag_sections") or {}
    if not isinstance(raw_sections, dict):
        raise TagRuleError("citekit.yaml: tag_sections must map a heading of your notes to a tag, "
                           "e.g. 'tag_sections: {\"Must read\": must-read}'.")
    for heading, tags in raw_sections.items():
        tag_list = [tags] if isinstance(tags, str) else list(tags or [])
        sections[_fold_heading(str(heading))] = [normalize_tag(str(t)) for t in tag_list if str(t).strip()]
    return TagRules(rules=rules, sections=sections)


def compute_auto_tags(entry: Entry, mention_texts: list[str], hashtags: list[str], sections: list[str],
                      rules: TagRules) -> list[str]:
    """The tags a paper earns from notes and rules (what ``Entry.tags_auto`` should hold).

    Rules look at the title, the entry's summary and ``mention_texts`` (the notes'
    summaries of it), where one match is enough, and at the abstract, where a rule may
    ask for several (``abstract_hits``): a long abstract mentions many things in passing.
    Manual additions/removals are not consulted: they are applied on top by
    :attr:`Entry.tags`, so recomputing this never overrides the user.
    """
    tags = {normalize_tag(h) for h in hashtags if normalize_tag(h)}
    for heading in sections:
        tags.update(rules.sections.get(_fold_heading(heading), []))
    texts = [latex_to_text(t, matching=True) for t in (entry.title, entry.summary or "", *mention_texts) if t]
    abstract = latex_to_text(entry.abstract, matching=True) if entry.abstract else ""
    for tag, rule in rules.rules.items():
        if any(rule.matches(t) for t in texts) or (abstract and rule.hits(abstract) >= rule.abstract_hits):
            tags.add(tag)
    return sorted(tags)


def _split_selection(tags: Iterable[str]) -> tuple[list[str], list[str]]:
    include: list[str] = []
    exclude: list[str] = []
    for raw in tags:
        raw = raw.strip()
        for prefix in EXCLUDE_PREFIXES:
            if raw.lower().startswith(prefix):
                exclude.append(normalize_tag(raw[len(prefix):]))
                break
        else:
            include.append(normalize_tag(raw))
    return [t for t in include if t], [t for t in exclude if t]


def select(entries: Iterable[T], tags: list[str], any_: bool = False,
           tags_of: Callable[[T], list[str]] = operator.attrgetter("tags")) -> list[T]:
    """Entries carrying the wanted tags, in the order given.

    ``["muon", "theory"]`` wants both; with ``any_`` either. ``-sam`` or ``not:sam``
    excludes entries tagged ``sam``. Only exclusions (or nothing) selects everything else.
    ``tags_of`` reads the tags of an item that is not an entry (a cached row, a key).
    """
    include, exclude = _split_selection(tags)
    chosen = []
    for entry in entries:
        have = {tag_identity(t) for t in tags_of(entry)}
        if exclude and have & set(exclude):
            continue
        if include and not (any(t in have for t in include) if any_ else all(t in have for t in include)):
            continue
        chosen.append(entry)
    return chosen


def unknown_tags(selection: Iterable[str], in_use: Iterable[str]) -> list[tuple[str, list[str]]]:
    """Each tag ``selection`` asks for that no entry carries, with the closest tags in use.

    An empty selection caused by a typo (``--tag mun``) is not a question of ``--any``: the
    user needs to hear that the tag does not exist, and which tag they probably meant. Tags
    to exclude (``-sam``) are not checked: excluding a tag nobody has excludes nothing.
    """
    from rapidfuzz import fuzz, process

    include, _ = _split_selection(selection)
    known: dict[str, str] = {}
    for tag in in_use:
        known.setdefault(tag_identity(tag), tag)
    out = []
    for tag in include:
        same = tag_identity(tag)
        if same in known:
            continue
        close = process.extract(same, list(known), scorer=fuzz.WRatio, limit=3, score_cutoff=50)
        out.append((tag, [known[name] for name, _score, _ in close]))
    return out


def unknown_tags_message(unknown: list[tuple[str, list[str]]], in_use: Iterable[str]) -> str:
    """``no tag 'mun' in the library (closest: muon, theory)``: one clause per unknown tag;
    with nothing close, the most used tags (``in_use`` most used first) are named instead."""
    popular = list(dict.fromkeys(in_use))[:5]
    parts = []
    for tag, close in unknown:
        hint = (f"closest: {', '.join(close)}" if close else
                f"tags in use: {', '.join(popular)}" if popular else "the library has no tags yet")
        parts.append(f"no tag '{tag}' in the library ({hint})")
    return "; ".join(parts)


def tag_counts(entries: Iterable[Entry], tags_of: Callable[[Any], list[str]] = operator.attrgetter("tags"),
               ) -> list[tuple[str, int]]:
    """How many entries carry each tag, most used first (ties by name)."""
    counts: dict[str, int] = {}
    for entry in entries:
        for tag in tags_of(entry):
            counts[tag] = counts.get(tag, 0) + 1
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))


def _check_tag_name(entry: Entry, tag: str, same: str, remove: bool) -> None:
    """Refuse a typed tag that is no tag name (``../b``, ``-project=x``): such a word is an
    argument in the wrong place, and written to ``keywords`` it is junk. Removing a tag the
    entry carries is always allowed, however an import spelled it (Zotero's ``C++ (lang)``)."""
    if TAG_NAME.fullmatch(same) or (remove and same in {tag_identity(t) for t in entry.tags}):
        return
    raise BadTag(f"'{tag}' is not a tag: {TAG_NAME_RULE}; nothing was changed.")


def _typed_change(entry: Entry, change: str) -> tuple[bool, str]:
    """One ``+tag`` / ``-tag`` word as (remove?, tag), or :class:`BadTag` if it is none."""
    remove = change.startswith("-")
    given = change[1:] if change[0] in "+-" else change
    tag = keep_tag(given) if remove else normalize_tag(given)  # a tag typed here takes the notes' spelling
    if not tag:
        raise BadTag(f"empty tag in {change!r}; write +tag to add or -tag to remove.")
    if not VALID_TAG.fullmatch(tag):
        raise BadTag(
            f"tag {tag!r} has characters that do not survive in BibTeX keywords (commas, semicolons, braces, "
            "backslashes, quotes); use letters, digits, '-', '.', '/' or ':'.")
    _check_tag_name(entry, tag, tag_identity(tag), remove)
    return remove, tag


def apply_manual(entry: Entry, changes: list[str]) -> None:
    """Apply ``+tag`` / ``-tag`` edits; the latest word about a tag wins.

    A bare ``tag`` means ``+tag``. An addition is recorded even when the rules give the
    tag today, so it survives a later change of the rules. Every word is checked before
    any is applied: one bad tag changes nothing.
    """
    parsed = [_typed_change(entry, c.strip()) for c in changes if c.strip()]
    for remove, tag in parsed:
        same = tag_identity(tag)
        spelled = {t for t in [*entry.tags_auto, *entry.tags_added, *entry.tags_removed] if tag_identity(t) == same}
        if remove:  # every spelling of the tag goes (``-deep-learning`` removes ``Deep Learning``)
            entry.tags_added = [t for t in entry.tags_added if tag_identity(t) != same]
            entry.tags_removed = sorted(set(entry.tags_removed) | spelled | {tag})
        else:  # recorded even when the rules give it today; a spelling the entry has is kept
            entry.tags_removed = [t for t in entry.tags_removed if tag_identity(t) != same]
            if not any(tag_identity(t) == same for t in entry.tags_added):
                own = next((t for t in entry.tags_auto if tag_identity(t) == same), tag)
                entry.tags_added = sorted([*entry.tags_added, own])
