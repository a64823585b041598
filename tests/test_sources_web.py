"""Web pages the notes link, read for their paper: what a page gives, and every way it may
refuse (no paper on it, another paper than the line's, gone, too large), through resolution
against the loopback fakes (the ``web`` fake serves pages as ``CITEKIT_WEB_URL/host/path``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from citekit.core.model import Location
from citekit.core.resolution import Mention
from citekit.resolve.pipeline import resolve_groups
from citekit.sources import SourceSettings, build_client, build_sources, open_cache
from citekit.sources.web import github_repo, read_citation_cff, read_html, read_readme

from .fakeservices import FakeServices
from .fakeservices.pages import lab_home_page, project_page
from .fakeservices.resolving import sources_for
from .fakeservices.world import World

REPO = Path(__file__).resolve().parents[1]
WORLD = World.load()
HYPERSCALE = next(p for p in WORLD.papers if p.get("project_page"))
PAGE = HYPERSCALE["project_page"]


def _sources(fake: FakeServices, cache_dir: Path | None = None):
    return sources_for(fake, cache_dir)[0]


def _mention(*, title: str | None = None, link: str, authors: list[str] | None = None) -> Mention:
    return Mention(kind="titled" if title else "url", location=Location("notes/n.txt", 3), title=title,
                   authors=authors or [], links={"project": link})


def _resolve(fake: FakeServices, mention: Mention, cache_dir: Path | None = None):
    report = resolve_groups([[mention]], _sources(fake, cache_dir), jobs=1)
    return report.works[0]


# ------------------------------------------------------------------------------ reading pages


def test_a_project_page_gives_its_paper_from_its_citation_tags_first() -> None:
    facts = read_html(PAGE, project_page(HYPERSCALE))
    assert facts.status == "paper"
    assert facts.title == "Evolution Strategies at the Hyperscale"
    assert facts.authors[:2] == ["Bidipta Sarkar", "Mattie Fellows"]
    assert facts.ids == {"arxiv": "2511.16652"}
    assert facts.read_from[0] == "citation_* tags" and "BibTeX block" in facts.read_from
    # the page's own paper is linked most; a related paper's link comes after it
    assert facts.linked[0] == ("arxiv", "2511.16652") and ("arxiv", "1703.03864") in facts.linked


def test_each_kind_of_embedded_metadata_is_read_on_its_own() -> None:
    dc = read_html("https://x.org/p", '<meta name="DC.title" content="A Paper"><meta name="DC.creator" '
                                       'content="Doe, Jane"><meta name="DC.identifier" content="doi:10.1145/1234.5678">')
    assert (dc.title, dc.authors, dc.ids) == ("A Paper", ["Jane Doe"], {"doi": "10.1145/1234.5678"})
    ld = read_html("https://x.org/p", '<script type="application/ld+json">{"@context": "https://schema.org", '
                                       '"@type": "ScholarlyArticle", "headline": "B Paper", "author": '
                                       '[{"@type": "Person", "name": "Ann Lee"}], "datePublished": "2025-03-01"}'
                                       '</script>')
    assert (ld.title, ld.authors, ld.year, ld.read_from) == ("B Paper", ["Ann Lee"], 2025, ["JSON-LD ScholarlyArticle"])
    coins = read_html("https://x.org/p", '<span class="Z3988" title="ctx_ver=Z39.88-2004&amp;rft.atitle=C+Paper'
                                          '&amp;rft.au=Bo+Chen&amp;rft.date=2024"></span>')
    assert (coins.title, coins.authors, coins.year) == ("C Paper", ["Bo Chen"], 2024)
    bib = read_html("https://x.org/p", "<pre><code>@inproceedings{k,\n title={D Paper},\n author={Kim, Su},\n"
                                        " eprint={2501.01234}, archivePrefix={arXiv},\n year={2025}}</code></pre>")
    assert (bib.title, bib.authors, bib.ids) == ("D Paper", ["Su Kim"], {"arxiv": "2501.01234"})


def test_a_page_about_no_one_paper_says_so() -> None:
    facts = read_html("https://lab.example.org/", lab_home_page())
    assert facts.status == "no-paper" and facts.title is None and facts.ids == {}
    assert "no one paper" in facts.outcome()
    # og:title alone (every page has one) is not a paper
    assert read_html("https://x.org/", '<meta property="og:title" content="Our Blog">').status == "no-paper"


def test_a_repository_is_read_through_citation_cff_or_its_readme() -> None:
    assert github_repo("https://github.com/ESHyperscale/HyperscaleES") == ("ESHyperscale", "HyperscaleES")
    assert github_repo("https://github.com/ESHyperscale/HyperscaleES/issues/3") is None
    cff = read_citation_cff("https://github.com/o/r", "cff-version: 1.2.0\ntitle: software\npreferred-citation:\n"
                            "  type: article\n  title: E Paper\n  authors:\n    - family-names: Sato\n"
                            "      given-names: Ken\n  identifiers:\n    - type: url\n"
                            "      value: https://arxiv.org/abs/2502.00001\n")
    assert (cff.title, cff.authors, cff.ids) == ("E Paper", ["Ken Sato"], {"arxiv": "2502.00001"})
    readme = read_readme("https://github.com/o/r", "# R\n[![arXiv](https://img.shields.io/badge/arXiv-2511.16652-b31b1b.svg)]"
                                                   "(https://arxiv.org/abs/2511.16652)\n")
    assert readme.linked[0] == ("arxiv", "2511.16652")


# ------------------------------------------------------------------------------ through resolution


@pytest.fixture()
def fake():
    with FakeServices() as services:
        yield services


def test_a_bare_project_page_resolves_to_the_paper_it_names(fake) -> None:
    work = _resolve(fake, _mention(link=PAGE))
    assert work.status == "resolved", work.reason
    assert (work.chosen.source, work.chosen.id) == ("arxiv", "2511.16652")
    assert "read from the page" in work.reason and "citation_* tags" in work.reason
    assert fake.requests("web") == 1


def test_a_page_with_no_paper_gives_nothing_and_says_so(fake) -> None:
    fake.web_page("https://optlab.example.org/", lab_home_page())
    work = _resolve(fake, _mention(link="https://optlab.example.org/"))
    assert work.status == "notes-only" and work.chosen is None
    assert "describes no one paper" in work.reason


def test_a_page_for_another_paper_than_the_lines_title_is_not_attached(fake) -> None:
    fake.web_page("https://another.github.io/", project_page(HYPERSCALE))
    mention = _mention(title="Sparse Tangent Kernels Explain Nothing At All", authors=["Una Nadie"],
                       link="https://another.github.io/")
    work = _resolve(fake, mention)
    assert work.status != "resolved" and work.chosen is None, work.reason
    assert "Evolution Strategies at the Hyperscale" in work.reason and "no source confirms" in work.reason


def test_a_page_that_is_gone_is_a_clear_404(fake) -> None:
    work = _resolve(fake, _mention(link="https://gone.github.io/"))
    assert work.status == "notes-only" and "404" in work.reason
    assert fake.requests("web") == 1


def test_an_oversized_page_is_not_read_and_asked_once(fake, tmp_path) -> None:
    big = project_page(HYPERSCALE).replace("</body>", "<p>" + "x" * (3 * 1024 * 1024) + "</p></body>")
    fake.web_page("https://huge.github.io/", big)
    work = _resolve(fake, _mention(link="https://huge.github.io/"), tmp_path / "cache")
    assert work.status == "notes-only" and work.chosen is None
    assert "larger than sources.web.max_mb" in work.reason
    again = _resolve(fake, _mention(link="https://huge.github.io/"), tmp_path / "cache")
    assert again.reason == work.reason
    assert fake.requests("web") == 1  # the outcome is cached: a second run asks nothing


def test_a_page_that_is_not_html_is_not_read(fake) -> None:
    fake.web_page("https://files.example.org/paper", b"%PDF-1.5 ...", content_type="application/pdf")
    work = _resolve(fake, _mention(link="https://files.example.org/paper"))
    assert work.status == "notes-only" and "not an HTML page" in work.reason


# ------------------------------------------------------------------------------ redirects


def test_a_page_moved_to_another_site_is_refused_alone_and_the_next_page_is_read(fake) -> None:
    fake.web_redirect("https://moved.github.io/paper", "https://parked-domains.example.com/lander")
    fake.web_page("https://parked-domains.example.com/lander", project_page(HYPERSCALE))
    report = resolve_groups([[_mention(link="https://moved.github.io/paper")], [_mention(link=PAGE)]],
                            _sources(fake), jobs=1)
    moved, page = report.works
    assert moved.status == "notes-only" and moved.chosen is None
    assert ("redirected to another site (https://parked-domains.example.com/lander): not read" in moved.reason)
    # the web source stayed up: the next page was read and resolved
    assert page.status == "resolved" and (page.chosen.source, page.chosen.id) == ("arxiv", "2511.16652")
    assert fake.requests("web") == 2  # the moved page and the next one; the other site never asked


def test_a_page_moved_within_its_site_is_followed(fake) -> None:
    fake.web_redirect("https://lab.github.io/es", "/es-hyperscale/")
    fake.web_page("https://lab.github.io/es-hyperscale/", project_page(HYPERSCALE))
    work = _resolve(fake, _mention(link="https://lab.github.io/es"))
    assert work.status == "resolved", work.reason
    assert (work.chosen.source, work.chosen.id) == ("arxiv", "2511.16652")
    assert "read from the page https://lab.github.io/es " in work.reason
    assert fake.requests("web") == 2


def test_a_page_that_keeps_moving_is_given_up_after_three_redirects(fake) -> None:
    for a, b in (("a", "b"), ("b", "c"), ("c", "d"), ("d", "e")):
        fake.web_redirect(f"https://loop.github.io/{a}", f"https://loop.github.io/{b}")
    fake.web_page("https://loop.github.io/e", project_page(HYPERSCALE))
    work = _resolve(fake, _mention(link="https://loop.github.io/a"))
    assert work.status == "notes-only" and "redirected more than 3 times: not read" in work.reason
    assert fake.requests("web") == 4


def test_a_redirect_to_another_scheme_is_never_followed(fake) -> None:
    fake.web_redirect("https://odd.github.io/p", "file:///etc/passwd")
    work = _resolve(fake, _mention(link="https://odd.github.io/p"))
    assert work.status == "notes-only" and "not a public web page" in work.reason


def test_without_the_override_a_redirect_to_a_private_address_is_refused(fake) -> None:
    env = {k: v for k, v in fake.env().items() if k != "CITEKIT_WEB_URL"}
    settings = SourceSettings.from_env({}, REPO, env=dict(env, CITEKIT_RATE_LIMITS="off"))
    settings.cache_dir, settings.retries = None, 1
    client = build_client(settings)
    client.sleep = lambda seconds: None
    sources = build_sources(settings, client=client, cache=open_cache(settings))
    # a page (here on loopback: no test reaches the internet) that sends the reader to the
    # user's own machine: followed, it would read whatever answers there
    fake.web_redirect("https://intranet.example/p", "/admin")
    fake.web_page("https://intranet.example/admin", project_page(HYPERSCALE))
    local = fake.url_for("web") + "/intranet.example/p"
    work = resolve_groups([[_mention(link=local)]], sources, jobs=1).works[0]
    assert work.status == "notes-only" and work.chosen is None
    assert "not a public web page" in work.reason and "/admin" in work.reason
    assert fake.requests("web") == 1


# ------------------------------------------------------------------------------ proceedings links

ACL_TITLE = "Counting Tokens Twice: Calibrated Decoding for Long-Form Summaries"
PMLR_TITLE = "Sharper Curvature Bounds for Sign-Based Optimizers"


def _page_with_buttons(title: str, authors: list[str], year: int, buttons: list[str], bibtex: str = "") -> str:
    """A project page in the Nerfies/Academic Project Page shape: citation tags without an
    identifier, "Paper"/"PDF"/"Code" buttons, a related-work link, a BibTeX block."""
    metas = "\n".join([f'  <meta name="citation_title" content="{title}">',
                       *(f'  <meta name="citation_author" content="{a.split()[-1]}, {a.split()[0]}">' for a in authors),
                       f'  <meta name="citation_publication_date" content="{year}/07/10">',
                       f'  <meta property="og:title" content="{title}"/>'])
    links = "\n".join(f'    <span class="link-block"><a href="{href}" target="_blank" class="external-link button '
                      f'is-normal is-rounded is-dark"><span>{label}</span></a></span>'
                      for label, href in zip(("Paper", "PDF", "Code", "Slides"), buttons))
    return (f"<!DOCTYPE html><html><head>\n  <meta charset=\"utf-8\">\n{metas}\n  <title>{title}</title>\n</head>"
            f"<body>\n  <h1 class=\"title is-1 publication-title\">{title}</h1>\n  <div class=\"publication-links\">\n"
            f"{links}\n  </div>\n  <p>We build on <a href=\"https://aclweb.org/anthology/P19-1001\">earlier work</a>.</p>\n"
            f"  <section id=\"BibTeX\"><pre><code>{bibtex}</code></pre></section>\n</body></html>")


def test_acl_anthology_and_pmlr_links_on_a_page_are_paper_identifiers() -> None:
    page = _page_with_buttons(ACL_TITLE, ["Ana Kim"], 2023, ["https://aclanthology.org/2023.acl-long.1.pdf",
                                                             "https://aclanthology.org/2023.acl-long.1/"])
    facts = read_html("https://ana.github.io/ctt/", page)
    assert facts.linked[0] == ("doi", "10.18653/v1/2023.acl-long.1")  # linked twice: the page's paper
    assert ("doi", "10.18653/v1/p19-1001") in facts.linked  # the old aclweb.org address, linked once
    pmlr = read_html("https://x.org/p", '<a href="https://proceedings.mlr.press/v202/kim23a.html">Paper</a>'
                                        '<a href="http://proceedings.mlr.press/v202/kim23a/kim23a.pdf">PDF</a>'
                                        '<meta name="citation_pdf_url" content="https://proceedings.mlr.press/v202/'
                                        'kim23a/kim23a.pdf"><meta name="citation_title" content="T">')
    assert pmlr.linked == [("pmlr", "v202/kim23a")] and pmlr.ids == {"pmlr": "v202/kim23a"}


def _acl_item() -> dict:
    return {"indexed": {"date-parts": [[2026, 7, 1]], "date-time": "2026-07-01T00:00:00Z", "timestamp": 1782864000000},
            "reference-count": 42, "publisher": "Association for Computational Linguistics",
            "DOI": "10.18653/v1/2023.acl-long.1", "type": "proceedings-article",
            "created": {"date-parts": [[2023, 8, 1]], "date-time": "2023-08-01T10:00:00Z", "timestamp": 0},
            "source": "Crossref", "is-referenced-by-count": 7, "title": [ACL_TITLE], "prefix": "10.18653",
            "member": "2493", "container-title": ["Proceedings of the 61st Annual Meeting of the Association for "
                                                  "Computational Linguistics (Volume 1: Long Papers)"],
            "author": [{"given": "Ana", "family": "Kim", "sequence": "first", "affiliation": []},
                       {"given": "Tomas", "family": "Berg", "sequence": "additional", "affiliation": []}],
            "URL": "https://doi.org/10.18653/v1/2023.acl-long.1", "issued": {"date-parts": [[2023]]},
            "published": {"date-parts": [[2023]]}, "page": "1-18"}


def test_a_page_whose_paper_button_is_an_acl_anthology_pdf_resolves_through_its_doi(fake) -> None:
    fake.world.crossref_items.append({"item": _acl_item(), "bias": 0.0})
    fake.web_page("https://ana.github.io/ctt/", _page_with_buttons(
        ACL_TITLE, ["Ana Kim", "Tomas Berg"], 2023,
        ["https://aclanthology.org/2023.acl-long.1.pdf", "https://aclanthology.org/2023.acl-long.1",
         "https://github.com/ana/ctt"]))
    work = _resolve(fake, _mention(link="https://ana.github.io/ctt/"))
    assert work.status == "resolved", work.reason
    assert work.chosen.ids.doi == "10.18653/v1/2023.acl-long.1"
    assert "its DOI 10.18653/v1/2023.acl-long.1" in work.reason
    # the link named the record: one Crossref lookup, no searches by title anywhere
    assert fake.requests("crossref") == 1 and fake.requests("dblp") == 0 and fake.requests("openreview") == 0


def test_a_page_whose_paper_button_is_a_pmlr_page_resolves_to_the_record_linking_it(fake) -> None:
    from .fakeservices import templates

    key = "conf/icml/KimB23"
    fake.world.dblp[key] = templates.dblp_info({
        "authors": {"author": [{"@pid": "311/1", "text": "Jae Kim"}, {"@pid": "311/2", "text": "Lea Brandt"}]},
        "title": PMLR_TITLE + ".", "venue": "ICML", "pages": "16001-16020", "year": "2023",
        "type": "Conference and Workshop Papers", "access": "open", "key": key,
        "ee": "https://proceedings.mlr.press/v202/kim23a.html", "url": f"https://dblp.org/rec/{key}"})
    fake.world.dblp_bib[key] = {"author": "Jae Kim and Lea Brandt", "title": PMLR_TITLE,
                                "booktitle": "International Conference on Machine Learning, {ICML} 2023, 23-29 July "
                                             "2023, Honolulu, Hawaii, {USA}",
                                "series": "Proceedings of Machine Learning Research", "volume": "202",
                                "pages": "16001--16020", "publisher": "{PMLR}", "year": "2023",
                                "url": "https://proceedings.mlr.press/v202/kim23a.html"}
    fake.web_page("https://jaekim.github.io/sign-curvature", _page_with_buttons(
        PMLR_TITLE, ["Jae Kim", "Lea Brandt"], 2023,
        ["https://proceedings.mlr.press/v202/kim23a.html", "https://proceedings.mlr.press/v202/kim23a/kim23a.pdf"]))
    work = _resolve(fake, _mention(link="https://jaekim.github.io/sign-curvature"))
    assert work.status == "resolved", work.reason
    assert (work.chosen.source, work.chosen.id) == ("dblp", key)
    assert "its PMLR paper v202/kim23a" in work.reason


# ------------------------------------------------------------------------------ repositories

RAW = "https://raw.githubusercontent.com/ESHyperscale/HyperscaleES/HEAD"


def test_a_bare_repository_whose_readme_has_an_arxiv_badge_resolves_to_that_paper(fake) -> None:
    fake.web_page(f"{RAW}/README.md", "# HyperscaleES\n\n[![arXiv](https://img.shields.io/badge/arXiv-2511.16652-b31b1b.svg)]"
                                      "(https://arxiv.org/abs/2511.16652)\n\nWe build on [ES](https://arxiv.org/abs/1703.03864).\n",
                  content_type="text/plain; charset=utf-8")
    work = _resolve(fake, _mention(link="https://github.com/ESHyperscale/HyperscaleES"))
    assert work.status == "resolved", work.reason
    assert (work.chosen.source, work.chosen.id) == ("arxiv", "2511.16652")
    assert "README arXiv badge" in work.reason
    assert fake.requests("web") == 2  # CITATION.cff (none: 404), then the README


def test_a_readme_that_links_several_papers_names_none_of_them(fake) -> None:
    fake.web_page(f"{RAW}/README.md", "# Notes\n\nSee https://arxiv.org/abs/2511.16652 and https://arxiv.org/abs/1703.03864.\n",
                  content_type="text/plain; charset=utf-8")
    work = _resolve(fake, _mention(link="https://github.com/ESHyperscale/HyperscaleES"))
    assert work.status == "notes-only" and work.chosen is None
    assert "describes no one paper" in work.reason


def test_a_readme_whose_only_link_is_a_doi_names_no_paper() -> None:
    # a lone DOI in a README is as often the software's own (Zenodo) or a data set's
    facts = read_readme("https://github.com/o/r", "# r\n\nArchived at https://doi.org/10.5281/zenodo.1234567.\n")
    assert facts.status == "no-paper" and facts.ids == {}
    one = read_readme("https://github.com/o/r", "# r\n\nCode for https://arxiv.org/abs/2511.16652.\n")
    assert one.status == "paper" and one.ids == {"arxiv": "2511.16652"}
