"""What a paragraph's papers do, as action and object: "select targets", "diagnose oral disease".

A reader opens a paragraph with how its papers relate ("Both papers diagnose oral disease from
percussion sounds"), not with one noun they share ("Both papers address sounds"). The records
say what a paper does in a few shapes: a purpose ("a technique to manipulate out-of-reach
targets", "for viewing web pages"), the authors' own verb ("we measure the attenuation
constant") or a title that starts with one ("Detecting ..."). Each gives a verb and the noun
phrase after it. A group's action is a verb every one of its papers uses that way with an object
that shares a content word: only then is "Both papers <verb> <object>" true of each of them.
Verbs that say how a paper argues ("present", "investigate") or nothing at all ("use", "make")
are no action.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from citekit.core.text import fold
from citekit.output.related_topics import (_ADJECTIVE, _BREAK, _WEAK_STEMS, FUNCTION_WORDS, GENERIC, WEAK_ALONE, _plain,
                                           _shown, _stem, _topic_word)

#: verbs that say how a paper argues or nothing of what it does: never a group's action
_EMPTY_VERBS = frozenset(
    "be have do make use get give take let put keep go come see say show find present propose introduce describe "
    "discuss report investigate examine explore study analyze analyse evaluate assess understand consider address "
    "provide support allow enable help develop design build create implement demonstrate test compare conduct "
    "perform achieve improve increase reduce obtain determine identify gain offer focus deal need want try aim seek "
    "begin start continue become remain include involve contain apply work run follow lead move serve bring set add "
    "examine describe review outline propose argue suggest note observe measure gauge".split()) - {"measure"}
#: what may open the object of a verb: a determiner or a possessive, skipped
_DETERMINER = frozenset("a an the their its our his her these those this that such".split())


@dataclass(frozen=True)
class Action:
    """A verb (base form) and the noun phrase after it, as one record writes them."""

    verb: str
    object: tuple[str, ...]  # the object's words as written
    stems: frozenset[str]  # its content words' stems
    noun: str = ""  # the task noun a title writes after the object ("Recognition"), for a task (:func:`tasks`)


def _base(word: str, words: frozenset[str]) -> str | None:
    """The base form of a verb written as ``word`` ("viewing" -> "view", "making" -> "make", "tapping" ->
    "tap"), or None when it is no verb citekit knows (:func:`_is_verb`)."""
    low = word.lower()
    if low.endswith("ing") and len(low) > 5:
        stem = low[:-3]
        doubled = stem[:-1] if len(stem) > 2 and stem[-1] == stem[-2] and stem[-1] not in "ls" else ""
        for base in (doubled, stem + "e", stem):
            if base and base in words and _is_verb(base, words):
                return base
        return None
    return low if low in words and _is_verb(low, words) else None


def _is_verb(base: str, words: frozenset[str]) -> bool:
    """Whether a word is a verb, as far as a word list tells: it has a past or a gerund ("generate": "generated";
    "build": "building"). "memory", "formal" and "unseen" have neither."""
    stems = {base, base[:-1] if base.endswith("e") else base, base + base[-1]}
    return any(s + end in words for s in stems for end in ("ed", "ing")) or base + "d" in words


#: a noun made of a verb, and how to undo it: "diagnosis" -> "diagnose", "selection" -> "select"
_NOMINAL = (("ification", ("ify",)), ("ation", ("ate", "e", "")), ("ition", ("ize", "ise", "")), ("tion", ("te", "t", "")), ("sion", ("de", "d")),
            ("sis", ("se", "ze")), ("ment", ("",)))


def _verb_of_noun(low: str, words: frozenset[str]) -> str | None:
    """The verb a noun is made of ("diagnosis" -> "diagnose", "navigation" -> "navigate"), or None."""
    for end, bases in _NOMINAL:
        if low.endswith(end) and len(low) > len(end) + 2:
            stem = low[:-len(end)]
            for base in bases:
                if stem + base in words and len(stem + base) > 3 and _is_verb(stem + base, words):
                    return stem + base
    return None


def _object(tokens: list[str]) -> tuple[str, ...]:
    """The noun phrase at the start of ``tokens``: a determiner skipped, then up to three content words."""
    out: list[str] = []
    for i, tok in enumerate(tokens):
        low = fold(tok).lower()
        if i == 0 and low in _DETERMINER and not out:
            continue
        if low in FUNCTION_WORDS or low.isdigit() or low.endswith("ly"):
            break
        out.append(tok)
        if len(out) == 3:
            break
    return tuple(out)


def actions(text: str, words: frozenset[str]) -> list[Action]:
    """The verbs ``text`` writes as what something does, with their objects: after "to", "for", "by"
    or "of" ("to manipulate targets", "for viewing web pages"), after "we", or opening a clause as a
    gerund ("Detecting falls ...")."""
    out = []
    for chunk in _BREAK.split(_plain(text)):
        tokens = re.findall(r"[A-Za-z0-9][A-Za-z0-9\-']*", chunk)
        for i, tok in enumerate(tokens):
            low = fold(tok).lower()
            prev = fold(tokens[i - 1]).lower() if i else ""
            gerund = low.endswith("ing")
            nxt = fold(tokens[i + 1]).lower() if i + 1 < len(tokens) else ""
            base = None
            if nxt == "of" and prev in ("", "the", "for", "in", "to", "on", "and") \
                    and (base := _verb_of_noun(low, words)):  # "Diagnosis of Oral Disease", "the detection of falls"
                tokens_after = tokens[i + 2:]
            elif prev == "to" and not gerund or prev in ("for", "by", "of") and gerund or i == 0 and gerund \
                    or prev == "we" and not gerund:
                tokens_after = tokens[i + 1:]
            else:
                continue
            if low in FUNCTION_WORDS or low.endswith(("ly", "ed")) or (low.endswith("s") and not low.endswith(("ss", "sis"))):
                continue  # (an adverb, "rapidly zoom"; a past, "we discovered"; a noun, "to users")
            base = base or _base(low, words)
            if not base or base in _EMPTY_VERBS or base in GENERIC or base in WEAK_ALONE:
                continue
            obj = _object(tokens_after)
            stems = frozenset(_stem(fold(w).lower()) for w in obj
                              if fold(w).lower() not in GENERIC and fold(w).lower() not in WEAK_ALONE)
            if obj and stems:
                out.append(Action(base, obj, stems))
    return out + tasks(text.split(" . ", 1)[0], text, words)


#: nouns made of a verb that name a field or a state, not work done to the words before them ("gesture
#: interaction" is no "interact gestures", "data communication" no "communicate data")
_FIELD_NOUNS = frozenset(
    "interaction interactions information communication communications collaboration education application "
    "applications computation organization foundation population relation relations situation condition "
    "conditions government agreement engagement environment experiment attention emotion motion position "
    "representation presentation installation".split())
#: tasks that are one work under two names: a gesture classifier recognizes gestures ("Gesture Classification"
#: beside "Hand Gesture Recognition" is one paragraph of gesture recognizers)
_SAME_TASK = {"classify": "recognize"}
#: adjectives titles put before a task that no ending tells ("Fast Edge Detection", "Robust Face Recognition")
_TITLE_ADJECTIVES = frozenset(
    "fast faster quick rapid robust simple accurate accurately online offline large small big new novel real low "
    "high smart easy cheap free open full fine deep early late multi multiple single few many".split())


def tasks(title: str, text: str, words: frozenset[str]) -> list[Action]:
    """The tasks a title names as a noun made of a verb after its object: "Hand Gesture Recognition" ->
    recognize ("hand", "gestures"), "Fast Edge Detection" -> detect ("edges"). A title says what its paper
    does, so such a task is the paper's own work (an abstract's "hand gesture recognition has been studied"
    is not). The object is the run of nouns right before the task, an adjective ("dynamic", "vision-based") or a
    verb form ("Resolving Java reflection": what is resolved is the reflection) ending it; its last word is written in the plural when ``text`` (the record) writes it so."""
    out = []
    for chunk in _BREAK.split(_plain(title)):
        tokens = re.findall(r"[A-Za-z0-9][A-Za-z0-9\-']*", chunk)
        last: Action | None = None  # the task just read, whose object a coordinated one shares
        for i, tok in enumerate(tokens):
            low = fold(tok).lower()
            if low in _FIELD_NOUNS or not (base := _verb_of_noun(low, words)) or base in _EMPTY_VERBS \
                    or base in GENERIC or base in WEAK_ALONE:
                continue
            base = _SAME_TASK.get(base, base)
            if last and i >= 2 and fold(tokens[i - 1]).lower() in ("and", "or") and tokens[i - 2] == last.noun:
                # ("Hand Gesture Selection and Recognition": the second task is done to the same hand gestures)
                out.append(last := Action(base, last.object, last.stems, tok))
                continue
            obj: list[str] = []
            for prev in reversed(tokens[max(0, i - TASK_OBJECT_WORDS):i]):
                plow = fold(prev).lower()
                if plow in FUNCTION_WORDS or plow in GENERIC or plow in _TITLE_ADJECTIVES or _ADJECTIVE.search(plow) or plow.endswith("ly") \
                        or not plow.isalpha() or _verb_of_noun(plow, words) or plow.endswith("ing") and len(plow) > 5:
                    break
                obj.insert(0, prev)
            if not obj:
                continue
            obj[-1] = _plural_as_written(obj[-1], text)
            # (a word too weak to name a topic alone is what a task is done to all the same: "activity recognition")
            stems = frozenset(_stem(fold(w).lower()) for w in obj if fold(w).lower() not in GENERIC)
            if stems:
                out.append(last := Action(base, tuple(obj), stems, tok))
    return out


def task_groups(titles: list[str], texts: list[str], most: int) -> list[tuple[list[int], str]]:
    """Papers whose titles name one task on one noun (:func:`tasks`: "Hand Gesture Recognition", "Real-Time
    Gesture Recognition"), as ``(indexes, heading)``: they do the same work, whatever other words they share, and a
    reader draws them into one paragraph ("the hand gesture recognition papers are spread over three paragraphs").
    The heading is the task as the titles write it, with the object's words every one of them has ("Gesture
    recognition"). The largest group is drawn first, and a paper joins one group only; a task more than ``most``
    papers name is left to the grouping by closeness (it is the section's, not a paragraph's)."""
    from collections import Counter

    from citekit.output.title_prose import lowercase_words

    words = lowercase_words()
    per: list[dict[tuple[str, str], Action]] = []
    for title, text in zip(titles, texts):
        found: dict[tuple[str, str], Action] = {}
        for a in tasks(title, text, words):
            found.setdefault((a.verb, _stem(fold(a.object[-1]).lower())), a)
        per.append(found)
    taken: set[int] = set()
    skipped: set[tuple[str, str]] = set()
    out: list[tuple[list[int], str]] = []
    while True:
        counts = Counter(k for i, p in enumerate(per) if i not in taken for k in p if k not in skipped)
        ranked = sorted((k for k, n in counts.items() if n >= 2), key=lambda k: (-counts[k], k))
        if not ranked:
            return out
        key = ranked[0]
        idx = [i for i, p in enumerate(per) if i not in taken and key in p]
        if len(idx) > most:
            skipped.add(key)
            continue
        done = [per[i][key] for i in idx]
        common = set.intersection(*(set(a.stems) for a in done))
        first = done[0].object
        run: list[str] = []
        for w in reversed(first):  # (the object's words every title has, ending on its noun)
            if _stem(fold(w).lower()) not in common:
                break
            run.insert(0, w)
        # (the task as most titles name it: "recognition" of two recognizers and a classifier)
        nouns = Counter(a.noun.lower() for a in done)
        noun = next(a.noun for a in done if nouns[a.noun.lower()] == max(nouns.values()))
        out.append((idx, " ".join([*run[:-1], re.sub(r"(?<=[a-z])s$", "", run[-1]) if len(run[-1]) > 3 else run[-1],
                                   noun])))
        taken |= set(idx)


#: the most words of a task's object: the compound right before the task noun ("sign language" of "large
#: vocabulary sign language recognition"); a word before them qualifies the task, it is not what is done to
TASK_OBJECT_WORDS = 2


def _plural_as_written(word: str, text: str) -> str:
    """``word`` in the plural when ``text`` writes its plural ("gesture" -> "gestures"), else as it is: a task's
    object is written before its noun in the singular ("gesture recognition") but done to many."""
    low = fold(word).lower()
    forms = [low[:-1] + "ies"] if low.endswith("y") and low[-2:-1] not in "aeiou" else []
    forms += [low + "es", low + "s"] if low.endswith(("s", "sh", "ch", "x")) else [low + "s"]
    for form in forms:
        m = re.search(r"(?<![\w\-])" + re.escape(form) + r"(?![\w\-])", fold(_plain(text)), re.I)
        if m:
            return word[:1] + form[1:] if word[:1].isupper() else form
    return word


def shared_action(texts: list[str], section: set[str] | None = None,
                  names: frozenset[str] = frozenset()) -> tuple[str, str] | None:
    """``("diagnose", "oral disease")``: what every text writes it does to one object, or None.

    Every text must write an action (see :func:`actions`) with one verb whose object shares a noun
    with the others' objects: only then is "Both papers diagnose oral disease" true of each (two verbs,
    "retrieve or avoid annotations", are two actions, not one). The shared noun is never one of the section's own
    words (``section``, stems cut to six letters): "Both papers control mobile devices" under ``mobile``
    says nothing of this group. ``names`` are the words the records write as names
    (:attr:`.related_topics.Phrasebook.names`): a name alone is an object ("Both papers extend Muon").
    """
    from citekit.output.title_prose import lowercase_words

    return action_of([actions(t, lowercase_words()) for t in texts], section, names)


def action_of(per: list[list[Action]], section: set[str] | None = None,
              names: frozenset[str] = frozenset()) -> tuple[str, str] | None:
    """:func:`shared_action` from each paper's actions, read once (grouping asks it of every pair)."""
    from collections import Counter

    if len(per) < 2 or not all(per):
        return None
    own = {w[:6] for w in section or set()}
    heads = set.intersection(*({s for a in p for s in a.stems} for p in per))
    best: tuple[tuple[int, int], str, str] | None = None
    for head in sorted(heads):
        if _ADJECTIVE.search(head):
            continue
        uses = [[a for a in p if head in a.stems] for p in per]
        verbs = Counter(v for u in uses for v in {a.verb for a in u})
        # (the verb most papers write; of two as common, the authors' own over a task their title names, then the
        # first in the alphabet: never the order a set happens to give, which changed between runs)
        tasked = {a.verb for u in uses for a in u if a.noun}
        first = min(verbs, key=lambda v: (-verbs[v], v in tasked, v))
        if any(first not in {a.verb for a in u} for u in uses):
            continue  # (two verbs, "retrieve or avoid annotations", are two actions, not one)
        # a task every title names ("hand gesture recognition") is work even on the section's own noun: the verb
        # says it; any other action on a section word says nothing of this group ("control mobile devices")
        task = all(any(a.noun for a in u if a.verb == first) for u in uses)
        if head[:6] in own and not task:
            continue
        # the object as the first paper writes it, cut to the longest run of words every paper's object has
        obj = next(a for a in uses[0] if a.verb == first).object
        common = set.intersection(*({s for a in u for s in a.stems} for u in uses))
        runs, run = [], []
        for w in [*obj, ""]:
            if w and _stem(fold(w).lower()) in common:
                run.append(w)
            else:
                runs, run = (runs + [run]) if run else runs, []
        said = max(runs, key=len) if runs else []
        if not said or _ADJECTIVE.search(fold(said[-1]).lower()) or len("".join(said)) < 4:
            continue  # ("small", "oral": the noun is lost)
        verb = first
        if task:
            done = next(a for a in uses[0] if a.verb == first and a.noun)
            if said[-1] != done.object[-1]:
                continue  # ("hand" of "hand gesture" and "hand pose" recognition: the object's noun must be shared)
            if _stem(fold(said[-1]).lower()) == fold(said[-1]).lower():
                # (no record writes the object in the plural: "work on sign language recognition", never
                # "recognize hand gesture")
                verb, said = "work on", [*said, done.noun]
        elif len(said) == 1 and not _topic_word(said[0], names):
            continue  # ("generate test": a bare singular reads as no English object)
        score = (len(said), len(" ".join(said)))
        if best is None or score > best[0]:
            best = (score, verb, _shown(" ".join(said), names))
    return (best[1], best[2]) if best else None


