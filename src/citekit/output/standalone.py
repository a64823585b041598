"""Make a sentence taken from an abstract readable without the abstract around it.

A related-work reader sees one sentence per paper. Two things in it lean on sentences the
reader never sees: an acronym the abstract defined earlier ("ZO" for "zeroth-order (ZO)")
and a definite noun that points back ("the mismatch", named "an optimizer mismatch" two
sentences before). Both are repaired from the abstract itself — the acronym is written out
as the abstract defined it, the noun gets the words the abstract gave it — or, when the
abstract gives nothing to repair them with, the sentence is not used. The same readings
serve ``related-work --check``, which has only the finished text.
"""

from __future__ import annotations

import re
from citekit.core.lazyre import lazy

#: acronyms a reader of an optimization or HCI paper knows without a definition, which the shared corpora (software
#: engineering, physics, tools' fixtures) barely write: the fields citekit's related work is written for
_READER_KNOWS = frozenset((
    "AI ML RL NLP CV HCI VR AR XR UI UX GUI API CPU GPU GPUs TPU LLM LLMs SGD GD CNN CNNs RNN DNN DNNs MLP GAN GANs "
    "PDF GPS USB TV PC PCs URL HTML SQL CAD ID IDs IoT QA SVM PCA KL MSE IID ODE ODEs PDE PDEs FLOPs FLOP "
    "LoRA OOD SDE SDEs BERT GPT ViT MNIST CIFAR RGB LED LEDs EEG ECG MRI DNA RNA UK EU 2D 3D 4D NP PAC "
    "XML JSON HTTP JVM OS SMS TCP IP RFID"
).split())


def _common_acronyms() -> frozenset[str]:
    """Acronyms authors use bare across the shared corpora's abstracts (fitted by ``bench/common_acronyms.py``)."""
    from importlib import resources

    try:
        text = resources.files("citekit.data").joinpath("common_acronyms.txt").read_text(encoding="utf-8")
    except FileNotFoundError:  # (only while the script that fits it runs for the first time)
        return frozenset()
    return frozenset(w for w in text.split("\n") if w and not w.startswith("#"))


#: acronyms a reader knows without a definition: learned from the corpora, plus the fields' own short list
WELL_KNOWN: frozenset[str] = _READER_KNOWS | _common_acronyms()

_ACRONYM_DEF = lazy(r"\(([A-Z][A-Za-z0-9]*[A-Z][A-Za-z0-9]*?)(s?)\)")
_WORD = lazy(r"[A-Za-z][\w\-\u2010-\u2013]*")
_FUNCTION = {"of", "the", "a", "an", "and", "for", "in", "on", "to", "with", "via", "by", "from"}
#: words that rank a noun but do not say what it is: "the fundamental question" still needs the question
_UNINFORMATIVE = {"fundamental", "key", "important", "open", "main", "central", "critical", "major", "new", "natural",
                  "remaining", "significant", "serious", "crucial", "common", "general", "same", "above", "following",
                  "interesting", "intriguing", "surprising", "basic", "core", "primary", "severe", "persistent"}


def is_acronym(token: str) -> bool:
    """Whether a word reads as an acronym ("ZO", "SPS", "PRMs", "EoS", "MetaBBO"), not a name ("LiMuon")."""
    core = token[:-1] if token.endswith("s") and sum(c.isupper() for c in token[:-1]) >= 2 else token
    upper = sum(c.isupper() for c in core)
    lower = sum(c.islower() for c in core)
    return upper >= 2 and lower <= upper - 1 and len(core) <= 8 and core[:1].isupper()


def _letters(acronym: str) -> str:
    core = acronym[:-1] if acronym.endswith("s") and acronym[:-1].upper() != acronym[:-1].lower() \
        and acronym[-2:-1].isupper() else acronym
    upper = "".join(c for c in core if c.isupper() or c.isdigit())
    return (upper if len(upper) >= 2 else core).lower()


