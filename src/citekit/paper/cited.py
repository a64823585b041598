"""What a paper cites, and the library entries that make it compile.

A paper's citations can be read from two places: the ``.aux`` file LaTeX writes (exact,
but only after a LaTeX run) or the ``.tex`` sources (available before any run, so
``citekit check`` works on a fresh clone). Both give a :class:`CitedKeys`;
:func:`select_cited` then turns it into the entries to export, pulling in aliases of
merged entries and ``crossref`` parents the way BibTeX needs them.
"""

from __future__ import annotations

import copy
import re
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Callable, Iterable

from citekit.core.texscan import group_end, skip_space
from citekit.core.config import display_path
from citekit.core.model import Entry, Location
from citekit.core.text import latex_to_text, normalize_title
from citekit.core.lazyre import lazy

if TYPE_CHECKING:
    from citekit.library.store import Library

# ---------------------------------------------------------------------------
# Reading citations
# ---------------------------------------------------------------------------

#: Citation commands whose mandatory argument is a comma-separated key list. Lower-case;
#: capitalised variants (``\Citet``, ``\Textcite``) are accepted too.
CITE_COMMANDS: frozenset[str] = frozenset(
    """
    cite nocite citet citep citealt citealp citeauthor citefullauthor citeyear citeyearpar citenum
    citeurl citetitle citedate fullcite footfullcite parencite textcite autocite footcite footcitetext
    smartcite supercite citeA citeN shortcite
    """.split()
)
#: biblatex multicite commands: ``\cites(pre)(post)[pre][post]{a}[pre][post]{b}``.
MULTICITE_COMMANDS: frozenset[str] = frozenset(
    "cites parencites textcites autocites footcites footcitetexts smartcites supercites".split()
)
#: Commands that pull in another source file, and how many brace arguments they take
#: (``\import{dir}{file}`` takes two: a folder and a file in it).
INPUT_COMMANDS: dict[str, int] = {"input": 1, "include": 1, "subfile": 1, "import": 2, "subimport": 2, "includefrom": 2}

_COMMAND_RE = lazy(r"\\([A-Za-z]+)(\*?)")
_AUX_CITATION_RE = re.compile(r"\\citation\{([^}]*)\}")
_AUX_BIBLATEX_RE = re.compile(r"\\abx@aux@cite(?:\{[^}]*\})?\{([^}]*)\}")
_AUX_INPUT_RE = lazy(r"\\@input\{([^}]*)\}")
_BARE_INPUT_RE = lazy(r"\\input\s+([^\s{}\\%]+)")


@dataclass
class CitedKeys:
    """The keys a paper cites, in first-cited order, with where each is cited.

    ``everything`` records a ``\\nocite{*}``: the paper asks for the whole bibliography.
    ``unreadable`` lists ``\\input`` targets that could not be found, so a report can say
    that the key list may be incomplete instead of silently under-counting.
    """

    keys: list[str] = field(default_factory=list)
    everything: bool = False
    locations: dict[str, list[Location]] = field(default_factory=dict)
    files: list[str] = field(default_factory=list)
    unreadable: list[str] = field(default_factory=list)

    def add(self, key: str, location: Location | None = None) -> None:
        key = key.strip()
        if not key or "#" in key or "\\" in key:  # a macro definition's #1, not a key
            return
        if key == "*":
            self.everything = True
            return
        if key not in self.locations:
            self.keys.append(key)
            self.locations[key] = []
        if location is not None:
            self.locations[key].append(location)

    def update(self, other: "CitedKeys") -> None:
        """Merge another file's citations in after this one's (first-cited order kept)."""
        self.everything = self.everything or other.everything
        for key in other.keys:
            if key not in self.locations:
                self.keys.append(key)
                self.locations[key] = []
            self.locations[key].extend(other.locations[key])
        self.files.extend(f for f in other.files if f not in self.files)
        self.unreadable.extend(f for f in other.unreadable if f not in self.unreadable)