#: what a paper can present as its own artefact: the head of "a bimanual technique", "a 3D curve sketching system"
_ARTEFACTS = frozenset(
    "system technique interface device display tool toolkit prototype method framework pen glove controller "
    "instrument kit widget sensor environment application platform editor wand bracelet watch".split())
_MAKES = (r"present|presents|describe|describes|introduce|introduces|propose|proposes|built|build|developed|develop|"
          r"designed|design|implemented|implement|created|create|report|reports")
#: "We present FingerGlass, a bimanual technique designed to ...", "This paper describes several logical devices"
_SELF = re.compile(
    r"\b(?i:we|this (?:paper|note|work|article))\s+(?:\w+ly\s+)?(?:have\s+)?(?i:" + _MAKES + r")\s+"
    r"(?:(?P<name>[A-Z][\w\-]*(?:\s+[A-Z][\w\-]*){0,2})\s*,\s*)?(?i:an?|the|our|several|two|three)\s+"
    r"(?P<np>[^.;:()]{2,90}?)\s*(?=\b(?i:that|which|for|to|in|with|where|designed|consisting|allowing|enabling|"
    r"called|based on|using|aimed|built|made|of)\b|[.;:(]|$)")
#: "Pointable: An in-Air Pointing Technique to ...": a title naming what the paper made
_TITLE_SELF = re.compile(r"^\s*(?P<name>[A-Z][\w\-]*(?:\s+[A-Z][\w\-]*){0,2})\s*:\s*(?i:an?\s+)?(?P<np>[^:.]{2,80}?)"
                         r"\s*(?=\b(?i:that|which|for|to|in|with|on|using|of)\b|$)")


