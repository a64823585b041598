"""Record text for Markdown that pandoc renders literally.

pandoc passes raw TeX found in Markdown straight into LaTeX output, reads ``$..$`` as
math, ``@key`` as a citation and ``[..]`` as links or spans. A title or abstract from a
remote service must trigger none of that, so record text is first turned into plain
Unicode and then every character with a Markdown meaning is backslash-escaped.
"""

from __future__ import annotations

import re
from functools import lru_cache

from pylatexenc.latex2text import LatexNodes2Text, MacroTextSpec, get_default_latex_context_db

#: characters pandoc's Markdown gives a meaning to (backslash first, so escapes stay single)
MARKDOWN_SPECIALS = "\\`*_[]<>#$@^~|&{}"
_ESCAPE = re.compile("[" + re.escape(MARKDOWN_SPECIALS) + "]")


@lru_cache(maxsize=1)
def _converter() -> LatexNodes2Text:
    # Keep the argument of font commands (\texttt{MetaDistill} -> MetaDistill); drop any
    # command pylatexenc does not know rather than guessing.
    db = get_default_latex_context_db()
    extra = [MacroTextSpec(name, "%s") for name in ("texttt", "textsf", "textrm", "textnormal", "mathrm",
                                                     "mathbf", "mathit", "mathsf", "mathtt", "texorpdfstring")]
    db.add_context_category("citekit-font-commands", macros=extra, prepend=True)
    return LatexNodes2Text(latex_context=db, math_mode="text", strict_latex_spaces=False)


def latex_to_plain(text: str) -> str:
    """LaTeX markup to plain Unicode (math as text: ``$O(\\epsilon^{-3})$`` -> ``O(ϵ^-3)``)."""
    text = re.sub(r"\*\*(.+?)\*\*", r"\1", text)
    # A bare % is a percent sign in metadata, not a LaTeX comment that eats the rest.
    text = re.sub(r"(?<!\\)%", r"\\%", text)
    if not re.search(r"[\\{}$%~]", text):
        return re.sub(r"\s+", " ", text).strip()
    try:
        out = _converter().latex_to_text(text)
    except Exception:  # malformed markup from remote metadata: fall back to stripping
        out = text
    out = out.replace("{", "").replace("}", "").replace("$", "")
    return re.sub(r"\s+", " ", out).strip()


def escape_markdown(text: str) -> str:
    """Backslash-escape every Markdown-active character so the text renders as written."""
    text = re.sub(r"\s+", " ", text).strip()
    return _ESCAPE.sub(lambda m: "\\" + m.group(0), text)
