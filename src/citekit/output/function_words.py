"""The function words of English prose that end a phrase: a name, heading or topic is never built across them.

One list for every module of the related-work writer that splits titles and sentences into phrases, kept in
a module of its own so that the low-level ones (title prose) and the high-level ones (topics, headings) share
it without importing each other."""

from __future__ import annotations

#: words that end a phrase: a name is never built across them
FUNCTION_WORDS = frozenset(
    "a an the of on in for and or to with without via by from at as is are was were be been being its it into "
    "over under this that these those we our us they their them can could may might must should would will not "
    "no nor using use used uses based than then such which who whom whose while also both more most less many "
    "much few each every all any some other another between through during about across after before how what "
    "when where why whether if so but yet do does did has have had i ii iii one two three four five first second "
    "well here there only just very up down out off toward towards upon within among per vs versus etc cf viz ie eg".split())
