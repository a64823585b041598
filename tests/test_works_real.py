"""The real cases behind "one notion of the same work", each on the corpora file it came from.

plume-bib is a research group's hand-curated bibliography, built for bibtex: macros in
bibstring-unabbrev.bib, venues and years in crossrefs.bib. Its duplicate clusters below were
judged by reading each one (same title, same people, same venue and year: the same paper
entered twice under two keys); everything else in it must stay apart.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from citekit.bibtex.reader import Macros, read_bib_file
from citekit.library.dedup import analyse
from citekit.library.importer import import_files
from citekit.library.merge import merge_entries
from citekit.library.store import Library
from citekit.core.model import Entry

CORPORA = Path(__file__).resolve().parents[1].parent / "shared" / "corpora"
PLUME = CORPORA / "plume-bib"

pytestmark = [pytest.mark.corpora,
              pytest.mark.skipif(not CORPORA.exists(), reason="the shared corpora beside the repository are not here")]

#: every duplicate cluster of plume-bib, judged by reading (sorted keys)
EXPECTED_SAME = {
    ('JonesM81', 'jones.muchnick.81'),
    ('LandiR91', 'landi.popl.91'),
    ('CWZ:APS', 'ChaseWZ90', 'chase.pldi.90'),
    ('LarusH88:PLDI', 'larus.pldi.88'),
    ('PLDI94*242', 'emami.pldi.94'),
    ('HendrenN90', 'hendren.tpds.90'),
    ('HorwitzPR89:PLDI', 'horwitz.pldi.89'),
    ('Smith91', 'smith.super.91'),
    ('LandiR92', 'LandiWilli1992a', 'landi.pldi.92'),
    ('POPL93*232', 'choi.popl.93'),
    ('HendrenHumNic92', 'hendren.pldi.92'),
    ('JM:FAIDFA', 'Jones:Muchnick:acm:popl:1982', 'JonesM82'),
    ('MR79', 'MorelR79'),
    ('DS88', 'DrechslerS88'),
    ('So89', 'Sorkin89'),
    ('JD82a', 'JoshiD82:i'),
    ('JD82b', 'JoshiD82:ii'),
    ('DRZPLDI92', 'DhamdhereRZ92'),
    ('KRSPLDI92', 'KnoopRS92'),
    ('DS93', 'DrechslerS93'),
    ('RWZPOPL88', 'Rosen88'),
    ('AbelsonS', 'AbelsonS85'),
    ('KamU76', 'KamUllman76'),
    ('AlKe:Automatic', 'AllenKennedy8487'),
    ('FerranteEtal87', 'FerranteOW87'),
    ('TrioletEtal86', 'TrioletIF86'),
    ('AllenCK87', 'AllenEtal87'),
    ('HennessyG83', 'HennessyGross83'),
    ('GlanvilleG78', 'GlanvilleGraham78'),
    ('ChaitinACCHM81', 'ChaitinEtal81'),
    ('DeSc84', 'DeutschSchiffman84'),
    ('Myers81', 'Myers:precise'),
    ('CKTo:Interprocedural', 'CooperEtal86', 'CooperKT86'),
    ('CoKe:Efficient', 'CooperKennedy84'),
    ('CooperK88', 'CooperKennedy88'),
    ('CaKe:Analysis', 'CallahanKennedy87'),
    ('RM:LADAO', 'RuggieriM88'),
    ('Zellweger83', 'Zellweger83:HLD'),
    ('Jones:93:PartialEvaluation', 'Jones:Gomard:Sestoft:93:PartialEvaluation'),
    ('FlanaganF2004', 'tiar'),
    ('ControlledExperiment2', 'DunsmoreRW2002'),
    ('KimFreq', 'KimPR2000'),
    ('TA:DSMLWRE', 'TolmachA90'),
    ('HolzleCU92', 'UCH:DOCDD'),
    ('McCamantE2003', 'mccamant03predicting'),
    ('JSR308-2013-10', 'JSR308-webpage-201310'),
    ('Boehm1981', 'Boehm81'),
    ('DL:OTFGC', 'Dijkstra78', 'DijkstraLMSS78'),
    ('Tel87', 'TelTL86'),
    ('Au:GCDE', 'Augusteijn', 'Augusteijn87'),
    ('Ru:DCGC', 'Rudalics86'),
    ('Liskov86', 'LiskovL86'),
    ('SS:PGGC', 'Sharma91', 'SharmaS91'),
    ('VG94', 'VandevoordeG94'),
    ('WLM91', 'WLM:ESGR', 'Wilson91'),
    ('WM89', 'WM:OGC'),
    ('Unga84', 'Ungar84'),
    ('UnJa88', 'UngarJ88'),
    ('Mo:GCLLS', 'Moon84'),
    ('HK:GCTD', 'Hudak82', 'HudakK82'),
    ('Miller89', 'MillerE89'),
    ('Hug:DGC', 'Hughes85'),
    ('DMH:CSGC', 'DiwanMH92'),
    ('Bake78', 'Baker78'),
    ('NR:CGCSH', 'North87', 'NorthR87'),
    ('FY:LGCVMCS', 'Fenichel69'),
    ('St:MCGC', 'Steele75'),
    ('LiHe83', 'Lieberman83'),
    ('Bro:CRC', 'Brownbridge85'),
    ('QPQ:MDS', 'Queinnec89'),
    ('Le:EDGCA', 'Lester89'),
    ('Be:DGCURC', 'Bevan87'),
    ('Ali84', 'Mo:phd'),
    ('No:SRSAMS', 'Nori79'),
    ('Co:GCLDS', 'Cohen81'),
    ('Watson-Watson-1987', 'Watson87'),
    ('G:GRC', 'Goldberg89'),
    ('Go:TFGC', 'Goldberg91'),
    ('BDS:MPGC', 'Boehm91'),
    ('AEL:RTCGCSM', 'Appel88'),
    ('Kolte:1995:ERA', 'PLDI::KolteW1995'),
    ('Evans-fse94', 'evans94a'),
    ('Tofte:1994:ITC', 'TofteT93'),
    ('AustinBS93', 'AustinBS94'),
    ('BW:GCIUE', 'BoehmW88'),
    ('ConditHMNW2003', 'ccured:real'),
    ('Memcheck05', 'SewardN2005'),
    ('Net:redux2003', 'NethercoteM2003'),
    ('CFKA90', 'ChaikenFKA90'),
    ('HMT:TSLS', 'HalpernMT84'),
    ('HiSm89', 'hill-assoc'),
    ('Joup90', 'jouppi-isca'),
    ('KlLe91', 'klaiber-91'),
    ('Przy90', 'przybylski'),
    ('Peters1994', 'PetersP94'),
    ('Romer:1997:IOW', 'RomerVLWWLBC97'),
    ('AskIgor05', 'CleveZ2005'),
    ('AdamsCS93', 'AdamsCurSpr93'),
    ('OCallahan-icse97', 'OCallahanJ97'),
    ('10.1145/3696630.3727251', 'KamMWTLMSPTKMB2025'),
    ('qwen3', 'qwen3allAuthors', 'qwen3fewAuthors'),
    ('vanTonder:2018:SAP:3180155.3180250', 'vanTonderLG2018'),
    ('BlellochS90', 'alg:paralation-sv-lisp'),
    ('SabotTVS91', 'lang:bell-award'),
    ('Duggan', 'Duggan99'),
    ('MyersBL97', 'PolyJ'),
    ('BrachaOSW98', 'GJ98'),
    ('CartwrightS98:NextGen', 'NextGen'),
    ('GerberH93', 'GerberH93:RTS'),
    ('Nullsafe2022', 'PianykhZL2022'),
    ('BP05:acc', 'BurdyP2006'),
    ('ClarkD2002', 'ClarkeD2002'),
    ('10.1145/512529.512563', 'GrossmanMJHWC2002'),
    ('hofmeister92:surgeon', 'hofmeister92surgeon'),
    ('bloom92:reconfiguration', 'bloom92reconfiguration'),
    ('herlihy82:value', 'herlihy82value'),
    ('10.1145/2494266.2494277', 'BaAS2013'),
    ('10.1145/197320.197403', 'Berzins1994'),
    ('10.1145/2905055.2905072', 'RaoS2016'),
    ('10.1145/3135932.3135943', 'Cavalcanti2017'),
}


def plume_files() -> list[Path]:
    """As bibtex reads the group's files: the macro file first, then every library file."""
    files = sorted(PLUME.glob("*.bib"))
    rest = [f for f in files if not f.name.startswith("bibstring") and f.name != "crossrefs-abbrev.bib"]
    return [PLUME / "bibstring-unabbrev.bib", *rest]


