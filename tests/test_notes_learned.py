"""Extraction where the learned finder and reference parser decide: hard-wrapped reference
lists, pasted references in styles no typed shape reads, and the exact layouts read by
rule (a Zotero report, a natbib ``.bbl``). The lines are those the issue quotes, or new
ones in the same styles; none is from the blind or development sets."""

from __future__ import annotations

import pytest

from citekit.notes.extract import explain_text, extract_text

PDF_REFS = """References

[7] H. Zhang, M. Cisse, Y. N. Dauphin, and D. Lopez-Paz. mixup: Beyond empirical risk
minimization. In International Conference on Learning Representations, 2018.
[8] T. Mikolov, I. Sutskever, K. Chen, G. Corrado, and J. Dean. Distributed representations of
words and phrases and their compositionality. In NeurIPS, 2013. arXiv:1310.4546
[9] S. Ioffe and C. Szegedy. Batch normalization: Accelerating deep network training by
reducing internal covariate shift. In ICML, pages 448–456, 2015.
"""


@pytest.mark.parametrize("name", ["refs.txt", "refs.md"])
def test_hard_wrapped_numbered_references_are_one_mention_each(name):
    mentions = extract_text(PDF_REFS, name).mentions
    assert [m.title for m in mentions] == [
        "mixup: Beyond empirical risk minimization",
        "Distributed representations of words and phrases and their compositionality",
        "Batch normalization: Accelerating deep network training by reducing internal covariate shift",
    ]
    assert [m.location.line for m in mentions] == [3, 5, 7]
    assert mentions[0].authors == ["H. Zhang", "M. Cisse", "Y. N. Dauphin", "D. Lopez-Paz"]
    # the identifier on the wrapped line is the paper's own, not a paper of its own
    assert mentions[1].ids.arxiv == "1310.4546"
    assert (mentions[2].venue, mentions[2].year) == ("ICML", 2015)


def test_the_explanation_names_the_model_and_the_joined_lines():
    decisions, _problems = explain_text(PDF_REFS, "refs.txt")
    by_line = {d.line: d for d in decisions}
    assert "reference model" in by_line[3].reason
    assert by_line[4].outcome == "merged"


def test_a_reference_style_no_typed_shape_reads():
    # author list, title, then the container: read by the learned parser
    text = "Kingma, D. P. and Ba, J. Adam: A method for stochastic optimization. In ICLR, 2015.\n"
    (m,) = extract_text(text, "n.txt").mentions
    assert m.title == "Adam: A method for stochastic optimization"
    assert m.authors == ["Kingma, D. P.", "Ba, J."]
    assert m.year == 2015


def test_a_chat_message_after_a_reference_is_not_part_of_its_title():
    text = ("Ouyang et al. 2022, \"Training language models to follow instructions with human feedback\"\n"
            "Dan  9:41 AM\n"
            "for the RLHF bits I'd point people at the docs, the trainer page explains the penalty better\n")
    titles = [m.title for m in extract_text(text, "log.txt").mentions]
    assert all("Dan" not in (t or "") for t in titles)


NATBIB_BBL = r"""\begin{thebibliography}{2}

\bibitem[Houlsby et~al.(2019)Houlsby, Giurgiu, Jastrzebski, Morrone,
  De~Laroussilhe, Gesmundo, Attariyan, and Gelly]{houlsby2019parameter}
Neil Houlsby, Andrei Giurgiu, Stanislaw Jastrzebski, Bruna Morrone, Quentin
  De~Laroussilhe, Andrea Gesmundo, Mona Attariyan, and Sylvain Gelly.
\newblock Parameter-efficient transfer learning for {NLP}.
\newblock In \emph{Proceedings of the 36th International Conference on Machine
  Learning}, pages 2790--2799. PMLR, 2019.

\bibitem[Srivastava et~al.(2014)]{srivastava2014dropout}
Nitish Srivastava, Geoffrey Hinton, Alex Krizhevsky, Ilya Sutskever, and Ruslan Salakhutdinov.
\newblock Dropout: a simple way to prevent neural networks from overfitting.
\newblock \emph{JMLR}, 15\penalty0 (1):\penalty0 1929--1958, 2014.

\end{thebibliography}
"""