@dataclass(frozen=True)
class Approach:
    """What a paper presents as its own: its name if it gives one, and each kind of artefact it says it
    presents (a noun's stem, "technique") with the words that describe it ("bimanual", "in-air")."""

    name: str
    kinds: dict[str, frozenset[str]]  # artefact stem -> the stems of the words before it
    written: dict[str, str]  # a describing word's stem -> as written


def approach(title: str, abstract: str) -> Approach | None:
    """What a paper's record says it presents ("FingerGlass, a bimanual technique"), or None."""
    from citekit.output.title_prose import method_name

    found = []
    m = _TITLE_SELF.match(_plain(title))
    if m:
        found.append(m)
    found += list(_SELF.finditer(_plain(abstract)))
    kinds: dict[str, set[str]] = {}
    written: dict[str, str] = {}
    for m in found:
        words = re.findall(r"[A-Za-z0-9][A-Za-z0-9\-']*", m.group("np"))
        if not words or _stem(fold(words[-1]).lower()) not in _ARTEFACTS:
            continue
        mods = kinds.setdefault(_stem(fold(words[-1]).lower()), set())
        for w in words[:-1]:
            low = fold(w).lower()
            if low not in FUNCTION_WORDS | GENERIC | {"new", "novel"} and not low.endswith("ly"):
                mods.add(_stem(low))
                written.setdefault(_stem(low), w)
    if not kinds:
        return None
    names = [method_name(title)] + [m.group("name") for m in found if m.group("name")]
    name = next((n for n in names if n and len(n.split()) <= 2 and n.split()[0].lower() not in FUNCTION_WORDS), "")
    return Approach(name, {k: frozenset(v) for k, v in kinds.items()}, written)


