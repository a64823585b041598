"""``related-work``: a paste-ready paragraph per sub-topic, from the library's papers."""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from citekit.api.project import config_of
from citekit.core.errors import CitekitError

if TYPE_CHECKING:
    from citekit.output.related_work import GroupSpec, Mine


def __getattr__(name: str):  # the option choices, without loading the writer at import
    if name in ("FORMATS", "CITE_STYLES"):
        from citekit.output import related_work

        return getattr(related_work, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class NoPaperMatches(CitekitError):
    """No paper has the tags asked for: a finding (exit 1), and nothing is written."""

    exit_code = 1
    NEXT_STEP = "See `citekit tags` for the tags in use, or try --any."


@dataclass
class Snippet:
    """The snippet's text and how many papers it is about."""

    text: str
    count: int


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


def related_work(start: str | Path | None = None, *, tags: tuple[str, ...] = (), any_: bool = False,
                 fmt: str = "latex", cite: str = "natbib", links: bool = False, mine: str | None = None,
                 abstract: str | None = None, groups: tuple[str, ...] = ()) -> Snippet:
    """A related-work snippet about the library's papers with ``tags`` (see ``citekit related-work -h``).

    No topic given: the tags of the user's paper (``mine``), any of them.
    """
    from citekit.library.store import Library
    from citekit.library.tags import load_rules, select
    from citekit.output.related_work import GroupSpec, RelatedWorkError, load_mine, mine_from_abstract, related_work as write

    if mine and abstract:
        raise RelatedWorkError("give either --mine or --abstract, not both.")
    config = config_of(start)
    rules = load_rules(config.data)
    own: Mine | None = load_mine(Path(mine)) if mine else (mine_from_abstract(Path(abstract)) if abstract else None)
    specs = [GroupSpec.parse(g) for g in groups] if groups else _config_groups(config.data)
    library = Library.load(config.refs_dir)
    selection = list(tags)
    if not any(not t.startswith(("-", "not:")) for t in selection) and own and own.tags:
        selection += own.tags  # no topic given: the tags of the user's paper, any of them
        any_ = True
    if not any(not t.startswith(("-", "not:")) for t in selection):
        raise RelatedWorkError("choose the papers with --tag TAG (see `citekit tags` for the tags in use).")
    entries = select(library.sorted_entries(), selection, any_=any_)
    if not entries:  # an empty selection is a finding (exit 1), not a usage error; nothing is written
        raise NoPaperMatches(f"no paper in {config.library_bib} matches {' '.join(selection)}; "
                             "see `citekit tags` for the tags in use, or try --any.")
    try:
        source = str(config.library_bib.relative_to(config.root))
    except ValueError:
        source = str(config.library_bib)
    text = write(entries, fmt=fmt, cite=cite, links=links, mine=own, groups=specs,
                 command_line=_command_line(tags, any_ and bool(tags), fmt, cite, links, mine, abstract, groups),
                 tags=selection if not any_ else None, rules=rules, source=source)
    return Snippet(text, len(entries))


def write_snippet(path: Path, text: str) -> None:
    """Replace ``path`` with the snippet atomically."""
    from citekit.library.store import atomic_write

    atomic_write(path, text)


def check_snippet(text: str, fmt: str) -> list[str]:
    """The defects a reviewer would mark in the snippet (copied citations, macros, first person...)."""
    from citekit.output.related_check import check_snippet as check

    return list(check(text, fmt))