#: environments whose body LaTeX prints (or drops) without reading commands in it
VERBATIM_ENVIRONMENTS = ("verbatim", "verbatim*", "Verbatim", "Verbatim*", "BVerbatim", "lstlisting", "minted",
                         "comment", "alltt")
_VERBATIM_BEGIN = lazy(r"\\begin\{(" + "|".join(re.escape(e) for e in VERBATIM_ENVIRONMENTS) + r")\}")
_INLINE_VERB = lazy(r"\\(?:verb\*?|lstinline|mintinline\{[^{}\n]*\})(?![A-Za-z])")


def strip_tex_comments(text: str) -> str:
    """Remove ``%`` comments and verbatim text, keeping every newline so line numbers hold.

    A cited key that is commented out, or shown verbatim (``\\verb|\\cite{x}|``, a
    ``verbatim``/``lstlisting``/``comment`` environment) is not cited: LaTeX never reads
    it as a command. ``\\%`` is a literal percent sign and ``\\\\%`` is a line break
    followed by a real comment; a ``%`` inside ``\\verb`` is text, not a comment.
    """
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "%":
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        if c == "\\":
            skipped = _verbatim_end(text, i)
            if skipped is not None:
                out.append("\n" * text.count("\n", i, skipped))
                i = skipped
                continue
            out.append(text[i:i + 2])
            i += 2
            continue
        out.append(c)
        i += 1
    return "".join(out)


def _verbatim_end(text: str, i: int) -> int | None:
    """Where verbatim text starting at ``i`` ends, or None when none starts there.

    Handles ``\\verb<d>..<d>`` (any delimiter, one line), ``\\lstinline{..}`` and
    the environments of :data:`VERBATIM_ENVIRONMENTS` (an unclosed one runs to the end,
    as in LaTeX).
    """
    m = _VERBATIM_BEGIN.match(text, i)
    if m:
        close = text.find("\\end{" + m.group(1) + "}", m.end())
        return len(text) if close < 0 else close + len("\\end{" + m.group(1) + "}")
    m = _INLINE_VERB.match(text, i)
    if not m or m.end() >= len(text):
        return None
    j = m.end()
    delim = text[j]
    if delim == "{" and not text.startswith("\\verb", i):
        end = group_end(text, j, "{", "}")
        return end if end is not None else None
    if delim.isspace() or delim.isalpha() or delim == "{":
        return None
    close = text.find(delim, j + 1)
    if close < 0 or "\n" in text[j:close]:
        return None
    return close + 1


def _cite_arguments(text: str, i: int, multicite: bool) -> tuple[list[tuple[int, str]], int]:
    """Read the key arguments of one citation command starting at ``i`` (after its name).

    Returns ``(offset, key list text)`` pairs and the index after the last argument.
    Optional ``[...]`` notes and biblatex's ``(...)`` multicite notes are skipped.
    """
    args: list[tuple[int, str]] = []
    pos = i
    while True:
        j = skip_space(text, pos)
        if j >= len(text):
            break
        c = text[j]
        if c == "(" and multicite and not args:
            end = group_end(text, j, "(", ")")
        elif c == "[":
            end = group_end(text, j, "[", "]")
        elif c == "{":
            end = group_end(text, j, "{", "}")
            if end is not None:
                args.append((j + 1, text[j + 1:end - 1]))
                pos = end
                if not multicite:
                    break
                continue
        else:
            break
        if end is None:
            break
        pos = end
    return args, pos


def _is_cite_command(name: str) -> tuple[bool, bool]:
    """(is a citation command, is a multicite command), accepting a capitalised first letter."""
    lowered = name[:1].lower() + name[1:]
    if lowered in MULTICITE_COMMANDS:
        return True, True
    return (name in CITE_COMMANDS or lowered in CITE_COMMANDS), False


