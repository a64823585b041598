"""The name a paper gives the thing it made, with the casing its authors use.

A reader of related work wants "present VisionWand, a passive wand ...", not "explore a
passive wand ...": the name is how the field refers to the work. The name is read from the
record itself, never guessed: the title's lead before a colon when the abstract also writes
it as a name ("Pointable: An in-Air Pointing Technique ..." and "We present Pointable, an
..."), or the abstract's own appositive ("We present Luminos, a system of ..."). Casing is
the authors': a title word lowercased for sentence case ("pointable") gets its capital
back when the abstract or title writes it as a name.
"""

from __future__ import annotations

import re

from citekit.core.lazyre import lazy
from citekit.output.title_prose import mid_sentence, title_words_in_prose

#: verbs that say the paper made a thing, after which "NAME, a ..." is what the paper presents
MAKING_VERBS = {"present", "presented", "introduce", "introduced", "propose", "proposed", "describe", "described",
                "develop", "developed", "design", "designed", "build", "built", "create", "created", "explore",
                "explored", "implement", "implemented", "have developed", "have built", "have designed",
                "have created", "have implemented"}
#: "We present X, a ...", "X is a ...", "called X", "named X": the abstract naming its artefact
_APPOSITIVE = re.compile(
    r"\b(?:present|introduce|propose|describe|develop|design|build|built|create|demonstrate|call|called|named|dubbed|"
    r"presents|introduces|proposes|describes|developed|designed|created)\s+(?:the\s+)?"
    r"(?P<name>[A-Z][\w\-]*[A-Za-z0-9](?:\s+[A-Z][\w\-]*){0,2})\s*(?:,\s*(?:a|an|the)\s|\()")
_NAME_IS = re.compile(r"(?:^|[.!?]\s+)(?:The\s+)?(?P<name>[A-Z][\w\-]*[A-Za-z0-9](?:\s+[A-Z][\w\-]*){0,2})"
                      r"\s+(?:is|are)\s+(?:a|an)\s")


def title_lead_name(title: str, abstract: str) -> str:
    """The phrase before a title's colon when the abstract writes it as a name too, else "".

    "Pointable: An in-Air Pointing Technique ..." with "We present Pointable, an ..." gives
    "Pointable"; "Volunteering: ..." with no capitalized "Volunteering" mid-sentence gives "".
    """
    m = re.match(r"^\s*\{*(?P<lead>(?:The\s+)?[A-Z][\w\-]*(?:\s+[A-Z][\w\-]*){0,2})\}*\s*:\s", title)
    if not m:
        return ""
    lead = m.group("lead").replace("{", "").replace("}", "")
    core = re.sub(r"^The\s+", "", lead)
    if not any(c.isupper() for c in core) or not mid_sentence(core, abstract):
        return ""
    return core


def abstract_name(abstract: str, title: str) -> str:
    """The name the abstract gives its artefact in an appositive ("We present Luminos, a ..."), when the title
    holds it too (so the name is the paper's own thing, not a system it compares with), else ""."""
    title_words = {w.lower() for w in re.findall(r"[\w\-]+", title)}
    for pattern in (_APPOSITIVE, _NAME_IS):
        for m in pattern.finditer(abstract):
            name = m.group("name")
            first = name.split()[0].lower()
            if first in {"this", "these", "our", "we", "it", "in", "a", "an"}:
                continue
            if all(w.lower() in title_words or w.lower() + "s" in title_words or w.lower().rstrip("s") in title_words
                   for w in name.split()):
                return name
    return ""


def own_name(title: str, abstract: str, method: str = "") -> str:
    """The paper's artefact name: the title's (``method``, or its lead confirmed by the abstract), else the
    abstract's appositive one that the title also holds."""
    return method or title_lead_name(title, abstract) or abstract_name(abstract, title)


def recase(clause: str, name: str) -> str:
    """``name`` with the authors' capitals wherever the clause wrote it in lower case ("pointable", "lumino")."""
    if not name or name == name.lower():
        return clause
    if " " in name:  # "Gesture Pendant": the phrase as a whole, never its words alone ("hand gestures")
        return re.sub(rf"(?<![\w\-]){re.escape(name)}(?![\w\-])", name, clause, flags=re.I)
    for word in name.split():
        if word == word.lower():
            continue
        low = word.lower()

        def fix(m: re.Match[str]) -> str:
            found = m.group(0)
            return word + found[len(word):] if len(found) >= len(word) else word[:len(found)]

        clause = re.sub(rf"(?<![\w\-]){re.escape(low)}s?(?![\w\-])|(?<![\w\-]){re.escape(low[:-1])}(?![\w\-])"
                        if low.endswith("s") and len(low) > 4 else rf"(?<![\w\-]){re.escape(low)}s?(?![\w\-])",
                        fix, clause)
    return clause


def named_clause(clause: str, verb: str, name: str) -> str:
    """"a wearable device for X" -> "the Gesture Pendant, a wearable device for X" when the paper made it.

    Only after a verb that says the paper made something and when the clause opens with
    "a"/"an" (the thing made) and does not hold the name yet; the name is the record's own.
    """
    if not name or verb not in MAKING_VERBS:
        return clause
    if re.search(rf"(?<![\w\-]){re.escape(name)}", clause, re.I):
        return recase(clause, name)
    if not re.match(r"(?:a|an)\s", clause):
        return clause
    lead = "the " if re.match(r"[A-Z][a-z]+\s+[A-Z]", name) and " " in name else ""
    return f"{lead}{name}, {clause}"


