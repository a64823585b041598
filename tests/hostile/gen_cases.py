#!/usr/bin/env python3
"""Write cases/NN-name/ (overlay files, setup.sh, case.yaml). Re-run to regenerate.

Kept beside the cases so the byte patterns (bombs, long paragraphs, odd file names) are
reproducible instead of hand-typed. Standard library + PyYAML only.
"""
import json
import os
import shutil
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
OUT = Path(os.environ.get("CASES_OUT", HERE / "cases"))
EDIT = 'python3 "$CASE_TOOLS/tools/edit.py"'
K1, K2, K3 = "alimisis2026why", "artemev2026exploiting", "burgin2026beyond"
PAPER = "- **Sparse Widget Descent for Tiny Networks** — Alice Zhang, Bob Li\n"
CASES = []
OK = {"exit_in": [0, 1, 2], "no_traceback": True}


def case(name, finding, commands, expect, files=None, setup=None, **extra):
    CASES.append(dict(name=name, finding=finding, commands=commands, expect=expect,
                      files=files or {}, setup=setup, extra=extra))


# ------------------------------------------------------------------ 1. journal paths
def journal(state, files):
    return json.dumps({"files": files, "state": state}).encode()


TEMP = "refs/.citekit-new-0badc0de-library.bib"
TEMP_BYTES = b"% attacker bytes\n@misc{evil, title={evil}}\n"
SHA_TEMP = f"@SHA256:proj/{TEMP}@"

case("journal-commit-absolute-target", 1, [["list"]],
     {**OK, "outside_untouched": True},
     {TEMP: TEMP_BYTES, "refs/.citekit-journal": journal("commit", [
         {"target": "@VICTIM@/bashrc", "temp": f"@PROJECT@/{TEMP}", "sha256": SHA_TEMP}])})
case("journal-commit-refs-dotdot-target", 1, [["show", K1]],
     {**OK, "outside_untouched": True},
     {TEMP: TEMP_BYTES, "refs/.citekit-journal": journal("commit", [
         {"target": "refs/../../victim/bashrc", "temp": TEMP, "sha256": SHA_TEMP}])})
case("journal-commit-dotdot-from-refs", 1, [["tags"]],
     {**OK, "outside_untouched": True},
     {TEMP: TEMP_BYTES, "refs/.citekit-journal": journal("commit", [
         {"target": "../../victim/bashrc", "temp": ".citekit-new-0badc0de-library.bib",
          "sha256": SHA_TEMP}])})
case("journal-prepare-deletes-dotdot-temp", 1, [["tags"]],
     {**OK, "outside_untouched": True},
     {"refs/.citekit-journal": journal("prepare", [
         {"target": "refs/library.bib", "temp": "refs/../../victim/notes.md"}])})
case("journal-prepare-temp-is-outside-folder", 1, [["export", "-o", "out.bib"]],
     {**OK, "outside_untouched": True},
     {"refs/.citekit-journal": journal("prepare", [
         {"target": "@PROJECT@/refs/library.bib", "temp": "@VICTIM@/dir"}])})
case("journal-commit-moves-outside-temp-in", 1, [["list", "--json"]],
     {**OK, "outside_untouched": True, "unchanged": ["refs/library.bib"]},
     {"refs/.citekit-journal": journal("commit", [
         {"target": "@PROJECT@/refs/library.bib", "temp": "@VICTIM@/sha-source.txt",
          "sha256": "@SHA256:victim/sha-source.txt@"}])})
case("journal-target-through-symlinked-folder", 1, [["doctor"]],
     {**OK, "outside_untouched": True},
     {TEMP: TEMP_BYTES, "refs/.citekit-journal": journal("commit", [
         {"target": "refs/out/bashrc", "temp": TEMP, "sha256": SHA_TEMP}])},
     'ln -s "$VICTIM" refs/out\n')
case("journal-temp-is-symlink-to-victim", 1, [["list"]],
     {**OK, "outside_untouched": True, "unchanged": ["refs/library.bib"]},
     {"refs/.citekit-journal": journal("commit", [
         {"target": "@PROJECT@/refs/library.bib",
          "temp": "@PROJECT@/refs/.citekit-new-1eaf1eaf-library.bib",
          "sha256": "@SHA256:victim/bashrc@"}])},
     'ln -s "$VICTIM/bashrc" refs/.citekit-new-1eaf1eaf-library.bib\n')
case("journal-windows-backslash-target", 1, [["list"]],
     {**OK, "outside_untouched": True, "unchanged": ["refs/library.bib"],
      "absent": ["..\\..\\victim\\bashrc", "refs/..\\..\\victim\\bashrc",
                 "..\\victim\\bashrc", "refs/..\\victim\\bashrc"]},
     {TEMP: TEMP_BYTES, "refs/.citekit-journal": journal("commit", [
         {"target": "..\\..\\victim\\bashrc", "temp": TEMP, "sha256": SHA_TEMP}])})
case("journal-windows-drive-target", 1, [["show", K2]],
     {**OK, "outside_untouched": True,
      "absent": ["C:\\Users\\victim\\bashrc", "refs/C:\\Users\\victim\\bashrc"]},
     {TEMP: TEMP_BYTES, "refs/.citekit-journal": journal("commit", [
         {"target": "C:\\Users\\victim\\bashrc", "temp": TEMP, "sha256": SHA_TEMP}])})
