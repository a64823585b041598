"""Generated training documents in the shapes real exports have: the noise around the papers.

:mod:`.generate` places papers in clean skeletons; real notes come out of apps that add
their own lines. These skeletons write them: a Slack window copied as text (``Name  9:12
AM`` on its own line, a bare ``9:21`` for a second message, link previews doubled as
``arXiv.orgarXiv.org``, reactions as ``:+1:`` and a count, ``3 replies`` / ``View thread``,
day dividers), an e-mail thread (``On … wrote:`` at two quoting levels, a forwarded
header block, a signature after ``--``, a reference wrapped inside the quote), a Notion
page (a property table, ``<aside>`` callouts and ``<details>`` toggles holding papers or
not), Zotero annotation notes (highlights in quotes with ``([Family et al., 2021, p. 3](zotero://…))``
and a comment after them, ``# Annotations`` and a date line per item), org entries with
``SCHEDULED:``/``DEADLINE:`` lines and ``:LOGBOOK:``/``CLOCK:`` drawers, and tables whose
columns are paper / who / where with links in their cells, beside rows that are software,
blogs, talks and data sets. Between the papers go lines that name things that are not
papers in the same shapes (a package with its authors, a blog post with a title, a talk),
so the model learns what marks them from data rather than from a list of names.
"""

from __future__ import annotations

import random
import textwrap

from citekit.notes.finder.train.generate import (HANDLES, SKELETONS, SOFTWARE, TIMES, documents_of, notion_heading, other_line,
                                                 paragraph)
from citekit.notes.finder.train.render import STYLES, Labelled, Paper, link_of, people_of, short_venue

_FULL_NAMES = ("Priya Raman", "Tomasz Wiśniewski", "Dan Okafor", "Mei Lin", "Jonas Weber", "Ana Souza", "Kofi Mensah",
               "Lea Fischer", "Hyun-woo Park", "Sara Conti", "Rahul Iyer", "Elif Yılmaz", "Noah Berg", "Aiko Mori")
_DAYS = ("Monday, January 13th", "Tuesday, January 14th", "Yesterday", "Today", "Thursday, March 7th", "Friday, May 3rd")
_REACTIONS = (":+1:", ":fire:", ":eyes:", ":100:", ":pray:", ":tada:", "👍", "🔥", "👀")

#: things that are not papers, written the way papers are (a name, a title-like phrase, who made
#: it, a link): what tells them apart is the kind of thing and where it lives
_NOT_PAPERS = (
    "{s}: fast and simple {w} for everyone — https://github.com/{h}/{h2}",
    "The Illustrated {W} — {n} (blog post) https://{h}.github.io/{h2}/",
    "{n}'s blog post “Practical tips for {w} at scale”",
    "Talk: “{W} in practice” by {n} (MLSys seminar) https://www.youtube.com/watch?v=abc{k}",
    "{n} — keynote on {w}, slides at https://speakerdeck.com/{h}/{h2}",
    "{W}Bench leaderboard https://huggingface.co/spaces/{h}/{h2}",
    "dataset: {h}/{h2} on the hub https://huggingface.co/datasets/{h}/{h2}",
    "pip install {h2}  (docs: https://{h2}.readthedocs.io)",
    "the {s} docs page on {w} explains it better https://docs.{h2}.ai/{w}",
    "{n}'s course notes on {w} (lecture 7 slides)", "podcast ep. with {n} about {w}",
    "Kaggle notebook “{W} from scratch” https://www.kaggle.com/code/{h}/{h2}",
    "Colab: https://colab.research.google.com/drive/1{h2}{k}",
    "{s} v{k}.0 release notes — {n}", "{W} tutorial (NeurIPS {y}) — {n} and {m}",
)
_WORDS = ("fine-tuning", "serving", "quantization", "attention", "transformers", "diffusion", "RLHF", "tokenizers",
          "evaluation", "retrieval", "distillation", "mixed precision")