def test_a_bibitem_whose_natbib_label_runs_over_two_lines():
    mentions = extract_text(NATBIB_BBL, "paper.bbl").mentions
    assert [m.title for m in mentions] == [
        "Parameter-efficient transfer learning for NLP",
        "Dropout: a simple way to prevent neural networks from overfitting",
    ]
    assert [m.location.line for m in mentions] == [3, 11]
    assert mentions[0].authors[0] == "Neil Houlsby" and len(mentions[0].authors) == 8


ZOTERO_REPORT = (
    "Zotero report\n"
    "\n"
    "Deep Residual Learning for Image Recognition\n"
    "Item Type\tConference Paper\n"
    "Author\tKaiming He\n"
    "Author\tXiangyu Zhang\n"
    "Author\tShaoqing Ren\n"
    "Author\tJian Sun\n"
    "Date\t2016\n"
    "Proceedings Title\tProceedings of the IEEE Conference on Computer Vision and Pattern Recognition\n"
    "Pages\t770-778\n"
    "DOI\t10.1109/CVPR.2016.90\n"
    "Date Added\t2/2/2024, 10:01:12 AM\n"
    "Tags:\n"
    "Computer Science - Computer Vision\n"
    "to-read\n"
    "Notes:\n"
    "Comment: the skip connections section is the part to cite\n"
    "\n"
    "The Illustrated Transformer\n"
    "Item Type\tBlog Post\n"
    "Author\tJay Alammar\n"
    "Date\t2018\n"
    "URL\thttps://jalammar.github.io/illustrated-transformer/\n"
    "\n"
    "Layer Normalization\n"
    "Item Type    Preprint\n"
    "Author    Jimmy Lei Ba\n"
    "Author    Jamie Ryan Kiros\n"
    "Author    Geoffrey E. Hinton\n"
    "Date    2016-07-21\n"
    "Archive ID    arXiv:1607.06450\n"
)


def test_a_zotero_report_copied_as_text():
    mentions = extract_text(ZOTERO_REPORT, "report.txt").mentions
    assert [m.title for m in mentions] == ["Deep Residual Learning for Image Recognition", "Layer Normalization"]
    resnet, layernorm = mentions
    assert resnet.authors == ["Kaiming He", "Xiangyu Zhang", "Shaoqing Ren", "Jian Sun"]
    assert resnet.pins.doi == "10.1109/cvpr.2016.90"
    assert resnet.year == 2016
    assert set(resnet.hashtags) >= {"to-read", "computer-science-computer-vision"}
    assert "Comment" not in (resnet.section or "") and "Comment" not in (layernorm.section or "")  # a note is no section label
    # a row copied with spaces where the tab was
    assert layernorm.authors == ["Jimmy Lei Ba", "Jamie Ryan Kiros", "Geoffrey E. Hinton"]
    assert layernorm.pins.arxiv == "1607.06450"


def test_a_blog_post_of_a_zotero_report_is_not_a_paper():
    decisions, _ = explain_text(ZOTERO_REPORT, "report.txt")
    blog = next(d for d in decisions if d.line == 20)
    assert blog.outcome == "rejected" and "blog post" in blog.reason


ZOTERO_REPORT_WITH_NOTES = (
    "Mixup: Beyond Empirical Risk Minimization\n"
    "Item Type\tConference Paper\n"
    "Author\tHongyi Zhang\n"
    "Author\tMoustapha Cisse\n"
    "Date\t2018\n"
    "Notes:\n"
    "compare with CutMix (Yun, Han & Oh 2019), it cuts patches instead of blending\n"
    "\n"
    "Dropout: A Simple Way to Prevent Neural Networks from Overfitting\n"
    "Item Type\tJournal Article\n"
    "Author\tNitish Srivastava\n"
    "Author\tGeoffrey Hinton\n"
    "Date\t2014\n"
    "Notes:\n"
    "Srivastava et al. 2014 is the journal version; for the Bayesian reading see Y. Gal, Z. Ghahramani, "
    "\"Dropout as a Bayesian Approximation: Representing Model Uncertainty in Deep Learning\" (2016)\n"
)