case("journal-prepare-deletes-other-refs-file", 1, [["tags"]],
     {**OK, "unchanged": ["refs/READ-ME-FIRST.txt"]},
     {"refs/READ-ME-FIRST.txt": b"The lab's notes about this library; not citekit's.\n",
      "refs/.citekit-journal": journal("prepare", [
          {"target": "@PROJECT@/refs/library.bib",
           "temp": "@PROJECT@/refs/READ-ME-FIRST.txt"}])})
case("journal-commit-overwrites-config", 1, [["doctor", "--fix"]],
     {**OK, "unchanged": ["citekit.yaml"]},
     {TEMP: b"paths: {notes: notes, refs: refs}\nsources: {cache_dir: /tmp}\n",
      "refs/.citekit-journal": journal("commit", [
          {"target": "@PROJECT@/citekit.yaml", "temp": f"@PROJECT@/{TEMP}",
           "sha256": SHA_TEMP}])})
case("journal-doctor-fix-sets-aside-outside-temp", 1,
     [{"args": ["doctor", "--fix"]}, {"args": ["doctor"], "expect": {"exit_in": [0]}}],
     {**OK, "outside_untouched": True, "absent": ["refs/.citekit-journal"]},
     {"refs/.citekit-journal": journal("prepare", [
         {"target": "@PROJECT@/refs/library.bib", "temp": "@VICTIM@/bashrc"}])})
case("journal-nul-byte-in-path", 1, [["list"]],
     {**OK, "outside_untouched": True},
     {"refs/.citekit-journal": journal("prepare", [
         {"target": "refs/library.bib", "temp": "refs/x\u0000/../../../victim/bashrc"}])})
case("journal-non-normalised-absolute-in-sync", 1, [["sync", "--offline"]],
     {**OK, "outside_untouched": True},
     {TEMP: TEMP_BYTES, "refs/.citekit-journal": journal("commit", [
         {"target": "@TMP@/proj/refs/../.././victim//bashrc", "temp": f"@PROJECT@/{TEMP}",
          "sha256": SHA_TEMP}])})
case("config-refs-path-outside-project", 1, [["sync", "--offline"]],
     {**OK, "outside_untouched": True},
     {"citekit.yaml": b"paths: {notes: notes, refs: ../victim/stolen-refs}\n"})
case("config-cache-dir-outside-project", 1, [["sync"]],
     {**OK, "outside_untouched": True},
     {"citekit.yaml": b"paths: {notes: notes, refs: refs}\n"
                      b"sources: {cache_dir: ../victim/cache, retries: 0, timeout: 2}\n"})

# ------------------------------------------------------------------ 2. file names
NAME_STEPS = [{"args": ["sync", "--offline"], "expect": {"exit_in": [0, 1]}},
              {"rm": ".citekit"},
              {"args": ["list"], "expect": {"exit_in": [0]}},
              {"args": ["doctor"], "expect": {"exit_in": [0]}}]
NAME_EXPECT = {"no_traceback": True, "utf8_files": ["refs/library.yaml", "refs/library.bib"],
               "yaml_not_contains": ["\\udc"]}


def name_case(name, pyname):
    setup = ("python3 - <<'EOF'\nimport os\n"
             f"p = os.path.join(b'notes', {pyname!r})\n"
             "os.makedirs(os.path.dirname(p), exist_ok=True)\n"
             f"open(p, 'wb').write({PAPER.encode()!r})\nEOF\n")
    case(name, 2, NAME_STEPS, NAME_EXPECT, setup=setup)


name_case("name-latin1-byte", b"caf\xe9 reading.md")
name_case("name-shift-jis", b"\x83\x81\x83\x82.txt")
name_case("name-non-utf8-folder", b"\xff\xfe-folder/paper.md")
name_case("name-overlong-utf8-slash", b"x\xc0\xafy.md")
name_case("name-encoded-surrogate-bytes", b"\xed\xa0\x80.md")
name_case("name-newline-and-quote", 'a"b\nc.md'.encode())
name_case("name-line-separator-u2028", "line\u2028sep.md".encode())
name_case("name-ends-like-a-line-number", b"talk.md:7.md")

# ------------------------------------------------------------------ 3. response size
SVC_CFG = (b"paths: {notes: notes, refs: refs}\n"
           b"sources: {enabled: [%s], retries: 0, timeout: 20, deadline: 120}\n")
DOI_NOTE = PAPER + "  - doi: 10.5555/b22.widget\n"
SIZE_EXPECT = {"exit_in": [0, 1, 2], "no_traceback": True, "finishes_within_s": 90,
               "utf8_files": ["refs/library.yaml"]}
case("service-crossref-streams-700mb", 3, [["sync"]], SIZE_EXPECT,
     {"citekit.yaml": SVC_CFG % b"crossref", "notes/w.md": DOI_NOTE.encode()},
     service={"kind": "stream", "stream_mb": 700}, memory_mb=2048, timeout_s=150)
case("service-gzip-bomb-1500mb", 3, [["sync"]], SIZE_EXPECT,
     {"citekit.yaml": SVC_CFG % b"dblp", "notes/w.md": PAPER.encode()},
     service={"kind": "gzip_bomb", "inflated_mb": 1500}, memory_mb=2048, timeout_s=150)
case("service-dblp-declared-huge-length", 3, [["sync"]], SIZE_EXPECT,
     {"citekit.yaml": SVC_CFG % b"dblp", "notes/w.md": PAPER.encode()},
     service={"kind": "stream", "stream_mb": 700, "declare_length": True},
     memory_mb=2048, timeout_s=150)
