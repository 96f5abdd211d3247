"""`mypy` finds nothing in the package (configured in pyproject.toml: strict; the server's pygls
handlers may leave their parameters unannotated).

Runs mypy as a subprocess from the repository root, so `pytest` after `pip install -e '.[test]'`
(mypy and types-PyYAML are in the test extra) type-checks the package exactly as a developer's
`mypy` does.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_is_clean() -> None:
    env = {k: v for k, v in os.environ.items() if k != "MYPYPATH"}
    proc = subprocess.run([sys.executable, "-m", "mypy", "--hide-error-context"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