def not_paper_line(rng: random.Random) -> str:
    """A line that names a package, blog post, talk, data set or course: title-like, not a paper."""
    w = rng.choice(_WORDS)
    return rng.choice(_NOT_PAPERS).format(
        s=rng.choice(SOFTWARE), w=w, W=w[:1].upper() + w[1:], n=rng.choice(_FULL_NAMES), m=rng.choice(_FULL_NAMES),
        h=rng.choice(HANDLES), h2=rng.choice(("notes", "lm-eval", "trl", "peft", "vllm", "nanogpt")),
        k=rng.randint(1, 9), y=rng.choice(("2022", "2023", "2024")))


def _noise(rng: random.Random) -> str:
    return not_paper_line(rng) if rng.random() < 0.5 else other_line(rng)


def _cite(p: Paper, rng: random.Random) -> str:
    """A short in-line citation: ``Hu et al., 2021`` or ``Li & Liang 2021``."""
    fam = [f for _, f in p.authors]
    if len(fam) > 2:
        who = f"{fam[0]} et al."
    elif len(fam) == 2:
        who = f"{fam[0]} {rng.choice(('&', 'and'))} {fam[1]}"
    else:
        who = fam[0]
    return f"{who}{rng.choice((', ', ' '))}{p.year}"


def _message_about(p: Paper, rng: random.Random) -> str:
    return rng.choice((
        f"this week: {p.title}. paper is here {link_of(p, rng)}",
        f"should we also skim \"{p.title}\" — {rng.choice(('its basically the same argument', 'same group', 'short one'))}",
        f"{_cite(p, rng)}, \"{p.title}\"", f"+1, and {p.authors[0][1]}'s paper ({link_of(p, rng)}) is short",
        f"random q — anyone read “{p.title}” ({', '.join(f for _, f in p.authors[:3])})?",
        f"for the background: {p.title} ({_cite(p, rng)})", f"{link_of(p, rng)}",
        f"the {p.title.split(':')[0]} paper ({p.authors[0][1]} et al {p.year[-2:]}) re: {rng.choice(_WORDS)}"))


def _clock(rng: random.Random) -> str:
    """A time as Slack prints it: ``9:12 AM``."""
    return f"{rng.randint(1, 12)}:{rng.randint(0, 59):02d} {rng.choice(('AM', 'PM'))}"


def slack_copy(papers: list[Paper], rng: random.Random) -> Labelled:
    """A Slack channel copied from the desktop app: sender lines, bare times, previews, reactions, threads."""
    out: Labelled = [("other", f"#{rng.choice(('ml-reading-group', 'papers', 'lab-general', 'random'))}"),
                     ("other", rng.choice(_DAYS))]
    queue = list(papers)
    while queue or rng.random() < 0.3:
        out.append(("other", f"{rng.choice(_FULL_NAMES)}  {_clock(rng)}"))
        for _ in range(rng.randint(1, 3)):
            if queue and rng.random() < 0.55:
                p = queue.pop()
                said = _message_about(p, rng)
                out.append(("ref", said + rng.choice(("", "", " (edited)"))))
                if "http" in said and rng.random() < 0.6:  # the link preview: the site (twice or once), title, abstract
                    site = rng.choice(("arXiv.org", "openreview.net", "Semantic Scholar"))
                    out.append(("other", site + site if rng.random() < 0.6 else site))
                    out.append(("ref", p.title))  # (the page's title: an item of its own, as the chat reader makes it)
                    if rng.random() < 0.7:
                        out.append(("other", paragraph(rng, width=10_000)[0][:300] + "…"))
            else:
                out.append(("other", _noise(rng) if rng.random() < 0.6 else rng.choice(
                    ("lol", "ok", ":eyes:", "image.png", "haven't. but same issue as last week", "thanks!"))))
            if rng.random() < 0.3:
                out.append(("other", _clock(rng).split()[0]))
        if rng.random() < 0.35:
            for _ in range(rng.randint(1, 3)):
                out += [("other", rng.choice(_REACTIONS)), ("other", str(rng.randint(1, 9)))]
        if rng.random() < 0.2:
            out += [("other", f"{rng.randint(2, 12)} replies"), ("other", f"Last reply {rng.randint(2, 9)} days agoView thread")]
        if rng.random() < 0.1:
            out.append(("other", rng.choice(_DAYS)))
    return out


