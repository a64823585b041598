"""Generated training documents: paper mentions and references placed in the skeletons of real notes.

Each skeleton writes one kind of document the finder will meet: a chat log, an e-mail with
``>`` quoting, a tweet thread, an org agenda, a Markdown table, a Notion or Roam/Logseq
export, a trip report with day headings, a plain bibliography (wrapped or not, numbered or
not, ``\\bibitem``/``\\newblock``), a Zotero report. Between the papers go the lines that are
not papers: to-dos, meetings, people, software, blog posts, small talk. Every line carries
its finder label. Everything is drawn from a ``random.Random`` the caller seeds.
"""

from __future__ import annotations

import random
import re
import textwrap

from citekit.notes.finder.train.render import Labelled, Paper, link_of, people_of, short_venue, note_lines, reference_list

PEOPLE = ("Alice", "Bob", "Kenji", "Priya", "Marta", "Wei", "Olu", "Sofia", "Tomás", "Yuki", "Hannah", "Ahmed",
          "Chen Li", "Dr. Tanaka", "Prof. Müller", "Sam", "Lena", "Ravi")
HANDLES = ("alice", "bob_k", "kenji.t", "priya", "marta", "wei", "olu", "sofia", "yuki", "hz", "ahmed")
SOFTWARE = ("PyTorch", "JAX", "vLLM", "bitsandbytes", "Hydra", "Weights & Biases", "DeepSpeed", "Megatron-LM",
            "scikit-learn", "HF transformers", "Triton", "FlashAttention kernels", "LaTeX template")
TIMES = ("9:00", "9:30", "10:15", "11:00", "13:30", "14:00", "15:45", "16:30", "18:00")

_OTHER = (
    "Buy coffee beans for the lab", "Meeting with {p} at {t} about the rebuttal", "Call {p} re: visa letter",
    "Lunch at the ramen place near the venue", "Flight home {t}, gate B12", "Reply to {p}'s email about reviews",
    "Book hotel for the workshop", "Poster session A, hall 2", "Keynote: {p} on scaling and data",
    "{p} ({u}) — works on RL for robotics, ask about internships", "Dinner with {p} and {q}",
    "Install {s} on the cluster", "{s} release notes: https://github.com/{h}/{h2}/releases",
    "Blog post: https://{h}.github.io/posts/{h2}/", "Repo: https://github.com/{h}/{h2}",
    "Slides from {p}'s talk https://speakerdeck.com/{h}/{h2}", "Video: https://www.youtube.com/watch?v=dQw4w9WgXcQ",
    "Dataset on the hub https://huggingface.co/datasets/{h}/{h2}", "Model weights https://huggingface.co/{h}/{h2}",
    "Remember to submit the camera-ready by Friday", "Ask {p} whether the IEEE style is required",
    "Convert the figures of chapter 2 to PDF", "Reviewer 2 wants more baselines", "Budget: 3 nights, 2 people",
    "Room 204, second floor", "Thanks for organising!", "Great chat with {p} at the coffee break",
    "Notes from the panel: everyone agrees evaluation is broken", "Workshop on efficient ML, 9am",
    "{p}: can you share the notebook?", "We should try {s} for the ablations", "Deadline moved to {t} AoE",
    "Check the GPU quota before the run", "Sync with {q} on Thursday", "Tutorial on diffusion models (room C)",
    "The venue wifi is terrible", "Expense report for the trip", "{p} will present our poster", "ok sounds good",
    "Agenda", "Action items", "Attendees: {p}, {q}, {p2}", "Minutes", "Next steps", "Open questions",
)


def other_line(rng: random.Random) -> str:
    """One line that is not a paper: a to-do, a meeting, a person, software, a link that is no paper."""
    line = rng.choice(_OTHER)
    return line.format(p=rng.choice(PEOPLE), q=rng.choice(PEOPLE), p2=rng.choice(PEOPLE), t=rng.choice(TIMES),
                       s=rng.choice(SOFTWARE), h=rng.choice(HANDLES), h2=rng.choice(("notes", "code", "demo", "v2", "project")),
                       u=rng.choice(("MIT", "Oxford", "Tsinghua", "ETH", "Google DeepMind", "Univ. of Tokyo")))