case("service-conference-list-900mb", 3, [["sync"]], SIZE_EXPECT,
     {"citekit.yaml": SVC_CFG % b"conferences",
      "notes/w.md": ("# ICML 2026\n\n" + PAPER.rstrip("\n") +
                     "\n  - URL: https://icml.cc/virtual/2026/poster/99999\n").encode()},
     service={"kind": "stream", "stream_mb": 900}, memory_mb=2048, timeout_s=150)

# ------------------------------------------------------------------ 4. empty / wrong-shaped sidecar
SHAPE_STEPS = [{"args": ["list"], "expect": {"exit_in": [2], "stderr_mentions": ["library.yaml"]}},
               {"args": ["doctor"], "expect": {"exit_in": [1], "stdout_not_contains": ["all good"]}},
               {"args": ["tag", K1, "+b22"], "expect": {"exit_in": [2]}},
               {"args": ["sync", "--offline"], "expect": {"exit_in": [2]}}]
SHAPE_EXPECT = {"no_traceback": True, "unchanged": ["refs/library.yaml", "refs/library.bib"]}
HEAD = (b"# citekit sidecar: what BibTeX cannot hold (status, ids, tags, summaries, provenance).\n"
        b"# citekit-sidecar: 3\n")
case("sidecar-comments-only", 4, SHAPE_STEPS, SHAPE_EXPECT,
     {"refs/library.yaml": HEAD + b"# end of citekit sidecar\n"})
case("sidecar-entries-is-a-list", 4, SHAPE_STEPS, SHAPE_EXPECT,
     setup=f"{EDIT} entries 'entries: [{K1}, {K2}, {K3}]'\n")
case("sidecar-entries-is-a-string", 4, SHAPE_STEPS, SHAPE_EXPECT,
     setup=f"{EDIT} entries 'entries: \"see library.bib\"'\n")
case("sidecar-document-is-a-list", 4, SHAPE_STEPS, SHAPE_EXPECT,
     {"refs/library.yaml": HEAD + b"- " + K1.encode() + b"\n- " + K2.encode() +
      b"\n# end of citekit sidecar\n"})
case("sidecar-entries-null-checksum-kept", 4, SHAPE_STEPS, SHAPE_EXPECT,
     setup=f"{EDIT} entries 'entries:'\n")
case("sidecar-whitespace-only", 4, SHAPE_STEPS, SHAPE_EXPECT,
     {"refs/library.yaml": b"\n\n   \n\t\n"})
case("sidecar-scalar-document", 4, SHAPE_STEPS, SHAPE_EXPECT,
     {"refs/library.yaml": b"42\n"})
case("sidecar-entries-empty-mapping", 4,
     [{"args": ["doctor"], "expect": {"exit_in": [1], "stdout_not_contains": ["all good"]}}],
     {"no_traceback": True},
     setup=f"{EDIT} entries 'entries: {{}}'\n")

# ------------------------------------------------------------------ 5. lone surrogates
def crossref_work(title, family="Zhang", container="Journal of Widgets"):
    return ('{"status": "ok", "message-type": "work", "message-version": "1.0.0", "message": '
            '{"DOI": "10.5555/b22.widget", "type": "journal-article", '
            f'"title": ["{title}"], "container-title": ["{container}"], '
            f'"author": [{{"given": "Alice", "family": "{family}", "sequence": "first"}}, '
            '{"given": "Bob", "family": "Li", "sequence": "additional"}], '
            '"issued": {"date-parts": [[2021, 3]]}, "created": {"date-parts": [[2021, 3, 1]]}}}'
            ).encode()


def crossref_list(work: bytes) -> bytes:
    """The same record as a search answer (a work-list envelope)."""
    msg = work[work.index(b'"message": {') + len(b'"message": '):-1]
    return (b'{"status": "ok", "message-type": "work-list", "message-version": "1.0.0", '
            b'"message": {"total-results": 1, "items-per-page": 5, "query": {"start-index": 0}, '
            b'"items": [' + msg + b']}}')


def crossref_service(work_file):
    """Crossref answers: a search gets a one-item list, a DOI lookup the work itself."""
    return {"routes": [[r"/works\?", work_file.replace(".json", "-list.json")]],
            "bodies": {"default": work_file}}


def crossref_files(name, work):
    return {f"service/{name}.json": work, f"service/{name}-list.json": crossref_list(work)}


SUR_STEPS = [{"args": ["sync"], "expect": {"exit_in": [0, 1]}},
             {"args": ["sync"], "expect": {"exit_in": [0, 1]}},
             {"args": ["list"], "expect": {"exit_in": [0]}}]
SUR_EXPECT = {"no_traceback": True, "utf8_files": ["refs/library.yaml", "refs/library.bib"]}
case("surrogate-low-half-in-title", 5, SUR_STEPS, SUR_EXPECT,
     {"citekit.yaml": SVC_CFG % b"crossref", "notes/w.md": DOI_NOTE.encode(),
      **crossref_files("work", crossref_work("Sparse Widget Descent for Tiny Networks \\udfff"))},
     service=crossref_service("service/work.json"))
