"""pytest plugin entry point: ``pytest_plugins = ["tests.fakeservices.plugin"]`` makes
the ``fake_services`` fixture available to every test."""

from . import fake_services  # noqa: F401  (re-exported fixture)