_TOPICS = ("the learning-rate schedule", "our rebuttal", "the GPU budget", "data contamination", "the evaluation protocol",
           "warm-up", "the ablation table", "the camera-ready", "second-order methods", "the reviewer's comments",
           "the baseline numbers", "the new cluster", "label noise", "the workshop proposal", "the appendix proofs")
_SENTENCES = (
    "We discussed {t} with {p} and agreed to revisit it next week.", "Our framework works in two phases, and {t} is the slow one.",
    "The main issue is {t}; {p} thinks it can wait until after the deadline.", "Our goal is to fix {t} before the submission.",
    "{p} pointed out that {t} explains most of the gap in Table 2.", "Nobody could reproduce {t} on the smaller model.",
    "A snapshot of {t} is shown in the figure on the left.", "If there is time, we should also look at {t}.",
    "In short: {t} matters more than we thought, and {t2} less.", "This is the plan for {t} (see the notes from Monday).",
    "{p} will send the numbers for {t} by Friday.", "The results on {t} were mixed, so we keep both variants.",
)


def paragraph(rng: random.Random, width: int | None = None, indent: str = "") -> list[str]:
    """A paragraph of ordinary prose about work, hard-wrapped or not: not a paper."""
    text = " ".join(rng.choice(_SENTENCES).format(t=rng.choice(_TOPICS), t2=rng.choice(_TOPICS), p=rng.choice(PEOPLE))
                    for _ in range(rng.randint(1, 5)))
    if width is None and rng.random() < 0.4:
        return [indent + text]
    return textwrap.wrap(text, width=width or rng.choice((64, 72, 80, 96)), initial_indent=indent,
                         subsequent_indent=indent) or [indent + text]


def number_table(rng: random.Random) -> list[str]:
    """Rows of a results table pasted as text: labels and numbers in columns."""
    pad = " " * rng.choice((0, 4, 5))
    sep = rng.choice(("\t", "   ", " | "))
    rows = []
    for _ in range(rng.randint(2, 8)):
        name = rng.choice(("Age 18-24", "Adam", "SGD", "Muon", "Baseline", "Ours", "ResNet-50", "ViT-B/16", "Method A"))
        cells = [f"{rng.uniform(-9, 99):.2f}" for _ in range(rng.randint(3, 8))]
        rows.append(pad + sep.join([name, *cells]))
    return rows


def _prose_lines(rng: random.Random) -> Labelled:
    out: Labelled = [("other", line) for line in (number_table(rng) if rng.random() < 0.2 else paragraph(rng))]
    return out + [("blank", "")]


def _mixed(papers: list[Paper], rng: random.Random, prefix: str, share: float = 0.5) -> Labelled:
    """Paper blocks and other lines, shuffled, each starting with ``prefix``."""
    out: Labelled = []
    queue = list(papers)
    while queue:
        if rng.random() < share:
            out += note_lines(queue.pop(), rng, prefix=prefix, child=" " * (len(prefix) + 2) if prefix.strip() else "  ")
        else:
            out.append(("other", prefix + other_line(rng)))
    return out


def trip_report(papers: list[Paper], rng: random.Random) -> Labelled:
    out: Labelled = [("other", rng.choice(("ICML 2026 trip notes", "# NeurIPS notes", "AISTATS trip report", "Reading log")))]
    bullet = rng.choice(("- ", "* ", "• ", "", "1. "))
    for day, chunk in enumerate(_chunks(papers, rng), 1):
        out += [("blank", ""), ("other", rng.choice((f"Day {day}", f"## Day {day}", f"### Session {day}", f"Day {day} (5/{day + 1})"))), ("blank", "")]
        out += _mixed(chunk, rng, bullet)
        if rng.random() < 0.4:
            out += [("blank", ""), *_prose_lines(rng)]
    return out


