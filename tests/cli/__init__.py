"""The command contract: exit codes, output formats, ``--json``, ``-q``, messages for faults.

Behaviour beyond the contract is tested through :mod:`citekit.api` in ``tests/``.
"""
