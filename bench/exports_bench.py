"""Slack and Notion exports: what reading them through their transcribers costs.

Prints, for a Slack day file of N messages (every message a new paper: a titled link, a
title with its authors and link over three lines, a bot's link preview, a message with only
rich-text blocks, a join) and a Notion page of N blocks (nested bullets, toggles, callouts,
bookmarks), in the shapes the apps export:

  - the time to extract the export, and the time to extract the baseline in the same run:
    the transcript the reader makes of it, saved as a ``.txt`` notes file (same words,
    same papers). Target: the export costs at most 2x its transcript, i.e. the JSON/HTML
    reading adds at most as much as the notes reading itself;
  - that both give the same number of mentions (the transcript is what the rules read);
  - throughput in MB of export per CPU-second, and how time grows from N to 8N (target:
    linear, time per message at 8N within 2x of that at N).

Run: .venv/bin/python bench/exports_bench.py  (--quick for smaller sizes).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

_spec = importlib.util.spec_from_file_location("extract_bench", REPO / "bench" / "extract_bench.py")
assert _spec is not None and _spec.loader is not None
_extract_bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_extract_bench)
Notes = _extract_bench._Notes


def slack_day(n: int, seed: int = 7) -> str:
    """A day file of ``n`` messages, written as Slack writes them (indent 4, ``\\/``)."""
    g = Notes(seed)
    messages: list[dict] = []
    for i in range(n):
        ts = f"{1709629200 + i}.{i % 1000000:06d}"
        t, a, url = g.title(), g.authors(), g.url()
        kind = i % 5
        if kind == 0:
            messages.append({"client_msg_id": f"{i:08x}-0000-4000-8000-000000000000", "type": "message", "user": "U02ANA",
                             "text": f"reading: <{url}|{t}> by {', '.join(a)}", "ts": ts, "team": "T01ABCDEF"})
        elif kind == 1:
            messages.append({"type": "message", "user": "U02BEN", "text": f"{t}\n{', '.join(a)}\n<{url}>", "ts": ts,
                             "edited": {"user": "U02BEN", "ts": ts}})
        elif kind == 2:
            arxiv = g.arxiv()
            messages.append({"type": "message", "subtype": "bot_message", "bot_id": "B03FEED", "text": "", "ts": ts,
                             "attachments": [{"title": f"[{arxiv}] {t}", "title_link": f"https://arxiv.org/abs/{arxiv}",
                                              "text": g.sentence(), "service_name": "arXiv.org", "id": 1}]})
        elif kind == 3:
            messages.append({"type": "message", "user": "U02ANA", "text": "", "ts": ts, "blocks": [{
                "type": "rich_text", "block_id": f"b{i}", "elements": [{"type": "rich_text_list", "style": "bullet", "indent": 0,
                    "elements": [{"type": "rich_text_section", "elements": [{"type": "text", "text": f"{t} "},
                                                                             {"type": "link", "url": url}]}]}]}]})
        else:
            messages.append({"type": "message", "subtype": "channel_join", "user": "U09NEW", "ts": ts,
                             "text": "<@U09NEW> has joined the channel"})
    return json.dumps(messages, indent=4).replace("/", "\\/")


def notion_page(n: int, seed: int = 11) -> str:
    """A page of ``n`` blocks, most of it on one line as Notion writes it."""
    g = Notes(seed)
    blocks = []
    for i in range(n):
        t, a, url = g.title(), g.authors(), g.url()
        kind = i % 4
        if kind == 0:
            blocks.append(f'<ul id="u{i}" class="bulleted-list"><li style="list-style-type:disc">{t}<ul class="bulleted-list">'
                          f'<li style="list-style-type:circle">{", ".join(a)}</li></ul><ul class="bulleted-list">'
                          f'<li style="list-style-type:circle"><a href="{url}">{url}</a></li></ul></li></ul>')
        elif kind == 1:
            blocks.append(f'<ul id="t{i}" class="toggle"><li><details open=""><summary>{t}</summary>'
                          f'<p class="">Authors: {", ".join(a)}</p><p class="">{g.sentence()}</p></details></li></ul>')
        elif kind == 2:
            blocks.append(f'<figure class="callout" style="white-space:pre-wrap;display:flex" id="c{i}"><div style="font-size:1.5em">'
                          f'<span class="icon">💡</span></div><div style="width:100%">{g.remark()}</div></figure>')
        else:
            blocks.append(f'<figure id="f{i}"><a href="{url}" class="bookmark source"><div class="bookmark-info"><div class="bookmark-text">'
                          f'<div class="bookmark-title">{t}</div><div class="bookmark-description">{g.sentence()}</div></div>'
                          f'<div class="bookmark-href">{url}</div></div></a></figure>')
    return ('<html><head><meta http-equiv="Content-Type" content="text/html; charset=utf-8"/><title>Notes</title>'
            '<style>\nbody { line-height: 1.5; }\n</style></head><body><article id="a" class="page sans"><header>'
            '<h1 class="page-title">Conference notes</h1></header><div class="page-body">' + "".join(blocks)
            + "</div></article></body></html>")


def _extract(path: Path, root: Path) -> tuple[float, int]:
    """CPU seconds and mentions of one extraction, with the per-line caches emptied first
    (the export and its transcript hold the same lines: neither may answer from the other)."""
    from citekit.notes import extract_paths
    from citekit.notes.memo import clear_all

    clear_all()
    start = time.process_time()
    result = extract_paths([path], root)
    return time.process_time() - start, len(result.mentions)


def _measure(name: str, text: str, root: Path, file_name: str, transcribe) -> tuple[float, float]:
    """(export seconds, transcript seconds), printed with the mention counts."""
    folder = root / "notes" / "channel"
    folder.mkdir(parents=True, exist_ok=True)
    export = folder / file_name
    export.write_text(text, encoding="utf-8")
    baseline = folder / (file_name + ".transcript.txt")
    baseline.write_text(transcribe(text, f"notes/channel/{file_name}").text, encoding="utf-8")
    export_s, export_n = min((_extract(export, root) for _ in range(2)), key=lambda r: r[0])
    base_s, base_n = min((_extract(baseline, root) for _ in range(2)), key=lambda r: r[0])
    mb = len(text.encode("utf-8")) / 1e6
    print(f"  {name:<28} {mb:6.2f} MB  export {export_s:6.2f} s ({mb / export_s:5.2f} MB/s, {export_n} mentions)"
          f"  transcript .txt {base_s:6.2f} s ({base_n} mentions)  ratio {export_s / base_s:4.2f}  "
          f"{'same mentions' if export_n == base_n else 'MENTIONS DIFFER'}")
    export.unlink()
    baseline.unlink()
    return export_s, base_s


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes")
    args = parser.parse_args()
    from citekit.notes.formats.notion import transcribe as notion_transcribe
    from citekit.notes.formats.slack import transcribe as slack_transcribe

    sizes = (250, 2000) if args.quick else (1000, 8000)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        print("Slack day file (export vs its own transcript as .txt, CPU seconds, best of 2)")
        slack = [_measure(f"{n:,} messages", slack_day(n), root, "2024-03-05.json", slack_transcribe) for n in sizes]
        print("Notion page")
        notion = [_measure(f"{n:,} blocks", notion_page(n), root, f"Notes {'0' * 32}.html", notion_transcribe) for n in sizes]
    growth = sizes[1] / sizes[0]
    for name, runs in (("Slack", slack), ("Notion", notion)):
        per_small, per_large = runs[0][0] / sizes[0], runs[1][0] / sizes[1]
        ratio = max(e / b for e, b in runs)
        print(f"{name}: time per item {sizes[0]:,} -> {sizes[1]:,} ({growth:.0f}x): x{per_large / per_small:.2f} "
              f"(target <= 2: linear); export/transcript at most {ratio:.2f} (target <= 2)")


if __name__ == "__main__":
    main()