def chat_log(papers: list[Paper], rng: random.Random) -> Labelled:
    out: Labelled = []
    # (the last form is a Slack window copied as text: the sender's full name and the time
    # on a line of their own, the message below it)
    form = rng.choice(("[{t}] {n}: ", "{n}: ", "{t} <{n}> ", "{n} [{t}]\n", "@{n}: ", "{N}  {t} AM\n"))
    queue = list(papers)
    while queue or rng.random() < 0.3:
        who = rng.choice(HANDLES)
        head = form.format(t=rng.choice(TIMES), n=who, N=rng.choice(_NAMES))
        split = head.endswith("\n")
        if queue and rng.random() < 0.5:
            p = queue.pop()
            said = rng.choice((
                f"have you seen {p.title}? {link_of(p, rng)}", f"{p.title} ({p.authors[0][1]} et al. {p.year})",
                f"check out {link_of(p, rng)}", f"new paper from {p.authors[0][1]}: {p.title}",
                f"“{p.title}” is the one I meant", f"{p.title} — {people_of(p, rng)}",
                f"can we add \"{p.title}\" to the list? {rng.choice(('feels like required reading', 'pls', ''))}",
                f"has anyone read “{p.title}”? {rng.choice(('the ablations look off', 'worth a slot on thursday', ''))}"))
            label = "ref"
        else:
            said = rng.choice(("lol", "ok", "thanks!", "meeting at 3?", "anyone going to the poster session?",
                               "the wifi is down again", other_line(rng), other_line(rng), "👍", "sure, sounds good"))
            label = "other"
        if split:
            out += [("other", head.rstrip("\n")), (label, said)]
        else:
            out.append((label, head + said))
        if rng.random() < 0.15:
            out.append(("blank", ""))
    return out


def email(papers: list[Paper], rng: random.Random) -> Labelled:
    me, you = rng.sample(PEOPLE, 2)
    out: Labelled = [("other", f"From: {me} <{me.split()[0].lower()}@uni.edu>"), ("other", f"To: {you}"),
                     ("other", f"Subject: {rng.choice(('papers for Thursday', 'Re: reading group', 'Fwd: refs', 'related work'))}"),
                     ("blank", ""), ("other", f"Hi {you},"), ("blank", ""),
                     ("other", rng.choice(("Here are the papers I mentioned:", "As promised, the related work:",
                                           "A few things to read before we meet:")))]
    half = len(papers) // 2
    bullet = rng.choice(("- ", "* ", "", "1. "))
    out += _mixed(papers[:half], rng, bullet, share=0.8)
    if rng.random() < 0.7:
        out += [("blank", ""), *_prose_lines(rng)]
    out += [("blank", ""), ("other", "Best,"), ("other", me.split()[0]), ("blank", "")]
    if papers[half:]:
        out.append(("other", f"On Tue, {rng.choice(TIMES)}, {you} wrote:"))
        quoted = reference_list(papers[half:], rng) if rng.random() < 0.5 else _mixed(papers[half:], rng, bullet)
        out.append(("other", "> " + rng.choice(("Could you send me the references?", "What should I cite?"))))
        out += [(label, ("> " + line).rstrip()) for label, line in quoted]
    return out