def test_the_notes_of_a_zotero_report_item_cite_papers_beside_it():
    # an item whose notes cite other papers stays a paper of its own; the papers its notes
    # cite are found too, and a citation of the item itself is not a second paper
    mentions = extract_text(ZOTERO_REPORT_WITH_NOTES, "report.txt").mentions
    by_line = {(m.location.line, m.title, tuple(m.authors)) for m in mentions}
    assert (1, "Mixup: Beyond Empirical Risk Minimization", ("Hongyi Zhang", "Moustapha Cisse")) in by_line
    assert (9, "Dropout: A Simple Way to Prevent Neural Networks from Overfitting", ("Nitish Srivastava", "Geoffrey Hinton")) in by_line
    assert any(m.location.line == 7 and m.authors[:1] == ["Yun"] and m.year == 2019 for m in mentions)
    assert any(m.title == "Dropout as a Bayesian Approximation: Representing Model Uncertainty in Deep Learning" for m in mentions)
    assert not any(m.location.line == 15 and m.authors[:1] == ["Srivastava"] and m.title is None for m in mentions)


def test_chinese_year_and_note_labels_stay_with_their_paper():
    text = ("论文: 《Attention Is All You Need》\n"
            "作者: Ashish Vaswani 等\n"
            "年份: 2017    arXiv:1706.03762\n"
            "笔记: 经典不多说，重点讲 multi-head\n")
    (m,) = extract_text(text, "组会.md").mentions
    assert m.title == "Attention Is All You Need"
    assert m.authors == ["Ashish Vaswani"] and m.authors_incomplete
    assert m.year == 2017


def test_quoted_titles_cited_inside_chat_messages():
    text = ("[10:02] maria: before thursday pls skim Srivastava et al. 2014, “Dropout: A Simple Way to Prevent "
            "Neural Networks from Overfitting”. the rest is optional\n"
            "[10:05] tom: also \"Deep Networks with Stochastic Depth\" (Huang, Sun, Liu) if you like that line of work\n"
            "[10:06] maria: the \"just add more noise\" argument never convinced me\n")
    found = {m.title: (m.authors, m.authors_incomplete, m.year) for m in extract_text(text, "chat.txt").mentions}
    assert found == {
        "Dropout: A Simple Way to Prevent Neural Networks from Overfitting": (["Srivastava"], True, 2014),
        "Deep Networks with Stochastic Depth": (["Huang", "Sun", "Liu"], False, None),
    }


def test_a_quoted_talk_title_under_a_kind_label_stays_a_talk():
    text = 'Keynote: "Lessons from Scaling Sparse Models" by Noam Shazeer, 2023\n'
    assert extract_text(text, "day1.txt").mentions == []


def test_prose_cut_at_a_line_end_is_not_a_title():
    text = ("Warmup was studied by Goyal et al. (2017) who introduced gradual warmup for\n"
            "\n"
            "Smith et al. (2019) describe the same effect for\n")
    # (the author-year citations on the lines are mentions without a title, as on a longer line)
    assert [(m.title, m.kind, m.authors) for m in extract_text(text, "draft.txt").mentions] == [
        (None, "cited", ["Goyal"]), (None, "cited", ["Smith"])]


def test_explain_shows_the_finder_and_the_model(tmp_path):
    from citekit.notes.explain import explain_paths, render

    notes = tmp_path / "refs.txt"
    notes.write_text(PDF_REFS, encoding="utf-8")
    (expl,) = explain_paths([notes], tmp_path)
    first = next(d for d in expl.to_json()["decisions"] if d["line"] == 3)
    assert first["finder"]["label"] == "ref"
    labels = [span["label"] for span in first["model"]]
    assert labels.index("author") < labels.index("title") < labels.index("container")
    title = next(span for span in first["model"] if span["label"] == "title")
    assert title["text"].startswith("mixup") and 0.5 < title["confidence"] <= 1.0
    merged = next(d for d in expl.to_json()["decisions"] if d["line"] == 4)
    assert merged["outcome"] == "merged" and merged["finder"]["label"] == "cont"
    shown = "\n".join(render([expl]))
    assert "finder: ref" in shown and "model: other “[7]” · author" in shown


