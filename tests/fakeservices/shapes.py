"""Shapes of JSON and Atom answers, to hold a fake's answer against a recorded one.

Two answers have the same shape when their envelopes have the same keys, every key of a
record the fake sends is a key some recorded record has, and each value has the recorded
type (a recorded ``null`` stands for any type; ints and floats are both numbers). Arrays
are compared element by element against every recorded element.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float)):
        return "number"
    return {dict: "object", list: "array", str: "string", type(None): "null"}[type(value)]


def json_shape_differences(fake: Any, recorded: list[Any], path: str = "", *,
                           records: frozenset[str] = frozenset()) -> list[str]:
    """Where ``fake`` leaves the shape of the ``recorded`` alternatives.

    ``records`` are the paths (``message.items[]``) whose objects are records: the fake may
    leave out keys there (a world paper knows less than a real record), not anywhere else.
    """
    known = [r for r in recorded if r is not None]
    if not known:
        return []
    kinds = {_kind(r) for r in known}
    if _kind(fake) not in kinds | ({"null"} if len(known) < len(recorded) else set()):
        return [f"{path or '.'}: {_kind(fake)}, recorded {'/'.join(sorted(kinds))}"]
    out: list[str] = []
    if isinstance(fake, dict):
        objects = [r for r in known if isinstance(r, dict)]
        for key, value in fake.items():
            alternatives = [o[key] for o in objects if key in o]
            if not alternatives:
                out.append(f"{path}.{key}: not in the recorded answer")
            else:
                out += json_shape_differences(value, alternatives, f"{path}.{key}".lstrip("."), records=records)
        if path not in records:
            always = set.intersection(*(set(o) for o in objects))
            out += [f"{path}.{key}: recorded, missing" for key in sorted(always - set(fake))]
    elif isinstance(fake, list):
        elements = [e for r in known if isinstance(r, list) for e in r]
        for value in fake[:50] if elements else []:
            out += json_shape_differences(value, elements, f"{path}[]", records=records)
    return out


def xml_elements(text: str) -> set[str]:
    """Each element of an XML document as ``parent/child`` tag paths (namespaces spelled out)."""
    root = ET.fromstring(text)
    out: set[str] = set()

    def walk(node: ET.Element, prefix: str) -> None:
        here = f"{prefix}/{node.tag}"
        out.add(here + "".join(f" @{a}" for a in sorted(node.attrib)))
        for child in node:
            walk(child, here)

    walk(root, "")
    return out