def tweets(papers: list[Paper], rng: random.Random) -> Labelled:
    out: Labelled = []
    for i, p in enumerate(papers, 1):
        head = rng.choice(("", f"{i}/ ", "🧵 ", ""))
        out.append(("ref", head + rng.choice((
            f"New paper! {p.title} w/ @{rng.choice(HANDLES)} {link_of(p, rng)}",
            f"Excited to share “{p.title}” ({short_venue(p, rng)} {p.year}) 🎉",
            f"{p.title} by {people_of(p, rng)} is a must-read", f"Our {short_venue(p, rng)} paper: {p.title}"))))
        if rng.random() < 0.4:
            out.append(("cont", link_of(p, rng)))
        if rng.random() < 0.5:
            out.append(("other", rng.choice(("Thread below 👇", "Come to our poster!", f"{rng.randint(3, 900)} likes",
                                             "Reply · Retweet · Like", other_line(rng)))))
        out.append(("blank", ""))
    return out


def org_agenda(papers: list[Paper], rng: random.Random) -> Labelled:
    out: Labelled = [("other", "#+TITLE: Agenda"), ("blank", "")]
    for chunk in _chunks(papers, rng):
        out.append(("other", f"* {rng.choice(('Reading group', 'Week 12', 'Meeting notes', 'Projects'))}"))
        out.append(("other", f"  SCHEDULED: <2026-05-{rng.randint(10, 28)} Tue {rng.choice(TIMES)}>"))
        for p in chunk:
            if rng.random() < 0.4:
                out.append(("other", f"** {rng.choice(('TODO ', 'DONE ', ''))}{other_line(rng)}"))
                if rng.random() < 0.4:
                    out += [("other", "   :PROPERTIES:"), ("other", f"   :LOCATION: {rng.choice(('Room 204', 'DeepMind London', 'Zoom'))}"),
                            ("other", "   :END:"), ("other", f"   {paragraph(rng)[0]}")]
            out.append(("ref", f"** {rng.choice(('TODO ', 'DONE ', 'READ ', ''))}{p.title}"))
            if rng.random() < 0.6:
                out += [("cont", "   :PROPERTIES:"), ("cont", f"   :AUTHORS: {people_of(p, rng)}"),
                        ("cont", f"   :URL: {link_of(p, rng)}"), ("cont", "   :END:")]
        out.append(("blank", ""))
    return out


def md_table(papers: list[Paper], rng: random.Random) -> Labelled:
    out: Labelled = [("other", "# " + rng.choice(("Tracker", "Reading list", "Papers"))), ("blank", ""),
                     ("other", "| title | authors | link | status |"), ("other", "|---|---|---|---|")]
    for p in papers:
        out.append(("ref", f"| {p.title} | {people_of(p, rng)} | {link_of(p, rng)} | {rng.choice(('read', 'to read', 'skimmed', ''))} |"))
    out += [("blank", ""), ("other", "## Tools (not papers)"), ("blank", ""), ("other", "| name | kind | link |"),
            ("other", "|---|---|---|")]
    for _ in range(rng.randint(1, 4)):
        out.append(("other", f"| {rng.choice(SOFTWARE)} | {rng.choice(('library', 'model', 'dataset', 'docs'))} | https://github.com/{rng.choice(HANDLES)}/x |"))
    return out


def notion_heading(p: Paper, rng: random.Random, *, venue: bool = False) -> Labelled:
    """A paper as a Notion page writes it: its title as a heading, a blank line, then its
    ``Authors:`` (``Venue:``) and ``URL:`` property lines."""
    out: Labelled = [("ref", f"## {p.title}"), ("blank", ""), ("cont", f"Authors: {people_of(p, rng)}")]
    if venue:
        out.append(("cont", f"Venue: {short_venue(p, rng)} {p.year}"))
    return out + [("cont", f"URL: {link_of(p, rng)}"), ("blank", "")]


def notion(papers: list[Paper], rng: random.Random) -> Labelled:
    out: Labelled = [("other", f"# {rng.choice(('Literature', 'Conference notes', 'Related work'))}"), ("blank", ""),
                     ("other", f"Created: May {rng.randint(1, 28)}, 2026 {rng.choice(TIMES)}"), ("other", "Tags: reading"),
                     ("blank", "")]
    for p in papers:
        if rng.random() < 0.5:
            out += notion_heading(p, rng)
        else:
            out += note_lines(p, rng, prefix="- ")
        if rng.random() < 0.4:
            out += [("other", f"<aside>💡 {other_line(rng)}</aside>"), ("blank", "")]
        if rng.random() < 0.3:
            out += _prose_lines(rng)
    return out