def email_thread(papers: list[Paper], rng: random.Random) -> Labelled:
    """A forwarded e-mail: header block, two quoting levels, references wrapped inside quotes, signatures."""
    me, you, them = rng.sample(_FULL_NAMES, 3)
    out: Labelled = [("other", "---------- Forwarded message ---------"), ("other", f"From: {them} <{them.split()[0].lower()}@uni.edu>"),
                     ("other", "Date: Mon, 3 Feb 2025 at 10:41"), ("other", f"Subject: {rng.choice(('reading list', 'Re: theory module', 'refs for the intro'))}"),
                     ("other", f"To: {you} <{you.split()[0].lower()}@lab.org>"), ("blank", "")]
    half = max(1, len(papers) // 2)
    for level, chunk in ((">", papers[:half]), (rng.choice((">>", "> >")), papers[half:])):
        q = level + " "
        if level != ">":
            out += [("other", f"> On {rng.choice(('Fri', 'Tue'))}, Jan {rng.randint(1, 28)}, 2025 at {rng.choice(TIMES)}, {me} wrote:"), ("other", ">")]
        out.append(("other", q + rng.choice(("Here is what I would put on the list:", "A few more, in no order:", "Sure —"))))
        for p in chunk:
            kind = rng.random()
            if kind < 0.4:  # a full reference, hard-wrapped inside the quote
                lines = textwrap.wrap(STYLES[rng.choice(sorted(STYLES))](p, rng), width=rng.choice((66, 72, 76)))
                out += [("ref" if i == 0 else "cont", q + "  " * (i > 0) * (rng.random() < 0.3) + line) for i, line in enumerate(lines)]
            elif kind < 0.55:  # a bullet wrapped at the mail's width, its next lines not indented
                text = rng.choice(("- ", "* ")) + rng.choice((
                    f"{people_of(p, rng)}, \"{p.title}\", {short_venue(p, rng)} {p.year}",
                    f"{_cite(p, rng)}, {p.title} -- {rng.choice(('short, and worth it', 'the classic one', 'skim only'))}"))
                lines = textwrap.wrap(text, width=rng.choice((60, 66, 72)))
                out += [("ref" if i == 0 else "cont", q + line) for i, line in enumerate(lines)]
            elif kind < 0.75:
                out.append(("ref", q + rng.choice(("- ", "* ", "", "1. ")) + rng.choice((
                    f"{p.title} ({_cite(p, rng)})", f"{_cite(p, rng)} — {p.title}", f"“{p.title}”, {people_of(p, rng)}",
                    f"{p.title} {link_of(p, rng)}"))))
                if rng.random() < 0.3:
                    out.append(("cont", q + "  " + link_of(p, rng)))
            else:
                out.append(("other", q + _noise(rng)))
                out.append(("ref", q + f"{p.title}, {short_venue(p, rng)} {p.year}"))
            if rng.random() < 0.25:
                out.append(("other", q.rstrip()))
        if rng.random() < 0.6:
            out += [("other", q.rstrip()), ("other", q + "--"), ("other", q + me), ("other", q + rng.choice(
                ("PhD student, Machine Learning Group", "Postdoc | Dept. of Computer Science", "https://" + me.split()[0].lower() + ".github.io")))]
    out += [("blank", ""), ("other", "-- "), ("other", you), ("other", rng.choice(("Sent from my iPhone", "Univ. of Somewhere", "he/him")))]
    return out


def notion_page(papers: list[Paper], rng: random.Random) -> Labelled:
    """A Notion page exported as Markdown: property lines, a database table, callouts and toggles."""
    out: Labelled = [("other", f"# {rng.choice(('Related work', 'Reading group', 'Literature (draft)'))}"), ("blank", ""),
                     ("other", f"Owner: {rng.choice(_FULL_NAMES)}"), ("other", f"Status: {rng.choice(('In progress', 'Done'))}"),
                     ("other", f"Last edited time: March {rng.randint(1, 28)}, 2024 {rng.choice(TIMES)} PM"), ("blank", "")]
    queue = list(papers)
    if queue and rng.random() < 0.6:
        cols = rng.choice((("Name", "Authors", "Venue", "Status"), ("Paper", "Who", "Where", "Tags"), ("Week", "Paper", "Presenter", "Date")))
        out += [("other", "| " + " | ".join(cols) + " |"), ("other", "| " + " | ".join("---" for _ in cols) + " |")]
        for _ in range(rng.randint(1, 5)):
            if not queue:
                break
            p = queue.pop()
            cells = {"Name": p.title, "Paper": rng.choice((p.title, f"[{p.title}]({link_of(p, rng)})")), "Authors": people_of(p, rng),
                     "Who": people_of(p, rng), "Venue": f"{short_venue(p, rng)} {p.year}", "Where": rng.choice((short_venue(p, rng), link_of(p, rng))),
                     "Status": rng.choice(("Read", "To read", "")), "Tags": rng.choice(("optim, theory", "", "#rl")),
                     "Week": str(rng.randint(1, 12)), "Presenter": "@" + rng.choice(_FULL_NAMES), "Date": f"@March {rng.randint(1, 28)}, 2024"}
            out.append(("ref", "| " + " | ".join(cells[c] for c in cols) + " |"))
        for _ in range(rng.randint(0, 2)):
            out.append(("other", "| " + " | ".join((rng.choice(SOFTWARE), rng.choice(_FULL_NAMES), "https://github.com/" + rng.choice(HANDLES), "")[:len(cols)]) + " |"))
        out.append(("blank", ""))
    while queue:
        p = queue.pop()
        r = rng.random()
        if r < 0.3:
            out += [("other", "<aside>"), ("other", rng.choice(("💡", "📌", "⚠️")) + " " + rng.choice(("Also read:", "Background:", "Don't forget"))),
                    ("ref", f"{p.title} ({_cite(p, rng)})"), ("other", "</aside>"), ("blank", "")]
        elif r < 0.5:
            out += [("other", "<details>"), ("ref", f"<summary>{p.title}</summary>"), ("blank", ""),
                    ("cont", f"{rng.choice(('Authors: ', 'By '))}{people_of(p, rng)}"), ("blank", ""), ("other", "</details>"), ("blank", "")]
        elif r < 0.75:
            out += notion_heading(p, rng, venue=True)
        else:
            out += [("ref", f"- {p.title} — {people_of(p, rng)}"), ("blank", "")]
        if rng.random() < 0.4:
            out += [("other", "<aside>"), ("other", f"💡 {_noise(rng)}"), ("other", "</aside>"), ("blank", "")]
        elif rng.random() < 0.3:
            out += [("other", f"- {_noise(rng)}"), ("blank", "")]
    return out


def zotero_annotations(papers: list[Paper], rng: random.Random) -> Labelled:
    """Zotero annotation notes exported as Markdown: per paper a heading and a date, then highlights
    citing it ``([Family et al., 2021, p. 3](zotero://…))`` with the reader's comment after them
    (a comment may name another paper: a mention of its own)."""
    out: Labelled = [("other", rng.choice(("pasted from Zotero (Export Note → Markdown)", "annotations for the survey")))]
    for i, p in enumerate(papers):
        out.append(("blank", ""))
        r = rng.random()
        if r < 0.5:
            out.append(("ref", f"# {rng.choice(('Annotations', 'Notes'))}: {p.title}" if rng.random() < 0.4 else f"# {p.title}"))
        else:
            out.append(("other", "# Annotations  "))
        out.append(("other", f"({rng.randint(1, 12)}/{rng.randint(1, 28)}/2024, {_clock(rng).replace(' ', ':07 ')})"))
        item = "".join(rng.choice("ABCDEFGHJKMNPQRSTUVWXYZ23456789") for _ in range(8))
        for _ in range(rng.randint(1, 4)):
            out.append(("blank", ""))
            page = rng.randint(1, 14)
            cite = f"([{_cite(p, rng)}, p. {page}](zotero://select/library/items/{item}))"
            pdf = f" ([pdf](zotero://open-pdf/library/items/{item}?page={page}))" if rng.random() < 0.7 else ""
            quote = " ".join(rng.choice(paragraph(rng)).split()[:rng.randint(6, 20)])
            comment = ""
            if rng.random() < 0.3 and len(papers) > 1:
                other = papers[(i + 1) % len(papers)]
                comment = rng.choice((f" see also {_cite(other, rng)}, “{other.title}”", f" = {other.title} ({_cite(other, rng)})"))
            elif rng.random() < 0.5:
                comment = " " + rng.choice(("core claim", "TODO check this", "cf. our appendix", not_paper_line(rng)))
            # (each highlight cites its paper: a mention of its own, a paragraph of its own)
            out.append(("ref", f"“{quote}” {cite}{pdf}{comment}"))
    return out


def org_logbook(papers: list[Paper], rng: random.Random) -> Labelled:
    """An org file of reading tasks: headings with SCHEDULED/DEADLINE lines, LOGBOOK drawers of CLOCK
    lines, property drawers; papers as headings or list items, meetings and to-dos beside them."""
    out: Labelled = [("other", "#+TITLE: research"), ("other", "#+STARTUP: overview"), ("blank", "")]
    for p in papers:
        if rng.random() < 0.4:
            out.append(("other", f"** {rng.choice(('TODO ', 'DONE ', 'NEXT '))}{_noise(rng)}"))
            out.append(("other", f"   DEADLINE: <2025-0{rng.randint(1, 9)}-{rng.randint(10, 28)} Fri>"))
        head = rng.choice(("TODO ", "DONE ", "READ ", "")) + rng.choice((p.title, f"Read {p.title}", f"{p.title} ({_cite(p, rng)})"))
        stars = rng.choice(("* ", "** ", "*** "))
        out.append(("ref", stars + head + rng.choice(("", "", "  :paper:", "  :optim:theory:"))))
        ind = " " * len(stars)
        if rng.random() < 0.5:
            out.append(("cont", f"{ind}SCHEDULED: <2025-0{rng.randint(1, 9)}-{rng.randint(10, 28)} Mon {rng.choice(TIMES)}>"))
        if rng.random() < 0.5:
            out += [("cont", f"{ind}:PROPERTIES:"), ("cont", f"{ind}:AUTHORS: {people_of(p, rng)}")]
            if rng.random() < 0.6:
                out.append(("cont", f"{ind}:URL: {link_of(p, rng)}"))
            out.append(("cont", f"{ind}:END:"))
        if rng.random() < 0.5:
            out.append(("cont", f"{ind}:LOGBOOK:"))
            for _ in range(rng.randint(1, 3)):
                d = rng.randint(10, 28)
                out.append(("cont", f"{ind}CLOCK: [2025-02-{d} Mon 10:02]--[2025-02-{d} Mon 11:{rng.randint(10, 59)}] =>  1:{rng.randint(10, 59)}"))
            out.append(("cont", f"{ind}:END:"))
        if rng.random() < 0.4:
            out.append(("cont", f"{ind}- {rng.choice(('key idea: ', 'note: ', ''))}{' '.join(paragraph(rng)[0].split()[:12])}"))
        if rng.random() < 0.2:
            out.append(("other", f"{ind}- {not_paper_line(rng)}"))
    return out


def short_name(p: Paper, rng: random.Random) -> str:
    """What a table or a chat calls a paper for short: the name before the title's colon, or
    one made of its words (``Lookahead``, ``sentence-BERT``, ``mixup``), as people write them."""
    head = p.title.split(":")[0].strip()
    if ":" not in p.title or len(head.split()) > 4:
        words = [w for w in p.title.replace("-", " ").split() if w[:1].isalpha()]
        r = rng.random()
        if r < 0.4:
            head = "".join(w[0] for w in words[:5]).upper()
        elif r < 0.7:
            head = max(words, key=len) if words else p.title
        else:
            head = "-".join(w.lower() for w in words[:2]) + rng.choice(("", "-BERT", "Net", "2vec", "++"))
    if head[1:2].islower() and rng.random() < 0.3:
        head = head[:1].lower() + head[1:]
    return head + rng.choice(("", "", " ✅", f" ({p.year})"))


def paper_table(papers: list[Paper], rng: random.Random) -> Labelled:
    """A plain or Markdown table of papers (Paper / Who / Where) with links in the cells, and rows
    that are software, blogs, talks and data sets."""
    cols = rng.choice((("Paper", "Who", "Where"), ("Paper", "Who", "Where", "Notes"), ("Title", "Authors", "Link"),
                       ("What", "By", "Venue", "Link")))
    md = rng.random() < 0.7
    sep = " | " if md else rng.choice(("\t", "  |  ", "    "))
    wrap = (lambda cells: "| " + " | ".join(cells) + " |") if md else (lambda cells: sep.join(cells))
    out: Labelled = [("other", rng.choice(("## Reading table", "Reading list (sorted by topic)", "# Tracker"))), ("blank", "")]
    out.append(("other", wrap(list(cols))))
    if md:
        out.append(("other", wrap(["---"] * len(cols))))
    rows: Labelled = []
    for p in papers:
        name = rng.choice((p.title, f"[{p.title}]({link_of(p, rng)})", short_name(p, rng), short_name(p, rng)))
        where = rng.choice((f"{short_venue(p, rng)} {p.year}", f"{short_venue(p, rng)}'{p.year[-2:]}", link_of(p, rng),
                            f"[arXiv]({link_of(p, rng)})", f"{short_venue(p, rng)} ({link_of(p, rng)})"))
        cells = [name, rng.choice((people_of(p, rng), _cite(p, rng).rsplit(" ", 1)[0].rstrip(","))), where,
                 rng.choice(("", "must read", "baseline", "skim §3"))][:len(cols)]
        rows.append(("ref", wrap(cells)))
    for _ in range(rng.randint(1, 3)):
        w = rng.choice(_WORDS)
        cells = [rng.choice((rng.choice(SOFTWARE), f"The Illustrated {w}", f"{w} tutorial", f"{rng.choice(HANDLES)}/{w} dataset")),
                 rng.choice(_FULL_NAMES), rng.choice((f"https://github.com/{rng.choice(HANDLES)}/{w}", "blog", "YouTube", "HF hub")),
                 rng.choice(("not a paper", "", "code"))][:len(cols)]
        rows.append(("other", wrap(cells)))
    rng.shuffle(rows)
    return out + rows


EXPORT_SKELETONS = {"slackcopy": slack_copy, "emailthread": email_thread, "notionpage": notion_page,
                    "zoteronotes": zotero_annotations, "orglog": org_logbook, "papertable": paper_table}


def documents(papers: list[Paper], count: int, seed: int) -> list[tuple[str, Labelled]]:
    """``count`` generated documents of every skeleton, the clean ones of :mod:`.generate` and
    the export-shaped ones above, in turn (skeleton name, labelled lines), drawn with ``seed``."""
    return documents_of({**SKELETONS, **EXPORT_SKELETONS}, papers, count, seed)
