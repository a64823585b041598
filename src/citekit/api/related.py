"""``related-work``: a paste-ready paragraph per sub-topic, from the library's papers."""

from __future__ import annotations

import shlex
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from citekit.api.project import config_of
from citekit.core.errors import CitekitError
from citekit.core.lazyre import lazy

if TYPE_CHECKING:
    from citekit.core.model import Entry
    from citekit.library.store import Library
    from citekit.output.record_check import CitedRecord
    from citekit.output.related_work import GroupSpec, Mine


def __getattr__(name: str):  # the option choices, without loading the writer at import
    if name in ("FORMATS", "CITE_STYLES"):
        from citekit.output import related_work

        return getattr(related_work, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class NoPaperMatches(CitekitError):
    """No paper has the tags asked for: a finding (exit 1), and nothing is written."""

    exit_code = 1
    NEXT_STEP = "See `citekit tags` for the tags in use."


@dataclass
class Snippet:
    """The snippet's text and how many papers it is about."""

    text: str
    count: int
    #: the cited papers' titles, so that ``check_snippet`` sees a title pasted as a sentence
    titles: list[str] = field(default_factory=list)
    #: their abstracts, so that a name an abstract writes with capitals ("Dynamic Time Warping")
    #: is not taken for a title's capitals pasted into a sentence
    abstracts: list[str] = field(default_factory=list)
    #: the records of the papers the snippet may cite, by key, so that the check reads each sentence against
    #: the paper it cites (copied from its abstract, its title pasted, a record that is no paper)
    records: list[CitedRecord] = field(default_factory=list)


def _config_groups(data: dict) -> list[GroupSpec]:
    """``related_work: {groups: {"Muon analysis": [theory]}}`` from citekit.yaml."""
    from citekit.output.related_work import GroupSpec, RelatedWorkError

    section = data.get("related_work") or {}
    raw = section.get("groups") if isinstance(section, dict) else None
    if not raw:
        return []
    if not isinstance(raw, dict):
        raise RelatedWorkError("citekit.yaml: related_work.groups must map a paragraph name to tags, "
                               "e.g. {\"Muon analysis\": [theory]}.")
    specs = []
    for name, tags in raw.items():
        tag_list = [tags] if isinstance(tags, str) else list(tags or [])
        specs.append(GroupSpec.parse(f"{name}={','.join(str(t) for t in tag_list)}"))
    return specs


def _command_line(tags: tuple[str, ...], any_: bool, fmt: str, cite: str, links: bool, mine: str | None,
                  abstract: str | None, groups: tuple[str, ...]) -> str:
    """The invocation, rebuilt from the options, for the snippet's header comment."""
    words = ["citekit", "related-work"]
    for t in tags:
        words += ["--tag", t]
    if any_:
        words.append("--any")
    if fmt != "latex":
        words += ["--format", fmt]
    if cite != "natbib":
        words += ["--cite", cite]
    if links:
        words.append("--links")
    if mine:
        words += ["--mine", mine]
    if abstract:
        words += ["--abstract", abstract]
    for g in groups:
        words += ["--group", g]
    return " ".join(shlex.quote(w) for w in words)


def _no_match(bib: Path, library: "Library", selection: list[str], any_: bool) -> str:
    """Why no paper matches: a tag the library does not have (with the closest it has), or,
    when every tag exists, a combination no paper carries (then ``--any`` is the next step)."""
    from citekit.library.tags import tag_counts, unknown_tags, unknown_tags_message

    in_use = [t for t, _ in tag_counts(library.facets().values(), tags_of=lambda facet: facet[1])]
    unknown = unknown_tags(selection, in_use)
    if unknown:
        return (f"{unknown_tags_message(unknown, in_use)}, so no paper in {bib} matches {' '.join(selection)}; "
                "`citekit tags` lists the tags in use.")
    more = "" if any_ or sum(not t.startswith(("-", "not:")) for t in selection) < 2 else ", or try --any"
    return f"no paper in {bib} matches {' '.join(selection)}; see `citekit tags` for the tags in use{more}."


def own_paper(mine: str, library: "Library", stdin: TextIO | None = None) -> tuple[Mine, str | None]:
    """The user's paper named by ``--mine``, and its library key when it is a library entry.

    ``-`` reads stdin (LaTeX, Markdown, the YAML form or a bare abstract); ``key:KEY`` is a
    library entry; an existing file is read by its suffix (``.tex``, ``.md``, ``.yaml``);
    anything else is tried as a key, so a paper already in the library needs no file. The
    key is returned so that the paper is not cited as related to itself.
    """
    from citekit.output.mine_input import EXPECTED, mine_from_file, mine_from_text
    from citekit.output.related_work import RelatedWorkError

    if mine == "-":
        return mine_from_text((stdin or sys.stdin).read(), "stdin"), None
    if mine.startswith("key:"):
        key = mine[4:].strip()
        entry = library.get(key)
        if entry is None:
            raise RelatedWorkError(f"--mine {mine}: no entry of the library has the key {key!r}; `citekit list` "
                                   f"shows the keys (expected {EXPECTED}).")
        return _mine_from_entry(entry), entry.key
    path = Path(mine)
    if path.is_dir():
        raise RelatedWorkError(f"--mine {mine}: that is a folder; expected {EXPECTED}.")
    if path.exists():
        return mine_from_file(path), None
    entry = library.get(mine)
    if entry is not None:
        return _mine_from_entry(entry), entry.key
    raise RelatedWorkError(f"--mine {mine}: no such file, and no entry of the library has that key; "
                           f"expected {EXPECTED}.")


def _mine_from_entry(entry: "Entry") -> Mine:
    """A library entry as the user's paper: its title, abstract and tags."""
    from citekit.core.text import latex_to_text
    from citekit.output.related_work import Mine, abstract_of

    return Mine(title=latex_to_text(entry.title or ""), abstract=abstract_of(entry), tags=list(entry.tags),
                name=entry.key)


def related_work(start: str | Path | None = None, *, tags: tuple[str, ...] = (), any_: bool = False,
                 fmt: str = "latex", cite: str = "natbib", links: bool = False, mine: str | None = None,
                 abstract: str | None = None, groups: tuple[str, ...] = (), stdin: TextIO | None = None) -> Snippet:
    """A related-work snippet about the library's papers with ``tags`` (see ``citekit related-work -h``).

    No topic given: the tags of the user's paper (``mine``, see :func:`own_paper`), any of
    them. A user's paper that is itself in the library is left out of the snippet.
    """
    from citekit.library.store import Library
    from citekit.library.tags import load_rules, select
    from citekit.output.related_work import GroupSpec, RelatedWorkError, mine_from_abstract, not_a_paper
    from citekit.output.related_work import related_work as write

    if mine and abstract:
        raise RelatedWorkError("give either --mine or --abstract, not both.")
    config = config_of(start)
    rules = load_rules(config.data)
    specs = [GroupSpec.parse(g) for g in groups] if groups else _config_groups(config.data)
    library = Library.load(config.refs_dir)
    own: Mine | None = None
    own_key: str | None = None
    if mine:
        own, own_key = own_paper(mine, library, stdin)
    elif abstract:
        own = mine_from_abstract(Path(abstract))
    selection = list(tags)
    if not any(not t.startswith(("-", "not:")) for t in selection) and own and own.tags:
        selection += own.tags  # no topic given: the tags of the user's paper, any of them
        any_ = True
    if not any(not t.startswith(("-", "not:")) for t in selection):
        raise RelatedWorkError("choose the papers with --tag TAG (see `citekit tags` for the tags in use).")
    entries = [e for e in select(library.sorted_entries(), selection, any_=any_) if e.key != own_key]
    if not entries:  # an empty selection is a finding (exit 1), not a usage error; nothing is written
        raise NoPaperMatches(_no_match(config.library_bib, library, selection, any_))
    try:
        source = str(config.library_bib.relative_to(config.root))
    except ValueError:
        source = str(config.library_bib)
    papers = [e for e in entries if not not_a_paper(e)]
    if not papers:  # only blog posts, software...: nothing to cite as related work
        raise NoPaperMatches(f"the records in {config.library_bib} that match {' '.join(selection)} are not papers "
                             f"({', '.join(f'{e.key}: {not_a_paper(e)}' for e in entries[:5])}); "
                             "related work cites papers only.")
    text = write(entries, fmt=fmt, cite=cite, links=links, mine=own, groups=specs,
                 command_line=_command_line(tags, any_ and bool(tags), fmt, cite, links, mine, abstract, groups),
                 tags=selection if not any_ else None, rules=rules, source=source)
    from citekit.library.freeze import freeze_leaving

    freeze_leaving(library, [e.key for e in entries], "related-work")  # the snippet cites them
    from citekit.api.library import remember_read

    remember_read(library)  # as written now (the warning about a tag no entry carries reads its tags)
    from citekit.output.related_work import abstract_of

    from citekit.core.text import latex_to_text
    from citekit.output.record_check import CitedRecord

    records = [CitedRecord(e.key, latex_to_text(e.title or ""), abstract_of(e) or "", not_a_paper(e)) for e in entries]
    return Snippet(text, len(papers), [e.title for e in papers if e.title], [a for e in papers if (a := abstract_of(e))],
                   records)


class DraftEdited(CitekitError):
    """The output file holds the author's text, so the new draft went beside it: a finding (exit 1)."""

    exit_code = 1
    NEXT_STEP = "Merge what you want from the new draft, or run again with --force to overwrite."


@dataclass
class Written:
    """Where a snippet went: ``path`` itself, or ``beside`` it (``FILE.new``) when ``path`` was the author's."""

    path: Path
    beside: Path | None = None
    message: str = ""


@dataclass
class Recorded:
    """The options a draft's first line records (``citekit related-work --tag muon --mine
    paper.tex``): what a build rule that names none of them regenerates it with."""

    tags: tuple[str, ...] = ()
    any_: bool = False
    mine: str | None = None
    abstract: str | None = None
    groups: tuple[str, ...] = ()


_RECORDED = lazy(r"citekit related-work(.*?) \(\d+ \w+; generated from ")


def recorded_options(path: Path) -> Recorded | None:
    """How the draft at ``path`` was made, from its first line; None when there is no such
    file or its first line records no ``citekit related-work`` command."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            first = f.readline()
    except OSError:
        return None
    found = _RECORDED.search(first)
    if not found:
        return None
    try:
        words = shlex.split(found.group(1))
    except ValueError:
        return None
    out = Recorded()
    tags: list[str] = []
    groups: list[str] = []
    for option, value in zip(words, words[1:] + [""]):
        if option == "--tag":
            tags.append(value)
        elif option == "--group":
            groups.append(value)
        elif option == "--mine":
            out.mine = value
        elif option == "--abstract":
            out.abstract = value
        elif option == "--any":
            out.any_ = True
    out.tags, out.groups = tuple(tags), tuple(groups)
    return out


def write_snippet(path: Path, text: str, *, force: bool = False, keep_edited: bool = False) -> Written:
    """Write the snippet to ``path`` atomically, unless that would lose the author's text.

    A file that is missing, empty, or exactly as citekit generated it (its first-line
    marker still matches, see :mod:`citekit.output.drafts`) is replaced. Any other file
    (edited since it was generated, or never citekit's) is the author's: it is left as it
    is and the new draft is written to ``FILE.new`` beside it, then :class:`DraftEdited` is
    raised (exit 1), or, with ``keep_edited`` (what the Makefile rule asks for, so that a
    paper still builds from the author's text), the outcome says so and nothing is raised.
    ``force`` replaces the file whatever it holds.
    """
    from citekit.library.store import atomic_write
    from citekit.output.drafts import DraftState, draft_state

    path = Path(path)
    try:
        existing: str | None = path.read_bytes().decode("utf-8", errors="replace")
    except FileNotFoundError:
        existing = None
    state = draft_state(existing)
    beside = path.with_name(path.name + ".new")
    if force or state.replaceable:
        atomic_write(path, text)
        _drop_stale_draft(beside)
        return Written(path)
    atomic_write(beside, text)
    why = ("was edited since citekit generated it" if state is DraftState.EDITED
           else "holds text citekit did not generate (its first line has no citekit-draft marker)")
    message = (f"{path} {why}, so it was left as it is and the new draft was written to {beside}. "
               f"Merge what you want from {beside.name} into {path.name}, or run again with --force to "
               f"overwrite {path.name}.")
    if keep_edited:
        _mark_up_to_date(path)
        return Written(path, beside, message + f" {path.name} itself is marked up to date (its text unchanged), so "
                       "make does not try again until the library changes.")
    raise DraftEdited(message)


def _mark_up_to_date(path: Path) -> None:
    """Set the kept draft's modification time to now, its text untouched.

    A build rule (``related-work.tex: refs/library.bib ...``) runs while the target is older
    than the library; a kept draft is never rewritten, so without this ``make`` ran the rule
    again on every call, rewriting the same ``.new`` and warning again. The new draft was
    offered once, beside it: the author's file is as up to date as it will get.
    """
    import os

    try:
        os.utime(path)
    except OSError:
        pass  # (a read-only draft: make asks again, which is all that is lost)


def _drop_stale_draft(beside: Path) -> None:
    """``FILE.new`` from an earlier run is out of date once ``FILE`` is written: removed, unless the author has
    edited it (then it is theirs, and stays)."""
    from citekit.output.drafts import draft_state

    try:
        if draft_state(beside.read_bytes().decode("utf-8", errors="replace")).replaceable:
            beside.unlink()
    except (FileNotFoundError, IsADirectoryError):
        pass


#: a related-work draft is a few pages; a larger file given to --check-file is some other file
DRAFT_LIMIT = 2_000_000


class DraftUnreadable(CitekitError):
    """The file given to check is missing, too large or not text."""

    NEXT_STEP = "Give the .tex or .md file that holds your related-work section."


def check_draft(start: str | Path | None, path: str | Path, fmt: str | None = None) -> list[str]:
    """The defects a reviewer would mark in a related-work draft the author has edited.

    The check of a fresh snippet (:func:`check_snippet`) runs on the author's own file, so the
    draft can be linted again after editing: each sentence is read against the library's record
    of the paper it cites (a cited key may be an old key kept as an alias), and a key the library
    does not hold is an undefined citation. ``fmt`` defaults to the file's kind (``.md`` and
    ``.markdown`` are Markdown, anything else LaTeX).
    """
    from citekit.core.text import latex_to_text
    from citekit.library.store import Library
    from citekit.output.record_check import CitedRecord
    from citekit.output.related_check import cited_keys
    from citekit.output.related_work import abstract_of, not_a_paper

    draft = Path(path)
    if not draft.is_file():
        raise DraftUnreadable(f"{draft} is not a file.")
    if draft.stat().st_size > DRAFT_LIMIT:
        raise DraftUnreadable(f"{draft} is {draft.stat().st_size:,} bytes: more than a related-work draft "
                              f"({DRAFT_LIMIT:,} at most).")
    try:
        text = draft.read_text(encoding="utf-8")
    except UnicodeDecodeError as err:
        raise DraftUnreadable(f"{draft} is not UTF-8 text ({err.reason} at byte {err.start}).") from None
    fmt = fmt or ("markdown" if draft.suffix.lower() in (".md", ".markdown") else "latex")
    library = Library.load(config_of(start).refs_dir)
    records: list[CitedRecord] = []
    titles: list[str] = []
    abstracts: list[str] = []
    for key in dict.fromkeys(cited_keys(text, fmt)):
        entry = library.get(key)
        if entry is None:
            continue  # left out of the records: the check names it as an undefined citation
        abstract = abstract_of(entry) or ""
        records.append(CitedRecord(key, latex_to_text(entry.title or ""), abstract, not_a_paper(entry)))
        if entry.title:
            titles.append(entry.title)
        if abstract:
            abstracts.append(abstract)
    return check_snippet(text, fmt, titles, abstracts, records)


def check_snippet(text: str, fmt: str, titles: list[str] | None = None, abstracts: list[str] | None = None,
                  records: "list[CitedRecord] | None" = None) -> list[str]:
    """The defects a reviewer would mark in the snippet (copied citations, macros, first person, pasted titles...).

    ``titles`` (``Snippet.titles``) are the cited papers' titles: with them a title pasted
    as a sentence is seen, and a name a title defines is no undefined acronym. ``records``
    (``Snippet.records``) let each sentence be read against the paper it cites: a sentence
    copied from its abstract, a side result, a blog post cited as a paper.
    """
    from citekit.output.related_check import check_snippet as check

    return list(check(text, fmt, titles, abstracts, records))