def roam(papers: list[Paper], rng: random.Random) -> Labelled:
    out: Labelled = [("other", f"- [[{rng.choice(('May 12th, 2026', 'Reading', 'Papers'))}]]")]
    for p in papers:
        out.append(("ref", f"    - {rng.choice(('', 'TODO ', '#paper '))}[[{p.title}]]" if rng.random() < 0.6 else f"    - {p.title}"))
        out.append(("cont", f"        - authors:: {', '.join('[[' + g + ' ' + f + ']]' for g, f in p.authors[:4])}"))
        if rng.random() < 0.6:
            out.append(("cont", f"        - {rng.choice(('url', 'source', 'arxiv'))}:: {link_of(p, rng)}"))
        if rng.random() < 0.3:
            out.append(("other", f"    - {other_line(rng)}"))
    return out


def bibliography(papers: list[Paper], rng: random.Random) -> Labelled:
    out: Labelled = _prose_lines(rng) if rng.random() < 0.5 else []
    out += [("other", rng.choice(("References", "Bibliography", "## References", "\\begin{thebibliography}{99}",
                                  "Bibliography scraps for the thesis intro"))), ("blank", "")]
    out += reference_list(papers, rng)
    if rng.random() < 0.6:
        out += [("blank", ""), ("other", "To do"), ("blank", "")]
        out += [("other", "- " + other_line(rng)) for _ in range(rng.randint(1, 4))]
    return out


def zotero_report(papers: list[Paper], rng: random.Random) -> Labelled:
    out: Labelled = [("other", "Zotero Report"), ("blank", "")]
    for p in papers:
        out += [("ref", p.title), ("cont", f"Item Type\t{'Conference Paper' if p.kind == 'inproceedings' else 'Journal Article'}")]
        out += [("cont", f"Author\t{f}, {g}") for g, f in p.authors[:5]]
        if p.venue:
            out.append(("cont", f"Publication\t{p.venue}"))
        out += [("cont", f"Date\t{p.year}"), ("cont", f"Date Added\t5/{rng.randint(1, 28)}/2026, {rng.choice(TIMES)}:00 PM"),
                ("blank", "")]
    return out


def prose(papers: list[Paper], rng: random.Random) -> Labelled:
    """Paragraph notes: sentences that cite a paper in the middle, and ones that do not."""
    out: Labelled = []
    for p in papers:
        out.append(("other", other_line(rng) + "."))
        if rng.random() < 0.5:
            out += _prose_lines(rng)
        out.append(("ref", rng.choice((f"The {p.title} paper ({p.authors[0][1]} et al., {p.year}) argues the opposite.",
                                       f"Related: {p.title} — {people_of(p, rng)}.",
                                       f"See {p.authors[0][1]} et al. ({p.year}), “{p.title}”."))))
        out.append(("blank", ""))
    return out


_AFFIL = ("MIT", "Oxford", "Mila", "UBC", "KAIST", "UTokyo", "Google", "Meta", "GDM", "IBM", "NAVER", "EPFL", "CMU",
          "Science Tokyo", "Tsinghua", "Stanford")
_NAMES = ("Adam Ibrahim", "Guy Wolf", "Atish Agarwal", "Charles Martin", "Geewook Kim", "Mark Schmidt", "Yoshihiro Izawa",
          "Lena Berg", "Omar Haddad", "Sofia Rossi", "Daiki Matsunaga", "Priya Nair", "Wei Zhang", "Hannah Roth")