HANGING = """REFERENCES
Ashish Vaswani, Noam Shazeer, Niki Parmar, Jakob Uszkoreit, Llion Jones, Aidan N Gomez, Łukasz
   Kaiser, and Illia Polosukhin. Attention is all you need. In Advances in Neural Information
   Processing Systems, 2017.
Kaiming He, Xiangyu Zhang, Shaoqing Ren, and Jian Sun. Deep residual learning for image recog-
   nition. In Proceedings of the IEEE Conference on Computer Vision and Pattern Recognition, 2016.
"""


def test_a_bibliography_with_hanging_indents():
    mentions = extract_text(HANGING, "refs.txt").mentions
    assert [m.title for m in mentions] == ["Attention is all you need", "Deep residual learning for image recognition"]
    assert len(mentions[0].authors) == 8 and mentions[0].authors[-1] == "Illia Polosukhin"
    assert mentions[1].year == 2016


def test_roam_authors_one_page_link_each():
    text = ("- [[Deep Residual Learning for Image Recognition]]\n"
            "    - Author:: [[Kaiming He]] [[Xiangyu Zhang]] [[Shaoqing Ren]]\n")
    (m,) = extract_text(text, "Roam page.md").mentions
    assert m.authors == ["Kaiming He", "Xiangyu Zhang", "Shaoqing Ren"]


def test_a_paper_who_where_table():
    text = ("| Paper | Who | Where |\n|---|---|---|\n"
            "| Denoising Diffusion Probabilistic Models | Ho, Jain, Abbeel | NeurIPS 2020 |\n"
            "| diffusers | HF team | github.com/huggingface/diffusers |\n"
            "| Score-based generative modeling explained | Some Blogger | personal blog, 2022 |\n")
    mentions = extract_text(text, "tracker.md").mentions
    assert [(m.title, m.authors, m.venue, m.year) for m in mentions] == [
        ("Denoising Diffusion Probabilistic Models", ["Ho", "Jain", "Abbeel"], "NeurIPS", 2020)]


EMAIL = """> Begin forwarded message:
>
> Reading list, week 2:
>   - Srivastava, Hinton, Krizhevsky, Sutskever & Salakhutdinov, "Dropout: a simple
>     way to prevent neural networks from overfitting", JMLR 2014
>   - Ioffe & Szegedy, Batch Normalization: Accelerating Deep Network Training by
>     Reducing Internal Covariate Shift (ICML 2015)
>   - Kingma et al. 2014, Auto-Encoding Variational Bayes
>     skim only, the reparametrisation section is what matters
"""


def test_wrapped_bullets_of_a_forwarded_email():
    mentions = extract_text(EMAIL, "fwd.eml").mentions
    assert [m.title for m in mentions] == [
        "Dropout: a simple way to prevent neural networks from overfitting",
        "Batch Normalization: Accelerating Deep Network Training by Reducing Internal Covariate Shift",
        "Auto-Encoding Variational Bayes",
    ]
    assert mentions[0].authors == ["Srivastava", "Hinton", "Krizhevsky", "Sutskever", "Salakhutdinov"]
    assert (mentions[1].venue, mentions[1].year) == ("ICML", 2015)


def test_a_second_title_label_in_the_same_paragraph_starts_a_paper():
    text = ("论文: 《Denoising Diffusion Probabilistic Models》\n"
            "作者: Jonathan Ho, Ajay Jain, Pieter Abbeel\n"
            "备注: 和 score matching 的联系\n"
            "      ε-prediction 等价于 denoising score matching\n"
            "论文: 「Score-Based Generative Modeling through Stochastic Differential Equations」\n"
            "作者: Yang Song 等\n")
    mentions = extract_text(text, "组会.md").mentions
    assert [(m.title, m.authors) for m in mentions] == [
        ("Denoising Diffusion Probabilistic Models", ["Jonathan Ho", "Ajay Jain", "Pieter Abbeel"]),
        ("Score-Based Generative Modeling through Stochastic Differential Equations", ["Yang Song"]),
    ]


