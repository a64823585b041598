"""citekit: conference notes in, a clean tagged BibTeX library and related-work snippets out."""

__version__ = "0.1.0"