@pytest.fixture(scope="module")
def plume():
    macros = Macros()
    entries: list[Entry] = []
    for path in plume_files():
        entries.extend(read_bib_file(path, macros=macros).entries)
    return entries, analyse(entries)


def test_plume_duplicate_clusters_are_exactly_the_judged_ones(plume) -> None:
    _entries, found = plume
    assert {tuple(sorted(c.keys)) for c in found.clusters} == EXPECTED_SAME


def test_a_workshop_paper_and_its_popl_paper_are_versions_not_one_entry(plume) -> None:
    _entries, found = plume
    assert not any("SiekW2009" in c.keys for c in found.clusters)
    (group,) = [c for c in found.versions if "SiekW2009" in c.keys]
    assert set(group.keys) == {"SiekW2009", "SiekW2010"}
    assert group.kept == "SiekW2010"  # POPL 2010, found through crossref, is the version to cite
    assert "workshop" in group.reason


def test_editions_of_a_software_manual_stay_four_works(plume) -> None:
    _entries, found = plume
    manuals = {"CheckerFrameworkManual2022", "CheckerFrameworkManual2015", "CheckerFrameworkManual-3.4.0",
               "CheckerFrameworkManualNoYear"}
    for cluster in [*found.clusters, *found.versions]:
        assert len(manuals & set(cluster.keys)) <= 1, cluster