def test_a_list_of_bare_links_is_one_paper_per_link():
    text = "arxiv.org/abs/1706.03762\nhuggingface.co/papers/2106.09685\nhttps://www.alphaxiv.org/abs/2310.06825\n"
    from citekit.notes.urls import add_missing_schemes

    mentions = extract_text(add_missing_schemes(text), "links.txt").mentions
    assert [m.ids.arxiv for m in mentions] == ["1706.03762", "2106.09685", "2310.06825"]


def test_an_org_heading_body_indented_under_it_is_read_as_a_paragraph():
    text = ("* Reading\n"
            "** READING Soft Actor-Critic                                  :rl:\n"
            "   SCHEDULED: <2024-12-04 Wed>\n"
            "   :LOGBOOK:\n"
            "   CLOCK: [2024-12-05 Thu 08:40]--[2024-12-05 Thu 09:15] =>  0:35\n"
            "   :END:\n"
            "   Haarnoja, Zhou, Abbeel, Levine -- \"Soft Actor-Critic: Off-Policy Maximum\n"
            "   Entropy Deep Reinforcement Learning with a Stochastic Actor\", ICML 2018\n")
    titles = [m.title for m in extract_text(text, "agenda.org").mentions]
    assert "Soft Actor-Critic: Off-Policy Maximum Entropy Deep Reinforcement Learning with a Stochastic Actor" in titles


def test_a_link_preview_copied_out_of_slack_gives_its_title_to_the_link():
    text = ("Ana Souza  10:02 AM\n"
            "paper for thursday https://arxiv.org/abs/1512.03385\n"
            "arXiv.orgarXiv.org\n"
            "Deep Residual Learning for Image Recognition\n"
            "Deeper neural networks are more difficult to train. We present a residual learning framework…\n"
            "Ben Li  10:05 AM\n"
            "code is here https://github.com/KaimingHe/deep-residual-networks\n"
            "github.comgithub.com\n"
            "GitHub - KaimingHe/deep-residual-networks: Deep Residual Learning for Image Recognition\n")
    for name in ("slack.txt", "slack.md"):
        mentions = extract_text(text, name).mentions
        preview = [m for m in mentions if m.location.line == 4]
        assert [(m.title, m.ids.arxiv) for m in preview] == [("Deep Residual Learning for Image Recognition", "1512.03385")]
        assert all(m.ids.arxiv == "1512.03385" for m in mentions)  # the repository is no paper


NUMBERED_ACM = """REFERENCES
[1] Jordan Hoffmann, Sebastian Borgeaud, Arthur Mensch, Elena Buchatskaya, Trevor
Cai, Eliza Rutherford, Diego de Las Casas, Lisa Anne Hendricks, Johannes Welbl,
Aidan Clark, et al. 2022. Training Compute-Optimal Large Language Models.
arXiv:2203.15556 [cs.CL]
[2] Jared Kaplan, Sam McCandlish, Tom Henighan, Tom B. Brown, Benjamin Chess,
Rewon Child, Scott Gray, Alec Radford, Jeffrey Wu, and Dario Amodei. 2020. Scaling
Laws for Neural Language Models. arXiv:2001.08361 [cs.LG]
"""


@pytest.mark.parametrize("name", ["refs.txt", "refs.md"])
def test_a_numbered_list_starts_its_references_at_their_numbers_only(name):
    result = extract_text(NUMBERED_ACM, name)
    assert [(m.location.line, m.title) for m in result.mentions] == [
        (2, "Training Compute-Optimal Large Language Models"), (6, "Scaling Laws for Neural Language Models")]
    first, second = result.mentions
    assert first.authors[0] == "Jordan Hoffmann" and first.authors_incomplete
    assert first.pins.arxiv == "2203.15556" or first.ids.arxiv == "2203.15556"
    assert not result.problems  # "arXiv:2203.15556 [cs.CL]" is how arXiv cites itself


