"""Zotero items as library entries: the BibTeX type and fields Better BibTeX would write.

Why one module: a Zotero library reaches citekit in three shapes (Better BibTeX's JSON
export, the local API of the running Zotero, the web API), and all three carry the same
item JSON. Mapping it once, the way Better BibTeX maps it, means a library that moves
from a BBT ``.bib`` auto-export to ``import --zotero`` keeps the same entries and keys.

Where the citation key comes from is part of the answer (``ZoteroRecord.key_source``):
the native ``citationKey`` field (Zotero 8, and BBT's JSON export), a ``Citation Key:``
line in Extra (Better BibTeX up to 7 pinned keys that way), a key taken from a Better
BibTeX ``.bib`` export of the same library (matched by DOI and title), or, when none of
these has one, a key citekit makes with its own formula.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from citekit.bibtex.values import author_field, protect_title, safe_url, sanitize
from citekit.bibtex.writer import month_macro
from citekit.core.model import Entry, Person
from citekit.core.names import parse_name, split_bibtex_names
from citekit.core.text import latex_to_text, normalize_title
from citekit.library.tags import VALID_TAG, normalize_tag
from citekit.core.lazyre import lazy

#: Zotero item type -> BibTeX entry type, as Better BibTeX's BibTeX translator writes it
ITEM_TYPES: dict[str, str] = {
    "journalArticle": "article", "magazineArticle": "article", "newspaperArticle": "article",
    "book": "book", "bookSection": "incollection", "conferencePaper": "inproceedings",
    "thesis": "phdthesis", "report": "techreport", "manuscript": "unpublished",
    "encyclopediaArticle": "incollection", "dictionaryEntry": "incollection",
}
#: item types that are never entries: counted and skipped
SKIPPED_TYPES = frozenset({"attachment", "note", "annotation"})

#: the container of an item, under every name Zotero gives it (base field first)
_CONTAINER_FIELDS = ("publicationTitle", "bookTitle", "proceedingsTitle", "encyclopediaTitle", "dictionaryTitle",
                     "websiteTitle", "forumTitle", "blogTitle", "programTitle")
#: Zotero field -> BibTeX field, for the plain fields every type shares
_PLAIN_FIELDS = {"volume": "volume", "edition": "edition", "series": "series", "ISBN": "isbn", "ISSN": "issn",
                 "shortTitle": "shorttitle", "language": "langid"}
#: creator types that are neither the author nor the editor of the item itself (BBT leaves them out of BibTeX)
_SECONDARY_ROLES = frozenset({"contributor", "bookAuthor", "seriesEditor", "translator", "reviewedAuthor",
                              "commenter", "counsel", "wordsBy", "castMember", "guest", "producer", "scriptwriter",
                              "attorneyAgent", "cosponsor"})
#: name particles Zotero users leave at the end of the first name
_PARTICLES = frozenset({"de", "la", "le", "du", "des", "da", "di", "del", "della", "van", "von", "der", "den", "vom",
                        "zum", "zur", "und", "ten", "ter", "y", "d'", "l'"})
_NUMBER_FIELDS = ("issue", "number", "reportNumber", "billNumber", "seriesNumber", "patentNumber")
_CITATION_KEY_LINE = lazy(r"^\s*citation\s*key\s*:\s*(\S+)\s*$", re.IGNORECASE | re.MULTILINE)
_YEAR = re.compile(r"(?<!\d)(\d{4})(?!\d)")
_ISO_MONTH = lazy(r"^\d{4}-(\d{1,2})(?:-\d{1,2})?")


@dataclass
class ZoteroRecord:
    """One Zotero item as an entry, with what citekit must remember of where it came from."""

    entry: Entry
    #: the item's key in its Zotero library (``VXNP5QKW``), stable while the citation key may change
    item_key: str
    #: the item's ``version`` in its library (0: unknown, e.g. a file export without versions)
    version: int
    #: where the citation key came from: citationKey, extra, bbt-export, csl-json or citekit
    key_source: str
    #: Zotero tags and collection paths, as citekit tags
    tags: list[str] = field(default_factory=list)
    #: the item is in Zotero's trash (``deleted: 1``): gone from the user's library
    deleted: bool = False


@dataclass
class Collections:
    """A library's collections: each collection's path of names, and (BBT JSON) its items."""

    paths: dict[str, list[str]] = field(default_factory=dict)
    #: BBT JSON lists each collection's items by itemID; the API lists an item's collections
    by_item: dict[str, list[str]] = field(default_factory=dict)

    @classmethod
    def from_api(cls, rows: Iterable[Mapping[str, Any]]) -> "Collections":
        """From ``/collections`` answers (``{key, data: {name, parentCollection}}``)."""
        parent: dict[str, str | None] = {}
        name: dict[str, str] = {}
        for row in rows:
            data = row.get("data", row)
            key = str(data.get("key") or row.get("key"))
            name[key] = str(data.get("name", key))
            parent[key] = data.get("parentCollection") or None
        return cls(paths={key: _path(key, name, parent) for key in name})

    @classmethod
    def from_bbt(cls, table: Mapping[str, Any] | Sequence[Any] | None) -> "Collections":
        """From BBT JSON's ``collections`` (``{key: {name, parent, collections, items}}``)."""
        rows = list(table.values()) if isinstance(table, Mapping) else list(table or [])
        parent: dict[str, str | None] = {}
        name: dict[str, str] = {}
        for row in rows:
            if not isinstance(row, Mapping):
                continue
            key = str(row.get("key"))
            name[key] = str(row.get("name", key))
            parent.setdefault(key, row.get("parent") or None)
            for child in row.get("collections") or ():
                parent[str(child)] = key
        out = cls(paths={key: _path(key, name, parent) for key in name})
        for row in rows:
            if isinstance(row, Mapping):
                for item in row.get("items") or ():
                    out.by_item.setdefault(str(item), []).append(str(row.get("key")))
        return out


