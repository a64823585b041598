"""The user's own paper for ``--mine``, read from what they already have.

An author positioning a paper has its ``.tex`` or ``.md`` source, its entry in the library,
or an abstract in the clipboard; asking them to copy it into a YAML file first is a chore
that goes stale. So each of those is read here into a :class:`~.related_work.Mine`: the
title and abstract (what the ranking and the contrast read), and tags where the input has
them. LaTeX is turned into text by the project's one reading of it
(:func:`citekit.core.text.latex_to_text`).
"""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from citekit.core.texscan import group_end, skip_space
from citekit.core.text import latex_to_text
from citekit.library.tags import normalize_tag
from citekit.output.related_work import Mine, RelatedWorkError, load_mine, mine_from_yaml
from citekit.core.lazyre import lazy

#: what ``--mine`` accepts, for every error that has to say it
EXPECTED = ("a .tex or .md file of your paper, a YAML file (title, abstract, tags), key:KEY (or a bare KEY) "
            "of a library entry, or - to read your abstract from stdin")
#: the most of a paper's opening text taken when it has no abstract section (words)
OPENING_WORDS = 300

_TEX_SUFFIXES = (".tex", ".ltx", ".latex")
_MD_SUFFIXES = (".md", ".markdown")
_YAML_SUFFIXES = (".yaml", ".yml")
_SECTION = lazy(r"\\(?:section|chapter|part)\*?\s*[\[{]")
_COMMENT = lazy(r"(?<!\\)%.*")
#: front-matter and preamble commands whose argument is not the paper's prose
_NOT_PROSE = ("title", "author", "date", "thanks", "affiliation", "address", "email", "keywords", "maketitle",
              "icmltitle", "icmlauthor", "icmlaffiliation", "icmlcorrespondingauthor", "icmlkeywords",
              "printAffiliationsAndNotice", "institute", "name")


def _unusable(name: str, what: str) -> RelatedWorkError:
    return RelatedWorkError(f"--mine {name}: {what}; expected {EXPECTED}.")


# ---------------------------------------------------------------------------------------
# LaTeX
# ---------------------------------------------------------------------------------------

def _argument(text: str, command: str) -> str | None:
    r"""The braced argument of the first ``\command[..]{...}`` in ``text`` (optional arguments skipped)."""
    m = re.search(r"\\" + command + r"\*?(?![A-Za-z])", text)
    if not m:
        return None
    i = skip_space(text, m.end())
    while i < len(text) and text[i] == "[":
        end = group_end(text, i, "[", "]")
        if end is None:
            return None
        i = skip_space(text, end)
    if i >= len(text) or text[i] != "{":
        return None
    end = group_end(text, i, "{", "}")
    return text[i + 1:end - 1] if end else None


def _drop_commands(text: str, names: tuple[str, ...]) -> str:
    r"""``text`` without ``\name[..]{...}`` for each of ``names`` (their arguments are not prose)."""
    for name in names:
        while True:
            m = re.search(r"\\" + name + r"\*?(?![A-Za-z])", text)
            if not m:
                break
            i = skip_space(text, m.end())
            while i < len(text) and text[i] in "[{":
                end = group_end(text, i, text[i], "]" if text[i] == "[" else "}")
                if end is None:
                    break
                i = skip_space(text, end)
            text = text[:m.start()] + " " + text[i:]
    return text


def _plain(latex: str) -> str:
    """LaTeX prose as text, environments' markers gone, math kept readable."""
    latex = re.sub(r"\\(?:begin|end)\s*\{[^{}]*\}", " ", latex)
    latex = re.sub(r"\\(?:label|ref|eqref|cite[a-zA-Z]*|footnote|vspace|hspace|input|include)\*?(?:\[[^\]]*\])*\{[^{}]*\}", "",
                   latex)
    return re.sub(r"\s+", " ", latex_to_text(latex)).strip()


def mine_from_tex(text: str, name: str = "paper.tex") -> Mine:
    r"""A paper's LaTeX source: its ``\title``, and its ``abstract`` environment, else the
    text before the first section (a paper without an abstract still opens with what it does)."""
    source = "\n".join(_COMMENT.sub("", line) for line in text.splitlines())
    title_raw = _argument(source, "title") or _argument(source, "icmltitle") or ""
    m = re.search(r"\\begin\s*\{abstract\}(.*?)\\end\s*\{abstract\}", source, re.S)
    abstract_raw = m.group(1) if m else (_argument(source, "abstract") or "")
    if not abstract_raw.strip():
        start = re.search(r"\\begin\s*\{document\}", source)
        body = source[start.end():] if start else source
        cut = _SECTION.search(body)
        abstract_raw = _drop_commands(body[:cut.start()] if cut else body, _NOT_PROSE)
        abstract_raw = " ".join(abstract_raw.split()[:OPENING_WORDS])
    mine = Mine(title=_plain(title_raw), abstract=_plain(abstract_raw), name=name)
    if not mine.abstract:
        raise _unusable(name, "no abstract environment and no text before the first \\section")
    return mine


# ---------------------------------------------------------------------------------------
# Markdown
# ---------------------------------------------------------------------------------------

_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


