"""Building the reference parser's training data and training it (``make model``)."""
