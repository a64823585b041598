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


def test_a_bullet_wrapped_at_the_mails_width_goes_on_on_its_indented_line(tmp_path: Path) -> None:
    # the first word of the indented line would not have fit on the bullet's line: the
    # mail's wrap cut the title there, however much the rest of the line reads as a remark
    text = (
        "> Hi Tom, here is the reading list I promised, most useful first. I kept\n"
        "> it short on purpose so you can get through it before the offsite.\n"
        ">\n"
        "> Routing\n"
        ">  - Graphs: A Unified Performance Model for Sparse Routing in Multicore\n"
        ">    Accelerators (Okafor, Lindqvist, Brandt, CACM 2021). Old, but it\n"
        ">    frames everything we do here.\n"
        ">  - Attention Sinks in Streaming Decoders\n"
        ">    skip the appendix\n"
    )
    mentions = api_mentions(tmp_path, "mail.txt", text)
    got = {m.location.line: (m.title, m.authors) for m in mentions}
    assert got[5] == ("Graphs: A Unified Performance Model for Sparse Routing in Multicore Accelerators",
                      ["Okafor", "Lindqvist", "Brandt"])
    assert all(title != "Attention Sinks in Streaming Decoders skip the appendix" for title, _ in got.values())
