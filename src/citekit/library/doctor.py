"""``citekit doctor``: is this project's ``refs/`` whole, and what to do when it is not.

Each check returns findings with the fix spelled out. Checking reads only; ``fix``
finishes or undoes an interrupted write, deletes stale temporaries and a stale lock note
and refreshes the parsed-library cache (all under the project lock);
:func:`rebuild_sidecar` writes a new sidecar from ``library.bib`` alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from citekit.core.config import display_path
from citekit.core.text import plural
from citekit.bibtex.reader import decode_bytes, parse_bib_text, split_ids
from citekit.library.errors import LibraryError
from citekit.library.journal import KEYMAP_FILES, JournalRefused, journal_path, load_journal, refused_journals, stale_temps
from citekit.library.lock import ProjectLock, describe, holder, is_stale
from citekit.library.store import Library, PlainLibrary
from citekit.library.store.cache import parsed_cache
from citekit.library.store.files import read_pair
from citekit.library.store.kept import kept_texts
from citekit.library.tags import tags_from_keywords

UNKNOWN = "unknown"


@dataclass
class Finding:
    """One thing wrong (``problem``) or worth knowing (``note``), and what to do about it."""

    level: str  # problem | note
    check: str
    message: str
    fix: str = ""

    def to_json(self) -> dict[str, str]:
        return {"level": self.level, "check": self.check, "message": self.message, "fix": self.fix}


@dataclass
class DoctorReport:
    findings: list[Finding] = field(default_factory=list)
    checked: list[str] = field(default_factory=list)
    fixed: list[str] = field(default_factory=list)
    entries: int = 0

    @property
    def problems(self) -> list[Finding]:
        return [f for f in self.findings if f.level == "problem"]

    def to_json(self) -> dict[str, Any]:
        return {"entries": self.entries, "checked": self.checked, "fixed": self.fixed,
                "findings": [f.to_json() for f in self.findings]}


def diagnose(refs_dir: Path, *, fix: bool = False) -> DoctorReport:
    """Run every check; with ``fix``, repair what can be repaired without a decision first."""
    refs = Path(refs_dir)
    report = DoctorReport()
    if fix:
        with ProjectLock(refs, "doctor --fix", announce=False) as lock:
            report.fixed.extend(lock.recovered)
            parsed_cache.drop(refs)
    _check_write_state(refs, report)
    _check_lock(refs, report)
    lib = _check_pair(refs, report)
    if lib is not None:
        report.entries = len(lib.entries)
        _check_keys(lib, report)
        _check_git(refs, lib, report)
        _check_aliases(lib, report)
        _check_cache(refs, report, fix=fix)
    return report


def _check_git(refs: Path, lib: PlainLibrary, report: DoctorReport) -> None:
    """Conflicts the merge driver left in entries, and whether a repository that names the
    driver in ``.gitattributes`` registered it in this clone (else git merges as text)."""
    from citekit.library.gitmerge import conflicts_in, registered

    report.checked.append("merge conflicts")
    for key, name in conflicts_in(lib.entries):
        where = (f"library.yaml: ours in '{name}', theirs in 'conflicts'" if name in lib.entries[key].conflicts
                 else f"ours in '{name}', theirs in 'citekit-conflict-{name}'")
        report.findings.append(Finding("problem", "merge conflict",
                                       f"'{key}': field '{name}' was changed differently on two git branches "
                                       f"({where})",
                                       f"run `citekit resolve-conflict {key} --ours|--theirs|--edit`"))
    root = refs.absolute().parent
    while not (root / ".git").exists() and root.parent != root:
        root = root.parent
    if not (root / ".git").exists():
        return
    report.checked.append("git merge driver")
    named, configured = registered(root)
    if named and not configured:
        report.findings.append(Finding("problem", "git merge driver",
                                       ".gitattributes names citekit's merge driver but this clone does not register "
                                       "it: git silently merges library.bib and library.yaml as text",
                                       "run `citekit git-setup` in this clone"))


def _check_write_state(refs: Path, report: DoctorReport) -> None:
    """The journal, stray temporaries and journals set aside earlier: each one named."""
    report.checked.append("interrupted writes")
    try:
        journal = load_journal(refs)
    except JournalRefused as exc:
        journal = None
        report.findings.append(Finding("problem", "interrupted writes",
                                       f"{display_path(journal_path(refs))} will not be acted on: {exc}",
                                       "run `citekit doctor --fix` (or any command) to set it aside: it is renamed, "
                                       "never acted on, and kept for you to look at"))
    if journal is not None:
        what = "finished" if journal.state == "commit" else "undone"
        report.findings.append(Finding("problem", "interrupted writes",
                                       f"a write was interrupted ({plural(len(journal.pairs), 'file')}); it will be {what} "
                                       "by the next writing command",
                                       "run `citekit doctor --fix` (or any writing command) to do it now"))
    temps = stale_temps(refs, journal)
    if temps:
        report.findings.append(Finding("problem", "interrupted writes",
                                       f"{len(temps)} temporary file(s) left by an interrupted write: "
                                       + ", ".join(p.name for p in temps[:5]) + (", ..." if len(temps) > 5 else ""),
                                       "run `citekit doctor --fix` to delete them"))
    for path in refused_journals(refs):
        report.findings.append(Finding("note", "interrupted writes",
                                       f"{display_path(path)} is a journal citekit refused and set aside",
                                       "look at it (what did it name?), then delete it"))


def _check_lock(refs: Path, report: DoctorReport) -> None:
    report.checked.append("lock")
    if is_stale(refs):
        report.findings.append(Finding("note", "lock",
                                       f"a lock note names {describe(holder(refs))}, which no longer runs",
                                       "harmless (the lock itself was released); `citekit doctor --fix` deletes the note"))
    elif holder(refs) is not None:
        report.findings.append(Finding("note", "lock", f"{describe(holder(refs))} is writing the library right now",
                                       "wait for it to finish, then run doctor again"))


def _check_pair(refs: Path, report: DoctorReport) -> PlainLibrary | None:
    report.checked.append("library.bib and library.yaml belong together")
    try:
        lib = PlainLibrary.load(refs, recover=False)
    except LibraryError as exc:
        merging = "git merge in progress" in str(exc)
        report.findings.append(Finding("problem", "library files", str(exc),
                                       "finish or abort the git merge as the message says" if merging else
                                       "restore both files from version control, or `citekit doctor --rebuild-sidecar`"))
        return None
    for p in lib.problems:
        report.findings.append(Finding("problem", "library.bib", str(p), "edit library.bib as the message says"))
    report.checked.append("sidecar matches library.bib")
    for old, new in sorted(lib.renamed_by_hand.items(), key=lambda kv: kv[0].lower()):
        report.findings.append(Finding(
            "note", "sidecar matches", f"'{old}' was renamed by hand to '{new}' in library.bib; '{old}' stays an alias",
            "run `citekit sync` (or any command that writes refs/) to record it in refs/keymap.yaml, "
            "then `citekit rekey PAPER.tex` rewrites papers citing the old key"))
    for key in sorted(lib.detached, key=str.lower):
        report.findings.append(Finding(
            "note", "sidecar matches", f"'{key}' is in library.yaml but missing from library.bib (deleted by hand?)",
            "restore the entry from version control, or keep it deleted: its key stays reserved"))
    manual = sorted(k for k, e in lib.entries.items() if e.origin == "manual")
    if manual:
        report.findings.append(Finding(
            "note", "sidecar matches",
            f"{plural(len(manual), 'entry')} written into library.bib by hand "
            f"({', '.join(manual[:5])}{', ...' if len(manual) > 5 else ''}); citekit keeps them as they are"))
    return lib


def _check_keys(lib: PlainLibrary, report: DoctorReport) -> None:
    report.checked.append("keys unique")
    owner: dict[str, str] = {}
    for key in lib.entries:
        owner[key.lower()] = key
    for entry in lib.entries.values():
        for alias in entry.aliases:
            other = owner.get(alias.lower())
            if other is not None and other != entry.key:
                what = "an entry's key" if other in lib.entries else f"also an alias of '{other}'"
                report.findings.append(Finding(
                    "problem", "keys unique", f"alias '{alias}' of '{entry.key}' is {what}",
                    f"remove '{alias}' from the ids field of '{entry.key}' in library.bib"))
            owner.setdefault(alias.lower(), entry.key)


def _check_aliases(lib: PlainLibrary, report: DoctorReport) -> None:
    from citekit.library.rekey import KeyMapError, read_key_map

    report.checked.append("aliases resolvable")
    for name in KEYMAP_FILES:
        path = lib.refs_dir / name
        try:
            mapping = read_key_map(path)
        except KeyMapError as exc:
            report.findings.append(Finding("problem", "aliases resolvable", str(exc),
                                           "restore it from version control"))
            continue
        missing = sorted(old for old, new in mapping.items() if lib.get(new) is None)
        if missing:
            report.findings.append(Finding(
                "problem", "aliases resolvable",
                f"{display_path(path)}: {len(missing)} old key(s) point at keys no entry has "
                f"({', '.join(f'{m} -> {mapping[m]}' for m in missing[:5])})",
                "restore the missing entries from version control, or delete those lines from the key map"))


def _check_cache(refs: Path, report: DoctorReport, *, fix: bool) -> None:
    report.checked.append("cache healthy")
    bib_data, side_data = read_pair(refs)
    fingerprint = parsed_cache.fingerprint(bib_data, side_data)
    state = parsed_cache.health(refs, fingerprint)
    if state == "damaged":
        report.findings.append(Finding("problem", "cache healthy",
                                       f"{display_path(parsed_cache.cache_path(refs))} cannot be read",
                                       "run `citekit doctor --fix` (or delete it): it is rebuilt on the next command"))
    elif state == "stale" and not fix:
        report.findings.append(Finding("note", "cache healthy", "the parsed-library cache predates the last change "
                                       "to refs/; the next command refreshes it"))


def rebuild_sidecar(refs_dir: Path) -> Library:
    """A new sidecar from library.bib alone: every key kept, what cannot be known marked unknown.

    Status and origin become ``unknown`` (an online sync confirms them), keywords become
    tags added by hand (so no rule removes them), the ``ids`` field gives the aliases, and
    every old key of the key maps stays reserved. The old sidecar is replaced.
    """
    from citekit.core.model import Entry
    from citekit.library.rekey import KeyMapError, read_key_map

    refs = Path(refs_dir)
    with ProjectLock(refs, "doctor --rebuild-sidecar"):
        bib_data, _side = read_pair(refs)
        if bib_data is None:
            raise LibraryError(f"no {display_path(refs / 'library.bib')} to rebuild the sidecar from; restore it "
                               "from version control first")
        parsed = parse_bib_text(decode_bytes(bib_data)[0], display_path(refs / "library.bib"), between=True)
        lib = Library(refs_dir=refs)
        lib.preamble = parsed.preamble
        lib.unparsed = list(parsed.unparsed)
        lib.problems = list(parsed.problems)
        gaps: list[tuple[str, str]] = []
        carried = ""  # the text above an entry kept as text joins the next one's, as a load does
        seen: set[str] = set()  # keys lower-cased (BibTeX ignores case)
        for bib_entry, raw, gap in zip(parsed.entries, parsed.raws, parsed.between):
            if bib_entry.key.lower() in seen:
                lib.unparsed.append(raw.strip())  # a case-duplicate key: kept verbatim, as a load does
                carried += gap
                continue
            seen.add(bib_entry.key.lower())
            gaps.append((bib_entry.key, carried + gap))
            carried = ""
            fields = {k: v for k, v in bib_entry.fields.items() if k not in ("keywords", "ids")}
            entry = Entry(key=bib_entry.key, entry_type=bib_entry.entry_type, fields=fields, ids=bib_entry.ids,
                          status=UNKNOWN, origin=UNKNOWN, reason="sidecar rebuilt from library.bib")
            entry.tags_added = tags_from_keywords(bib_entry.fields.get("keywords", ""))
            entry.aliases = sorted(set(split_ids(bib_entry.fields.get("ids", ""))))
            entry.provenance = {k: UNKNOWN for k in fields}
            lib.entries[entry.key] = entry
        lib.kept_head, lib.kept_before, lib.kept_tail = kept_texts(gaps, carried + parsed.after)
        lib.issued_keys = set(lib.entries)
        for name in KEYMAP_FILES:
            try:
                lib.issued_keys.update(read_key_map(refs / name))
            except KeyMapError:
                pass
        lib.save()
    return lib
