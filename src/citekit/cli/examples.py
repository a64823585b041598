"""Runnable examples that end every command's ``--help`` (the tests parse each one).

One table, so every command gets examples in the same place and form, including
commands whose modules live elsewhere; text after ``#`` explains the line.
"""

from __future__ import annotations

EXAMPLES: dict[str, tuple[str, ...]] = {
    "citekit": (
        "citekit init --mailto you@uni.edu              # start a project here",
        "citekit sync                                   # notes/ -> refs/library.bib",
        "citekit list --tag muon                        # what you collected on a topic",
        "citekit -C my-research export --aux main.aux -o refs.bib",
    ),
    "init": (
        "citekit init                                   # here",
        "citekit init my-research --mailto you@uni.edu",
    ),
    "extract": (
        "citekit extract                                # the project's notes/",
        "citekit extract notes/icml2026.md --json > mentions.json",
        "citekit extract --explain notes/reading-list.md  # why each line was or wasn't taken",
    ),
    "sync": (
        "citekit sync",
        "citekit sync --offline                         # no network: entries from the notes",
        "citekit sync --retry                           # look up now what waits for its next try",
        "citekit sync --ascii                           # LaTeX escapes from now on (remembered)",
        "citekit sync --json > sync-report.json",
    ),
    "add": (
        "citekit add 10.48550/arXiv.2010.01412 --tag sam  # a DOI",
        "citekit add arXiv:2602.50082 https://openreview.net/forum?id=q2SoUBpsnt",
        "citekit add \"Sharpness-Aware Minimization for Efficiently Improving Generalization\" --pick",
        "citekit add --offline https://proceedings.mlr.press/v139/foret21a.html  # record now, look up later",
    ),
    "list": (
        "citekit list --tag muon --tag theory",
        "citekit list --status notes-only --json",
        "citekit list --status pending                  # works waiting for an online sync",
        "citekit list --author islamov --year 2024..    # the same filters as search",
    ),
    "search": (
        "citekit search islamov sharpness               # words: titles, abstracts, venues, authors",
        "citekit search author:islamov year:2024..2026 venue:icml",
        "citekit search '\"spectral sphere\" optimizer tag:muon' --json",
        "citekit search sharpness status:notes-only --limit 5",
    ),
    "show": (
        "citekit show huang2026limuon",
        "citekit show huang2026limuon --json",
    ),
    "tags": (
        "citekit tags",
        "citekit tags --json",
    ),
    "tag": (
        "citekit tag huang2026limuon +must-read -theory",
        "citekit tag huang2026limuon                    # print its tags",
    ),
    "import": (
        "citekit import zotero-export.bib --dry-run        # what would be added, skipped, merged",
        "citekit import zotero-export.bib                  # again once Zotero re-exported it: take its changes",
        "citekit import bibstring.bib crossrefs.bib types.bib  # macros shared in this order",
        "citekit import --strings macros.bib refs.bib --merge",
        "citekit import old.bib --map paper/keymap.yaml",
        "citekit import library.json --keys-from library.bib  # Better BibTeX JSON with the keys of its .bib",
        "citekit import --zotero                           # the running Zotero; again later: only what changed",
        "citekit import --zotero-library groups/123456     # a zotero.org library; ZOTERO_API_KEY holds the key",
    ),
    "upgrade": (
        "citekit upgrade --all --dry-run                # what would move to a published version",
        "citekit upgrade --all                          # move them; keys, tags and hand edits stay",
        "citekit upgrade foret2020sharpness --json",
    ),
    "dedup": (
        "citekit dedup                                  # clusters in the library (exit 1 if any)",
        "citekit dedup --apply                          # merge them; old keys stay valid",
        "citekit dedup --apply --versions               # also merge workshop/conference versions",
        "citekit dedup other.bib --json",
    ),
    "rekey": (
        "citekit rekey paper/main.tex --dry-run",
        "citekit rekey paper/main.tex --map refs/keymap.yaml",
    ),
    "rename": (
        "citekit rename liundmuon liu2025muon",
        "citekit rename liundmuon liu2025muon --json",
    ),
    "export": (
        "citekit export -o all.bib                      # the whole library",
        "citekit export --aux main.aux -o refs.bib      # only what main.tex cites",
        "citekit export foret2021sam kingma2015adam -f csl-json   # only these entries (keys or old keys)",
        "citekit export --tag muon -f csl-json -o muon.json",
    ),
    "check": (
        "citekit check main.tex",
        "citekit check main.tex --aux main.aux --bib refs.bib --strict",
    ),
    "makefile": (
        "citekit makefile > citekit.mk                  # then `include citekit.mk` at the top of the Makefile",
        "citekit makefile --paper paper --bib references.bib --format biblatex > citekit.mk",
    ),
    "doctor": (
        "citekit doctor",
        "citekit doctor --fix                           # finish or undo an interrupted write",
        "citekit doctor --rebuild-sidecar               # after losing refs/library.yaml",
    ),
    "git-setup": (
        "citekit git-setup                              # then commit .gitattributes",
        "citekit git-setup --dry-run",
    ),
    "merge-driver": (
        "citekit merge-driver base.bib refs/library.bib theirs.bib refs/library.bib  # as git runs it",
    ),
    "resolve-conflict": (
        "citekit resolve-conflict smith2026fast --theirs",
        "citekit resolve-conflict smith2026fast --ours",
    ),
    "related-work": (
        "citekit related-work --tag muon -o related-muon.tex",
        "citekit related-work --tag muon --tag theory --format markdown",
        "citekit related-work --tag muon --mine paper.yaml",
        "citekit related-work --tag muon --mine main.tex -o related-work.tex  # your paper's abstract",
        "citekit related-work --mine key:smith2026fast  # your paper, already in the library",
        "citekit related-work --tag muon --check -o related-muon.tex  # exit 1 listing any defect",
    ),
    "suggest": (
        "citekit suggest --tag muon                     # what your muon papers' neighbours cite",
        "citekit suggest --mine main.tex --limit 10     # around the papers your draft cites",
        "citekit suggest --tag muon --add 1,3 --dismiss 2",
        "citekit suggest --key huang2026limuon --json",
    ),
    "graph": (
        "citekit graph --tag muon -o muon.html           # hover a suggestion for its reason",
        "citekit graph --tag muon -o muon.svg --limit 10",
        "citekit graph --mine main.tex -o neighbourhood.html",
        "citekit graph --tag muon --mine main.tex -o muon.html  # your paper among them",
    ),
}