def shared_approach(titles: list[str], abstracts: list[str], section: set[str] | None = None,
                    names: frozenset[str] = frozenset()) -> tuple[list[str], str] | None:
    """``(["FingerGlass", "Pointable"], "bimanual techniques")``: the kind of artefact every paper presents,
    with a word of how each describes it (not one of the section's own words), and the papers' names
    (empty when one of them gives none), or None."""
    return approach_of([approach(t, a) for t, a in zip(titles, abstracts)], titles[0] + " " + abstracts[0], section,
                       names)


def approach_of(found: list[Approach | None], first: str, section: set[str] | None = None,
                names: frozenset[str] = frozenset()) -> tuple[list[str], str] | None:
    """:func:`shared_approach` from each paper's :func:`approach`, read once; ``first`` is the first
    paper's text, whose order of words the phrase keeps."""
    if len(found) < 2 or not all(found):
        return None
    own = {w[:6] for w in section or set()}
    best: tuple[int, str, list[str]] | None = None
    for head in sorted(set.intersection(*(set(a.kinds) for a in found))):
        common = set.intersection(*(set(a.kinds[head]) for a in found))
        common = {w for w in common if w[:6] not in own and w not in _WEAK_STEMS and len(w) > 2}
        if common and (best is None or len(common) > best[0]):
            best = (len(common), head, sorted(common))
    if best is None:
        return None
    _, head, common = best
    # (the describing words in the order the first paper writes them)
    order = {w: i for i, w in enumerate(re.findall(r"[a-z0-9][a-z0-9\-']*", fold(_plain(first)).lower()))}
    mods = sorted(common, key=lambda w: min((i for k, i in order.items() if _stem(k) == w), default=0))
    plural = head + ("es" if head.endswith(("s", "sh", "ch", "x")) else "s")
    # the describing words must stand right before the artefact as the first paper writes them: "curve systems"
    # from "3D curve sketching system" (the section's "sketching" left out) is a thing no record names
    written = [found[0].written[w] for w in mods]
    if not re.search(r"(?<![\w\-])" + r"[\s\-]+".join(re.escape(fold(w).lower()) for w in written) + r"[\s\-]+"
                     + re.escape(head), fold(_plain(first)).lower()):
        return None
    names = [a.name for a in found]
    said = _shown(" ".join([*(found[0].written[w] for w in mods), plural]), names)
    return (names if all(names) and len(set(names)) == len(names) else []), said