def _line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def citations_from_tex_text(text: str, name: str = "<tex>") -> CitedKeys:
    """The citations written in one LaTeX source text (``\\input`` is not followed here)."""
    text = strip_tex_comments(text)
    cited = CitedKeys(files=[name])
    for m in _COMMAND_RE.finditer(text):
        is_cite, multicite = _is_cite_command(m.group(1))
        if not is_cite:
            continue
        args, _ = _cite_arguments(text, m.end(), multicite)
        for offset, keys in args:
            for key in keys.split(","):
                cited.add(key, Location(name, _line_of(text, offset)))
    return cited


def _input_targets(text: str) -> list[str]:
    """File names pulled in by ``\\input``-like commands, comments already stripped."""
    targets: list[str] = []
    for m in _COMMAND_RE.finditer(text):
        nargs = INPUT_COMMANDS.get(m.group(1))
        if nargs is None:
            continue
        pos, parts = m.end(), []
        for _ in range(nargs):
            j = skip_space(text, pos)
            if j >= len(text) or text[j] != "{":
                break
            end = group_end(text, j, "{", "}")
            if end is None:
                break
            parts.append(text[j + 1:end - 1].strip())
            pos = end
        if len(parts) == nargs:
            targets.append("/".join(p.rstrip("/") for p in parts if p))
    targets.extend(m.group(1) for m in _BARE_INPUT_RE.finditer(text))
    return targets


def _resolve_input(target: str, here: Path, root: Path) -> Path | None:
    """Where ``\\input{target}`` points: next to the including file first, then next to the
    main file (where LaTeX itself looks, since it runs in the main file's folder)."""
    names = [target] if target.endswith(".tex") else [target + ".tex", target]
    for base in (here, root):
        for candidate in names:
            path = (base / candidate).resolve()
            if path.is_file():
                return path
    return None


def citations_from_tex(path: Path) -> CitedKeys:
    """Every citation of a LaTeX document, following ``\\input``/``\\include`` recursively.

    Each file is read once, so files that include each other cannot loop.
    """
    path = Path(path)
    root = path.resolve().parent
    cited = CitedKeys()
    seen: set[Path] = set()

    def visit(file: Path, display: str) -> None:
        resolved = file.resolve()
        if resolved in seen:
            return
        seen.add(resolved)
        raw = resolved.read_text(encoding="utf-8", errors="replace")
        text = strip_tex_comments(raw)
        cited.update(citations_from_tex_text(raw, display))
        for target in _input_targets(text):
            found = _resolve_input(target, resolved.parent, root)
            if found is None:
                if target not in cited.unreadable:
                    cited.unreadable.append(target)
                continue
            visit(found, display_path(found, root))

    visit(path, str(path))
    return cited


def citations_from_aux_text(text: str, name: str = "<aux>") -> CitedKeys:
    """Citations recorded in one ``.aux`` text: BibTeX's ``\\citation`` and biblatex's
    ``\\abx@aux@cite`` lines (both the ``{refsection}{key}`` and the older ``{key}`` form), and
    biblatex's ``\\abx@aux@nociteall`` for ``\\nocite{*}``."""
    cited = CitedKeys(files=[name])
    for lineno, line in enumerate(text.splitlines(), start=1):
        if "\\abx@aux@nociteall" in line:  # biblatex's record of \nocite{*}
            cited.add("*", Location(name, lineno))
        for regex in (_AUX_CITATION_RE, _AUX_BIBLATEX_RE):
            for m in regex.finditer(line):
                for key in m.group(1).split(","):
                    cited.add(key, Location(name, lineno))
    return cited


def citations_from_aux(path: Path) -> CitedKeys:
    """Every citation of a compiled document, following ``\\@input`` to the ``.aux`` files
    LaTeX writes for ``\\include``d chapters."""
    path = Path(path)
    cited = CitedKeys()
    seen: set[Path] = set()

    def visit(file: Path) -> None:
        resolved = file.resolve()
        if resolved in seen:
            return
        seen.add(resolved)
        text = resolved.read_text(encoding="utf-8", errors="replace")
        cited.update(citations_from_aux_text(text, display_path(resolved, path.resolve().parent)))
        for m in _AUX_INPUT_RE.finditer(text):
            child = path.resolve().parent / m.group(1)
            if child.is_file():
                visit(child)
            elif m.group(1) not in cited.unreadable:
                cited.unreadable.append(m.group(1))

    visit(path)
    return cited


