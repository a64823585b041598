"""Record text for Markdown that pandoc renders literally.

pandoc passes raw TeX found in Markdown straight into LaTeX output, reads ``$..$`` as
math, ``@key`` as a citation and ``[..]`` as links or spans. A title or abstract from a
remote service must trigger none of that, so record text is first turned into plain
Unicode and then every character with a Markdown meaning is backslash-escaped.
"""

from __future__ import annotations

import re
from citekit.core.lazyre import lazy

#: characters pandoc's Markdown gives a meaning to (backslash first, so escapes stay single)
MARKDOWN_SPECIALS = "\\`*_[]<>#$@^~|&{}"
_ESCAPE = lazy("[" + re.escape(MARKDOWN_SPECIALS) + "]")


def escape_markdown(text: str) -> str:
    """Backslash-escape every Markdown-active character so the text renders as written."""
    text = re.sub(r"\s+", " ", text).strip()
    return _ESCAPE.sub(lambda m: "\\" + m.group(0), text)

