"""Issue 22: every install command the project prints works. skill-ls is not on PyPI yet, so the
first step everywhere is one that works from a checkout (`pipx install .`, `uv tool install .`);
`pip install skill-ls` / `pipx install skill-ls` appear only marked as what works once published.
`.ci/packaging.sh` (run by .ci/run) runs the README's commands for real on fresh environments and
builds and installs the wheel and the sdist; these tests keep the texts and that script in step."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGING = ROOT / ".ci" / "packaging.sh"
# Every text a user reads an install command from: READMEs, the VS Code extension's messages (its
# toast and the Copy Install Command button), Neovim's health check and help.
TEXTS = [ROOT / "README.md", ROOT / "editors" / "vscode" / "README.md", ROOT / "editors" / "vscode" / "src" / "logic.ts",
         ROOT / "editors" / "vscode" / "src" / "extension.ts", ROOT / "editors" / "vscode" / "package.json",
         *sorted((ROOT / "editors" / "nvim").rglob("*.lua")), *sorted((ROOT / "editors" / "nvim").rglob("*.md")),
         *sorted((ROOT / "editors" / "nvim").rglob("*.txt"))]
FROM_PYPI = re.compile(r"\b(?:pip|pipx|uv tool|uv pip) install (?:--user )?skill-ls\b")


def _install_block() -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Install", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert block, "README's Install section has no sh block"
    return [line.split("#", 1)[0].strip() for line in block.group(1).splitlines() if line.split("#", 1)[0].strip()]


def test_readme_install_commands_are_the_ones_ci_runs():
    commands = _install_block()
    assert commands == ["pipx install .", "uv tool install ."], commands
    script = PACKAGING.read_text()
    for command in commands:
        tool, _, rest = command.partition(" install ")
        assert re.search(rf"-m {re.escape(tool)} install (--quiet )?{re.escape(rest)}", script), command
    assert "-m build --sdist --wheel" in script and "venv" in script


def test_ci_runs_the_packaging_script():
    ci = (ROOT / ".ci" / "run").read_text()
    assert "bash .ci/packaging.sh" in ci
    assert ci.index("bash .ci/packaging.sh") < ci.index("pip install -e '.[test]' && pytest")


def test_no_text_offers_an_install_from_pypi_as_a_step_that_works():
    """Each `pip install skill-ls` (or pipx/uv from PyPI) is on a line that says it works once
    published; none is a first step."""
    offenders = []
    for path in TEXTS:
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if FROM_PYPI.search(line) and not re.search(r"once (skill-ls is )?published|not on PyPI", line, re.I):
                offenders.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert offenders == []


def test_the_vscode_extension_suggests_the_readme_command():
    logic = (ROOT / "editors" / "vscode" / "src" / "logic.ts").read_text()
    command = re.search(r"export const INSTALL_COMMAND = '([^']+)'", logic).group(1)
    assert command in _install_block()