def with_source_lines(tex: CitedKeys, aux: CitedKeys) -> CitedKeys:
    """``tex``'s citations, then those only ``aux`` records, each key placed where the author
    can fix it: at its ``\\cite`` in the ``.tex`` files when they hold it (``sections/related.tex:2``),
    at its ``.aux`` line only when no source does (a citation a package wrote, a file not found).
    The ``.aux`` line of a key the sources hold is the same citation again, not one more place."""
    out = CitedKeys(keys=list(tex.keys), everything=tex.everything or aux.everything,
                    locations={k: list(v) for k, v in tex.locations.items()}, files=list(tex.files),
                    unreadable=list(tex.unreadable))
    for key in aux.keys:
        if not out.locations.get(key):
            if key not in out.locations:
                out.keys.append(key)
            out.locations[key] = list(aux.locations[key])
    out.files.extend(f for f in aux.files if f not in out.files)
    out.unreadable.extend(f for f in aux.unreadable if f not in out.unreadable)
    return out


def source_of(aux: Path) -> Path | None:
    """The LaTeX file a ``.aux`` was written for (``main.aux`` → ``main.tex`` beside it), if there."""
    tex = Path(aux).with_suffix(".tex")
    return tex if tex.is_file() else None


def read_citations(*, aux: Path | None = None, tex: Path | None = None) -> CitedKeys:
    """Citations from whichever of ``aux``/``tex`` is given (the ``.aux`` wins when both are)."""
    if aux is not None:
        return citations_from_aux(aux)
    if tex is not None:
        return citations_from_tex(tex)
    raise ValueError("give a .aux or a .tex file to read citations from")


# ---------------------------------------------------------------------------
# Selecting entries
# ---------------------------------------------------------------------------


@dataclass
class MissingKey:
    """A cited key the library does not have, with the entries it was probably meant to be."""

    key: str
    suggestions: list[Entry] = field(default_factory=list)
    locations: list[Location] = field(default_factory=list)
    needed_by: str | None = None  # set when the key is a crossref parent, not a citation

    def message(self) -> str:
        """``missing key 'x' (did you mean y — Title...?)``: what the user can act on."""
        text = f"missing key '{self.key}'"
        if self.locations:
            more = f" (and {len(self.locations) - 1} more)" if len(self.locations) > 1 else ""
            text = f"{self.locations[0]}{more}: {text}"
        if self.needed_by:
            text += f" (crossref parent of {self.needed_by})"
        if self.suggestions:
            options = ", or ".join(f"{e.key} — {_short_title(e.title)}" for e in self.suggestions)
            text += f" (did you mean {options}?)"
        return text


def _short_title(title: str, width: int = 60) -> str:
    plain = " ".join(latex_to_text(title, matching=True).split())
    return plain if len(plain) <= width else plain[: width - 3].rstrip() + "..."


@dataclass
class Selection:
    """The entries to export for one paper, in an order BibTeX accepts.

    ``aliases`` maps each cited old key to the key of the entry that absorbed it;
    ``parents`` are the ``crossref`` targets pulled in without being cited themselves.
    """

    entries: list[Entry] = field(default_factory=list)
    aliases: dict[str, str] = field(default_factory=dict)
    missing: list[MissingKey] = field(default_factory=list)
    parents: list[str] = field(default_factory=list)
    direct: set[str] = field(default_factory=set)  # surviving keys cited under their own name


