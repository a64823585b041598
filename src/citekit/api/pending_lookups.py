"""Mentions an online sync looked up and left unresolved, and when they are asked again.

The bundled notes, like most notes, hold a few papers no service knows (an abstract with
no title, a title the services never published). Each online sync used to look them up
again although nothing they depend on had changed. A group of mentions is remembered here
when its lookup found nothing at all (no record, no version), pending or notes-only;
until its next try is due, a sync with the same configuration, environment and citekit
folds the same group as an offline sync would, which gives the same result: nothing found
online adds nothing to what the notes say (the work keeps the reason the lookup gave, for
the report and an entry it may yet land on). A changed notes block is another group (its
text is the memo's key) and is looked up at once.

Nothing found is asked again on a schedule, not on every sync: after one day, then three,
a week, and a month from then on (:data:`FOUND_NOTHING_WAITS`), as a mail client or a
package manager backs off from an answer that keeps being "no". A sync that could reach
no service at all (no network) remembers the groups it tried for a short while
(:data:`UNREACHABLE_WAITS`: 15 minutes, then an hour, then four), so that the next sync
on a train makes no request and costs what ``sync --offline`` costs (a sync whose own
lookups of new papers were all answered looks them up at once: the network is back).
``sync --retry`` (or ``--refresh``) asks now; a changed notes block is another group and
is asked at once.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from contextlib import suppress
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from citekit.core.cachefile import replace_quietly
from citekit.library.lock import state_dir

if TYPE_CHECKING:
    from citekit.core.config import Config
    from citekit.core.resolution import Mention, Work

FORMAT = 3
#: how long a group whose lookup found nothing waits, by how many lookups in a row found nothing
FOUND_NOTHING_WAITS = (24 * 3600.0, 3 * 24 * 3600.0, 7 * 24 * 3600.0, 30 * 24 * 3600.0)
#: how long a group no service could be asked about waits (no network), by tries in a row
UNREACHABLE_WAITS = (15 * 60.0, 3600.0, 4 * 3600.0)
#: why a group waits: its lookup found nothing, or no service could be reached
NOTHING, UNREACHABLE = "nothing", "unreachable"


@dataclass(frozen=True)
class Scheduled:
    """One group's last lookup: when it is asked again, why it waits, how many lookups in a
    row ended that way, and what the work said (its reason and :attr:`Work.page_note`)."""

    until: float
    reason: str
    page: str = ""
    tries: int = 1
    why: str = NOTHING

    def due(self, now: float) -> bool:
        return self.until <= now

    def then(self, why: str, reason: str, page: str, now: float) -> Scheduled:
        """The schedule after one more lookup that ended for ``why`` at ``now``."""
        tries = self.tries + 1 if why == self.why else 1
        return Scheduled(now + wait(why, tries), reason, page, tries, why)


def wait(why: str, tries: int) -> float:
    """Seconds before the next lookup of a group whose ``tries`` last lookups ended for ``why``."""
    waits = UNREACHABLE_WAITS if why == UNREACHABLE else FOUND_NOTHING_WAITS
    return waits[min(max(tries, 1), len(waits)) - 1]


def first(why: str, reason: str, page: str, now: float) -> Scheduled:
    """The schedule of a group looked up for the first time (or after a success)."""
    return Scheduled(now + wait(why, 1), reason, page, 1, why)


def memo_path(refs_dir: Path) -> Path:
    return state_dir(refs_dir) / f"{Path(refs_dir).name}-pending-lookups.json"


def context(cfg: Config) -> str:
    """What a lookup depends on besides the mentions: the configuration (sources, pins,
    precedence), the ``CITEKIT_*`` environment (service addresses) and citekit's files."""
    from citekit.api.sync_stamp import _code_stats

    env = sorted((k, v) for k, v in os.environ.items() if k.startswith("CITEKIT_"))
    return repr((FORMAT, json.dumps(cfg.data, sort_keys=True, default=repr), env, _code_stats()))


def group_key(group: list[Mention]) -> str:
    """The notes block(s) of a group, as extracted (where they are is not part of it: a
    block moved down by a line above it is the same block)."""
    parts = []
    for m in group:
        data = m.to_json()
        data.pop("location", None)
        parts.append(data)
    text = json.dumps(parts, sort_keys=True, ensure_ascii=False, default=repr)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def remembered(cfg: Config) -> dict[str, Scheduled]:
    """group key -> its :class:`Scheduled` lookup, due or not (a due one still counts the
    tries in a row), for this configuration; empty when the memo is missing, damaged or of
    another configuration."""
    try:
        stored = json.loads(memo_path(cfg.refs_dir).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(stored, dict) or stored.get("context") != context(cfg) or not isinstance(stored.get("groups"), dict):
        return {}
    out: dict[str, Scheduled] = {}
    for key, value in stored["groups"].items():
        scheduled = _read(value)
        if scheduled is not None:
            out[key] = scheduled
    return out


def _read(value: Any) -> Scheduled | None:
    """One stored group, or None when it is not one this version wrote."""
    if not isinstance(value, dict):
        return None
    until, tries, why = value.get("until"), value.get("tries"), value.get("why")
    texts = [value.get("reason"), value.get("page")]
    if (not isinstance(until, (int, float)) or not isinstance(tries, int) or why not in (NOTHING, UNREACHABLE)
            or not all(isinstance(t, str) for t in texts)):
        return None
    return Scheduled(float(until), texts[0], texts[1], tries, why)


def found_nothing(work: Work) -> bool:
    """Whether looking ``work`` up gave nothing an offline fold lacks."""
    return work.chosen is None and not work.versions and not work.runners_up and not work.unasked and not work.warnings


def remember(cfg: Config, groups: dict[str, Scheduled]) -> None:
    """Store ``groups``; an empty memo removes the file."""
    path = memo_path(cfg.refs_dir)
    if not groups:
        with suppress(OSError):
            path.unlink()
        return
    data: dict[str, Any] = {"context": context(cfg), "groups": {k: asdict(v) for k, v in groups.items()}}
    replace_quietly(path, json.dumps(data, sort_keys=True).encode("utf-8"))


def when(at: float, now: float) -> str:
    """``at`` as a reader wants it in a one-line note: the time today, else the date too."""
    here, today = time.localtime(at), time.localtime(now)
    return time.strftime("%H:%M" if here[:3] == today[:3] else "%Y-%m-%d %H:%M", here)


def note_unreached(cfg: Config, groups: list[list[Mention]], reason: str) -> None:
    """Schedule ``groups`` as works no service could be reached about a moment ago (``add``
    tried them itself before its sync), so that the next plain sync does not try them at
    once again; what is stored for other groups stays."""
    if not groups:
        return
    now = time.time()
    stored = remembered(cfg)
    for group in groups:
        key = group_key(group)
        before = stored.get(key)
        stored[key] = before.then(UNREACHABLE, reason, "", now) if before is not None else first(UNREACHABLE, reason, "", now)
    remember(cfg, stored)
