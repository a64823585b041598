"""Mentions an online sync looked up and left pending, so the next sync need not ask again.

The bundled notes, like most notes, hold a few papers no service knows (an abstract with
no title, a title the services never published). Each online sync used to look them up
again (from the lookup cache: no request, but every source's matching again) although
nothing they depend on had changed. A group of mentions is remembered here when its
lookup found nothing at all (no record, no version) and it was left pending; until the
first service answer that sync relied on is due (:attr:`LookupCache.valid_until`), a
sync with the same configuration, environment and citekit folds the same group as an
offline sync would, which gives the same result: nothing found online adds nothing to
what the notes say (the work keeps the reason the lookup gave, for the report and an
entry it may yet land on). A changed notes block is another group (its text is the
memo's key) and is looked up at once.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from contextlib import suppress
from pathlib import Path
from typing import TYPE_CHECKING, Any

from citekit.core.cachefile import replace_quietly
from citekit.library.lock import state_dir

if TYPE_CHECKING:
    from citekit.core.config import Config
    from citekit.core.resolution import Mention, Work

FORMAT = 2


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


def remembered(cfg: Config) -> dict[str, tuple[float, str, str]]:
    """group key -> (until when its "found nothing" holds, the reason its lookup gave, what
    a page the notes link said: :attr:`Work.page_note`), for this configuration; empty when
    the memo is missing, damaged or of another configuration."""
    try:
        stored = json.loads(memo_path(cfg.refs_dir).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(stored, dict) or stored.get("context") != context(cfg) or not isinstance(stored.get("groups"), dict):
        return {}
    now = time.time()
    out: dict[str, tuple[float, str, str]] = {}
    for key, value in stored["groups"].items():
        if (isinstance(value, list) and len(value) == 3 and isinstance(value[0], (int, float))
                and all(isinstance(v, str) for v in value[1:]) and value[0] > now):
            out[key] = (float(value[0]), value[1], value[2])
    return out


def found_nothing(work: Work) -> bool:
    """Whether looking ``work`` up gave nothing an offline fold lacks."""
    return work.chosen is None and not work.versions and not work.runners_up and not work.unasked and not work.warnings


def remember(cfg: Config, groups: dict[str, tuple[float, str, str]]) -> None:
    """Store ``groups`` (key -> (until, reason, page note)); an empty memo removes the file."""
    path = memo_path(cfg.refs_dir)
    if not groups:
        with suppress(OSError):
            path.unlink()
        return
    data: dict[str, Any] = {"context": context(cfg), "groups": {k: list(v) for k, v in groups.items()}}
    replace_quietly(path, json.dumps(data, sort_keys=True).encode("utf-8"))