#: the detail labels of the notes corpus, in English, Japanese, Chinese and Korean
_URL_LABELS = ("URL: ", "Link: ", "Poster: ", "リンク: ", "链接: ", "", "Paper: ")
_AUTHOR_LABELS = ("Authors: ", "著者: ", "作者: ", "저자: ", "By: ", "")
_SUMMARY_LABELS = ("Summary: ", "まとめ: ", "总结: ", "요약: ", "Notes: ", "TL;DR: ", "")
_CODE_LABELS = ("Code: ", "プロジェクトページ: ", "スライド: ", "Slides: ", "Project page: ")
_SUMMARY_WORDS = ("we show", "the bound", "damping", "preconditioner", "を導入し", "を示す", "汎化", "学習率",
                  "staleness", "asynchronous", "warm-up", "batch size", "の観点から", "に基づく", "curvature", "Hessian")


def _summary(rng: random.Random) -> str:
    words = [rng.choice(_SUMMARY_WORDS) for _ in range(rng.randint(6, 22))]
    return " ".join(words) + rng.choice(("。", ".", ""))


def _person(rng: random.Random) -> str:
    return f"{rng.choice(_NAMES)} ({rng.choice(_AFFIL)})"


def conference_days(papers: list[Paper], rng: random.Random) -> Labelled:
    """A trip report nested two levels deep: sessions as bullets, papers under them, details under those."""
    b = rng.choice(("• ", "- ", "* "))
    step = rng.choice((2, 4))
    i1, i2 = " " * step, " " * (2 * step)
    out: Labelled = [("other", rng.choice(("Hiroki N.", "Trip report", "ICML2026 参加記", "NeurIPS notes")))]
    queue = list(papers)
    day = 0
    while queue:
        day += 1
        out.append(("other", rng.choice((f"Day{day} (7/{day + 5} Mon)", f"Day {day}", f"{day}日目"))))
        for _ in range(rng.randint(1, 4)):
            kind = rng.random()
            if kind < 0.25:  # a talk: a title-like line and its event page, not a paper
                talk = rng.choice(papers).title + "?" * (rng.random() < 0.3)
                out.append(("other", f"{b}{rng.choice(('', 'Keynote: ', 'Tutorial: ', 'Invited talk: '))}{talk}"))
                out.append(("other", f"{i1}{b}https://icml.cc/virtual/2026/{rng.choice(('invited-talk', 'tutorial', 'workshop'))}/{rng.randint(40000, 70000)}"))
                if rng.random() < 0.6:
                    out.append(("other", f"{i1}{b}{_person(rng)}"))
            elif kind < 0.45:  # a social event and the people met there
                out.append(("other", f"{b}{rng.choice(('Reception', 'レセプション', 'Sakana AI Social', 'Dinner', '懇親会', 'Coffee chat'))}"))
                out += [("other", f"{i1}{b}{_person(rng)}") for _ in range(rng.randint(1, 5))]
            elif kind < 0.55:
                out.append(("other", f"{b}{rng.choice(('朝食', 'Lunch', 'コーヒーチャット', 'Quick chat', 'チャット'))} w/ {_person(rng)}"))
            else:  # a poster session with papers under it
                out.append(("other", f"{b}{rng.choice(('ポスターセッション', 'Poster session', 'Orals', 'Posters A', 'Session 3'))}"))
                for _ in range(rng.randint(1, 5)):
                    if not queue:
                        break
                    p = queue.pop()
                    out.append(("ref", f"{i1}{b}{p.title}"))
                    out.append(("cont", f"{i2}{b}{rng.choice(_URL_LABELS)}https://icml.cc/virtual/2026/poster/{rng.randint(60000, 67000)}"
                                if rng.random() < 0.7 else f"{i2}{b}{rng.choice(_URL_LABELS)}{link_of(p, rng)}"))
                    if rng.random() < 0.85:
                        out.append(("cont", f"{i2}{b}{rng.choice(_AUTHOR_LABELS)}{' ⋅ '.join(f'{g} {f}'.strip() for g, f in p.authors[:9])}"))
                    if rng.random() < 0.7:
                        out.append(("cont", f"{i2}{b}{rng.choice(_SUMMARY_LABELS)}{_summary(rng)}"))
                    if rng.random() < 0.2:
                        out.append(("cont", f"{i2}{b}{rng.choice(_CODE_LABELS)}https://github.com/{rng.choice(HANDLES)}/{rng.choice(('code', 'demo'))}"))
        if rng.random() < 0.4:
            out.append(("blank", ""))
    return out