NUMBERED_ACM_YEAR_WRAP = """[3] Tom Brown and Benjamin Mann. 2020. Language Models are Few-Shot Learners.
[4] Google. 2021. Flax documentation. https://example.org/flax/
[5] Ashish Vaswani, Noam Shazeer, Niki Parmar, Jakob Uszkoreit, Llion Jones,
Aidan N. Gomez, Lukasz Kaiser, and Illia Polosukhin.
2017. Attention Is All You Need. In Advances in Neural Information Processing
Systems 30.
"""


@pytest.mark.parametrize("name", ["refs.txt", "refs.md"])
def test_a_wrapped_line_that_starts_with_the_year_is_no_reference_number(name):
    # the numbering is read over the whole run of lines (the paragraph of "[5]" holds one
    # number only), and "2017." after "[5]" is no number of the list: it goes on from 5
    result = extract_text(NUMBERED_ACM_YEAR_WRAP, name)
    by_line = {m.location.line: m.title for m in result.mentions}
    assert by_line.get(3) == "Attention Is All You Need"
    assert 5 not in by_line


@pytest.mark.parametrize("name", ["tweets.txt", "tweets.md"])
def test_a_link_after_an_icon_is_still_a_link(name):
    text = "🚨 New paper thread\n\nWe study how proxy reward models…\n\n📄 arxiv.org/abs/2210.10760\n🔗 github.com/openai/gao-rm\n"
    from citekit.notes.urls import add_missing_schemes

    mentions = extract_text(add_missing_schemes(text), name).mentions
    assert [m.ids.arxiv for m in mentions] == ["2210.10760"]


def test_a_reference_to_software_or_a_blog_post_is_not_a_paper():
    text = ("[1] Sourab Mangrulkar, Sylvain Gugger, Lysandre Debut, and Younes Belkada. 2022. PEFT: State-of-the-art\n"
            "parameter-efficient fine-tuning methods. https://github.com/huggingface/peft\n"
            "[2] Wei-Lin Chiang, Zhuohan Li, Zi Lin, and Ying Sheng. 2023. Vicuna: An open-source chatbot impressing\n"
            "GPT-4 with 90% ChatGPT quality. https://lmsys.org/blog/2023-03-30-vicuna/\n"
            "[3] Edward J. Hu, Yelong Shen, Phillip Wallis, and Zeyuan Allen-Zhu. 2022. LoRA: Low-rank adaptation of large\n"
            "language models. In International Conference on Learning Representations.\n")
    assert [m.title for m in extract_text(text, "refs.txt").mentions] == ["LoRA: Low-rank adaptation of large language models"]


AUTHOR_YEAR_HANGING = """REFERENCES
Yann Dauphin, Razvan Pascanu, Caglar Gulcehre, Kyunghyun Cho, Surya Ganguli, and Yoshua
   Bengio. Identifying and attacking the saddle point problem in high-dimensional non-convex
   optimization. In Advances in Neural Information Processing Systems, 2014.
Sergey Ioffe and Christian Szegedy. Batch normalization: Accelerating deep network training
   by reducing internal covariate shift. arXiv preprint arXiv:1502.03167, 2015.
Priya Goyal, Piotr Dollár, Ross Girshick, Pieter Noordhuis, Lukasz Wesolowski, Aapo Kyrola,
   Andrew Tulloch, Yangqing Jia, and Kaiming He. Accurate, large minibatch SGD: training
   ImageNet in 1 hour. arXiv preprint arXiv:1706.02677, 2017.
Ilya Loshchilov and Frank Hutter. SGDR: Stochastic gradient descent with warm restarts. In
   International Conference on Learning Representations, 2017.
"""