def test_a_technical_report_is_a_version_and_a_merge_never_mixes_its_fields(plume) -> None:
    entries, found = plume
    by_key = {e.key: e for e in entries}
    (group,) = [c for c in found.versions if "BeschastnikhBAEK2013TR" in c.keys]
    assert group.kept == "BeschastnikhBAEK2013"
    paper, report = by_key["BeschastnikhBAEK2013"], by_key["BeschastnikhBAEK2013TR"]
    merged = merge_entries([report, paper]).entry  # only when the user asks (dedup --apply --versions)
    assert merged.key == "BeschastnikhBAEK2013"
    for name in ("crossref", "pages", "institution", "number"):
        if name in merged.fields:
            source = paper if name in paper.fields else report
            assert merged.fields[name] == source.fields[name] and (name in paper.fields or name not in report.fields)
    assert "institution" not in merged.fields  # the report's institution does not leak into the paper


def test_shared_macros_expand_across_files_like_bibtex(tmp_path: Path) -> None:
    lib = Library.load(tmp_path / "refs")
    files = [PLUME / n for n in ("bibstring-unabbrev.bib", "invariants.bib", "types.bib", "crossrefs.bib")]
    report = import_files(lib, files)
    macros = {m.group(1).lower() for m in re.finditer(r"@string\s*\{\s*([^\s=]+)",
                                                      files[0].read_text(encoding="utf-8", errors="replace"), re.I)}
    undefined = {m.group(1).lower() for p in report.problems if (m := re.search(r"undefined macro '(.+?)'", p.message))}
    assert macros and not undefined & macros  # every macro of the first file reached the later ones
    tse = [e for e in lib.entries.values() if e.fields.get("journal") == "IEEE Transactions on Software Engineering"]
    assert len(tse) > 20
    assert lib.entries["SiekW2010"].fields["crossref"] == "POPL2010"
    undefined = [p for p in report.problems if "undefined macro" in p.message]
    assert all(re.search(r"entry '.+', field '.+': undefined macro '.+'", p.message) and p.line for p in undefined)
    # without the macro file first, the same macros are reported one by one, never silently kept
    alone = import_files(Library.load(tmp_path / "other"), files[1:2])
    assert sum("undefined macro" in p.message for p in alone.problems) > 50


def test_aima_quoted_title_with_a_braced_quote_keeps_every_field() -> None:
    (entry,) = [e for e in read_bib_file(CORPORA / "aima4e" / "aima4e.bib").entries if e.key == "McEliece+al:1998"]
    assert entry.fields["title"].endswith('{``belief propagation"} algorithm')
    assert entry.fields["journal"] == "IEEE Journal on Selected Areas in Communications"
    assert (entry.fields["volume"], entry.fields["pages"]) == ("16", "140--152")


def test_the_clean_record_survives_a_broken_one() -> None:
    path = CORPORA / "bibtex-tidy-fixtures" / "better-bibtex" / "Unabbreviate_on_import_1436-3.bib"
    entries = read_bib_file(path).entries
    found = analyse(entries)
    (cluster,) = [c for c in found.clusters if "grinblat_2014" in c.keys]
    assert cluster.kept == "grinblat_2014a"  # "High Efficiency ...", not "High-e Ffi Ciency ...", volume = {ASAP}
    merged = merge_entries([entries[i] for i in cluster.indices], key=cluster.kept).entry
    assert merged.fields["title"].startswith("High Efficiency Second Harmonic")
    assert merged.fields.get("volume") != "ASAP"
    assert "grinblat_2014" in merged.aliases
