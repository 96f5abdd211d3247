"""What the real-editor tests need: a module says `pytestmark = pytest.mark.editor_requires(reason)`,
where `reason` is a one-line explanation of what is missing (or None/empty when everything is there).
Without it a test skips with that reason on a developer's machine; under CI=true it fails instead
(`.ci/run` installs every editor, so a missing one in CI is a broken CI, never a silent pass).

The hooks are loaded by tests/conftest.py: a conftest.py here would take the module name `conftest`
that the root tests import (`from conftest import ...`) when the whole suite runs."""
from __future__ import annotations

import os

import pytest

IN_CI = os.environ.get("CI", "").lower() == "true"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "editor_requires(reason): skip with the reason (fail under CI=true) "
                                       "when a real editor the test drives is missing")


def pytest_runtest_setup(item: pytest.Item) -> None:
    for mark in item.iter_markers("editor_requires"):
        reason = mark.args[0] if mark.args else None
        if not reason:
            continue
        if IN_CI:
            pytest.fail(f"CI=true but the editor this test drives is missing: {reason}", pytrace=False)
        pytest.skip(reason)
