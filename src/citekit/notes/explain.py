"""``citekit extract --explain``: what extraction decided about each line, and why.

For every line or block it looked at: whether it became a mention, by which rule and with
which fields, or why it was not taken (a paper-looking line with no author list, link or
identifier; a talk; a person; a repository). A user fixes a note in seconds from this.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from citekit.notes.extract import Decision, explain_text
from citekit.notes.reader import notes_files, read_notes
from citekit.notes.result import Problem


@dataclass
class FileExplanation:
    file: str
    decisions: list[Decision] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    def to_json(self) -> dict:
        return {
            "file": self.file,
            "decisions": [
                {"line": d.line, "outcome": d.outcome, "reason": d.reason, "text": d.text,
                 "fields": _fields(d) if d.mention else {},
                 "model": [{"label": label, "text": text, "confidence": round(p, 2)} for label, text, p in d.model],
                 "finder": {"label": d.finder[0], "confidence": round(d.finder[1], 2)} if d.finder else None,
                 **({"pages": d.pages} if d.pages else {})}
                for d in self.decisions
            ],
            "problems": [{"file": p.file, "line": p.line, "message": p.message} for p in self.problems],
        }


def _fields(d: Decision) -> dict:
    m = d.mention
    assert m is not None
    out: dict = {"kind": m.kind}
    if m.title:
        out["title"] = m.title
    if m.authors:
        out["authors"] = m.authors + (["et al."] if m.authors_incomplete else [])
    ids = dict(m.ids.items()) | {f"pinned {k}": v for k, v in m.pins.items()}
    if ids:
        out["ids"] = ids
    if m.urls:
        out["urls"] = m.urls
    if m.venue or m.year:
        out["venue"] = f"{m.venue or ''} {m.year or ''}".strip()
    if m.hashtags:
        out["tags"] = m.hashtags
    if m.hints:
        out["hints"] = m.hints
    return out


def explain_paths(paths: list[Path], root: Path, *, follow_out: bool = False) -> list[FileExplanation]:
    """One explanation per notes file under ``paths`` (files that cannot be read say why),
    the same files a sync reads (``follow_out``: see :func:`.reader.notes_files`)."""
    from citekit.notes.reader import notes_name

    files, problems = notes_files([Path(p) for p in paths], follow_out=follow_out)
    out = [FileExplanation(p.file, problems=[p]) for p in problems]
    for path in files:
        name = notes_name(path, root)
        text, read_problems = read_notes(path, name)
        expl = FileExplanation(name, problems=list(read_problems))
        if text is not None:
            decisions, extract_problems = explain_text(text, name)
            expl.decisions = decisions
            expl.problems.extend(extract_problems)
        out.append(expl)
    return out


def _short(text: str, width: int = 40) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def render(explanations: list[FileExplanation]) -> list[str]:
    """Human-readable lines: ``file:line  PAPER|not taken|skipped  text`` with rule and fields."""
    lines: list[str] = []
    for expl in explanations:
        taken = sum(1 for d in expl.decisions if d.outcome == "mention")
        rejected = sum(1 for d in expl.decisions if d.outcome == "rejected")
        lines.append(f"{expl.file}: {taken} mention(s), {rejected} paper-looking line(s) not taken")
        for d in expl.decisions:
            where = f"{expl.file}:{d.line}"
            text = d.text if len(d.text) <= 90 else d.text[:89] + "…"
            if d.outcome == "mention":
                lines.append(f"  {where}  PAPER      {text}")
                lines.append(f"      rule: {d.reason}")
                for name, value in _fields(d).items():
                    if name != "title":
                        shown = "; ".join(value) if isinstance(value, list) else (
                            ", ".join(f"{k}: {v}" for k, v in value.items()) if isinstance(value, dict) else value)
                        lines.append(f"      {name}: {shown}")
                for page in d.pages:
                    lines.append(f"      page: {page}")
                if d.finder:
                    lines.append(f"      finder: {d.finder[0]} {d.finder[1]:.2f}")
                if d.model:
                    lines.append("      model: " + " · ".join(f"{label}{f' {p:.2f}' if label != 'other' else ''} “{_short(text)}”"
                                                         for label, text, p in d.model))
            elif d.outcome == "rejected":
                lines.append(f"  {where}  not taken  {text}")
                lines.append(f"      why: {d.reason}")
            elif d.outcome == "merged":
                lines.append(f"  {where}  merged     {d.reason}")
            elif d.outcome == "dropped":
                lines.append(f"  {where}  dropped    {text}")
                lines.append(f"      why: {d.reason}")
            else:
                lines.append(f"  {where}  skipped    {d.reason}")
        for p in expl.problems:
            lines.append(f"  warning: {p}")
    return lines