def _path(key: str, name: Mapping[str, str], parent: Mapping[str, str | None]) -> list[str]:
    out: list[str] = []
    seen: set[str] = set()
    at: str | None = key
    while at is not None and at in name and at not in seen:
        seen.add(at)
        out.append(name[at])
        at = parent.get(at)
    return out[::-1]


def collection_tag(path: Sequence[str]) -> str | None:
    """``zotero/<collection>/<sub>`` for a collection path; None when no part makes a tag."""
    parts = [normalize_tag(p).replace("/", "-") for p in path]
    tag = "/".join(["zotero", *(p for p in parts if p)])
    return tag if tag != "zotero" and VALID_TAG.fullmatch(tag) else None


def item_data(item: Mapping[str, Any]) -> Mapping[str, Any]:
    """The item's own fields: the API wraps them in ``data``, BBT JSON does not."""
    data = item.get("data")
    return data if isinstance(data, Mapping) else item


def extra_text(data: Mapping[str, Any]) -> str:
    """Extra as one text (BBT's test fixtures keep it as a list of lines)."""
    extra = data.get("extra") or ""
    return "\n".join(str(x) for x in extra) if isinstance(extra, list) else str(extra)


def native_key(data: Mapping[str, Any]) -> tuple[str, str] | None:
    """The key the item itself carries, and where: ``citationKey`` or a ``Citation Key:`` line."""
    key = str(data.get("citationKey") or data.get("citekey") or "").strip()
    if key:
        return key, "citationKey"
    m = _CITATION_KEY_LINE.search(extra_text(data))
    return (m.group(1), "extra") if m else None


def to_record(item: Mapping[str, Any], collections: Collections | None = None) -> ZoteroRecord | None:
    """The entry for one Zotero item (None for attachments, notes and annotations).

    The entry's key is the item's own (``citationKey`` or Extra) or empty: the caller
    fills it from a BBT export or the key formula and says so.
    """
    data = item_data(item)
    item_type = str(data.get("itemType", ""))
    if item_type in SKIPPED_TYPES or not item_type:
        return None
    entry_type, fields = bibtex_fields(data)
    found = native_key(data)
    key, source = found if found else ("", "")
    entry = Entry(key=key, entry_type=entry_type, fields=fields, origin="import", status="imported")
    abstract = str(data.get("abstractNote") or "").strip()
    if abstract:
        entry.abstract = " ".join(abstract.split())
    if fields.get("doi"):
        entry.ids.doi = fields["doi"]
    tags = _tags(data, collections, item)
    item_key = str(data.get("key") or item.get("key") or data.get("itemKey") or data.get("itemID") or "")
    version = _int(data.get("version", item.get("version")))
    return ZoteroRecord(entry, item_key, version, source, tags, deleted=bool(data.get("deleted")))