class EntryIndex:
    """Look-up of entries by key and by alias, as BibTeX would see them.

    Keys match exactly: BibTeX treats a cite key that differs only in case as an error,
    so a case-folded match is offered as a suggestion, never silently accepted.
    """

    def __init__(self, entries: Iterable[Entry]) -> None:
        self.entries: Mapping[str, Entry] = {}
        self.alias_of: dict[str, str] = {}
        self.folded: dict[str, str] = {}
        self.aliases: dict[str, list[str]] = {}
        self._descriptions: Callable[[], dict[str, str]] | None = None
        #: (name, compute) -> an answer kept by the library's cache until it changes
        self._remembered: Callable[[str, Callable[[], list[str]]], list[str]] | None = None
        entries_by_key: dict[str, Entry] = {}
        for entry in entries:
            entries_by_key[entry.key] = entry
            self.folded.setdefault(entry.key.lower(), entry.key)
        self.entries = entries_by_key
        for entry in entries_by_key.values():
            if entry.aliases:
                self.aliases[entry.key] = list(entry.aliases)
            for alias in entry.aliases:
                if alias not in entries_by_key:
                    self.alias_of.setdefault(alias, entry.key)

    @classmethod
    def of_library(cls, library: Library) -> EntryIndex:
        """The index of a loaded library that decodes only the entries looked up (a paper
        cites a hundred of ten thousand); suggestions read the stored descriptors."""
        index = cls([])
        keys = library.sorted_keys()
        index.entries = _LibraryEntries(library, keys)
        index.aliases = library.aliases_by_key()
        for key in keys:
            index.folded.setdefault(key.lower(), key)
        for key, aliases in index.aliases.items():
            for alias in aliases:
                if alias not in index.entries:
                    index.alias_of.setdefault(alias, key)
        from citekit.library.store import kinds

        index._descriptions = lambda: library.memo_table(kinds.DESCRIPTOR, descriptor)
        index._remembered = library.remembered
        return index

    def get(self, key: str) -> Entry | None:
        if key in self.entries:
            return self.entries[key]
        target = self.alias_of.get(key)
        return self.entries.get(target) if target else None

    def get_parent(self, key: str) -> Entry | None:
        """The entry a ``crossref`` field names: BibTeX looks these up ignoring case."""
        found = self.get(key)
        if found is None and key.lower() in self.folded:
            found = self.entries[self.folded[key.lower()]]
        return found

    def suggest(self, key: str, limit: int = 2, describe: Callable[[Entry], str] | None = None) -> list[Entry]:
        """The entries most likely meant by a key that is not in the library.

        Two signals: the key spelled almost like an existing key (typos, case), and the
        key's words (``schaipp``, ``2026``, ``stepsize``) found in an entry's first author,
        year and title (a key written by hand or by another tool). ``describe`` may serve
        :func:`descriptor` from a store (the library's parsed cache). A library's index
        remembers its answers until the library changes (a paper's typo is checked on
        every build): no fuzzy matching then, nor rapidfuzz imported.
        """
        if describe is None and self._remembered is not None:
            found = self._remembered(f"suggest:{limit}:{key}", lambda: [e.key for e in self._suggest(key, limit, None)])
            return [self.entries[k] for k in found]
        return self._suggest(key, limit, describe)

    def _suggest(self, key: str, limit: int, describe: Callable[[Entry], str] | None) -> list[Entry]:
        if describe is not None:
            descriptions = {k: describe(e) for k, e in self.entries.items()}
        elif self._descriptions is not None:
            descriptions = self._descriptions()
        else:
            descriptions = {k: descriptor(e) for k, e in self.entries.items()}
        from rapidfuzz import fuzz

        words = " ".join(re.findall(r"[a-z]+|\d+", key.lower()))
        lowered = key.lower()
        scored: list[tuple[float, str]] = []
        for entry_key in _near(lowered, words, descriptions, self.aliases):
            description = descriptions[entry_key]
            by_key = fuzz.ratio(lowered, entry_key.lower())
            for alias in self.aliases.get(entry_key, ()):
                by_key = max(by_key, fuzz.ratio(lowered, alias.lower()))
            by_words = fuzz.token_set_ratio(words, description) * 0.9 if words else 0.0
            score = max(by_key, by_words)
            if score >= 70:
                scored.append((score, entry_key))
        scored.sort(key=lambda s: (-s[0], s[1]))
        return [self.entries[k] for _, k in scored[:limit]]