OPENREVIEW = ('{"count": 1, "notes": [{"id": "WidgEt0001", "forum": "WidgEt0001", '
              '"invitations": ["ICML.cc/2026/Conference/-/Submission"], "content": {'
              '"title": {"value": "Sparse Widget Descent for Tiny Networks"}, '
              '"authors": {"value": ["Alice Zh\\ud83dang", "Bob Li"]}, '
              '"venue": {"value": "ICML 2026 Poster"}, "venueid": {"value": "ICML.cc/2026/Conference"}, '
              '"abstract": {"value": "We study widgets."}}}]}').encode()
case("surrogate-high-half-in-openreview-author", 5, SUR_STEPS, SUR_EXPECT,
     {"citekit.yaml": SVC_CFG % b"openreview",
      "notes/w.md": ("# ICML 2026\n\n" + PAPER).encode(), "service/or.json": OPENREVIEW},
     service={"bodies": {"default": "service/or.json"}})
ICML_LIST = ('{"count": 1, "next": null, "previous": null, "results": [{"id": 99999, '
             '"uid": "u99999", "name": "Sparse Widget Descent \\udc00\\ud800 for Tiny Networks", '
             '"authors": [{"id": 1, "fullname": "Alice Zhang", "url": "", "institution": "U"}, '
             '{"id": 2, "fullname": "Bob Li", "url": "", "institution": "U"}], '
             '"abstract": "We study widgets \\udfff here.", "topic": "", "keywords": [], '
             '"decision": "Accept (poster)", "eventtype": "Poster", "event_type": "Poster", '
             '"virtualsite_url": "/virtual/2026/poster/99999", "url": null, '
             '"paper_url": "https://openreview.net/forum?id=WidgEt0001", "visible": true}]}').encode()
case("surrogate-reversed-pair-in-conference-list", 5, SUR_STEPS, SUR_EXPECT,
     {"citekit.yaml": SVC_CFG % b"conferences",
      "notes/w.md": ("# ICML 2026\n\n" + PAPER.rstrip("\n") +
                     "\n  - URL: https://icml.cc/virtual/2026/poster/99999\n").encode(),
      "service/list.json": ICML_LIST},
     service={"routes": [[r"orals-posters", "service/list.json"]]})
DBLP = ('{"result": {"hits": {"@total": "1", "@sent": "1", "hit": [{"@score": "9", "info": '
        '{"authors": {"author": [{"text": "Alice Zhang"}, {"text": "Bob Li"}]}, '
        '"title": "Sparse Widget Descent for Tiny Networks.", "venue": "ICML \\udc80", '
        '"year": "2021", "type": "Conference and Workshop Papers", '
        '"key": "conf/icml/ZhangL21", "ee": "https://example.org/w"}}]}}}').encode()
case("surrogate-in-dblp-search-hit", 5, SUR_STEPS, SUR_EXPECT,
     {"citekit.yaml": SVC_CFG % b"dblp", "notes/w.md": PAPER.encode(), "service/s.json": DBLP},
     service={"bodies": {"default": "service/s.json"}})

DBLP_ONE_AUTHOR = ('{"result": {"hits": {"@total": "1", "@sent": "1", "hit": [{"@score": "9", "info": '
                   '{"authors": {"author": {"text": "Alice Zhang"}}, '
                   '"title": "Sparse Widget Descent \\ud800 for Tiny Networks.", "venue": "ICML", '
                   '"year": "2021", "type": "Conference and Workshop Papers", '
                   '"key": "conf/icml/Zhang21", "ee": "https://example.org/w"}}]}}}').encode()
case("surrogate-dblp-title-single-author-object", 5, SUR_STEPS, SUR_EXPECT,
     {"citekit.yaml": SVC_CFG % b"dblp",
      "notes/w.md": b"- **Sparse Widget Descent for Tiny Networks** \xe2\x80\x94 Alice Zhang\n",
      "service/s.json": DBLP_ONE_AUTHOR},
     service={"bodies": {"default": "service/s.json"}})
DBLP_EE = DBLP.replace(b'"venue": "ICML \\udc80"', b'"venue": "ICML"').replace(
    b'"ee": "https://example.org/w"', b'"ee": ["https://example.org/\\udbff\\udbff", "https://doi.org/10.5555/x"]')
case("surrogate-dblp-in-ee-list", 5, SUR_STEPS, SUR_EXPECT,
     {"citekit.yaml": SVC_CFG % b"dblp", "notes/w.md": PAPER.encode(), "service/s.json": DBLP_EE},
     service={"bodies": {"default": "service/s.json"}})

# ------------------------------------------------------------------ 6. macro bombs
def chain(prefix, levels, seed=b"xxxxxxxx", fan=2):
    lines = [b"@string{" + prefix + b"0 = {" + seed + b"}}\n"]
    for i in range(1, levels + 1):
        prev = prefix + str(i - 1).encode()
        lines.append(b"@string{" + prefix + str(i).encode() + b" = " +
                     b" # ".join([prev] * fan) + b"}\n")
    return b"".join(lines)


BOMB = {"exit_in": [1, 2], "no_traceback": True, "finishes_within_s": 60}
BOMB_X = dict(memory_mb=2048, timeout_s=120)
case("bomb-tripling-17-levels", 6, [["import", "x.bib"]],
     {**BOMB, "stderr_mentions": ["boom3"]},
     {"x.bib": chain(b"t", 17, fan=3) + b"@misc{boom3, title = t17, author = {A. Bomb}, year = 2020}\n"},
     **BOMB_X)
