"""A learned reference parser: a CRF labels each token of a reference string.

``parse(text)`` tells author, title, container, date, volume, pages, identifier, url and
note apart in one pasted reference or mention, whatever citation style wrote it. The
model (``citekit/data/refparse.crfsuite``) was trained on strings nobody on the team
labelled (see ``docs/reference-parser.md``) and is opened on the first call only.
"""

from __future__ import annotations

from collections.abc import Callable

from citekit.notes.refparse.result import LABELS, ParsedReference

__all__ = ["LABELS", "ParsedReference", "parse", "parse_if", "label"]


def label(text: str) -> tuple[list[str], list[str], list[float]]:
    """The tokens of ``text``, the label of each and the model's probability for it."""
    from citekit.notes.refparse import model
    from citekit.notes.refparse.fields import given_name_out_of_title, names_inside_authors, title_inside_container
    from citekit.notes.refparse.tokens import clean, features, token_texts

    tokens = [t for t in token_texts(text) if clean(t)]  # (a soft hyphen alone is no token)
    labels, probs = model.tag(features(tokens))
    return tokens, title_inside_container(names_inside_authors(tokens, given_name_out_of_title(tokens, labels))), probs


def parse(text: str) -> ParsedReference:
    """Read one reference string (or a note line naming a paper) field by field."""
    from citekit.notes.refparse.fields import assemble

    tokens, labels, probs = label(text)
    return assemble(text, tokens, labels, probs)


def parse_if(text: str, keep: Callable[[list[str], list[str], list[float]], bool]) -> ParsedReference | None:
    """:func:`parse`, when ``keep(tokens, labels, probabilities)`` says the labelling is worth
    reading field by field (the fields and their people are built only then: splitting
    names is the dearest part of a parse)."""
    from citekit.notes.refparse.fields import assemble

    tokens, labels, probs = label(text)
    return assemble(text, tokens, labels, probs) if keep(tokens, labels, probs) else None