def _markdown_text(text: str) -> str:
    """Markdown prose as plain text: links keep their words, emphasis and code marks go."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"(\*\*|__|\*|`)", "", text)
    text = re.sub(r"<[^<>]+>", "", text)
    return re.sub(r"\s+", " ", text).strip()


def _front_matter(text: str) -> tuple[dict, str]:
    """``---`` YAML front matter (a mapping, else empty) and the text after it."""
    m = re.match(r"\A---[ \t]*\n(.*?)\n(?:---|\.\.\.)[ \t]*(?:\n|\Z)", text, re.S)
    if not m:
        return {}, text
    try:
        data = yaml.safe_load(m.group(1))
    except yaml.YAMLError:
        return {}, text
    return (data if isinstance(data, dict) else {}), text[m.end():]


def mine_from_markdown(text: str, name: str = "paper.md") -> Mine:
    """A paper in Markdown: front matter ``abstract:`` (and ``title:``, ``tags:``), else an
    ``## Abstract`` section, else the first paragraphs before the next heading."""
    meta, body = _front_matter(text.replace("\r\n", "\n"))
    lines = body.split("\n")
    title = str(meta.get("title") or "")
    abstract = str(meta.get("abstract") or "")
    headings = [(i, len(m.group(1)), m.group(2)) for i, line in enumerate(lines) if (m := _HEADING.match(line))]
    if not title and headings and headings[0][1] == 1:
        title = headings[0][2]
    if not abstract:
        for n, (i, level, words) in enumerate(headings):
            if re.fullmatch(r"abstract\.?:?", _markdown_text(words), re.I):
                end = next((j for j, lv, _ in headings[n + 1:] if lv <= level), len(lines))
                abstract = "\n".join(lines[i + 1:end])
                break
    if not abstract:
        start = headings[0][0] + 1 if headings and headings[0][1] == 1 else 0
        end = next((j for j, _, _ in headings if j >= start), len(lines))
        paragraphs = [p for p in "\n".join(lines[start:end]).split("\n\n") if p.strip()]
        taken: list[str] = []
        for p in paragraphs:
            if taken and sum(len(t.split()) for t in taken) >= OPENING_WORDS // 2:
                break
            taken.append(p)
        abstract = "\n\n".join(taken)
    tags = meta.get("tags") or []
    if isinstance(tags, str):
        tags = [t for t in re.split(r"[,\s]+", tags) if t]
    mine = Mine(title=_markdown_text(title), abstract=_markdown_text(abstract),
                tags=[normalize_tag(str(t)) for t in tags if str(t).strip()], name=name)
    if not mine.abstract:
        raise _unusable(name, "no abstract: in the front matter, no '## Abstract' section and no paragraph of text")
    return mine


# ---------------------------------------------------------------------------------------
# Any input
# ---------------------------------------------------------------------------------------

def _looks_like_tex(text: str) -> bool:
    return bool(re.search(r"\\(?:documentclass|begin\s*\{(?:document|abstract)\}|section\*?\s*\{|title\s*\{)", text))


def _looks_like_yaml_mine(text: str) -> bool:
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError:
        return False
    return isinstance(data, dict) and bool({"title", "abstract", "tags"} & set(data))


def mine_from_text(text: str, name: str = "stdin") -> Mine:
    """Text given without a file name (stdin): LaTeX, a YAML description, Markdown or a plain abstract."""
    if not text.strip():
        raise _unusable(name, "nothing was given")
    if _looks_like_tex(text):
        return mine_from_tex(text, name)
    if _looks_like_yaml_mine(text):
        return mine_from_yaml(text, name)
    if text.lstrip().startswith(("---", "#")):
        return mine_from_markdown(text, name)
    return Mine(abstract=re.sub(r"\s+", " ", text).strip(), name=name)


_INPUT = lazy(r"\\(?:input|include)\s*\{([^{}]+)\}")


def _with_inputs(text: str, folder: Path, depth: int = 3) -> str:
    r"""``text`` with ``\input{sections/abstract}`` replaced by that file, as LaTeX would read it.

    Papers often keep the abstract in a file of its own. Paths are relative to the main
    file's folder, as LaTeX run there reads them; a file that cannot be read is
    left as the command (and then ignored as markup).
    """
    if depth == 0 or "\\in" not in text:
        return text

    def one(m: re.Match[str]) -> str:
        target = folder / m.group(1).strip()
        for candidate in (target, target.with_name(target.name + ".tex")):
            try:
                if candidate.is_file():
                    return _with_inputs(candidate.read_text(encoding="utf-8"), folder, depth - 1)
            except (OSError, UnicodeDecodeError):
                return m.group(0)
        return m.group(0)

    return _INPUT.sub(one, "\n".join(_COMMENT.sub("", line) for line in text.splitlines()))


def mine_from_file(path: Path) -> Mine:
    """The user's paper from a file, read by its suffix (content decides for other suffixes)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise _unusable(str(path), f"cannot read it ({exc})") from exc
    suffix = Path(path).suffix.lower()
    name = Path(path).name
    if suffix in _YAML_SUFFIXES:
        return load_mine(Path(path))
    if suffix in _TEX_SUFFIXES:
        return mine_from_tex(_with_inputs(text, Path(path).parent), name)
    if suffix in _MD_SUFFIXES:
        return mine_from_markdown(text, name)
    return mine_from_text(text, name)