def _near(lowered: str, words: str, descriptions: dict[str, str], aliases: dict[str, list[str]]) -> set[str]:
    """Keys that may score 70 in :meth:`EntryIndex.suggest`, found in one pass of rapidfuzz's
    own loop per signal (a Python loop over ten thousand entries was most of ``check``);
    the cutoffs sit below the real ones, and each candidate is then scored exactly as before."""
    from rapidfuzz import fuzz, process

    keys = list(descriptions)
    near = {keys[i] for _c, _s, i in process.extract(lowered, [k.lower() for k in keys], scorer=fuzz.ratio,
                                                        processor=None, score_cutoff=69, limit=None)}
    pairs = [(alias.lower(), k) for k, names in aliases.items() if k in descriptions for alias in names]
    near.update(pairs[i][1] for _c, _s, i in process.extract(lowered, [a for a, _k in pairs], scorer=fuzz.ratio,
                                                               processor=None, score_cutoff=69, limit=None))
    if words:
        near.update(keys[i] for _c, _s, i in process.extract(words, [descriptions[k] for k in keys],
                                                             scorer=fuzz.token_set_ratio, processor=None,
                                                             score_cutoff=77, limit=None))
    return near


class _LibraryEntries(Mapping[str, Entry]):
    """key -> entry of a library, decoding an entry when it is first looked up."""

    def __init__(self, library: Library, keys: list[str]) -> None:
        self._library = library
        self._keys = keys
        self._set = set(keys)

    def __getitem__(self, key: str) -> Entry:
        entry = self._library.entry_at(key) if key in self._set else None
        if entry is None:
            raise KeyError(key)
        return entry

    def __contains__(self, key: object) -> bool:
        return key in self._set

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)


def descriptor(entry: Entry) -> str:
    """First author's family name, year and title words, squeezed like a citation key."""
    author = entry.fields.get("author", "").split(" and ")[0]
    family = author.split(",")[0] if "," in author else (author.split() or [""])[-1]
    title = normalize_title(entry.title)
    squeezed = "".join(title.split()[:3])
    return " ".join(p for p in (normalize_title(family), entry.fields.get("year", ""), title, squeezed) if p)


def crossref_target(entry: Entry) -> str | None:
    """The key named by an entry's ``crossref`` field (braces and spaces trimmed)."""
    value = entry.fields.get("crossref", "").strip().strip("{}").strip()
    return value or None


def select_cited(entries: Iterable[Entry], cited: CitedKeys) -> Selection:
    """The entries a paper needs: the cited ones (aliases resolved), then crossref parents.

    BibTeX reads a crossref parent only if it comes *after* every entry that refers to it,
    and lists the parent on its own once ``min-crossrefs`` (default 2) children cite it;
    both are bibtex's decision at run time, so every parent is exported, placed after its
    children, and bibtex does what it always does with it.
    """
    index = entries if isinstance(entries, EntryIndex) else EntryIndex(entries)
    selection = Selection()
    chosen: dict[str, Entry] = {}
    # a dict keeps the order and makes "already wanted?" constant time (a whole-library
    # export wants every key: a list made this quadratic)
    wanted = dict.fromkeys(index.entries) if cited.everything else {}
    for key in cited.keys:
        wanted.setdefault(key, None)
    for key in wanted:
        entry = index.get(key)
        if entry is None:
            selection.missing.append(MissingKey(key, index.suggest(key), cited.locations.get(key, [])))
            continue
        if entry.key != key:
            selection.aliases[key] = entry.key
        else:
            selection.direct.add(key)
        chosen.setdefault(entry.key, entry)

    depth = {k: 0 for k in chosen}
    queue = deque(chosen)
    while queue:
        key = queue.popleft()
        parent_key = crossref_target(chosen[key])
        if parent_key is None:
            continue
        parent = index.get_parent(parent_key)
        if parent is None:
            selection.missing.append(MissingKey(parent_key, index.suggest(parent_key), needed_by=key))
            continue
        if parent.key not in chosen:
            chosen[parent.key] = parent
            selection.parents.append(parent.key)
            depth[parent.key] = 0
        if depth[parent.key] <= depth[key] and depth[key] < len(chosen):  # bounded: cycles stop
            depth[parent.key] = depth[key] + 1
            queue.append(parent.key)

    ordered = sorted(chosen.values(), key=lambda e: (depth[e.key], e.key.lower(), e.key))
    selection.entries = [_with_resolved_crossref(e, index) for e in ordered]
    return selection


