#!/usr/bin/env python3
"""Small editors used by the cases' setup.sh to damage a real base project in place.

  edit.py part KEY PART VALUE       set line `PART: VALUE` of sidecar entry KEY (insert if absent)
  edit.py top NAME VALUE            set top-level sidecar line `NAME: VALUE` (insert after version)
  edit.py entries TEXT              replace the sidecar's whole `entries:` block with TEXT
  edit.py bibfield KEY TEXT         add TEXT (one or more lines) before the closing } of KEY
  edit.py bibafter KEY TEXT         add TEXT right after the closing } of entry KEY
  edit.py bibbefore KEY TEXT        add TEXT right before the line `@type{KEY,`
  edit.py bibappend TEXT            append TEXT at the end of library.bib

A VALUE or TEXT of the form @path is read from that file (bytes kept as they are).
Run in the project folder. Standard library only.
"""
import re
import sys
from pathlib import Path

BIB = Path("refs/library.bib")
SIDE = Path("refs/library.yaml")


def arg(v: str) -> bytes:
    if v.startswith("@") and Path(v[1:]).exists():
        return Path(v[1:]).read_bytes()
    return v.encode("utf-8")


def entry_span(lines, key):
    start = None
    for i, ln in enumerate(lines):
        if ln.rstrip(b"\r\n") == b"  " + key + b":":
            start = i
            continue
        if start is not None and i > start and not ln.startswith(b"    "):
            return start, i
    if start is None:
        sys.exit(f"no sidecar entry {key!r}")
    return start, len(lines)


def part(key, name, value):
    lines = SIDE.read_bytes().splitlines(keepends=True)
    s, e = entry_span(lines, key)
    new = b"    " + name + b": " + value + b"\n"
    for i in range(s + 1, e):
        if lines[i].startswith(b"    " + name + b":"):
            j = i + 1
            while j < e and lines[j].startswith(b"      "):
                j += 1
            lines[i:j] = [new]
            break
    else:
        lines.insert(s + 1, new)
    SIDE.write_bytes(b"".join(lines))


def top(name, value):
    lines = SIDE.read_bytes().splitlines(keepends=True)
    new = name + b": " + value + b"\n"
    for i, ln in enumerate(lines):
        if ln.startswith(name + b":"):
            lines[i] = new
            break
    else:
        idx = next(i for i, ln in enumerate(lines) if ln.startswith(b"version:"))
        lines.insert(idx + 1, new)
    SIDE.write_bytes(b"".join(lines))


def entries(text):
    lines = SIDE.read_bytes().splitlines(keepends=True)
    s = next(i for i, ln in enumerate(lines) if ln.startswith(b"entries:"))
    e = s + 1
    while e < len(lines) and (lines[e].startswith(b" ") or lines[e].strip() == b""):
        e += 1
    lines[s:e] = [text if text.endswith(b"\n") else text + b"\n"]
    SIDE.write_bytes(b"".join(lines))


def bib_entry(data, key):
    m = re.search(rb"^@\w+\{" + re.escape(key) + rb",\s*$", data, re.M)
    if not m:
        sys.exit(f"no bib entry {key!r}")
    end = data.index(b"\n}\n", m.end()) + 1  # index of the closing brace line
    return m.start(), end


def main():
    op, *rest = sys.argv[1:]
    if op == "part":
        part(rest[0].encode(), rest[1].encode(), arg(rest[2]))
    elif op == "top":
        top(rest[0].encode(), arg(rest[1]))
    elif op == "entries":
        entries(arg(rest[0]))
    elif op in ("bibfield", "bibafter", "bibbefore"):
        data = BIB.read_bytes()
        s, close = bib_entry(data, rest[0].encode())
        text = arg(rest[1])
        if op == "bibfield":
            data = data[:close] + text + data[close:]
        elif op == "bibafter":
            data = data[:close + 2] + text + data[close + 2:]
        else:
            data = data[:s] + text + data[s:]
        BIB.write_bytes(data)
    elif op == "bibappend":
        BIB.write_bytes(BIB.read_bytes() + arg(rest[0]))
    else:
        sys.exit(f"unknown op {op}")


if __name__ == "__main__":
    main()