case("bomb-split-across-two-files", 6, [["import", "s.bib", "r.bib"]],
     {**BOMB, "stderr_mentions": ["boom2f"]},
     {"s.bib": chain(b"d", 30),
      "r.bib": b"@article{boom2f, title = d30, author = {B. Bomb}, journal = {J}, year = 2020}\n"},
     **BOMB_X)
case("bomb-in-strings-option", 6, [["import", "--strings", "macros.bib", "r.bib"]],
     {**BOMB, "stderr_mentions": ["boomopt"]},
     {"macros.bib": chain(b"q", 4, seed=b"y" * 64, fan=200),
      "r.bib": b"@misc{boomopt, note = q4, title = {T}, author = {C. Bomb}, year = 2020}\n"},
     **BOMB_X)
case("bomb-inside-library-bib", 6, [["list"]],
     {"exit_in": [0, 1, 2], "no_traceback": True, "finishes_within_s": 60,
      "stderr_mentions": ["boomlib"]},
     setup=("python3 - <<'EOF'\n"
            "import sys; sys.path.insert(0, '')\n"
            f"data = {chain(b'L', 30)!r} + b'@misc{{boomlib, title = L30, author = {{D. Bomb}}, year = 2020}}\\n'\n"
            "open('refs/library.bib', 'ab').write(b'\\n' + data)\nEOF\n"), **BOMB_X)
case("bomb-dedup-other-file", 6, [["dedup", "other.bib"]],
     {**BOMB, "stderr_mentions": ["boomdd"]},
     {"other.bib": chain(b"z", 28) +
      b"@misc{boomdd, title = {Bomb} # z28, author = {E. Bomb}, year = 2020}\n"}, **BOMB_X)
case("bomb-one-field-many-joins", 6, [["import", "wide.bib"]],
     {**BOMB, "stderr_mentions": ["boomwide"]},
     {"wide.bib": chain(b"w", 17) + b"@misc{boomwide, author = {F. Bomb}, year = 2020, title = " +
      b" # ".join([b"w17"] * 1500) + b"}\n"}, **BOMB_X)
case("macro-chain-30000-deep", 6, [["import", "deep.bib"]],
     {"exit_in": [0, 1, 2], "no_traceback": True, "finishes_within_s": 60},
     {"deep.bib": b"@string{c0 = {deep}}\n" +
      b"".join(b"@string{c%d = c%d}\n" % (i, i - 1) for i in range(1, 30001)) +
      b"@misc{deepchain, title = c30000, author = {G. Deep}, year = 2020}\n"}, **BOMB_X)

# ------------------------------------------------------------------ 7. @ lines inside values
AT_STEPS = [{"args": ["tag", K1, "+b22"], "expect": {"exit_in": [0]}},
            {"args": ["list", "--json"], "expect": {"exit_in": [0]}}]


def at_case(name, field_text, bogus, kept):
    p = f"/tmp/{name}.txt"
    case(name, 7, AT_STEPS,
         {"no_traceback": True, "bib_contains": [kept],
          "stdout_not_matches": r'"key":\s*"' + bogus + '"'},
         {f"at-{name}.txt": field_text.encode()},
         f"{EDIT} bibfield {K1} @at-{name}.txt\nrm at-{name}.txt\n")


at_case("at-line-article-in-note",
        "  note          = {Read together with\n@article{bogus71, title = {Companion}}\n  the companion paper},\n"
        "  addendum      = {kept-after-71},\n", "bogus71", "kept-after-71")
at_case("at-line-paren-form",
        "  abstract      = {We study widgets.\n@misc(bogus72,\nmore abstract text.},\n"
        "  addendum      = {kept-after-72},\n", "bogus72", "kept-after-72")
at_case("at-line-indented-inproceedings",
        "  note          = {A list:\n    @inproceedings{bogus73, author = {X}}\n  end of list},\n"
        "  addendum      = {kept-after-73},\n", "bogus73", "kept-after-73")
at_case("at-line-string-definition",
        "  note          = {Macro example:\n@string{bogus74 = {hijack}}\n  shown as text},\n"
        "  addendum      = {kept-after-74},\n", "bogus74", "kept-after-74")
at_case("at-line-comment-block",
        "  note          = {Quoted export:\n@Comment{bogus75}\n  end},\n"
        "  addendum      = {kept-after-75},\n", "bogus75", "kept-after-75")
case("at-line-in-imported-file", 7,
     [{"args": ["import", "in.bib"], "expect": {"exit_in": [0, 1]}},
      {"args": ["list", "--json"], "expect": {"exit_in": [0]}}],
     {"no_traceback": True, "bib_contains": ["kept-after-76", "imported76"],
      "stdout_not_matches": r'"key":\s*"bogus76"'},
     {"in.bib": b"@article{imported76,\n  author = {Quinn, Pat},\n  title = {Widgets at Scale},\n"
                b"  journal = {J. Widgets},\n  year = {2019},\n  abstract = {Line one\n"
                b"@InProceedings{bogus76, title = {Three}}\n  line three},\n  note = {kept-after-76},\n}\n"})

# ------------------------------------------------------------------ 8. bytes between entries
BYTE_STEPS = [{"args": ["tag", K2, "+b22"], "expect": {"exit_in": [0]}},
              {"args": ["sync", "--offline"], "expect": {"exit_in": [0, 1]}}]


def bytes_case(name, setup, kept):
    case(name, 8, BYTE_STEPS, {"no_traceback": True, "bib_contains": kept}, setup=setup)


