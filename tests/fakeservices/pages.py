"""Web pages the fake ``web`` service serves: papers' project pages in the shape ML project
pages really have, and the pages a notes link may lead to that are no paper's.

A project page is rendered like the common GitHub Pages templates (the "Nerfies" Bulma page
and the academic project page template derived from it): Highwire ``citation_*`` meta tags,
``og:`` and ``twitter:`` tags, a JSON-LD ``ScholarlyArticle``, a title and author blocks,
"Paper" / "arXiv" / "Code" buttons, a related-work link to another arXiv paper, and a
BibTeX block at the bottom. Pages are keyed by ``host/path`` (no scheme, no trailing slash),
which is how ``CITEKIT_WEB_URL/host/path`` addresses them.
"""

from __future__ import annotations

import json
from html import escape
from typing import Any
from urllib.parse import urlsplit


def page_key(url: str) -> str:
    """``https://host/path/`` → ``host/path``: the key a page is served under."""
    parts = urlsplit(url if "://" in url else "https://" + url)
    return (parts.netloc.lower() + parts.path).rstrip("/")


def _last_first(name: str) -> str:
    """``Bidipta Sarkar`` → ``Sarkar, Bidipta``: how ``citation_author`` is usually written."""
    first, _, last = name.rpartition(" ")
    return f"{last}, {first}" if first else name


def project_page(paper: dict[str, Any]) -> str:
    """The project page of a world paper with an arXiv version (``paper["project_page"]``)."""
    title = paper["title"]
    authors = paper["authors"]
    aid = paper["arxiv"]["id"]
    first_date = paper["arxiv"]["versions"][0]["date"][:10]
    year = first_date[:4]
    url = paper["project_page"]
    metas = [
        '<meta charset="utf-8">',
        f'<meta name="description" content="{escape(paper["abstract"][:160])}">',
        f'<meta property="og:title" content="{escape(title)}"/>',
        f'<meta property="og:description" content="{escape(paper["abstract"][:200])}"/>',
        f'<meta property="og:url" content="{escape(url)}"/>',
        '<meta property="og:image" content="static/images/teaser.png"/>',
        '<meta property="og:image:width" content="1200"/>',
        '<meta property="og:image:height" content="630"/>',
        f'<meta name="twitter:title" content="{escape(title)}">',
        '<meta name="twitter:card" content="summary_large_image">',
        '<meta name="keywords" content="evolution strategies, low-rank, large language models">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f'<meta name="citation_title" content="{escape(title)}">',
        *(f'<meta name="citation_author" content="{escape(_last_first(a))}">' for a in authors),
        f'<meta name="citation_publication_date" content="{first_date.replace("-", "/")}">',
        f'<meta name="citation_arxiv_id" content="{aid}">',
        f'<meta name="citation_pdf_url" content="https://arxiv.org/pdf/{aid}">',
    ]
    ld = {"@context": "https://schema.org", "@type": "ScholarlyArticle", "headline": title,
          "description": paper["abstract"][:300],
          "author": [{"@type": "Person", "name": a} for a in authors],
          "datePublished": first_date, "url": url, "sameAs": f"https://arxiv.org/abs/{aid}"}
    author_blocks = "\n".join(
        f'            <span class="author-block"><a href="#" target="_blank">{escape(a)}</a>'
        f'<sup>{1 + i % 3}</sup>{"," if i < len(authors) - 1 else ""}</span>' for i, a in enumerate(authors))
    bib_authors = " and ".join(_last_first(a) for a in authors)
    first_last = authors[0].split()[-1].lower()
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
  {chr(10).join('  ' + m for m in metas).strip()}
  <title>{escape(title)}</title>
  <link rel="icon" type="image/x-icon" href="static/images/favicon.ico">
  <link href="https://fonts.googleapis.com/css?family=Google+Sans|Noto+Sans|Castoro" rel="stylesheet">
  <link rel="stylesheet" href="static/css/bulma.min.css">
  <link rel="stylesheet" href="static/css/fontawesome.all.min.css">
  <link rel="stylesheet" href="static/css/index.css">
  <script src="https://ajax.googleapis.com/ajax/libs/jquery/3.5.1/jquery.min.js"></script>
  <script defer src="static/js/fontawesome.all.min.js"></script>
  <script type="application/ld+json">
{json.dumps(ld, ensure_ascii=False, indent=2)}
  </script>
