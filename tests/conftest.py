"""Shared fixtures: every test gets a private HOME/AGH_HOME under tmp_path, so nothing on the machine
leaks in, and small helpers to write skill trees."""
from __future__ import annotations

import os
import textwrap
from pathlib import Path

import pytest

# The `editor_requires(reason)` mark of the real-editor tests: skip with the reason, fail under CI=true.
from tests.editors.requirements import pytest_configure, pytest_runtest_setup  # noqa: F401

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"


@pytest.fixture(autouse=True)
def private_home(tmp_path, monkeypatch):
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("AGH_HOME", str(home / ".agh"))
    monkeypatch.setenv("CODEX_HOME", str(home / ".codex"))
    monkeypatch.delenv("AMP_TOOLBOX", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    return home


@pytest.fixture
def workspace(tmp_path) -> Path:
    ws = tmp_path / "ws"
    ws.mkdir()
    return ws


def write(path: Path, text: str, *, dedent: bool = True) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text) if dedent else text, encoding="utf-8")
    return path


def skill(root: Path, dirname: str, *, name: str | None = None, description: str = "Does things. Use when needed.",
          extra: str = "", body: str = "# Skill\n\nInstructions.\n") -> Path:
    """Write <root>/<dirname>/SKILL.md with a valid frontmatter (name defaults to the directory)."""
    name = dirname if name is None else name
    fm = f"---\nname: {name}\ndescription: {description}\n{extra}---\n"
    return write(root / dirname / "SKILL.md", fm + body, dedent=False)


def codes(diags) -> list[str]:
    return sorted(d.code for d in diags)


def check_tree(path: Path, *, runtimes: list[str] | None = None, workspace: Path | None = None,
               paths: list[Path] | None = None, **kwargs):
    """Run the checker in-process; returns the CheckResult."""
    from skill_ls.analysis.check import CheckOptions, run_check

    opts = CheckOptions(paths=[str(p) for p in (paths or [path])], workspace=str(workspace or path),
                        runtimes=runtimes or [], **kwargs)
    return run_check(opts)


def diags_for(result, path: Path, code: str | None = None):
    return [d for d in result.diagnostics if d.path == str(path) and (code is None or d.code == code)]


# Hypothesis profiles for the fuzz tests (issue 7). "ci" is the default and keeps the whole fuzz suite
# under a minute on two cores; "long" (`--hypothesis-profile=long`) runs >= 100,000 examples in total.
# The fuzz modules scale their per-test example counts from the loaded profile's max_examples.
try:
    from datetime import timedelta

    from hypothesis import HealthCheck, settings

    _FUZZ_HEALTH = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture,
                    HealthCheck.filter_too_much, HealthCheck.large_base_example]
    settings.register_profile("ci", max_examples=40, deadline=timedelta(seconds=10),
                              suppress_health_check=_FUZZ_HEALTH, print_blob=True)
    settings.register_profile("long", max_examples=6000, deadline=timedelta(seconds=20),
                              suppress_health_check=_FUZZ_HEALTH, print_blob=True)
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
except ImportError:  # pragma: no cover - hypothesis is a test extra
    pass


def workspace_state(ws: Path, environ: dict[str, str] | None = None):
    """A folder's analysis as the server holds it (configuration loaded, index built and installed),
    in process: the host of `skill_ls.analysis.queries` for the query tests."""
    from skill_ls.analysis.workspace import WorkspaceState

    state = WorkspaceState(str(ws), environ)
    state.load_config()
    state.install(state.build_index())
    return state


def position(path: Path, needle: str, offset: int = 1) -> tuple[int, int]:
    """(line, code point column) `offset` characters into the first line of `path` holding `needle`."""
    for i, line in enumerate(path.read_text(encoding="utf-8").splitlines()):
        if needle in line:
            return i, line.index(needle) + offset
    raise AssertionError(needle)
