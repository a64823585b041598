"""Every error a user can fix is a CitekitError carrying its exit code and next step, and the
command line maps it from the error itself (no list of module names)."""

from __future__ import annotations

import pytest

from citekit import api
from citekit.api import errors


@pytest.mark.parametrize("name", ["ConfigError", "LibraryError", "LockBusy", "WriteFailed", "JournalRefused",
                                  "KeyMapError", "KeyFormulaError", "TagRuleError", "RelatedWorkError"])
def test_each_user_error_is_a_citekit_error_with_exit_code_2_and_a_next_step(name: str) -> None:
    cls = getattr(errors, name)
    assert issubclass(cls, api.CitekitError) and cls.exit_code == 2
    error = cls("it went wrong.") if name != "WriteFailed" else cls("it went wrong.", OSError(28, "full"))
    assert error.next_step and str(error) == "it went wrong."


@pytest.mark.parametrize("name", ["KeyFormulaError", "TagRuleError", "RelatedWorkError"])
def test_errors_callers_catch_as_value_errors_still_are(name: str) -> None:
    assert issubclass(getattr(errors, name), ValueError)


def test_the_exit_code_comes_from_the_error() -> None:
    class Finding(api.CitekitError):
        exit_code = 1

    assert errors.explain(Finding("a finding")) == (1, "a finding")
    assert errors.explain(api.CitekitError("bad input", exit_code=2, next_step="Do this.")) == (2, "bad input Do this.")
    assert errors.explain(errors.TagRuleError("bad rule")) == (2, "bad rule")
    assert errors.explain(KeyError("a bug"))[0] is None


def test_a_write_the_system_refused_says_what_the_transaction_guarantees() -> None:
    code, message = errors.explain(errors.WriteFailed("x", OSError(28, "No space left on device", "refs/.library.bib.ab.tmp")))
    assert code == 2 and "disk is full" in message and message.endswith("Nothing was changed.")


def test_naming_an_error_loads_only_its_module() -> None:
    import subprocess
    import sys

    probe = ("import sys; from citekit.api import errors; errors.ConfigError; "
             "print(sorted(m for m in ('citekit.library.store', 'citekit.output.related_work', 'yaml') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