def unexplained_name(clause: str, name: str, title: str) -> bool:
    """Whether the clause names the artefact without saying what it is ("describe the evolution of the DJammer")
    while the title does ("DJammer: A New Digital, Mobile ... Instrument"): the title then says more."""
    if not name or not re.search(rf"(?<![\w\-]){re.escape(name)}(?![\w\-])", clause):
        return False
    if re.search(rf"{re.escape(name)},\s+(?:a|an|the)\s", clause) or re.match(rf"(?:the\s+)?{re.escape(name)}\b", clause):
        return False
    # "the automatic theorem prover Simplify" says what it is; "the evolution of the DJammer" does not
    if re.search(rf"\b(?:the|a|an)\s+(?:(?!(?:of|for|in|on|to|with|and|or)\b)[\w\-]+\s+){{1,4}}{re.escape(name)}\b",
                 clause):
        return False
    return bool(re.match(rf"^\s*\{{*(?:The\s+)?{re.escape(name)}\}}*\s*:\s+(?:A|An)\s", title))


#: what a thing is for, when a title's subtitle names an activity ("Tangible 3D Interaction on Tabletop Computers")
_ACTIVITY_HEAD = lazy(r"\b(?:interaction|interactions|input|output|navigation|selection|entry|communication|"
                            r"collaboration|feedback|manipulation|control|sensing|tracking|recognition|authoring|"
                            r"prototyping|fabrication|modeling|modelling|annotation|editing|search|browsing|sharing|"
                            r"display|displays|exploration|[a-z]{3,}ing)$", re.I)
#: where a subtitle stops saying what for and starts saying how ("... Based on Blocks Made from ...")
_HOW = lazy(r"\s+(?:based\s+on|using|made|with|through|via|by|from|built|driven)\s.*$", re.I)


def with_purpose(clause: str, name: str, title: str, context: str = "") -> str:
    """"Luminos, a system of building blocks" -> "..., for tangible 3D interaction on tabletop computers".

    A short appositive ("NAME, a/an" and at most six words, with no phrase saying what for or
    where) tells a reader what the thing is but not what it is for, which is what places it
    among related work. The title says it: its "for ..." phrase ("Unpowered Finger Input for
    Very Small Mobile Devices"), or a subtitle that names an activity ("Tangible 3D Interaction
    on Tabletop Computers"). That phrase is added, in the title's words, only when the clause
    does not say it yet. Nothing is added that the title does not say.
    """
    m = re.fullmatch(r"(?:the\s+)?(?P<name>[^,]{2,40}),\s+(?:a|an)\s+((?:[\w\-]+,?\s+){0,5}[\w\-]+)", clause)
    if not name or not m or m.group("name").lower().rstrip("s") != name.lower().rstrip("s") or re.search(r"\b(?:for|on|in|to|with|that|which|at|by|from|via|using)\b", m.group(2)):
        return clause
    lead, sep, sub = title.partition(":")
    if not sep or lead.strip().strip("{}").lower() not in {name.lower(), name.lower() + "s", "the " + name.lower()}:
        return clause
    sub = re.sub(r"[{}]", "", sub).strip().rstrip(".")
    purpose = re.search(r"\b(?:for|to\s+support)\s+(.+)$", sub, re.I)
    if purpose:
        phrase = purpose.group(0)
    elif not re.match(r"(?:an?|the)\s|\w+ing\b", sub, re.I) and _ACTIVITY_HEAD.search(re.split(r"\s+(?:on|in|at|for)\s",
                                                                                         _HOW.sub("", sub))[0]):
        phrase = "for " + sub
    else:
        return clause
    phrase = _HOW.sub("", phrase).strip(" ,")
    # what it adds must be new: "an active reading system | to support active reading" says it twice
    words = [w for w in re.findall(r"[a-z]{4,}", phrase.lower()) if w not in {"support", "supporting", "very"}]
    said = {c[:5] for c in re.findall(r"[a-z]{4,}", clause.lower())}
    if len(phrase.split()) < 2 or len(phrase.split()) > 8 or not words \
            or sum(w[:5] not in said for w in words) * 2 < len(words):
        return clause
    out = f"{clause} {title_words_in_prose(phrase, context)}"
    # a clause made mostly of the title's words says no more than the title (and is then not used at all)
    from citekit.core.text import title_tokens

    words, known = title_tokens(out), set(title_tokens(title))
    return clause if sum(w in known for w in words) >= 0.8 * len(words) else out


def name_artefact(clause: str, verb: str, title: str, abstract: str, method: str = "") -> tuple[str, str]:
    """``(verb, clause)`` with the paper's artefact named in the authors' casing; ``clause`` is "" when the title
    says what the named thing is and the clause does not (the caller then writes from the title)."""
    name = own_name(title, abstract, method)
    if not name:
        return verb, clause
    clause = recase(clause, name)
    if unexplained_name(clause, name, title):
        return verb, ""
    named = named_clause(clause, verb, name)
    if named != clause and verb in {"explore", "explored"}:  # "explore VisionWand, a wand ..." presents it
        verb = "present"
    if verb in MAKING_VERBS:
        named = with_purpose(named, name, title, abstract)
    return verb, named
