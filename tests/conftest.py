"""Shared fixtures: every test gets a private HOME/AGH_HOME under tmp_path, so nothing on the machine
leaks in, and small helpers to write skill trees."""
from __future__ import annotations

import os
import textwrap
from pathlib import Path

import pytest

# The `editor_requires(reason)` mark of the real-editor tests: skip with the reason, fail under CI=true.
from tests.editors import requirements
from tests.editors.requirements import pytest_runtest_setup  # noqa: F401

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"


# The README's test command (`pytest`, every test) runs modules side by side in worker processes
# (pytest-xdist, `-n auto --dist loadfile` in pyproject.toml: a module and its module-scoped servers and
# editors stay in one process); a run of chosen tests (`pytest tests/test_x.py`, `-k`) stays in one
# process, where a worker's start-up would cost more than it saves. PYTEST_XDIST_AUTO_NUM_WORKERS (or
# `-n N`) overrides both. Most of the suite waits on servers and editors, so workers outnumber cores.
WORKERS_PER_CORE = 2


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    forced = os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS", "")
    if forced.isdigit():
        return int(forced)
    if config.args_source is not pytest.Config.ArgsSource.TESTPATHS or config.option.keyword \
            or config.option.markexpr:
        return 0
    return WORKERS_PER_CORE * len(os.sched_getaffinity(0))


def pytest_configure(config: pytest.Config) -> None:
    requirements.pytest_configure(config)
    config.addinivalue_line("markers", "long: a module that takes a minute or more (a real editor, a validator "
                                       "run over a corpus, an install): started first when modules run side by side")


def pytest_sessionstart(session: pytest.Session) -> None:
    """Bytecode for the package and the tests, written once before any test starts a process: where
    PYTHONDONTWRITEBYTECODE is set (as on some CI machines), every server, command and editor the suite
    starts would otherwise compile every module it imports again (~0.2 s of CPU each)."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        return  # (the controller did it before starting the workers)
    import compileall
    import re

    root = Path(__file__).resolve().parents[1]
    for package in ("skill_ls", "tests"):  # (not the fixtures under tests/data)
        compileall.compile_dir(str(root / package), quiet=2, rx=re.compile(r"[/\\]data[/\\]"))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Modules marked `long` first (order kept otherwise): with modules side by side the longest start
    at once and the short ones fill the gaps, instead of one long module starting last."""
    items.sort(key=lambda item: item.get_closest_marker("long") is None)


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