def _with_resolved_crossref(entry: Entry, index: EntryIndex) -> Entry:
    """A copy whose ``crossref`` names the parent's key exactly, when it named a merged-away
    key or spelled the key in another case."""
    target = crossref_target(entry)
    if target is None or target in index.entries:
        return entry
    parent = index.get_parent(target)
    if parent is None:
        return entry
    clone = copy.deepcopy(entry)
    clone.fields["crossref"] = parent.key
    return clone


def alias_copies(selection: Selection) -> list[Entry]:
    """The selection with each entry cited only by an old key renamed to that key.

    BibTeX has no alias mechanism: a paper that still cites an old key compiles only if
    the ``.bib`` has an entry under that key. An entry cited under its own key as well
    (or needed as a crossref parent) is kept too, so the paper then lists the work twice
    — ``citekit check`` warns about exactly that. Copies stay in their original's place,
    so still before any crossref parent.
    """
    by_target: dict[str, list[str]] = {}
    for alias, target in selection.aliases.items():
        by_target.setdefault(target, []).append(alias)
    needed = selection.direct | set(selection.parents)
    out: list[Entry] = []
    for entry in selection.entries:
        if entry.key in needed or entry.key not in by_target:
            out.append(entry)
        for alias in sorted(by_target.get(entry.key, [])):
            clone = copy.deepcopy(entry)
            clone.key = alias
            clone.aliases = []
            out.append(clone)
    return out


def with_ids_field(selection: Selection) -> list[Entry]:
    """The selection with biblatex ``ids`` naming every cited alias.

    biber resolves a citation of any key listed in ``ids`` to the entry, so no copies
    are needed (and the bibliography does not list the work twice).
    """
    by_target: dict[str, list[str]] = {}
    for alias, target in selection.aliases.items():
        by_target.setdefault(target, []).append(alias)
    out: list[Entry] = []
    for entry in selection.entries:
        extra = by_target.get(entry.key)
        if not extra:
            out.append(entry)
            continue
        clone = copy.deepcopy(entry)
        existing = [i.strip() for i in clone.fields.get("ids", "").split(",") if i.strip()]
        clone.fields["ids"] = ", ".join(dict.fromkeys(existing + sorted(extra)))
        out.append(clone)
    return out


def inherit_crossrefs(selection: Selection) -> list[Entry]:
    """Entries with their crossref parents' fields copied in, and uncited parents dropped.

    For formats without crossref (CSL JSON): each child gets every field it lacks from its
    parent, as BibTeX does, and the parent's ``title`` as its ``booktitle`` when it has
    none, as biblatex does for proceedings.
    """
    by_key = {e.key: e for e in selection.entries}
    out: list[Entry] = []
    for entry in selection.entries:
        if entry.key in selection.parents and entry.key not in selection.direct:
            continue
        clone = copy.deepcopy(entry)
        seen = {entry.key}
        parent_key = crossref_target(clone)
        while parent_key and parent_key in by_key and parent_key not in seen:
            seen.add(parent_key)
            parent = by_key[parent_key]
            for name, value in parent.fields.items():
                clone.fields.setdefault(name, value)
            if "booktitle" not in entry.fields and parent.fields.get("title"):
                clone.fields["booktitle"] = parent.fields.get("booktitle") or parent.fields["title"]
            parent_key = crossref_target(parent)
        clone.fields.pop("crossref", None)
        out.append(clone)
    return out