def definitions(text: str) -> dict[str, str]:
    """Acronyms an abstract defines, with the words it defines them by.

    "Accurate Zeroth-Order (ZO) Hessian" gives ``{"ZO": "Zeroth-Order"}``: the shortest run
    of words before the parenthesis whose initials (hyphenated parts count) spell the
    acronym's capitals in order, starting with its first letter.
    """
    found: dict[str, str] = {}
    for m in _ACRONYM_DEF.finditer(text):
        acronym = m.group(1)
        letters = _letters(acronym + m.group(2))
        words = _WORD.findall(text[max(0, m.start() - 120):m.start()])[-8:]
        for k in range(1, len(words) + 1):
            phrase = words[-k:]
            if phrase[0].lower() in _FUNCTION or phrase[0][0].lower() != letters[0]:
                continue
            initials = [p[0].lower() for w in phrase for p in re.split(r"[\-\u2010-\u2013]", w) if p]
            it = iter(initials)
            if all(any(c == i for i in it) for c in letters):
                long = " ".join(phrase)
                first = long.split()[0]
                if first[1:].islower() and all(w.islower() or w in _FUNCTION for w in long.split()[1:]):
                    long = long[0].lower() + long[1:]  # capitalized only because it opened a sentence
                found.setdefault(acronym, long)
                break
    return found


def _defined_after(text: str) -> set[str]:
    """Acronyms written with their long form in parentheses after them, where they end a name ("Ideogramic UML
    (unified modeling language)"): the long form's initials spell the acronym."""
    out = set()
    for m in re.finditer(r"(?<![\w\-])([A-Z][A-Za-z0-9]*[A-Z][A-Za-z0-9]*?)s? \(([A-Za-z][A-Za-z\-\s]+)\)", text):
        initials = "".join(w[0] for w in re.split(r"[\s\-]+", m.group(2).strip()) if w and w.lower() not in _FUNCTION)
        if initials.lower() == _letters(m.group(1)):
            out.add(m.group(1))
    return out