AUTHOR_YEAR_FLUSH_WITH_PAGE_BREAK = """Bibliography
Mikhail Belkin, Siyuan Ma, and Soumik Mandal. To understand deep learning we need to understand
kernel learning. In International Conference on Machine Learning, pages 541–549, 2018.
Leon Bottou, Frank E. Curtis, and Jorge Nocedal. Optimization methods for large-scale machine
learning. SIAM Review, 60(2):223–311, 2018.

                                          14
Under review as a conference paper at ICLR 2027

John Duchi, Elad Hazan, and Yoram Singer. Adaptive subgradient methods for online learning and
stochastic optimization. Journal of Machine Learning Research, 12:2121–2159, 2011.
Moritz Hardt, Ben Recht, and Yoram Singer. Train faster, generalize better: Stability of
stochastic gradient descent. In International Conference on Machine Learning, 2016.
"""


@pytest.mark.parametrize("name", ["refs.txt", "refs.md"])
def test_an_author_year_list_starts_a_reference_at_each_author_list(name):
    # no numbers: the next reference starts where a line opens on an author list after a
    # line that ended as a reference ends ("…, 2015."), however the list is indented
    mentions = extract_text(AUTHOR_YEAR_HANGING, name).mentions
    assert [(m.location.line, m.title) for m in mentions] == [
        (2, "Identifying and attacking the saddle point problem in high-dimensional non-convex optimization"),
        (5, "Batch normalization: Accelerating deep network training by reducing internal covariate shift"),
        (7, "Accurate, large minibatch SGD: training ImageNet in 1 hour"),
        (10, "SGDR: Stochastic gradient descent with warm restarts")]
    assert mentions[2].authors[:2] == ["Priya Goyal", "Piotr Dollár"] and len(mentions[2].authors) == 9
    assert mentions[1].ids.arxiv == "1502.03167" and mentions[2].ids.arxiv == "1706.02677"


@pytest.mark.parametrize("name", ["refs.txt", "refs.md"])
def test_a_flush_left_list_across_a_page_break(name):
    result = extract_text(AUTHOR_YEAR_FLUSH_WITH_PAGE_BREAK, name)
    assert [(m.location.line, m.title) for m in result.mentions] == [
        (2, "To understand deep learning we need to understand kernel learning"),
        (4, "Optimization methods for large-scale machine learning"),
        (10, "Adaptive subgradient methods for online learning and stochastic optimization"),
        (12, "Train faster, generalize better: Stability of stochastic gradient descent")]


def test_an_org_body_whose_quoted_title_wraps_is_one_mention():
    text = ("* Reading\n"
            "** READ Dropout                                                       :reg:\n"
            "   SCHEDULED: <2026-03-02 Mon>\n"
            "   :LOGBOOK:\n"
            "   CLOCK: [2026-03-02 Mon 09:00]--[2026-03-02 Mon 09:40] =>  0:40\n"
            "   :END:\n"
            "   Srivastava, Hinton, Krizhevsky -- \"Dropout: A Simple Way to Prevent Neural Networks\n"
            "   from Overfitting\", JMLR 2014\n"
            "   - the co-adaptation argument is in section 2\n")
    mentions = extract_text(text, "reading.org").mentions
    assert [(m.location.line, m.title) for m in mentions] == [
        (7, "Dropout: A Simple Way to Prevent Neural Networks from Overfitting")]


@pytest.mark.parametrize("name", ["refs.txt", "refs.md"])
def test_hyphenated_initials_are_a_name(name):
    text = ("[3] W.-L. Chiang, Z. Li, Z. Lin, Y. Sheng, Z. Wu, H. Zhang, L. Zheng, S. Zhuang, Y. Zhuang, and\n"
            "C.-J. Hsieh, “Vicuna-style evaluation of open chat models,” in Proc. EMNLP, 2023.\n"
            "[4] T.-Y. Lin, P. Goyal, R. Girshick, K. He, and P. Dollár, “Focal loss for dense object\n"
            "detection,” in Proc. ICCV, 2017.\n")
    mentions = extract_text(text, name).mentions
    assert [m.title for m in mentions] == ["Vicuna-style evaluation of open chat models", "Focal loss for dense object detection"]
    assert mentions[0].authors[0] == "W.-L. Chiang" and mentions[0].authors[-1] == "C.-J. Hsieh"
    assert mentions[1].authors[0] == "T.-Y. Lin"
