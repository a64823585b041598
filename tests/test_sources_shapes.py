"""Record shapes as the services really send them (each found by replaying real answers).

One fixture per awkward shape under ``tests/fixtures/api``; docs/sources.md lists what each
was compared against.
"""

from __future__ import annotations

import json

import pytest
from werkzeug import Response

from citekit.core.model import Location
from citekit.core.resolution import Mention
from citekit.sources.cache import LookupCache
from citekit.sources.crossref import CrossrefSource
from citekit.sources.http import HostPolicy, HttpClient
from citekit.sources.settings import SourceSettings

from citekit.library.records import fields_from_candidate
from citekit.sources.crossref import item_to_candidate
from citekit.sources.dblp import bibtex_to_candidate
from citekit.sources.openreview import note_to_candidate


# ------------------------------------------------------------------------------ OpenReview


@pytest.mark.parametrize("venueid, stage", [
    ("TMLR/Submitted", "submitted"), ("TMLR/Assigning_AE", "submitted"), ("TMLR/Under_Review", "submitted"),
    ("TMLR/Decision_Pending", "submitted"), ("TMLR/Rejected", "rejected"), ("TMLR/Desk_Rejected", "rejected"),
    ("TMLR/Withdrawn_Submission", "rejected"), ("TMLR/Retracted_Acceptance", "rejected"), ("TMLR", "accepted"),
])
def test_journal_lifecycle_venueids_are_not_acceptances(api_fixture, venueid, stage):
    notes = json.loads(api_fixture("openreview/search_tmlr_lifecycle.json"))["notes"]
    note = next(n for n in notes if n["content"]["venueid"]["value"] == venueid)
    cand = note_to_candidate(note)
    assert cand.stage == stage
    if stage == "accepted":
        assert cand.entry_type == "article" and cand.container == "Transactions on Machine Learning Research"
    else:
        # never cited as the journal: its _bibtex says "Submitted to Transactions on ..."
        assert cand.venue is None and cand.container is None and cand.entry_type == "misc"
        assert cand.extra["submitted_to"].startswith("TMLR")


# ------------------------------------------------------------------------------ Crossref


def test_crossref_container_title_html_entities_are_decoded_once(api_fixture):
    item = json.loads(api_fixture("crossref/work_entities_suffix.json"))["message"]
    cand = item_to_candidate(item)
    assert cand.container == "Big Data & Society"
    _, fields = fields_from_candidate(cand)
    assert fields["journal"] == r"Big Data \& Society"  # not "Big Data \&amp; Society"


def test_crossref_author_suffix_is_kept(api_fixture):
    item = json.loads(api_fixture("crossref/work_entities_suffix.json"))["message"]
    king = item_to_candidate(item).authors[1]
    assert (king.given, king.family) == ("Martin Luther", "King, Jr.")
    assert "Jr." in king.raw and "Jr." in fields_from_candidate(item_to_candidate(item))[1]["author"]


def test_crossref_jats_scp_markup_in_a_title_leaves_no_gaps(api_fixture):
    item = json.loads(api_fixture("crossref/work_jats_issued_null.json"))["message"]
    assert item_to_candidate(item).title == "TreebaseR: reading phylogenetic trees in R"


def test_crossref_issued_null_takes_the_year_from_the_deposit_date(httpserver, tmp_path, api_fixture):
    item = json.loads(api_fixture("crossref/work_jats_issued_null.json"))["message"]
    assert item["issued"] == {"date-parts": [[None]]}

    def search(request):  # Crossref returns only the fields ``select`` names
        wanted = request.args.get("select", "").split(",")
        found = {k: v for k, v in item.items() if k in wanted}
        return Response(json.dumps({"status": "ok", "message-type": "work-list", "message-version": "1.0.0",
                                    "message": {"facets": {}, "total-results": 1, "items": [found],
                                                "items-per-page": 5, "query": {"start-index": 0}}}),
                        content_type="application/json")

    httpserver.expect_request("/works").respond_with_handler(search)
    settings = SourceSettings(urls={"crossref": httpserver.url_for("").rstrip("/")}, cache_dir=tmp_path, timeout=5)
    source = CrossrefSource(HttpClient(retries=0, policies={"crossref": HostPolicy(0.0, 3)}),
                            LookupCache(settings.cache_path), settings)
    mention = Mention(kind="titled", location=Location("n.md", 1), title="TreebaseR reading phylogenetic trees",
                      authors=["Jane Doe"])
    cand = source.search(mention)[0]
    assert cand.year == 2018 and cand.extra["month"] == "5"


# ------------------------------------------------------------------------------ dblp


def test_dblp_escaped_underscores_leave_doi_and_url(api_fixture):
    cand = bibtex_to_candidate(api_fixture("dblp/rec_incollection_escaped.bib"), "series/lncs/MullerS20")
    assert cand.ids.doi == "10.1007/978-3-030-12001_7"
    assert cand.url == "https://doi.org/10.1007/978-3-030-12001_7"


def test_dblp_tex_accents_in_venue_fields_become_text(api_fixture):
    cand = bibtex_to_candidate(api_fixture("dblp/rec_incollection_escaped.bib"), "series/lncs/MullerS20")
    assert cand.container == "Advances in München Machine Learning"
    assert cand.extra["editor"] == "Klaus Bär and Lena Olsén"
    assert [p.display() for p in cand.authors] == ["Jürgen Müller", "Anna Schön"]
    assert cand.title == "Learning with Über-Graphs"


@pytest.mark.parametrize("fixture, key, entry_type, container", [
    ("dblp/rec_incollection_escaped.bib", "series/lncs/MullerS20", "incollection", "Advances in München Machine Learning"),
    ("dblp/rec_book.bib", "books/daglib/0040158", "book", "Adaptive Computation and Machine Learning"),
    ("dblp/rec_proceedings.bib", "conf/icml/2023", "book", "Proceedings of Machine Learning Research"),
])
def test_dblp_books_collections_and_proceedings_stay_published_works(api_fixture, fixture, key, entry_type, container):
    cand = bibtex_to_candidate(api_fixture(fixture), key)
    assert (cand.entry_type, cand.stage) == (entry_type, "published")
    assert cand.container == container
    assert cand.authors  # a proceedings volume is cited by its editors
    entry, fields = fields_from_candidate(cand)
    assert entry == entry_type and fields["year"] == str(cand.year)
