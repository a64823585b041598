"""Link previews of a chat log copied out of the app (Slack, Mattermost): the page's title
put back beside its link.

Copying messages from Slack's window copies each link's preview as three lines: the site's
name twice without a space (``arXiv.orgarXiv.org``; once, in some copies), the linked
page's title, and its description. The title is the paper's title as the page gives it, but it stands on a line
of its own, away from the link. That layout is exact, so it is read by rule: the title line
becomes an item with the link (the most recent one, in the lines just above, whose host is
that site), and the doubled name is dropped. Every line keeps its number.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from citekit.notes.urls import classify_url
from citekit.core.lazyre import lazy

#: a site's name written twice with nothing between (``github.comgithub.com``), or once on a
#: line of its own (some copies keep one): a preview only where a link to that site is just above
_HOST = r"[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){1,4}"
_DOUBLED_SITE_RE = lazy(rf"^[ \t]*(?:(?P<site>{_HOST})(?P=site)|(?P<one>{_HOST}))[ \t]*$", re.M)
_URL_RE = lazy(r"https?://[^\s<>()\"']+")
#: how many lines above a preview its link may be (the message, maybe wrapped)
_LOOK_BACK = 4


#: :data:`_HOST` with its first label taken whole (``{1,63}+``): a dot must follow it, and
#: no shorter run of those characters is followed by one, so nothing is lost, and a line of
#: words fails at once instead of trying every shorter first word
_HOST_FIRST_LABEL_WHOLE = r"[A-Za-z0-9-]{1,63}+(?:\.[A-Za-z0-9-]{1,63}){1,4}"
#: :data:`_DOUBLED_SITE_RE` without ``re.M``: on the first line, and after a line break (a
#: search for a pattern that opens on a fixed character skips straight to the line starts;
#: ``^`` under ``re.M`` is tried at every character of the text)
_DOUBLED_SITE_FIRST_RE = lazy(rf"[ \t]*(?:(?P<site>{_HOST_FIRST_LABEL_WHOLE})(?P=site)|(?P<one>{_HOST_FIRST_LABEL_WHOLE}))[ \t]*(?![^\n])")
_DOUBLED_SITE_NEXT_RE = lazy(rf"\n[ \t]*(?:(?P<site>{_HOST_FIRST_LABEL_WHOLE})(?P=site)|(?P<one>{_HOST_FIRST_LABEL_WHOLE}))[ \t]*(?![^\n])")


def has_link_previews(text: str) -> bool:
    """Some line of ``text`` is a site's name alone, maybe doubled (as
    ``_DOUBLED_SITE_RE.search`` finds it)."""
    return _DOUBLED_SITE_FIRST_RE.match(text) is not None or _DOUBLED_SITE_NEXT_RE.search(text) is not None


def with_link_titles(text: str) -> str:
    """``text`` with each preview's title line followed by its link, and the doubled site
    name blanked (same number of lines)."""
    lines = text.split("\n")
    for m in _DOUBLED_SITE_RE.finditer(text):
        at = text.count("\n", 0, m.start())
        site = (m.group("site") or m.group("one")).lower()
        url = _link_above(lines, at, site)
        if url is None or at + 1 >= len(lines) or not lines[at + 1].strip():
            continue
        lines[at] = ""
        if _kind(url) != "paper":
            continue  # a preview of a repository, a blog, a docs page: its title names no paper
        title = lines[at + 1].strip()
        # an item of its own (a bullet): the preview's description below it is not its text
        lines[at + 1] = f"- {title}" if url in title else f"- {title} {url}"
    return "\n".join(lines)


def _kind(url: str) -> str:
    try:
        return classify_url(url)
    except ValueError:
        return "other"


def _link_above(lines: list[str], at: int, site: str) -> str | None:
    """The last link to ``site`` in the few lines above line ``at``."""
    for i in range(at - 1, max(-1, at - 1 - _LOOK_BACK), -1):
        for url in reversed(_URL_RE.findall(lines[i])):
            host = (urlsplit(url).hostname or "").lower()
            if host == site or host.endswith("." + site) or host.removeprefix("www.") == site.removeprefix("www."):
                return url.rstrip(".,;:")
    return None
