"""Makefile targets that keep a paper's ``refs.bib`` in step with the citekit library.

The snippet goes at the top of a paper's Makefile (``citekit makefile > citekit.mk`` and
``include citekit.mk`` above the paper's own rules, which may then use its variables in their
prerequisites); every name in it can be overridden from the command line or from the
Makefile above it (``make CITEKIT_PROJECT=../notes refs.bib``). It leaves the default goal
to the paper's first rule, wherever it is placed.
"""

from __future__ import annotations

from typing import Sequence

#: What each target is for, printed as the snippet's header comment.
TARGETS: dict[str, str] = {
    "refs.bib": "only the entries the paper cites (re-exported when main.aux or the library changes)",
    "related-work.tex": "a related-work draft from the entries tagged $(RELATED_TAGS), placed against $(RELATED_MINE) "
                        "(once edited, new drafts go to related-work.tex.new)",
    "check-refs": "undefined citations, old keys, arXiv entries with a published version",
    "sync-refs": "refresh the library from the notes (needs the network; run it by hand)",
}


def makefile_snippet(
    *,
    paper: str = "main",
    bib: str = "refs.bib",
    project: str = ".",
    library: Sequence[str] = ("$(CITEKIT_PROJECT)/refs/library.bib", "$(CITEKIT_PROJECT)/refs/library.yaml"),
    related_tags: Sequence[str] = (),
    export_format: str = "bibtex",
    mine: str = "",
) -> str:
    """The Makefile text for one paper.

    ``refs.bib`` depends on ``main.aux`` (what the paper cites) and on the library files,
    and ``citekit export -o`` leaves an unchanged file untouched, so a LaTeX run that
    rewrites ``main.aux`` without changing the citations does not force another
    BibTeX pass. ``main.aux`` gets a draft-mode rule of its own because a fresh clone has
    none and the PDF rule needs ``refs.bib`` first.

    ``related-work.tex`` is rebuilt after any library change, but a draft the author has
    edited is theirs: ``--keep-edited`` leaves it as it is and writes the new draft to
    ``related-work.tex.new`` with a warning (exit 0, so the paper still builds from the
    author's text), and marks the kept file up to date (its modification time, not its
    text), so the next ``make`` does not run the rule again until the library changes
    again; nothing ever replaces the edited file. ``RELATED_MINE`` (``mine``) is the user's
    paper for ``--mine`` (a file, which then is a prerequisite too, or a library key); left
    empty, the rule takes what the draft's own first line records (``--keep-edited``), so a
    draft made by hand with ``--mine`` is regenerated with it, never replaced by one without.
    """
    header = ["# citekit targets (from `citekit makefile`; override any variable: make CITEKIT=... RELATED_TAGS=...)"]
    header += [f"#   {name:<17} {why}" for name, why in TARGETS.items()]
    header += ["# Put it above your own rules (or `include` it there): they may use its variables, which make",
               "# expands in a rule's prerequisites as it reads them; it leaves the default goal to your first rule."]
    lines = [
        *header,
        "CITEKIT_DEFAULT_GOAL := $(.DEFAULT_GOAL)",
        "CITEKIT ?= citekit",
        "# folder of the citekit project (the one holding citekit.yaml) whose library this paper cites",
        f"CITEKIT_PROJECT ?= {project}",
        f"CITEKIT_LIBRARY ?= {' '.join(library)}",
        "CITEKIT_FLAGS ?= -C $(CITEKIT_PROJECT)",
        f"CITEKIT_FORMAT ?= {export_format}",
        f"PAPER ?= {paper}",
        f"PAPER_BIB ?= {bib}",
        "PAPER_SOURCES ?= $(PAPER).tex",
        f"RELATED_TAGS ?= {' '.join(related_tags)}",
        "# your paper for related-work.tex (--mine): its .tex, .md or .yaml, or a library KEY; empty: what the",
        "# draft's first line records",
        f"RELATED_MINE ?= {mine}".rstrip(),
        "LATEX ?= pdflatex",
        "",
        "$(PAPER_BIB): $(PAPER).aux $(CITEKIT_LIBRARY)",
        "\t$(CITEKIT) $(CITEKIT_FLAGS) export --aux $(PAPER).aux --format $(CITEKIT_FORMAT) -o $@",
        "",
        "$(PAPER).aux: $(PAPER_SOURCES)",
        "\t$(LATEX) -draftmode -interaction=nonstopmode -halt-on-error $(PAPER)",
        "",
        "related-work.tex: $(CITEKIT_LIBRARY) $(wildcard $(RELATED_MINE))",
        "\t$(CITEKIT) $(CITEKIT_FLAGS) related-work $(foreach t,$(RELATED_TAGS),--tag $(t)) "
        "$(if $(strip $(RELATED_MINE)),--mine $(strip $(RELATED_MINE))) --keep-edited -o $@",
        "",
        "check-refs: $(PAPER_BIB)",
        "\t$(CITEKIT) $(CITEKIT_FLAGS) check $(PAPER).tex --aux $(PAPER).aux --bib $(PAPER_BIB)",
        "",
        "sync-refs:",
        "\t$(CITEKIT) $(CITEKIT_FLAGS) sync",
        "",
        ".PHONY: check-refs sync-refs",
        "# (a goal set above this block stays; with none, the next rule read is the default, as without it)",
        ".DEFAULT_GOAL := $(CITEKIT_DEFAULT_GOAL)",
    ]
    return "\n".join(lines) + "\n"
