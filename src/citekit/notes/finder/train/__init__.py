"""Training the mention finder: labelled documents in, a CRF model file out.

``python -m citekit.notes.finder.train`` (``make finder-model``) reads AnyStyle's labelled
documents (:mod:`.ttx`), generates documents of its own (:mod:`.render`, :mod:`.generate`),
labels the project's notes corpus (:mod:`.corpus`), holds out a seeded part of the first
two for measurement (:mod:`.datasets`) and trains with fixed settings (:mod:`.__main__`).
Nothing here runs at install time or when citekit reads notes.
"""
