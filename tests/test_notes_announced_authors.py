"""A copied post that announces a paper (``🚨 New paper: Title``) and names its authors on
the next paragraph of the post: the announced title takes them."""

from __future__ import annotations

from tests.helpers_extract import api_mentions as _mentions

POST = (
    "Graph Papers Bot\n@graphpapers\n·\nMar 3, 2024\n"
    "🚨 New paper: Graph Attention Networks\n\n"
    "Petar Veličković, Guillem Cucurull\n\n"
    "Attention over neighbourhoods, no spectral tricks.\n"
)


def test_the_authors_below_an_announced_title(tmp_path):
    (mention,) = [m for m in _mentions(tmp_path, "saved_posts.txt", POST) if m.title]
    assert (mention.title, mention.authors) == ("Graph Attention Networks", ["Petar Veličković", "Guillem Cucurull"])


def test_an_announced_title_with_prose_below_has_no_authors(tmp_path):
    text = POST.replace("Petar Veličković, Guillem Cucurull\n\n", "")
    (mention,) = [m for m in _mentions(tmp_path, "saved_posts.txt", text) if m.title]
    assert (mention.title, mention.authors) == ("Graph Attention Networks", [])