bytes_case("between-percent-rule-before-entry",
           f"{EDIT} bibbefore {K2} '%% ---- optimisers, keep together ----\n\n'\n",
           ["%% ---- optimisers, keep together ----\n"])
bytes_case("between-jabref-comment-parens",
           f"{EDIT} bibafter {K1} '\n@COMMENT(jabref-meta: groupstree: 0 AllEntriesGroup:;)\n'\n",
           ["@COMMENT(jabref-meta: groupstree: 0 AllEntriesGroup:;)"])
bytes_case("between-plain-non-ascii-text",
           f"{EDIT} bibafter {K1} '\nNotizen: Übersicht über die Verfahren — später lesen.\n'\n",
           ["Notizen: Übersicht über die Verfahren — später lesen."])
bytes_case("after-last-entry-trailer",
           f"{EDIT} bibappend '\n% end of my library (kept by hand)\n'\n",
           ["% end of my library (kept by hand)"])
bytes_case("after-header-before-first-entry",
           f"{EDIT} bibbefore {K1} '% local: keep the sections below in this order\n\n'\n",
           ["% local: keep the sections below in this order"])
bytes_case("between-preamble-block",
           f"{EDIT} bibafter {K1} '\n@preamble{{ \"\\newcommand{{\\noopsort}}[1]{{}}\" }}\n'\n",
           ['@preamble{ "\\newcommand{\\noopsort}[1]{}" }'])
bytes_case("same-line-after-closing-brace",
           "python3 - <<'EOF'\nfrom pathlib import Path\np = Path('refs/library.bib')\n"
           "d = p.read_bytes()\ni = d.index(b'@inproceedings{" + K1 + "')\n"
           "j = d.index(b'\\n}\\n', i) + 2\n"
           "p.write_bytes(d[:j] + b' % remark-86 on the same line' + d[j:])\nEOF\n",
           ["% remark-86 on the same line"])
# Line ends are not kept byte for byte: library.bib is written with "\n" (README: Reliability),
# so the comment must survive with its text and order, its CRLF becoming LF.
bytes_case("crlf-comment-lines",
           f"{EDIT} bibafter {K1} @crlf.txt\n",
           ["% windows note 1\n% windows note 2\n"])
CASES[-1]["files"] = {"crlf.txt": b"\r\n% windows note 1\r\n% windows note 2\r\n"}
bytes_case("comment-block-with-nested-entry",
           f"{EDIT} bibafter {K1} '\n@comment{{ retired: @article{{old88, title={{Old}}}} }}\n'\n",
           ["@comment{ retired: @article{old88, title={Old}} }"])

# ------------------------------------------------------------------ 9. string where a list goes
ONE_LETTERS = r'\[\s*"[^"\\]"\s*,\s*"[^"\\]"\s*,\s*"[^"\\]"'
ONE_LETTER_TEXT = r"(?m)(?:^|[\s{,:])[a-z-], [a-z-], [a-z-](?:,|\}|$)"
STR_STEPS = [{"args": ["tag", K1, "+b22"], "expect": {"exit_in": [0, 2],
                                                     "stdout_not_matches": ONE_LETTER_TEXT}},
             {"args": ["sync", "--offline"], "expect": {"exit_in": [0, 1, 2]}},
             {"args": ["list", "--json"], "expect": {"exit_in": [0, 2],
                                                     "stdout_not_matches": ONE_LETTERS}}]
STR_EXPECT = {"no_traceback": True, "bib_not_matches": ONE_LETTER_TEXT}


def str_case(name, setup):
    case(name, 9, STR_STEPS, STR_EXPECT, setup=setup)


str_case("tags-auto-is-a-string", f"{EDIT} part {K1} tags '{{\"auto\": \"theory\"}}'\n")
str_case("tags-added-comma-string", f"{EDIT} part {K1} tags '{{\"added\": \"reread, later\"}}'\n")
str_case("tags-block-style-string",
         f"{EDIT} part {K1} tags '\n      added: fresh-look\n      auto: [theory]'\n")
str_case("mentions-is-a-string", f"{EDIT} part {K1} mentions '\"notes/trip.txt:44\"'\n")
str_case("version-authors-is-a-string",
         f"{EDIT} part {K1} versions '[{{\"authors\": \"Foivos Alimisis\", \"id\": \"notes/trip.txt\", "
         f"\"source\": \"notes\", \"stage\": \"notes\", \"title\": \"Why Do We Need Warm-up? A Theoretical "
         f"Perspective\"}}]'\n")
str_case("issued-keys-is-a-string", f"{EDIT} top issued_keys '\"abc2020xyz\"'\n")

# ------------------------------------------------------------------ 10. wrong types, damaged journals
JSTEPS = [{"args": ["doctor"], "expect": {"exit_in": [1], "stdout_not_contains": ["all good"]}},
          {"args": ["list"], "expect": {"exit_in": [0, 1, 2]}},
          {"args": ["doctor", "--fix"], "expect": {"exit_in": [0, 1]}},
          {"args": ["doctor"], "expect": {"exit_in": [0]}}]
JEXPECT = {"no_traceback": True, "absent": ["refs/.citekit-journal"],
           "unchanged": ["refs/library.bib", "refs/library.yaml"]}


def jcase(name, data, path="refs/.citekit-journal", absent=None):
    e = dict(JEXPECT)
    e["absent"] = absent or [path]
    case(name, 10, JSTEPS, e, {path: data})


