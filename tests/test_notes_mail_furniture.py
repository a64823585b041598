"""What a forwarded e-mail carries besides its message: headers, "On … wrote:" lines, a
signature written without its ``--`` line, a disclaimer. None of it names a paper; the
papers the message cites are still read."""

from __future__ import annotations

from pathlib import Path

from tests.helpers_extract import api_mentions


def test_a_signature_without_its_dashes_names_no_paper(tmp_path: Path) -> None:
    # a sign-off, a name, a role, an office and a telephone extension: the reference parser
    # can read it as names then a title, but the finder is sure it is no paper
    text = (
        "From: Mirela Voss\n"
        "Sent: Thursday, February 6, 2025 14:10\n"
        "Subject: FW: sparse routing\n"
        "\n"
        "All, for the next session: Okafor et al. 2021 and the gating\n"
        "paper. If there is time, Lindqvist, Brandt, Haldane et al.\n"
        "(2022) on load balancing.\n"
        "\n"
        "Regards,\n"
        "Tobias Grell\n"
        "Principal Scientist\n"
        "Lisbon Office, Floor 7\n"
        "Tel. +351 21 555 0199, ext. 2031\n"
    )
    mentions = api_mentions(tmp_path, "fwd.txt", text)
    assert [(m.authors, m.year, m.title) for m in mentions] == [
        (["Okafor"], 2021, None), (["Lindqvist", "Brandt", "Haldane"], 2022, None)]


def test_an_address_line_naming_people_with_a_year_cites_nothing(tmp_path: Path) -> None:
    # Outlook writes "Family, Given" in its header lines, with what the address book adds in
    # brackets: an address, never a citation; the message's citations are read
    text = (
        "________________________________\n"
        "From: Keane, Ilse <i.keane@example.ac.uk>\n"
        "Sent: 14 October 2024 09:12\n"
        "To: Brandt, Jonas (2021 cohort) <jb@example.ac.uk>\n"
        "Cc: Voss, Mirela (2019); Grell, Tobias\n"
        "Subject: RE: the review\n"
        "\n"
        "Jonas, the two I mentioned are Okafor et al. 2021 and Lindqvist and Haldane\n"
        "(2023). Thanks!\n"
    )
    mentions = api_mentions(tmp_path, "fwd.txt", text)
    assert [(m.authors, m.year) for m in mentions] == [(["Okafor"], 2021), (["Lindqvist", "Haldane"], 2023)]


def test_a_disclaimer_naming_its_firm_and_year_cites_nothing(tmp_path: Path) -> None:
    text = (
        "On Tue, 4 Mar 2025 at 10:02, Ilse Keane <ilse@example.org> wrote:\n"
        "> Please add the balancing paper (Lindqvist & Haldane, 2023).\n"
        "\n"
        "Added, thanks.\n"
        "\n"
        "This message is confidential and intended solely for the addressee. Access\n"
        "by anyone else is unauthorised. Okafor, Brandt & Partners (2024), registered\n"
        "in Example City. If you are not the intended recipient, please delete it.\n"
    )
    mentions = api_mentions(tmp_path, "fwd.txt", text)
    assert [(m.authors, m.year) for m in mentions] == [(["Lindqvist", "Haldane"], 2023)]


def test_a_message_written_without_blank_lines_keeps_its_citations_beside_a_disclaimer(tmp_path: Path) -> None:
    # no blank line anywhere: the words of a disclaimer at its end do not blank the message
    lines = [f"> item {i}: the routing paper (Okafor et al., {2000 + i}) again" for i in range(12)]
    text = "From: Ilse Keane <ilse@example.org>\n" + "\n".join(lines) + "\n> If you are not the intended recipient, delete this.\n"
    mentions = api_mentions(tmp_path, "fwd.txt", text)
    assert len({m.year for m in mentions}) == 12


def test_a_reply_line_naming_its_sender_with_a_year_cites_nothing(tmp_path: Path) -> None:
    # "On <date>, <sender> wrote:", maybe wrapped: the sender written "Family, Given" with
    # what the address book adds in brackets is no citation; prose opening on "On" is kept
    text = (
        "Thanks, will do. On sparse routing see Okafor et al. (2021) first.\n"
        "\n"
        "On Tue, 4 Jun 2024 at 09:12, Voss, Mirela (2021 cohort)\n"
        "<m.voss@example.org> wrote:\n"
        "> please read Haldane et al. (2022) before Thursday.\n"
        ">\n"
        "> On 3 Jun 2024, at 18:40, Brandt, Jonas\n"
        "> (2019) <jb@example.org> wrote:\n"
        ">> and Keller & Lindqvist, 2020 too.\n"
    )
    mentions = api_mentions(tmp_path, "reply.txt", text)
    assert [(m.authors, m.year) for m in mentions] == [
        (["Okafor"], 2021), (["Haldane"], 2022), (["Keller", "Lindqvist"], 2020)]


def test_a_notes_page_with_a_date_property_keeps_its_lines(tmp_path: Path) -> None:
    # a page's "Date:" property and a "To:" line of its own are no e-mail header: nothing
    # is blanked where no sender, reply or forward says the text is an e-mail
    text = (
        "# Routing reading group\n"
        "Date: June 13, 2024\n"
        "\n"
        "To: read Okafor et al. (2021) before the session\n"
    )
    mentions = api_mentions(tmp_path, "page.md", text)
    assert [(m.authors, m.year) for m in mentions] == [(["Okafor"], 2021)]