_SECTIONS = ("Introduction", "Background", "Related Work", "Methods", "Results", "Discussion", "Conclusions",
             "Acknowledgements", "Abstract", "Dedication", "Appendix", "Experimental Setup", "Limitations")


def outline(papers: list[Paper], rng: random.Random) -> Labelled:
    """Nested lists that are mostly not papers: a table of contents, an agenda with sub-items, a paper among them."""
    out: Labelled = []
    if rng.random() < 0.6:
        out.append(("other", rng.choice(("Table of Contents", "Contents", "# Outline"))))
        dots = rng.choice((".", ". "))
        width = rng.choice((60, 80, 96))
        page = (lambda: str(rng.randint(1, 200))) if rng.random() < 0.5 else (lambda: "")  # pdftotext often drops them
        for _ in range(rng.randint(0, 3)):
            out.append(("other", (rng.choice(_SECTIONS) + " " + dots * width)[:width] + page()))
        for chapter in range(1, rng.randint(3, 7)):
            head = f"Chapter {chapter}: {rng.choice(_SECTIONS)} " if rng.random() < 0.7 else f"{rng.choice(_SECTIONS)} "
            out.append(("other", (head + dots * width)[:width] + page()))
            for sub in range(1, rng.randint(2, 6)):
                line = f"{' ' * rng.choice((2, 4, 5))}{chapter}.{sub} {rng.choice(_SECTIONS)} "
                out.append(("other", (line + dots * width)[:width] + page()))
        out.append(("blank", ""))
    b = rng.choice(("- ", "* ", "• "))
    queue = list(papers)
    for _ in range(rng.randint(2, 5)):
        out.append(("other", f"{b}{other_line(rng)}"))
        for _ in range(rng.randint(1, 4)):
            if queue and rng.random() < 0.3:
                out += note_lines(queue.pop(), rng, prefix=f"  {b}", child=f"    {b}")
            else:
                out.append(("other", f"  {b}{other_line(rng)}"))
                if rng.random() < 0.3:
                    out.append(("other", f"    {b}{other_line(rng)}"))
    return out


def pasted_bibtex(papers: list[Paper], rng: random.Random) -> Labelled:
    """BibTeX entries pasted into notes (from dblp, Google Scholar), between notes lines and code fences."""
    out: Labelled = [("other", rng.choice(("BibTeX I pasted while reading", "# Refs from dblp", "Entries copied from Scholar:")))]
    fence = rng.random() < 0.5
    for p in papers:
        if rng.random() < 0.3:
            out.append(("other", other_line(rng)))
        if fence:
            out.append(("other", "```bibtex" if rng.random() < 0.7 else "```"))
        key = re.sub(r"\W", "", p.authors[0][1]).lower() + p.year + re.sub(r"\W", "", p.title.split()[0]).lower()
        kind = "inproceedings" if p.kind == "inproceedings" else rng.choice(("article", "misc", "inproceedings"))
        out.append(("ref", f"@{kind}{{{key},"))
        eq = rng.choice((" = ", "=", "     = "))
        fields = [("title", p.title), ("author", " and ".join(f"{f}, {g}".strip(", ") for g, f in p.authors[:6]))]
        if p.venue:
            fields.append(("booktitle" if kind == "inproceedings" else "journal", p.venue))
        fields.append(("year", p.year))
        if p.doi:
            fields.append(("doi", p.doi))
        elif p.arxiv:
            fields.append(("eprint", p.arxiv))
        for i, (name, value) in enumerate(fields):
            out.append(("cont", f"  {name}{eq}{{{value}}}" + ("," if i < len(fields) - 1 or rng.random() < 0.5 else "")))
        out.append(("cont", "}"))
        if fence:
            out.append(("other", "```"))
        if rng.random() < 0.6:
            out.append(("blank", ""))
    return out


