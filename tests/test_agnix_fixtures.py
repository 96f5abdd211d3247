"""agnix's own fixtures for skills, subagents, plugins, hooks, settings and MCP configs (copied unchanged
in ../shared/peer/agnix/, MIT/Apache-2.0), each placed where Claude Code reads it: `.claude/skills/<dir>/`,
`.claude/agents/`, `.claude/settings.json`, a plugin's `.claude-plugin/plugin.json`, the project's
`.mcp.json`. Every invalid fixture gets a finding and every valid one no error, or the disagreement is
listed in `DISAGREE` with Claude Code's behaviour as evidence (docs/agnix-fixtures.md)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import CORPUS, check_tree

AGNIX = CORPUS.parent / "peer" / "agnix" / "tests" / "fixtures"
pytestmark = pytest.mark.skipif(not AGNIX.is_dir(), reason="agnix's fixtures (../shared/peer/agnix) not present")

# case -> why skill-ls (and Claude Code) disagrees with the fixture's verdict.
DISAGREE: dict[str, str] = {
    "invalid/skills/argument-hint-no-args": "Claude Code appends the arguments to a skill whose body does not use "
                                            "$ARGUMENTS: the hint is not wasted",
    "invalid/skills/context-without-agent": "`context: fork` without `agent` runs in the general-purpose subagent "
                                            "(documented default)",
    "invalid/skills/fork-no-instructions": "Claude Code runs it; the forked subagent gets the (empty) body as its task",
    "invalid/skills/string-boolean-disable": "Claude Code 2.1.332 reads \"true\" as true (flag words: true/yes/on/1 "
                                             "in any case), so the skill is hidden from the model as meant",
    "invalid/skills/string-boolean-invocable": "Claude Code 2.1.332 reads \"false\" as false (flag words)",
    "invalid/skills/vague-name": "a naming heuristic (`helper`); Claude Code loads it",
    "invalid/skills/deploy-prod": "a naming heuristic (a deploy skill the model may invoke); Claude Code loads and "
                                  "runs it as written",
    "invalid/skills/first-person-description": "style of the description; Claude Code loads it",
    "invalid/hooks/async-on-non-command": "`claude plugin validate` accepts it; Claude Code ignores the key",
    "invalid/hooks/dangerous-commands": "a security heuristic on the command text, not a load problem",
    "invalid/hooks/deprecated-setup-event": "`Setup` is an event Claude Code 2.1.332 knows; the validator accepts it",
    "invalid/hooks/matcher-on-ignored-event": "the validator accepts it; the matcher is ignored, the hook runs",
    "invalid/hooks/matcher-on-wrong-event": "the validator accepts it; the hook runs",
    "invalid/hooks/missing-matcher": "a group without `matcher` matches every tool (documented); the validator accepts it",
    "invalid/hooks/model-on-command": "the validator accepts it; Claude Code ignores the key",
    "invalid/hooks/no-timeout": "`timeout` is optional (a default applies)",
    "invalid/hooks/once-in-settings": "the validator accepts it",
    "invalid/hooks/prompt-missing-arguments": "the validator accepts it",
    "invalid/hooks/prompt-on-wrong-event": "the validator accepts it",
    "invalid/hooks/script-not-found": "the script is resolved when the hook runs ($CLAUDE_PROJECT_DIR); neither the "
                                      "validator nor skill-ls checks the disk for it",
    "skills/deep-reference": "the path is prose, not a link or code: no runtime reads it as a reference",
    "skills/windows-path": "the path is prose, not a link or code: no runtime reads it as a reference",
    "mcp/dangerous-stdio-command.mcp.json": "a security heuristic on the command text",
    "mcp/deprecated-sse.mcp.json": "Claude Code still starts `sse` servers",
    "mcp/valid-tool.mcp.json": "an MCP tool definition, not a configuration: as the project's .mcp.json Claude Code "
                               "reads no server from it (MS008)",
    "mcp/valid-multiple-tools.mcp.json": "MCP tool definitions, not a configuration: as the project's .mcp.json "
                                         "Claude Code reads no server from it (MS008)",
}


def cases() -> list[tuple[str, str, list[tuple[Path, str]]]]:
    if not AGNIX.is_dir():
        return []
    out: list[tuple[str, str, list[tuple[Path, str]]]] = []
    for verdict in ("valid", "invalid"):
        base = AGNIX / verdict
        for d in sorted((base / "skills").iterdir()):
            out.append((f"{verdict}/skills/{d.name}", verdict, [(d, f".claude/skills/{_dir_for(d)}")]))
        for f in sorted((base / "agents").iterdir()):
            out.append((f"{verdict}/agents/{f.name}", verdict, [(f, f".claude/agents/{f.name}")]))
        hooks = [base / "hooks"] if verdict == "valid" else sorted((base / "hooks").iterdir())
        for d in hooks:
            out.append((f"{verdict}/hooks" + ("" if verdict == "valid" else f"/{d.name}"), verdict,
                        [(d / "settings.json", ".claude/settings.json")]))
        plugins = [base / "plugins"] if verdict == "valid" else sorted((base / "plugins").iterdir())
        for d in plugins:
            out.append((f"{verdict}/plugins" + ("" if verdict == "valid" else f"/{d.name}"), verdict,
                        [(d / ".claude-plugin" / "plugin.json", "p/.claude-plugin/plugin.json")]))
    for d in sorted((AGNIX / "skills").iterdir()):
        out.append((f"skills/{d.name}", "invalid", [(d, f".claude/skills/{_dir_for(d)}")]))
    for f in sorted((AGNIX / "mcp").iterdir()):
        out.append((f"mcp/{f.name}", "valid" if f.name.startswith("valid") else "invalid", [(f, ".mcp.json")]))
    return out


def _dir_for(skill_dir: Path) -> str:
    """The directory a skill fixture is placed in: the one its `name` asks for (so a fixture about
    something else does not also get SK009), but for the fixture about that mismatch."""
    import re

    if skill_dir.name == "name-directory-mismatch":
        return skill_dir.name
    text = (skill_dir / "SKILL.md").read_text(encoding="utf-8", errors="replace")
    m = re.search(r"^name:\s*([a-z0-9][a-z0-9-]*)\s*$", text, re.M)
    return m.group(1) if m else skill_dir.name


def place(tmp: Path, files: list[tuple[Path, str]]) -> Path:
    ws = tmp / "ws"
    (ws / ".claude").mkdir(parents=True, exist_ok=True)
    for src, rel in files:
        dst = ws / rel
        if src.is_dir():
            shutil.copytree(src, dst)
        else:
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(src, dst)
    return ws


@pytest.mark.parametrize("case,verdict,files", cases(), ids=[c[0] for c in cases()])
def test_fixture_where_claude_code_reads_it(case, verdict, files, tmp_path):
    ws = place(tmp_path, files)
    res = check_tree(ws, runtimes=["claude-code"], no_user_roots=True)
    errors = [d for d in res.diagnostics if d.severity == 1]
    flagged = bool(res.diagnostics)
    agrees = not errors if verdict == "valid" else flagged
    if case in DISAGREE:
        assert not agrees, f"{case} now agrees with agnix: drop it from DISAGREE"
    else:
        assert agrees, (case, [(d.code, d.message) for d in res.diagnostics])


def test_every_disagreement_is_a_fixture():
    names = {c[0] for c in cases()}
    assert set(DISAGREE) <= names