</head>
<body>
  <section class="hero">
    <div class="hero-body">
      <div class="container is-max-desktop">
        <div class="columns is-centered">
          <div class="column has-text-centered">
            <h1 class="title is-1 publication-title">{escape(title)}</h1>
            <div class="is-size-5 publication-authors">
{author_blocks}
            </div>
            <div class="is-size-5 publication-authors">
              <span class="author-block"><sup>1</sup>University of Oxford, <sup>2</sup>Mila,
                <sup>3</sup>NVIDIA AI Technology Center</span>
            </div>
            <div class="column has-text-centered">
              <div class="publication-links">
                <span class="link-block">
                  <a href="https://arxiv.org/pdf/{aid}" target="_blank" class="external-link button is-normal is-rounded is-dark">
                    <span class="icon"><i class="fas fa-file-pdf"></i></span><span>Paper</span></a>
                </span>
                <span class="link-block">
                  <a href="https://arxiv.org/abs/{aid}" target="_blank" class="external-link button is-normal is-rounded is-dark">
                    <span class="icon"><i class="ai ai-arxiv"></i></span><span>arXiv</span></a>
                </span>
                <span class="link-block">
                  <a href="https://github.com/ESHyperscale/HyperscaleES" target="_blank" class="external-link button is-normal is-rounded is-dark">
                    <span class="icon"><i class="fab fa-github"></i></span><span>Code</span></a>
                </span>
              </div>
            </div>
          </div>
        </div>
      </div>
    </div>
  </section>
  <section class="section hero is-light">
    <div class="container is-max-desktop">
      <div class="columns is-centered has-text-centered">
        <div class="column is-four-fifths">
          <h2 class="title is-3">Abstract</h2>
          <div class="content has-text-justified"><p>{escape(paper["abstract"])}</p></div>
        </div>
      </div>
    </div>
  </section>
  <section class="section">
    <div class="container is-max-desktop content">
      <h2 class="title">Related Work</h2>
      <p>Our method builds on <a href="https://arxiv.org/abs/1703.03864">Evolution Strategies as a Scalable
        Alternative to Reinforcement Learning</a> and on low-rank adapters.</p>
    </div>
  </section>
  <section class="section" id="BibTeX">
    <div class="container is-max-desktop content">
      <h2 class="title">BibTeX</h2>
      <pre><code>@article{{{first_last}{year}evolution,
  title={{{escape(title)}}},
  author={{{escape(bib_authors)}}},
  journal={{arXiv preprint arXiv:{aid}}},
  year={{{year}}}
}}</code></pre>
    </div>
  </section>
  <footer class="footer">
    <div class="container"><div class="columns is-centered"><div class="column is-8"><div class="content">
      <p>This page was built using the <a href="https://github.com/eliahuhorwitz/Academic-project-page-template"
        target="_blank">Academic Project Page Template</a>, adopted from the <a href="https://nerfies.github.io"
        target="_blank">Nerfies</a> project page.</p>
    </div></div></div></div>
  </footer>
</body>
</html>
"""


def lab_home_page() -> str:
    """A lab's home page: news and a list of many papers, about no one paper."""
    items = "\n".join(
        f'      <li><a href="https://arxiv.org/abs/{aid}">{escape(t)}</a> ({venue})</li>'
        for aid, t, venue in (("2505.13416", "Gluon: Making Muon & Scion Great Again!", "arXiv 2025"),
                              ("2511.16652", "Evolution Strategies at the Hyperscale", "arXiv 2025"),
                              ("1703.03864", "Evolution Strategies as a Scalable Alternative to RL", "2017")))
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta property="og:title" content="Optimization Lab"/>
  <meta property="og:type" content="website"/>
  <title>Optimization Lab</title>
</head>
<body>
  <h1>Optimization Lab</h1>
  <h2>News</h2>
  <p>Three papers accepted at ICML 2026! We are hiring PhD students.</p>
  <h2>Selected publications</h2>
  <ul>
{items}
  </ul>
</body>
</html>
"""


def pages_for(papers: list[dict[str, Any]]) -> dict[str, tuple[int, str, bytes]]:
    """``host/path`` → (status, content type, body) for every world paper with a project page."""
    out: dict[str, tuple[int, str, bytes]] = {}
    for paper in papers:
        if paper.get("project_page") and paper.get("arxiv"):
            out[page_key(paper["project_page"])] = (200, "text/html; charset=utf-8",
                                                   project_page(paper).encode("utf-8"))
    return out
