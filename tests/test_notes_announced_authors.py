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


def test_an_announced_title_under_a_header_dated_without_a_year(tmp_path):
    # the post's header ends on a short date (``Feb 3``) with no blank line before its text: the
    # announcement still opens the post's text, and a coined name with a subtitle in sentence
    # case is the title it announces
    text = ("Routing Papers Bot 🤖\n@routingpapers\n·\nFeb 3\n"
            "🚨 New paper: r2: Simple test-time routing\n\n"
            "1,000 curated questions and a 32B model that beats the baseline on competition math.\n")
    assert [m.title for m in _mentions(tmp_path, "saved_posts.txt", text) if m.title] == ["r2: Simple test-time routing"]


def test_an_announcement_of_the_posters_own_words_is_no_title(tmp_path):
    text = ("Routing Papers Bot 🤖\n@routingpapers\n·\nFeb 3\n"
            "🚨 New paper: we show that routers scale with the batch size\n")
    assert [m.title for m in _mentions(tmp_path, "saved_posts.txt", text) if m.title] == []


def test_the_authors_below_the_posts_text(tmp_path):
    # the post announces the title, says what the paper does, then lists its authors by family
    # name, with the post's furniture copied right below them
    text = ("Routing Papers Bot 🤖\n@routingpapers\n·\nFeb 3\n"
            "🚨 New paper: r2: Simple test-time routing\n\n"
            "1,000 curated questions and a 32B model that beats the baseline on competition math.\n\n"
            "Osei, Lindqvist, Abara, Moro, Marsh\nShow more\nImage\n")
    (mention,) = [m for m in _mentions(tmp_path, "saved_posts.txt", text) if m.title]
    assert (mention.title, mention.authors) == ("r2: Simple test-time routing", ["Osei", "Lindqvist", "Abara", "Moro", "Marsh"])
