"""A hard-wrapped paragraph (a quoted e-mail) whose line breaks inside a bracket."""

from __future__ import annotations

from pathlib import Path

from tests.helpers_extract import api_mentions


def test_a_wrapped_line_inside_an_open_bracket_goes_on_the_paragraph(tmp_path: Path) -> None:
    # a quoted e-mail wrapped at its width: the line after ``(Okonkwo et al. 2020,`` starts
    # with ``arXiv:…)``, which is still the bracket's, not a detail line of its own
    text = (
        "From: Ana Ruiz <ana@example.org>\n"
        "Subject: Re: encoder refs\n"
        "\n"
        "On Mon, Jan 5, 2026 at 9:00 AM Ben Stolz <ben@example.org> wrote:\n"
        "> for the encoder we took the gated variant (Okonkwo et al. 2020,\n"
        "> arXiv:2003.01234) as the default, the sparse one (Brandt & Huang 2022) when\n"
        "> memory is tight, which it usually is on the small cards.\n"
    )
    mentions = api_mentions(tmp_path, "mail.txt", text)
    cited = {(m.authors[0] if m.authors else None, m.year, m.ids.arxiv) for m in mentions}
    assert ("Okonkwo", 2020, "2003.01234") in cited
    assert ("Brandt", 2022, None) in cited
    assert not any(m.title for m in mentions)