_NOT_PAPER_LINKS = ("https://github.com/{h}/{h2}", "https://huggingface.co/datasets/{h}/{h2}", "https://huggingface.co/{h}/{h2}",
                    "https://www.youtube.com/watch?v=zjkBMFhNj_g", "https://icml.cc/virtual/2026/invited-talk/{n}",
                    "https://neurips.cc/virtual/2025/tutorial/{n}", "https://twitter.com/{h}/status/{n}{n}",
                    "https://colab.research.google.com/drive/1{h2}", "https://{h}.github.io/{h2}/", "https://docs.{h2}.ai/")


def link_dump(papers: list[Paper], rng: random.Random) -> Labelled:
    """A list of bare identifiers and links, as pasted from a conference app: each paper one item."""
    b = rng.choice(("- ", "* ", "", "• "))
    out: Labelled = [("other", rng.choice(("# Links dumped from the conference app", "Things people told me to read:",
                                           "## Links")))]
    items: Labelled = []
    for p in papers:
        link = link_of(p, rng)
        if rng.random() < 0.2:
            link += rng.choice((f" (from {rng.choice(PEOPLE)})", f" #{rng.choice(('optim', 'mup', 'rl'))}", " — the spectral one"))
        items.append(("ref", b + link))
    for _ in range(rng.randint(1, 6)):
        items.append(("other", b + rng.choice(_NOT_PAPER_LINKS).format(h=rng.choice(HANDLES), h2=rng.choice(("notes", "code", "demo", "vllm")),
                                                                    n=rng.randint(10000, 99999))))
    rng.shuffle(items)
    out += items
    if rng.random() < 0.5:
        out += [("blank", ""), ("other", "Not papers:")]
        out += [("other", b + rng.choice(_NOT_PAPER_LINKS).format(h=rng.choice(HANDLES), h2="x", n=rng.randint(10000, 99999)))
                for _ in range(rng.randint(1, 4))]
    return out


SKELETONS = {"trip": trip_report, "days": conference_days, "outline": outline, "bibtex": pasted_bibtex, "links": link_dump, "chat": chat_log, "email": email, "tweets": tweets, "org": org_agenda,
             "table": md_table, "notion": notion, "roam": roam, "bibliography": bibliography,
             "zotero": zotero_report, "prose": prose}


def _chunks(items: list, rng: random.Random) -> list[list]:
    out, i = [], 0
    while i < len(items):
        n = rng.randint(2, 6)
        out.append(items[i:i + n])
        i += n
    return out or [[]]


def documents(papers: list[Paper], count: int, seed: int) -> list[tuple[str, Labelled]]:
    """``count`` generated documents of the skeletons above (skeleton name, labelled lines),
    drawn with ``seed`` (:func:`citekit.notes.finder.train.exports.documents` adds the export-shaped ones)."""
    return documents_of(SKELETONS, papers, count, seed)


def documents_of(skeletons: dict, papers: list[Paper], count: int, seed: int) -> list[tuple[str, Labelled]]:
    """``count`` documents drawn from ``skeletons`` in turn (by sorted name), drawn with ``seed``."""
    rng = random.Random(seed)
    out = []
    names = sorted(skeletons)
    for i in range(count):
        name = names[i % len(names)]
        chosen = rng.sample(papers, min(len(papers), rng.randint(3, 14)))
        doc = skeletons[name](chosen, rng)
        out.append((name, [(label if line.strip() else "blank", line) for label, line in doc]))
    return out