jcase("journal-is-a-json-list", b'[{"target": "library.bib", "temp": "x"}]')
jcase("journal-files-is-a-mapping",
      b'{"state": "commit", "files": {"target": "library.bib", "temp": "x"}}')
jcase("journal-unknown-state", b'{"state": "rollback", "files": []}')
jcase("journal-cut-short", b'{"files": [{"target": "/tmp/p/refs/library.bib", "te')
jcase("journal-deeply-nested", b"[" * 200000 + b"]" * 200000)
jcase("journal-utf16-garbage", '{"state": "prepare"}'.encode("utf-16"))
jcase("journal-json-null", b"null")
jcase("journal-sha-is-a-number",
      b'{"state": "commit", "files": [{"target": "library.bib", '
      b'"temp": ".citekit-new-0001-library.bib", "sha256": 12}]}')
jcase("journal-tmp-cut-short-leftover", b'{"files": [{"sha256": "ab',
      path="refs/.citekit-journal.tmp")

SIDE_TYPE = {"exit_in": [2], "no_traceback": True, "stderr_mentions": ["library.yaml"]}


def stcase(name, command, setup, field):
    case(name, 10, [command], {**SIDE_TYPE, "stderr_mentions_any": [field, K1],
                               "unchanged": ["refs/library.yaml", "refs/library.bib"]},
         setup=setup)


stcase("sidecar-status-is-a-list", ["list"], f"{EDIT} part {K1} status '[\"resolved\"]'\n", "status")
stcase("sidecar-ids-is-a-list", ["show", K1], f"{EDIT} part {K1} ids '[\"2509.14562\"]'\n", "ids")
stcase("sidecar-generated-is-a-string", ["tag", K1, "+b22"],
       f"{EDIT} part {K1} generated '\"inproceedings\"'\n", "generated")
stcase("sidecar-versions-is-a-number", ["sync", "--offline"],
       f"{EDIT} part {K1} versions '7'\n", "versions")
stcase("sidecar-summary-is-a-mapping", ["export", "--format", "csl-json"],
       f"{EDIT} part {K1} summary '{{\"en\": \"text\"}}'\n", "summary")
stcase("sidecar-record-is-a-scalar", ["list"],
       "python3 - <<'EOF'\nfrom pathlib import Path\np = Path('refs/library.yaml')\n"
       "out, skip = [], False\nfor ln in p.read_text(encoding='utf-8').splitlines(True):\n"
       f"    if ln.rstrip() == '  {K1}:':\n        out.append('  {K1}: resolved\\n'); skip = True; continue\n"
       "    if skip and ln.startswith('    '):\n        continue\n    skip = False\n    out.append(ln)\n"
       "p.write_text(''.join(out), encoding='utf-8')\nEOF\n", K1)
stcase("sidecar-checksum-is-a-list", ["list"], f"{EDIT} top bib_checksum '[1, 2]'\n", "bib_checksum")

CFG_BAD = {"exit_in": [2], "no_traceback": True, "stderr_mentions": ["citekit.yaml"],
           "finishes_within_s": 60, "outside_untouched": True}
case("config-flow-sequence-20000-deep", 10, [["list"]], CFG_BAD,
     {"citekit.yaml": b"tags:\n  deep: " + b"[" * 20000 + b"x" + b"]" * 20000 + b"\n"})
case("config-block-mapping-1500-deep", 10, [["sync", "--offline"]], CFG_BAD,
     {"citekit.yaml": b"related_work:\n  groups:\n" +
      b"".join(b" " * (i + 4) + b"g%d:\n" % i for i in range(1500)) + b" " * 1504 + b"x\n"})