def undefined_acronyms(text: str, names: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """Acronyms a sentence uses without defining them, the reader's "what is ZO?".

    Defined means: written after its long form in parentheses in the same text, introduced
    as the thing the sentence proposes ("propose AdaGC, an ..."), well known (LLM, SGD), or
    one of ``names`` (the paper's own method name).
    """
    plain = re.sub(r"(?<!\\)\$[^$]*(?<!\\)\$", " ", text)
    plain = re.sub(r"\\emph\{([^{}]*)\}|\*+([^*]+)\*+", lambda m: m.group(1) or m.group(2), plain)
    defined = {m.group(1) for m in _ACRONYM_DEF.finditer(plain)} | _defined_after(plain)
    introduced = set(re.findall(r"\b(?:propose|proposes|introduce|introduces|present|presents|called|named|dubbed)"
                                r"\s+(?:\w+\s+)?([A-Z][\w\-]*)", plain))
    out: list[str] = []
    # (an acronym joined to a lower-case word is still used: "LMO-based"; one joined to another name is part of it:
    # "ZO-SGD", "GPT-4")
    for m in re.finditer(r"(?<![\w\-\\{])([A-Z][A-Za-z0-9]*[A-Z][A-Za-z0-9]*)(?![\w]|-[A-Z0-9])", plain):
        token = m.group(1)
        base = token[:-1] if token.endswith("s") and len(token) > 2 else token
        if not is_acronym(token) or token in WELL_KNOWN or base in WELL_KNOWN or base in defined \
                or token in defined or token in names or base in names or token in introduced or base in introduced:
            continue
        if token not in out:
            out.append(token)
    return out


#: what a well-known acronym usually stands for (its first word): defined otherwise, the authors' meaning is written out
_USUAL = {"CPU": "central", "GPU": "graphics", "GPS": "global", "AR": "augmented", "VR": "virtual", "UI": "user",
          "UX": "user", "HCI": "human", "AI": "artificial", "ML": "machine", "PC": "personal", "TV": "television",
          "ID": "ident", "LED": "light", "CAD": "computer", "API": "application", "OS": "operating",
          "IoT": "internet", "RL": "reinforcement", "NLP": "natural", "SMS": "short", "RFID": "radio",
          "EEG": "electro", "ECG": "electro", "MRI": "magnetic", "GUI": "graphical", "USB": "universal"}


def expand_acronyms(clause: str, abstract: str, name: str = "") -> str:
    """Write out the acronyms the abstract defined: "ZO" becomes "zeroth-order (ZO)" at its first use.

    Used once, an acronym is replaced by its long form; used more than once, the first use
    gets the long form with the acronym in parentheses. Already defined in the clause, or
    the paper's own method name: left as it is. An acronym every reader knows is written out
    too when the abstract defines it, since the authors may mean something else by it
    ("cell phone usage (CPU)" is not a processor).
    """
    defs = definitions(abstract)
    for acronym, long in sorted(defs.items(), key=lambda t: -len(t[0])):
        usual = _USUAL.get(acronym)
        if acronym in WELL_KNOWN and (usual is None or long.lower().startswith(usual)):
            continue  # GPS defined as "global positioning system" is the GPS every reader knows
        if acronym == name or re.search(rf"\({re.escape(acronym)}s?\)", clause):
            continue
        uses = list(re.finditer(rf"(?<![\w\-]){re.escape(acronym)}(s?)(?![\w\-])", clause))
        if not uses:
            continue
        first = uses[0]
        before = clause[:first.start()]
        if re.search(rf"{re.escape(long)}\s*$", before, re.I):
            continue
        plural = first.group(1)
        text = long + ("s" if plural and not long.endswith("s") else "")
        if len(uses) > 1:
            text = f"{text} ({acronym}{plural})"
        clause = before + text + clause[first.end():]
    return clause


#: heads of definite noun phrases that point back to something the abstract said before
BACK_HEADS = frozenset((
    "mismatch issue problem phenomenon gap limitation limitations bottleneck challenge challenges effect effects "
    "floor tail observation finding question defect flaw discrepancy tradeoff trade-off drawback drawbacks "
    "shortcoming shortcomings difficulty degradation instability behavior behaviour pathology failure "
    "phenomena setting assumption approach method technique framework system algorithm"
).split())
_NOT_HEAD = frozenset((
    "same first last proposed resulting whole entire original standard optimal following current existing main "
    "other best former latter above previous overall final key new most way"
).split())
_POSTMOD = r"(?:of|that|which|who|whom|whose|in|between|for|from|under|with|on|at|by|to|where|when|across|among|" \
           r"induced|caused|arising|observed|seen|known|called)"
_THE = lazy(rf"\bthe\s+([a-z][a-z\-]{{2,}})\b(?!\s+{_POSTMOD}\b)(?=\s*(?:[,.;:)]|$|\s+(?:and|or|is|are|was|were|"
                  rf"can|may|through|via|using|by|remains?|persists?)\b))")


def back_references(clause: str, earlier: str | None = None) -> list[str]:
    """Definite noun phrases in ``clause`` that only make sense after an earlier sentence.

    With ``earlier`` (the abstract before the clause) any "the X" whose X was named there
    and not before it in the clause counts; without it (the check, which has only the
    finished text) only the heads that typically point back ("the mismatch", "the gap").
    """
    found = []
    plain = re.sub(r"(?<!\\)\$[^$]*(?<!\\)\$", " ", clause)
    for m in _THE.finditer(plain):
        head = m.group(1).lower()
        if head in _NOT_HEAD:
            continue
        stem = head[:5]
        if any(w.startswith(stem) for w in re.findall(r"[a-z][\w\-]*", plain[:m.start()].lower())):
            continue
        if earlier is None:
            if head in BACK_HEADS:
                found.append(m.group(0))
        elif re.search(rf"\b{re.escape(stem)}", earlier.lower()):
            found.append(m.group(0))
    return found


def rebuild_back_references(clause: str, earlier: str) -> str | None:
    """Give each "the X" that points back the words the abstract named X with, or None.

    "the mismatch" after "... due to an optimizer mismatch." becomes "the optimizer
    mismatch"; when the abstract never gave X more words than "the X", the clause cannot
    stand alone and None is returned.
    """
    for phrase in back_references(clause, earlier):
        head = phrase.split()[-1]
        m = None
        for m in re.finditer(rf"\b(?:a|an|the|this|these|its|their|our)\s+((?:[A-Za-z][\w\-]*\s+){{1,2}}){re.escape(head)}"
                             rf"\b", earlier, re.I):
            pass
        if m is None:
            if head in BACK_HEADS:
                return None
            continue
        modifiers = m.group(1).strip()
        if any(w.lower() in _FUNCTION or w.lower() in {"this", "that", "such"} for w in modifiers.split()) \
                or all(w.lower() in _UNINFORMATIVE for w in modifiers.split()):
            if head in BACK_HEADS:
                return None
            continue
        clause = re.sub(rf"\bthe\s+{re.escape(head)}\b", f"the {modifiers} {head}", clause, count=1)
    return _rebuild_demonstratives(clause, earlier)


def _rebuild_demonstratives(clause: str, earlier: str) -> str:
    """"this mismatch" after "... due to an optimizer mismatch." becomes "the optimizer mismatch".

    Only when the earlier sentence named the noun with words of its own; otherwise the
    clause is left as it is and the caller's check (``clause_defects``) passes it over.
    """
    for m in list(re.finditer(r"\b(?:this|these|such)\s+([a-z][a-z\-]{2,})\b", clause, re.I)):
        noun = m.group(1)
        if re.search(rf"\b{re.escape(noun[:5])}", clause[:m.start()], re.I):
            continue  # the antecedent is in the clause itself
        found = None
        # "... a signal unique to the home: electromagnetic noise": a colon or comma introduces the noun as well
        for found in re.finditer(rf"(?:\b(?:a|an|the|its|their|our)\s+|[:;,]\s+)((?:[A-Za-z][\w\-]*\s+){{1,2}})"
                                 rf"{re.escape(noun)}\b", earlier, re.I):
            pass
        if found is None:
            continue
        modifiers = found.group(1).strip()
        if any(w.lower() in _FUNCTION or w.lower() in {"this", "that", "such", "these"} for w in modifiers.split()) \
                or all(w.lower() in _UNINFORMATIVE for w in modifiers.split()):
            continue
        clause = clause.replace(m.group(0), f"the {modifiers} {noun}", 1)
    return clause


#: plural heads that say only what kind of thing was counted: "compared three techniques" (which ones?)
_GENERIC_KINDS = {"techniques", "methods", "approaches", "designs", "interfaces", "systems", "prototypes",
                  "strategies", "variants", "versions", "conditions", "mechanisms", "tools", "algorithms", "models"}
#: words before a kind that do not name it: function words, pointers, counts ("these two techniques")
_NOT_NAMING = _FUNCTION | {"this", "that", "such", "these", "those", "use", "two", "three", "four", "several", "both",
                           "all", "many", "some", "other", "existing", "previous"}


def _counted_kinds(clause: str, earlier: str) -> str:
    """"compared three techniques" after "... target assistance techniques ..." -> "three target assistance
    techniques": a counted generic noun gets the words the abstract named that kind with before."""
    for m in list(re.finditer(r"\b(two|three|four|five|six|several|both|all)\s+([a-z]+)\b", clause)):
        noun = m.group(2)
        if noun not in _GENERIC_KINDS:
            continue
        named = list(re.finditer(rf"\b((?:[A-Za-z][\w\-]*\s+){{1,2}}){noun}\b", earlier))
        if not named:
            continue
        modifiers = named[-1].group(1).split()  # (the last time the abstract named that kind)
        while modifiers and (modifiers[0].lower() in _NOT_NAMING or modifiers[0].lower() in _UNINFORMATIVE
                             or not modifiers[0][:1].islower()):
            modifiers = modifiers[1:]
        if not modifiers or any(w.lower() in _FUNCTION for w in modifiers):
            continue
        clause = clause.replace(m.group(0), f"{m.group(1)} {' '.join(modifiers)} {noun}", 1)
    return clause


def stand_alone(clause: str, earlier_sentences: list[str], abstract: str, name: str = "") -> str | None:
    """The clause with acronyms written out and back-references rebuilt, or None when it cannot stand alone.

    An acronym the abstract never defines does not disqualify the clause here (``PDA`` in a
    paper's main claim is better than a side result without it); callers rank such a
    clause lower (see :func:`unexplained`).
    """
    clause = expand_acronyms(clause, abstract, name)
    earlier = " ".join(earlier_sentences)
    rebuilt = rebuild_back_references(clause, earlier)
    return _counted_kinds(rebuilt, earlier) if rebuilt is not None else None


def unexplained(clause: str, name: str = "") -> list[str]:
    """Acronyms a clause still leaves unexplained after :func:`stand_alone` (the reader's "what is PDA?")."""
    # the clause follows the contribution verb: its first word is what the paper introduces ("FedCDWA, a ...")
    lead = re.match(r"\s*(?:a\s+|an\s+|the\s+)?(?:new\s+|novel\s+)?([A-Z][\w\-]*)", clause)
    names = {n for n in (name, lead.group(1) if lead else "") if n}
    return undefined_acronyms(clause, names)