def paper_name(title: str, abstract: str) -> str:
    """The name a paper gives what it made ("FingerGlass", "Collapse-to-Zoom"), from its title or its
    abstract's "We present X, a ...", or ""."""
    from citekit.output.title_prose import method_name

    found = approach(title, abstract)
    name = found.name if found else method_name(title)
    return name if name and len(name.split()) <= 2 and name.split()[0].lower() not in FUNCTION_WORDS else ""


def shared_artefact(titles: list[str], abstracts: list[str], section: set[str] | None = None,
                    names: frozenset[str] = frozenset()) -> tuple[list[str], str] | None:
    """``(["ILoveSketch", "EverybodyLovesSketch"], "3D curve sketching systems")``: the artefact every paper
    presents, said as the first paper writes it, or None.

    Each paper must present an artefact of one kind (:func:`approach`, "a ... system"), and the phrase is the
    longest run of words the first paper writes that ends on that kind and whose every word each paper writes of
    what it presents (:func:`.related_studies.shared_run`): a paper's other words count for nothing, so "wearable
    devices" never says a gesture input system "across mobile, wearable and ubiquitous computing devices" is
    one. Unlike :func:`shared_approach`, the words are kept in the order a paper writes them ("3D curve
    sketching systems"), and the section's own words may stand in the phrase beside one that is not."""
    from citekit.output.related_studies import shared_run
    from citekit.output.sentences import contribution

    found = [approach(t, a) for t, a in zip(titles, abstracts)]
    if len(found) < 2 or not all(found):
        return None
    for head in sorted(set.intersection(*(set(a.kinds) for a in found))):
        within = set.intersection(*(set(a.kinds[head]) for a in found)) | {head}
        texts = []
        for title, abstract in zip(titles, abstracts):
            said = contribution(abstract, title=title) if abstract else None
            texts.append(f"{title} . {said.rest if said else ''}")
        run = shared_run(texts, section, names, within)
        if run and _stem(fold(run.split()[-1]).lower()) == head:
            names_of = [a.name for a in found]
            return (names_of if all(names_of) and len(set(names_of)) == len(names_of) else []), run
    return None