LAUGHS = [b"a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
for i in range(1, 10):
    LAUGHS.append(b"a%d: &a%d [" % (i, i) + b", ".join([b"*a%d" % (i - 1)] * 10) + b"]")
case("config-billion-laughs", 10, [["list"]], CFG_BAD,
     {"citekit.yaml": b"x-anchors:\n" + b"".join(b"  " + ln + b"\n" for ln in LAUGHS) +
      b"tags:\n  laughs: *a9\n"})
case("config-python-object-tag", 10, [["sync", "--offline"]], CFG_BAD,
     {"citekit.yaml": b"tags:\n  x: !!python/object/apply:os.system ['touch @VICTIM@/pwned']\n"})
case("config-invalid-utf8-bytes", 10, [["list"]], CFG_BAD,
     {"citekit.yaml": b"paths: {notes: notes, refs: refs}\ntags:\n  caf\xe9: [\xff\xfe]\n"})

# ------------------------------------------------------------------ 11. long paragraphs
def long_paragraph(n_sentences):
    out = []
    for i in range(n_sentences):
        out.append(f"We propose WidgetNet{i}, which bounds $\\|\\nabla f(x_{{{i}}})\\|_2 \\le L_{{{i}}}$ "
                   f"and we introduce $\\lambda$-Opt{i} as a variant of $\\mathcal{{O}}(n^{{{i % 7}}})$ descent.")
    return " ".join(out)


QUAD = {"exit_in": [0, 1], "no_traceback": True, "finishes_within_s": 45}
case("long-markdown-abstract-300kb", 11, [["extract", "notes/long.md"]], QUAD,
     {"notes/long.md": ("# ICML 2026\n\n" + long_paragraph(1900) + "\n").encode()}, timeout_s=90)
case("long-text-single-line-300kb", 11, [["extract", "notes/long.txt"]], QUAD,
     {"notes/long.txt": ("ICML 2026\n\n" + long_paragraph(1900) + "\n").encode()}, timeout_s=90)
case("long-org-paragraph-in-sync", 11, [["sync", "--offline"]], QUAD,
     {"notes/long.org": ("* ICML 2026\n" + long_paragraph(1900) + "\n").encode()}, timeout_s=90)

# ------------------------------------------------------------------ 12. the rest
VIC_OUT = {"no_traceback": True, "bib_not_contains": ["Victim Private Paper", "Hidden Momentum"],
           "yaml_not_contains": ["@VICTIM@", "victim/", "Victim Private Paper", "Hidden Momentum"],
           "outside_untouched": True}
case("notes-symlink-to-absolute-outside-file", 12, [["sync", "--offline"]],
     {**VIC_OUT, "exit_in": [0, 1]}, setup='ln -s "$VICTIM/notes.md" notes/linked.md\n')
case("notes-symlinked-folder-outside", 12, [["sync", "--offline"]],
     {**VIC_OUT, "exit_in": [0, 1]}, setup='ln -s ../../victim/dir notes/shared\n')
case("notes-symlink-loop", 12, [["sync", "--offline"]],
     {"exit_in": [0, 1], "no_traceback": True, "finishes_within_s": 60},
     setup="ln -s . notes/loop\nln -s ../notes notes/up\n")
case("notes-symlink-to-dev-zero", 12, [["sync", "--offline"]],
     {"exit_in": [0, 1], "no_traceback": True, "finishes_within_s": 60},
     setup="ln -s /dev/zero notes/zero.md\n", memory_mb=2048, timeout_s=90)
case("notes-symlink-explicit-extract", 12, [["extract", "--json"]],
     {"exit_in": [0, 1], "no_traceback": True, "stdout_not_contains": ["Victim Private Paper"]},
     setup='ln -s "$VICTIM/notes.md" notes/linked.md\n')


def unknown_type(name, typ, key):
    case(name, 12, [{"args": ["import", "u.bib"], "expect": {"exit_in": [0, 1]}}],
         {"no_traceback": True, "bib_contains": ["normal-" + key, key]},
         {"u.bib": (f"@article{{normal-{key},\n  author = {{Rivera, Sam}},\n  title = {{Plain Entry "
                    f"Next To An Odd One {key}}},\n  journal = {{J. Odd}},\n  year = {{2018}}\n}}\n\n"
                    f"@{typ}{{{key},\n  author = {{Ode, Kim}},\n  title = {{An Entry Of Type {typ}}},\n"
                    f"  year = {{2017}}\n}}\n").encode()})


unknown_type("unknown-type-with-slash", "data/set", "odd1slash")
unknown_type("unknown-type-with-plus", "web+page", "odd2plus")
unknown_type("unknown-type-with-colon", "x:y", "odd3colon")

ODD_TITLE = "Widgets \u2A73\U0001F72E\uA66E and \u2BD1 Forms"
case("ascii-sync-quiet-is-quiet", 12, [["sync", "--offline", "--ascii", "-q"]],
     {"exit_in": [0, 1], "no_traceback": True,
      "stderr_not_contains": ["No known latex representation", "latex representation"]},
     {"notes/odd.md": f"- **{ODD_TITLE}** — Alice Zhang, Bob Li\n".encode()})
case("ascii-export-quiet-is-quiet", 12, [["export", "--ascii", "-q", "-o", "out.bib"]],
     {"exit_in": [0], "no_traceback": True,
      "stderr_not_contains": ["No known latex representation", "latex representation"]},
     setup=f"{EDIT} bibfield {K1} '  note          = {{{ODD_TITLE}}},\n'\n")
WRONG = crossref_work("Ledger Methods for Maritime Insurance", family="Oakley").replace(
    b'"given": "Bob", "family": "Li"', b'"given": "Ruth", "family": "Harbour"')
RIGHT = crossref_work("Sparse Widget Descent for Tiny Networks")
case("wrong-paper-answer-not-cached", 12,
     [{"args": ["sync"], "expect": {"exit_in": [0, 1]}},
      {"service": crossref_service("service/right.json")},
      {"args": ["sync"], "expect": {"exit_in": [0, 1], "service_requests_min": 1}}],
     {"no_traceback": True},
     {"citekit.yaml": SVC_CFG % b"crossref", "notes/w.md": DOI_NOTE.encode(),
      **crossref_files("wrong", WRONG), **crossref_files("right", RIGHT)},
     service=crossref_service("service/wrong.json"))


def write():
    if OUT.exists():
        shutil.rmtree(OUT)
    OUT.mkdir()
    for i, c in enumerate(CASES, 1):
        d = OUT / f"{i:03d}-{c['name']}"
        d.mkdir()
        for rel, data in c["files"].items():
            p = d / rel
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_bytes(data)
        spec = {"finding": c["finding"]}
        cmds = c["commands"]
        if len(cmds) == 1 and isinstance(cmds[0], list):
            spec["command"] = cmds[0]
        else:
            spec["commands"] = cmds
        spec["expect"] = c["expect"]
        spec.update(c["extra"])
        (d / "case.yaml").write_text(yaml.safe_dump(spec, sort_keys=False, allow_unicode=True,
                                                    width=100), encoding="utf-8")
        if c["setup"]:
            (d / "setup.sh").write_text("set -eu\n" + c["setup"], encoding="utf-8")
    print(f"{len(CASES)} cases written to {OUT}")


if __name__ == "__main__":
    write()