def _int(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


def _tags(data: Mapping[str, Any], collections: Collections | None, item: Mapping[str, Any]) -> list[str]:
    tags: set[str] = set()
    for tag in data.get("tags") or ():
        text = tag.get("tag", "") if isinstance(tag, Mapping) else str(tag)
        norm = normalize_tag(str(text))
        if norm and VALID_TAG.fullmatch(norm):
            tags.add(norm)
    if collections is not None:
        keys = [str(k) for k in data.get("collections") or ()]
        keys += collections.by_item.get(str(data.get("itemID", item.get("itemID", ""))), [])
        for key in keys:
            tag = collection_tag(collections.paths.get(key, []))
            if tag:
                tags.add(tag)
    return sorted(tags)


def bibtex_fields(data: Mapping[str, Any]) -> tuple[str, dict[str, str]]:
    """``(entry type, fields)`` for an item's data, every value LaTeX-safe."""
    item_type = str(data.get("itemType", ""))
    entry_type = ITEM_TYPES.get(item_type, "misc")
    if item_type == "thesis" and re.search(r"master|m\.?\s?sc|m\.?\s?a\b", str(data.get("thesisType") or data.get("type") or ""), re.I):
        entry_type = "mastersthesis"
    fields: dict[str, str] = {}
    authors, editors = _creators(data, item_type)
    if authors:
        fields["author"] = author_field(authors)
    if editors:
        fields["editor"] = author_field(editors)
    title = _text(data.get("title"))
    if title:
        fields["title"] = protect_title(_markup(title))
    container = next((_text(data.get(n)) for n in _CONTAINER_FIELDS if _text(data.get(n))), "")
    if not container and entry_type == "inproceedings":
        container = _text(data.get("conferenceName"))  # BBT: the conference stands in for missing proceedings
    if container:
        if entry_type == "article":
            fields["journal"] = sanitize(_markup(container))
        elif entry_type in ("incollection", "inproceedings"):
            fields["booktitle"] = sanitize(_markup(container))
        else:
            fields["howpublished"] = sanitize(_markup(container))
    year, month = _date(str(data.get("date") or ""))
    if year:
        fields["year"] = year
    if month:
        fields["month"] = month
    for zname, bname in _PLAIN_FIELDS.items():
        value = _text(data.get(zname))
        if value:
            fields[bname] = sanitize(value)
    number = next((_text(data.get(n)) for n in _NUMBER_FIELDS if _text(data.get(n))), "")
    if number:
        fields["number"] = sanitize(number)
    pages = _text(data.get("pages"))
    if pages:
        fields["pages"] = sanitize(re.sub(r"\s*[-–—]+\s*", "--", pages))
    publisher = _text(data.get("publisher") or data.get("university") or data.get("institution"))
    if publisher:
        fields[{"techreport": "institution", "phdthesis": "school", "mastersthesis": "school"}.get(entry_type, "publisher")] = sanitize(publisher)
    place = _text(data.get("place"))
    if place:
        fields["address"] = sanitize(place)
    doi = _doi(data)
    if doi:
        fields["doi"] = re.sub(r"[{}\\\s]", "", doi)  # as the sources write it: biblatex reads doi verbatim
    url = _text(data.get("url"))
    if url:
        fields["url"] = safe_url(url)
    kind = _text(data.get("thesisType") or data.get("reportType") or data.get("type"))
    if kind and entry_type in ("techreport", "phdthesis", "mastersthesis"):
        fields["type"] = sanitize(kind)
    note = _note(data)
    if note:
        fields["annotation"] = sanitize(note)
    return entry_type, fields


def _text(value: Any) -> str:
    return " ".join(str(value).split()) if value not in (None, "") else ""


def _creators(data: Mapping[str, Any], item_type: str) -> tuple[list[Person], list[Person]]:
    """Authors and editors, the way BBT counts them: a book section's ``bookAuthor`` is not
    its author; with no author at all, a book's editors stand in the ``editor`` field."""
    authors: list[Person] = []
    editors: list[Person] = []
    for creator in data.get("creators") or ():
        if not isinstance(creator, Mapping):
            continue
        role = str(creator.get("creatorType", "author"))
        person = _person(creator)
        if person is None:
            continue
        if role == "editor":
            editors.append(person)
        elif role not in _SECONDARY_ROLES:
            authors.append(person)
    return authors, editors


def _person(creator: Mapping[str, Any]) -> Person | None:
    """``firstName``/``lastName``, or one ``name`` (an institution: kept whole, braced)."""
    name = _text(creator.get("name"))
    last, first = _text(creator.get("lastName")), _text(creator.get("firstName"))
    if name or (last and not first and creator.get("fieldMode") == 1):
        whole = name or last
        return Person(family=_markup(whole), given="", raw=whole)
    if not last and not first:
        return None
    if len(last) > 2 and last[0] == last[-1] == '"':  # BBT: a quoted last name is taken literally
        last = "{" + last[1:-1] + "}"
    if not first:
        return Person(family=_markup(last), given="", raw=last)
    # "Martin Luther, Jr.", "Adlai E.,! III": Zotero keeps a suffix after a comma in the
    # first name ("!" is citeproc's mark for a suffix printed after a comma)
    first, _, jr = first.partition(",")
    first, jr = first.strip(), jr.strip().lstrip("!").strip()
    words = first.split()
    while len(words) > 1 and words[-1] in _PARTICLES:  # "Simone de" Beauvoir: BBT writes "de Beauvoir, Simone"
        last = f"{words.pop()} {last}"
    first = " ".join(words)
    person = parse_name(f"{last}, {first}", family_first=True)
    return Person(family=_markup(person.family), given=_markup(person.given), von=person.von, jr=_markup(jr),
                  raw=f"{first} {last}" + (f", {jr}" if jr else ""))


def _markup(text: str) -> str:
    """Zotero's rich-text markup (``<i>``, ``<sup>``, ``<span class="nocase">``) as LaTeX."""
    if "<" not in text and "&" not in text:
        return text
    text = re.sub(r'<span\s+class="nocase">(.*?)</span>', r"{\1}", text, flags=re.S)
    for tag, macro in (("i", "textit"), ("em", "emph"), ("b", "textbf"), ("sup", "textsuperscript"),
                       ("sub", "textsubscript"), ("sc", "textsc")):
        text = re.sub(rf"<{tag}>(.*?)</{tag}>", rf"\\{macro}{{\1}}", text, flags=re.S)
    text = re.sub(r'<span\s+style="font-variant:\s*small-caps;?">(.*?)</span>', r"\\textsc{\1}", text, flags=re.S)
    text = re.sub(r"</?(?:span|i|b|em|sup|sub|sc)(?:\s[^<>]*)?>", "", text)
    return html.unescape(text)


def _date(value: str) -> tuple[str, str | None]:
    """Year and month macro of a Zotero date (``2007-11``, ``November 3, 2007``, ``19--``)."""
    value = value.strip()
    if not value:
        return "", None
    year = _YEAR.search(value)
    month: str | None = None
    iso = _ISO_MONTH.match(value)
    if iso:
        month = month_macro(iso.group(1))
    else:
        for word in re.findall(r"[A-Za-z]{3,}\.?", value):
            month = month_macro(word)
            if month:
                break
    return (year.group(1) if year else ""), month


def _doi(data: Mapping[str, Any]) -> str:
    """The DOI field, or a ``DOI:`` line of Extra (item types without a DOI field keep it there)."""
    doi = _text(data.get("DOI"))
    if not doi:
        m = re.search(r"^\s*DOI\s*:\s*(\S+)", extra_text(data), re.I | re.M)
        doi = m.group(1) if m else ""
    return re.sub(r"^(?:https?://(?:dx\.)?doi\.org/|doi:\s*)", "", doi, flags=re.I)


def _note(data: Mapping[str, Any]) -> str:
    """What Extra says beyond the lines citekit reads itself (the citation key, the DOI, BBT's
    ``tex.field:`` lines): BBT writes the rest as ``annotation``, which styles do not print."""
    lines = [line for line in extra_text(data).splitlines()
             if line.strip() and not _CITATION_KEY_LINE.match(line) and not re.match(r"^\s*doi\s*:", line, re.I)
             and not re.match(r"^\s*tex\.[\w-]+\s*[:=]", line)]
    return " ".join(" ".join(lines).split())


def comparable_title(value: str) -> str:
    """A title as the key-matching compares it (LaTeX and case folded). Titles in scripts the
    folding drops (Chinese, Japanese) are compared by their letters alone."""
    folded = normalize_title(value or "")
    if folded or not value:
        return folded
    return re.sub(r"[\W_]+", "", latex_to_text(value).casefold())


def first_family(fields: Mapping[str, str]) -> str:
    """The folded last word of the first author's (else editor's) family name: what tells
    apart two records of one title (``de Gaulle`` and ``Gaulle`` both give ``gaulle``)."""
    names = split_bibtex_names(fields.get("author") or fields.get("editor") or "")
    if not names:
        return ""
    person = parse_name(latex_to_text(names[0]), family_first=None)
    words = comparable_title(person.family or names[0]).split()
    return words[-1] if words else ""


#: CSL type -> Zotero item type (the inverse of Zotero's own CSL mapping, for the common types)
CSL_TYPES = {
    "article-journal": "journalArticle", "article-magazine": "magazineArticle", "article-newspaper": "newspaperArticle",
    "paper-conference": "conferencePaper", "chapter": "bookSection", "book": "book", "thesis": "thesis",
    "report": "report", "webpage": "webpage", "manuscript": "manuscript", "entry-encyclopedia": "encyclopediaArticle",
    "entry-dictionary": "dictionaryEntry", "article": "preprint", "software": "computerProgram",
}


def csl_record(item: Mapping[str, Any]) -> ZoteroRecord:
    """A CSL-JSON item (Zotero's or Better BibTeX's CSL export) as an entry.

    CSL is read as the Zotero item it was written from, so both exports give one entry.
    The key is ``citation-key`` (Better CSL JSON), or ``id`` when it is one (not a URL).
    """
    data: dict[str, Any] = {"itemType": CSL_TYPES.get(str(item.get("type", "")), "document")}
    creators: list[dict[str, str]] = []
    for role in ("author", "editor"):
        for name in item.get(role) or ():
            if isinstance(name, Mapping):
                if name.get("literal"):
                    creators.append({"creatorType": role, "name": str(name["literal"])})
                else:
                    family = " ".join(str(name.get(p, "")) for p in ("non-dropping-particle", "family") if name.get(p))
                    given = " ".join(str(name.get(p, "")) for p in ("given", "dropping-particle") if name.get(p))
                    if name.get("suffix"):
                        given += f", {name['suffix']}"
                    creators.append({"creatorType": role, "lastName": family, "firstName": given})
    data["creators"] = creators
    for csl, zotero in (("title", "title"), ("container-title", "publicationTitle"), ("volume", "volume"),
                        ("issue", "issue"), ("page", "pages"), ("publisher", "publisher"),
                        ("publisher-place", "place"), ("DOI", "DOI"), ("URL", "url"), ("ISBN", "ISBN"),
                        ("ISSN", "ISSN"), ("abstract", "abstractNote"), ("edition", "edition"),
                        ("collection-title", "series"), ("genre", "type"), ("language", "language")):
        if item.get(csl) not in (None, ""):
            data[zotero] = item[csl]
    issued = item.get("issued")
    if isinstance(issued, Mapping):
        parts = issued.get("date-parts") or [[]]
        first = parts[0] if parts and isinstance(parts[0], list) else []
        data["date"] = "-".join(f"{int(p):02d}" if i else str(p) for i, p in enumerate(first[:2])
                                if str(p).strip("-").isdigit() and (i or int(p))) or str(issued.get("raw") or issued.get("literal") or "")
    record = to_record(data)
    assert record is not None  # (never an attachment: CSL has none)
    key = str(item.get("citation-key") or "").strip()
    ident = str(item.get("id") or "").strip()
    if not key and ident and "/" not in ident and ":" not in ident and " " not in ident:
        key = ident
    if key and not record.entry.key:
        record.entry.key, record.key_source = key, "csl-json"
    record.item_key = key or ident
    return record
