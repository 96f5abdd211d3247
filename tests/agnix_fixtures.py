"""agnix's own fixtures as a differential test (issue 25): each fixture is placed where Claude Code reads it
and checked by skill-ls in process; the results are docs/agnix-fixtures.md.

agnix (https://github.com/agent-sh/agnix) keeps fixtures for skills, subagents, plugins, hooks and MCP
configurations; tests/data/agnix/ holds the ones a Claude Code project or plugin reads, unchanged (see
SOURCE.md there). Every fixture under `invalid/` (and the invalid `skills/` and `mcp/` ones) must get a
skill-ls finding of the concern agnix's tests name for it, and every valid one must get no error -- or the
disagreement is listed in DISAGREE below with Claude Code's behaviour as the evidence, and the test keeps
asserting it (a row that starts agreeing fails until it is removed, so the doc stays true).

`python -m tests.agnix_fixtures` rewrites docs/agnix-fixtures.md; with `--validate` it first records what
Claude Code's own validator (`claude plugin validate --json`, npm @anthropic-ai/claude-code) says about
each fixture placed in a plugin, into tests/data/agnix/claude-plugin-validate.json.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "agnix"
FIXTURES = DATA / "fixtures"
VALIDATOR = DATA / "claude-plugin-validate.json"
DOC = ROOT / "docs" / "agnix-fixtures.md"

# A minimal, valid plugin manifest for the placements inside a plugin (hooks/hooks.json, .mcp.json).
PLUGIN_JSON = {"name": "fixture-plugin", "version": "1.0.0", "description": "Holds one agnix fixture.",
               "author": {"name": "skill-ls tests"}, "license": "MIT"}

# Where Claude Code reads each family (https://code.claude.com/docs/en/skills, /sub-agents, /plugins-reference,
# /hooks, /mcp): placement name -> path of the file in the workspace ({name}: the fixture's file or directory).
PLACEMENTS: dict[str, dict[str, str]] = {
    "skill": {"project": ".claude/skills/{name}/SKILL.md"},
    "agent": {"project": ".claude/agents/{name}"},
    "plugin": {"plugin": ".claude-plugin/plugin.json"},
    "hooks": {"settings": ".claude/settings.json", "plugin": "hooks/hooks.json"},
    "mcp": {"project": ".mcp.json", "plugin": ".mcp.json"},
}

# skill-ls codes that answer each family's concerns when the test has nothing more precise ("HK" = any HK code).
FAMILY_PREFIX = {"plugin": ("PL",), "hooks": ("HK",), "mcp": ("MS", "MC001")}


@dataclass(frozen=True)
class Case:
    """One agnix fixture: its file, family, agnix's verdict and rule, and skill-ls's counterpart codes."""

    fixture: str               # path under tests/data/agnix/fixtures/
    family: str                # skill, agent, plugin, hooks, mcp
    valid: bool
    rule: str                  # the agnix rule(s) its tests expect ("" for a valid fixture)
    source: str                # where agnix says so: eval.yaml, a unit test, or only the fixture's name
    codes: tuple[str, ...] = ()  # skill-ls codes of that concern (empty: the family's prefixes)

    @property
    def name(self) -> str:
        p = Path(self.fixture)
        return p.parent.name if p.name in ("SKILL.md", "settings.json", "plugin.json") else p.name

    def matches(self, code: str) -> bool:
        wanted = self.codes or FAMILY_PREFIX.get(self.family, ())
        return any(code.startswith(w) for w in wanted)


EVAL = "eval.yaml"          # agnix tests/eval.yaml (expected rules per fixture)
UNIT = "unit test"          # a test_fixture_* test in crates/agnix-core (include_str! of the fixture)
NAME = "fixture name"       # no test names the fixture; its name (and agnix 0.59.3's run) says the concern


def _skill(d: str, valid: bool, rule: str, source: str, *codes: str) -> Case:
    return Case(f"{d}/SKILL.md", "skill", valid, rule, source, codes)


def _agent(f: str, valid: bool, rule: str, source: str, *codes: str) -> Case:
    return Case(f, "agent", valid, rule, source, codes)


def _plugin(d: str, valid: bool, rule: str, source: str) -> Case:
    return Case(f"{d}/.claude-plugin/plugin.json", "plugin", valid, rule, source)


def _hooks(d: str, valid: bool, rule: str, source: str) -> Case:
    return Case(f"{d}/settings.json", "hooks", valid, rule, source)


def _mcp(f: str, valid: bool, rule: str, source: str) -> Case:
    return Case(f"mcp/{f}.mcp.json", "mcp", valid, rule, source)


CASES: tuple[Case, ...] = (
    # ---- skills (AS-*, CC-SK-*)
    _skill("invalid/skills/agent-without-context", False, "CC-SK-004", EVAL, "CC002"),
    _skill("invalid/skills/argument-hint-no-args", False, "CC-SK-? (argument-hint without $ARGUMENTS)", NAME),
    _skill("invalid/skills/context-without-agent", False, "CC-SK-003", EVAL, "CC002"),
    _skill("invalid/skills/deploy-prod", False, "CC-SK-006, CC-SK-007", EVAL),
    _skill("invalid/skills/first-person-description", False, "AS-? (description style)", NAME),
    _skill("invalid/skills/fork-no-instructions", False, "CC-SK-013", NAME),
    _skill("invalid/skills/indexed-arguments-no-hint", False, "CC-SK-016", EVAL, "CC008"),
    _skill("invalid/skills/invalid-agent", False, "CC-SK-005", EVAL, "CC002"),
    _skill("invalid/skills/invalid-context", False, "CC-SK-002", EVAL, "SK006"),
    _skill("invalid/skills/invalid-hooks", False, "CC-SK-010", NAME, "CC004"),
    _skill("invalid/skills/invalid-model", False, "CC-SK-001", EVAL, "CC001"),
    _skill("invalid/skills/invalid-name", False, "AS-004", EVAL, "SK008"),
    _skill("invalid/skills/name-directory-mismatch", False, "AS-017", EVAL, "SK009"),
    _skill("invalid/skills/string-boolean-disable", False, "CC-SK-? (string boolean)", NAME, "SK006"),
    _skill("invalid/skills/string-boolean-invocable", False, "CC-SK-? (string boolean)", NAME, "SK006"),
    _skill("invalid/skills/too-many-injections", False, "CC-SK-? (too many !`command` lines)", NAME, "RF003"),
    _skill("invalid/skills/unknown-frontmatter-field", False, "CC-SK-017", EVAL, "SK007", "PT001"),
    _skill("invalid/skills/unknown-tool", False, "CC-SK-008", EVAL, "CC003"),
    _skill("invalid/skills/unreachable-skill", False, "CC-SK-? (neither user nor model can invoke)", NAME, "CC009"),
    _skill("invalid/skills/vague-name", False, "AS-017", EVAL, "SK009"),
    _skill("skills/deep-reference", False, "AS-013", EVAL, "RF001", "RF004"),
    _skill("skills/missing-frontmatter", False, "AS-001", EVAL, "SK001"),
    _skill("skills/windows-path", False, "XP-SK-004 (backslash path)", NAME),
    _skill("valid/skills/code-review", True, "", EVAL),
    _skill("valid/skills/deploy-prod", True, "", NAME),
    _skill("valid/skills/fork-with-instructions", True, "", NAME),
    _skill("valid/skills/with-argument-hint", True, "", NAME),
    _skill("valid/skills/with-context-agent", True, "", EVAL),
    _skill("valid/skills/with-custom-agent", True, "", NAME),
    _skill("valid/skills/with-hooks", True, "", NAME),
    _skill("valid/skills/with-model", True, "", NAME),
    # ---- subagents (CC-AG-*)
    _agent("invalid/agents/bypass-permissions.md", False, "CC-AG-012", NAME, "SA002"),
    _agent("invalid/agents/invalid-disallowed-tool.md", False, "CC-AG-010", NAME, "SA003"),
    _agent("invalid/agents/invalid-hooks.md", False, "CC-AG-011", NAME, "SA005"),
    _agent("invalid/agents/invalid-memory.md", False, "CC-AG-008", NAME, "AG004"),
    _agent("invalid/agents/invalid-model.md", False, "CC-AG-003", UNIT, "SA001"),
    _agent("invalid/agents/invalid-permission.md", False, "CC-AG-004", UNIT, "SA002"),
    _agent("invalid/agents/invalid-skill-format.md", False, "CC-AG-005", NAME, "AG005"),
    _agent("invalid/agents/invalid-tool-name.md", False, "CC-AG-009", NAME, "SA003"),
    _agent("invalid/agents/missing-description.md", False, "CC-AG-002", UNIT, "AG004"),
    _agent("invalid/agents/missing-frontmatter.md", False, "CC-AG-007", NAME, "AG001"),
    _agent("invalid/agents/missing-name.md", False, "CC-AG-001", UNIT, "AG004"),
    _agent("invalid/agents/missing-skill.md", False, "CC-AG-005", NAME, "AG005"),
    _agent("invalid/agents/tool-conflict.md", False, "CC-AG-006", UNIT, "SA004"),
    _agent("valid/agents/agent-complete-valid.md", True, "", NAME),
    _agent("valid/agents/agent-with-new-fields.md", True, "", NAME),
    _agent("valid/agents/valid-agent.md", True, "", UNIT),
    # ---- plugin manifests (CC-PL-*)
    _plugin("invalid/plugins/absolute-path", False, "CC-PL-007", NAME),
    _plugin("invalid/plugins/component-in-claude-plugin", False, "CC-PL-007, CC-PL-008", NAME),
    _plugin("invalid/plugins/empty-author", False, "CC-PL-009", NAME),
    _plugin("invalid/plugins/empty-name", False, "CC-PL-005", NAME),
    _plugin("invalid/plugins/invalid-homepage", False, "CC-PL-010", NAME),
    _plugin("invalid/plugins/invalid-semver", False, "CC-PL-003", NAME),
    _plugin("invalid/plugins/missing-fields", False, "CC-PL-004", NAME),
    _plugin("invalid/plugins/traversal-path", False, "CC-PL-007", NAME),
    _plugin("valid/plugins", True, "", NAME),
    # ---- hooks (CC-HK-*): settings.json and a plugin's hooks/hooks.json share the format
    _hooks("invalid/hooks/async-on-non-command", False, "CC-HK-013", NAME),
    _hooks("invalid/hooks/dangerous-commands", False, "CC-HK-009", UNIT),
    _hooks("invalid/hooks/deprecated-setup-event", False, "CC-HK-? (Setup event)", NAME),
    _hooks("invalid/hooks/invalid-event", False, "CC-HK-001", UNIT),
    _hooks("invalid/hooks/invalid-timeout", False, "CC-HK-011", UNIT),
    _hooks("invalid/hooks/matcher-on-ignored-event", False, "CC-HK-018", NAME),
    _hooks("invalid/hooks/matcher-on-wrong-event", False, "CC-HK-018", UNIT),
    _hooks("invalid/hooks/missing-command-field", False, "CC-HK-006", UNIT),
    _hooks("invalid/hooks/missing-matcher", False, "CC-HK-003", UNIT),
    _hooks("invalid/hooks/missing-prompt-field", False, "CC-HK-007", UNIT),
    _hooks("invalid/hooks/missing-type-field", False, "CC-HK-005", UNIT),
    _hooks("invalid/hooks/model-on-command", False, "CC-HK-015", NAME),
    _hooks("invalid/hooks/no-timeout", False, "CC-HK-? (no timeout)", NAME),
    _hooks("invalid/hooks/once-in-settings", False, "CC-HK-014", NAME),
    _hooks("invalid/hooks/prompt-missing-arguments", False, "CC-HK-? (prompt without $ARGUMENTS)", NAME),
    _hooks("invalid/hooks/prompt-on-wrong-event", False, "CC-HK-002", UNIT),
    _hooks("invalid/hooks/script-not-found", False, "CC-HK-008", NAME),
    _hooks("invalid/hooks/unknown-hook-type", False, "CC-HK-016", NAME),
    _hooks("valid/hooks", True, "", NAME),
    # ---- MCP (MCP-*): agnix's mcp/ mixes configurations (mcpServers) with MCP protocol messages
    _mcp("dangerous-stdio-command", False, "MCP-019", EVAL),
    _mcp("deprecated-sse", False, "MCP-012", EVAL),
    _mcp("duplicate-server-names", False, "MCP-023", EVAL),
    _mcp("empty-description", False, "MCP-004, MCP-005", EVAL),
    _mcp("empty-server-config", False, "MCP-024", EVAL),
    _mcp("insecure-http-server", False, "MCP-017", EVAL),
    _mcp("invalid-args-type", False, "MCP-022", EVAL),
    _mcp("invalid-capability-key", False, "MCP-020", EVAL),
    _mcp("invalid-input-schema", False, "MCP-003, MCP-005", EVAL),
    _mcp("invalid-jsonrpc-version", False, "MCP-001", EVAL),
    _mcp("invalid-output-schema", False, "MCP-014", EVAL),
    _mcp("invalid-server-type", False, "MCP-011", EVAL),
    _mcp("invalid-tool-name", False, "MCP-013", EVAL),
    _mcp("missing-command-no-type", False, "MCP-009", NAME),
    _mcp("missing-command-stdio", False, "MCP-009", EVAL),
    _mcp("missing-consent", False, "MCP-005", EVAL),
    _mcp("missing-prompt-name", False, "MCP-016", EVAL),
    _mcp("missing-required-fields", False, "MCP-002, MCP-005", EVAL),
    _mcp("missing-resource-required-fields", False, "MCP-015", EVAL),
    _mcp("missing-url-http", False, "MCP-010", EVAL),
    _mcp("plaintext-env-secret", False, "MCP-018", EVAL),
    _mcp("protocol-version-mismatch", False, "MCP-008", EVAL),
    _mcp("untrusted-annotations", False, "MCP-006", EVAL),
    _mcp("wildcard-http-binding", False, "MCP-021", EVAL),
    _mcp("valid-http-server", True, "", NAME),
    _mcp("valid-multiple-tools", True, "", NAME),
    _mcp("valid-stdio-server", True, "", NAME),
    _mcp("valid-tool", True, "", EVAL),
)

AGNIX_RUN = DATA / "agnix-0.59.3.json"  # what agnix 0.59.3 itself reports on each placed fixture (--agnix)


@dataclass(frozen=True)
class Result:
    """What skill-ls reported on one placed fixture."""

    case: Case
    placement: str
    findings: tuple[tuple[str, str], ...]  # (code, severity) on the placed file, sorted, unique

    @property
    def flagged(self) -> bool:
        return any(self.case.matches(code) for code, _ in self.findings)

    @property
    def has_error(self) -> bool:
        return any(sev == "error" for _, sev in self.findings)

    @property
    def agrees(self) -> bool:
        return not self.has_error if self.case.valid else self.flagged

    @property
    def key(self) -> str:
        return f"{self.case.fixture} @{self.placement}"


def place(case: Case, placement: str, ws: Path) -> Path:
    """Copy the fixture to where Claude Code reads it in workspace `ws`; returns the placed file."""
    src = FIXTURES / case.fixture
    dst = ws / PLACEMENTS[case.family][placement].format(name=case.name)
    dst.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(src, dst)
    if placement == "plugin" and case.family != "plugin":
        manifest = ws / ".claude-plugin" / "plugin.json"
        manifest.parent.mkdir(parents=True, exist_ok=True)
        manifest.write_text(json.dumps(PLUGIN_JSON, indent=2) + "\n", encoding="utf-8")
    return dst


def placements() -> list[tuple[Case, str]]:
    return [(case, p) for case in CASES for p in PLACEMENTS[case.family]]


def check_all(base: Path) -> list[Result]:
    """Place every fixture in its own workspace under `base` and run skill-ls in process on each.

    The caller provides a private HOME (the tests' autouse fixture; `main` below makes one)."""
    from skill_ls.analysis.check import CheckOptions, run_check

    results = []
    for i, (case, placement) in enumerate(placements()):
        ws = base / f"ws{i:03d}"
        ws.mkdir(parents=True)
        placed = place(case, placement, ws)
        found = run_check(CheckOptions(paths=[str(ws)], workspace=str(ws)))
        on_file = {(d.code, d.severity.name.lower()) for d in found.diagnostics
                   if os.path.realpath(d.path) == os.path.realpath(placed)}
        results.append(Result(case, placement, tuple(sorted(on_file))))
    return results


# ---------------------------------------------------------------------------------------------------
# Where skill-ls and agnix's expectation differ: "<fixture> @<placement>" -> Claude Code's behaviour, with the
# evidence. The test asserts each of these still differs (and that nothing else does).
SKILLS_DOC = "https://code.claude.com/docs/en/skills"
HOOKS_DOC = "https://code.claude.com/docs/en/hooks"
MCP_DOC = "https://code.claude.com/docs/en/mcp"
PLUGINS_DOC = "https://code.claude.com/docs/en/plugins-reference"

VALIDATOR_OK = "`claude plugin validate` accepts the file"
ACCEPTED = VALIDATOR_OK + " (no error, no warning)"
FINER = ("skill-ls's HK001 checks events, group and handler shapes, handler types with their required field, "
         "timeouts and matchers, not which optional fields each handler type or event takes")


def _hooks_reason(text: str) -> str:
    return f"{text} {ACCEPTED}; {FINER}."


# Keys: "<fixture>" (every placement) or "<fixture> @<placement>".
DISAGREE: dict[str, str] = {
    # ---- skills
    "invalid/skills/argument-hint-no-args/SKILL.md":
        f"skill-ls is right: `argument-hint` is only the hint shown in the `/` menu, and a body without "
        f"`$ARGUMENTS` still gets the arguments, appended as `ARGUMENTS: <value>` ({SKILLS_DOC}); agnix 0.59.3 "
        f"no longer reports it either. {VALIDATOR_OK}.",
    "invalid/skills/context-without-agent/SKILL.md":
        f"skill-ls is right: `context: fork` without `agent` runs the skill in the `general-purpose` subagent, "
        f"the documented default ({SKILLS_DOC}); agnix 0.59.3 dropped CC-SK-003 and reports only the "
        f"CC-SK-013 heuristic. {VALIDATOR_OK}.",
    "invalid/skills/deploy-prod/SKILL.md":
        "Advice, not a loading problem: the skill loads and runs as written. agnix guesses side effects from "
        "the name (CC-SK-006) and warns on an unrestricted `Bash` (CC-SK-007); skill-ls does not judge a skill "
        f"by its name (decided in docs/agnix-comparison.md). {VALIDATOR_OK}.",
    "invalid/skills/first-person-description/SKILL.md":
        "Style: the description loads and is listed as written; agnix 0.59.3 reports nothing either. "
        f"{VALIDATOR_OK}.",
    "invalid/skills/fork-no-instructions/SKILL.md":
        "Advice about prose (CC-SK-013: a forked skill whose body reads like reference text): the skill loads "
        f"and forks as written, the body is the subagent's task; skill-ls does not judge prose. {VALIDATOR_OK}.",
    **{f"invalid/skills/{d}/SKILL.md":
        f"skill-ls is right: Claude Code 2.1.332 reads the string `\"{v}\"` as the flag {v} (it reads "
        "true/false, yes/no, on/off and 1/0 in any case; docs/claude-code-validator.md), so the skill behaves as "
        f"meant; agnix 0.59.3 reports nothing either. {VALIDATOR_OK}."
       for d, v in (("string-boolean-disable", "true"), ("string-boolean-invocable", "false"))},
    "skills/deep-reference/SKILL.md":
        "The body names `references/deep/nested/guide.md` in prose, not as a Markdown link: skill-ls reads "
        "references from links (RF001/RF004), and the model reads a named file only when it chooses to. "
        f"agnix 0.59.3 no longer reports AS-013 here either. {VALIDATOR_OK}.",
    "skills/windows-path/SKILL.md":
        "Advice (agnix's XP-SK-004 is information): `references\\guide.md` in prose is a hint to the model, "
        f"not a path any runtime opens; skill-ls does not check paths in prose. {VALIDATOR_OK}.",
    # ---- hooks (the same verdict in .claude/settings.json and in a plugin's hooks/hooks.json)
    "invalid/hooks/async-on-non-command/settings.json": _hooks_reason(
        f"Claude Code documents `async` for command hooks ({HOOKS_DOC}); on a prompt or agent handler the key is "
        "accepted and the handler loads."),
    "invalid/hooks/dangerous-commands/settings.json":
        "Advice about what a command does (`rm -rf /`, `curl … | bash`, `chmod 777`): the hooks load and run as "
        f"written. {ACCEPTED}; skill-ls does not judge command lines.",
    "invalid/hooks/deprecated-setup-event/settings.json":
        "skill-ls is right: `Setup` is an event of Claude Code 2.1.332 (the validator accepts it, and skill-ls's "
        "list of events, taken from that version, has it); agnix 0.59.3 reports nothing either.",
    "invalid/hooks/matcher-on-ignored-event/settings.json": _hooks_reason(
        f"`Stop` and `UserPromptSubmit` take no matcher: Claude Code ignores it and runs the hook on every "
        f"occurrence ({HOOKS_DOC}); agnix's CC-HK-018 is information."),
    "invalid/hooks/matcher-on-wrong-event/settings.json": _hooks_reason(
        f"A matcher on `Stop`, `SubagentStop`, `UserPromptSubmit` or `SessionStart` is ignored or is that event's "
        f"own filter, and the hook runs ({HOOKS_DOC}); agnix's own test expects only CC-HK-018 (information)."),
    "invalid/hooks/missing-matcher/settings.json":
        f"skill-ls is right: a group without `matcher` matches every tool ({HOOKS_DOC}); agnix's CC-HK-003 is a "
        f"hint (information). {ACCEPTED}.",
    "invalid/hooks/model-on-command/settings.json": _hooks_reason(
        f"`model` is documented for prompt and agent hooks ({HOOKS_DOC}); a command hook calls no model, and the "
        "key is accepted."),
    "invalid/hooks/no-timeout/settings.json":
        f"skill-ls is right: `timeout` is optional, each handler type has a default ({HOOKS_DOC}); agnix 0.59.3 "
        f"reports nothing either. {ACCEPTED}.",
    "invalid/hooks/once-in-settings/settings.json": _hooks_reason(
        f"Claude Code documents `once` for hooks in a skill's frontmatter ({HOOKS_DOC}); in settings the key is "
        "accepted and the hook loads."),
    "invalid/hooks/prompt-missing-arguments/settings.json":
        "A prompt hook that does not quote the hook input with `$ARGUMENTS` can be intended; agnix 0.59.3 "
        f"reports nothing either. {ACCEPTED}.",
    "invalid/hooks/script-not-found/settings.json":
        "agnix may be right that the hook fails when it runs: the command line names a script by a relative path "
        f"(`scripts/nonexistent-hook.sh`). {ACCEPTED}; skill-ls's HK003 resolves a hook's script only where its "
        "directory is certain (`$CLAUDE_PROJECT_DIR`, `${CLAUDE_PLUGIN_ROOT}`, the user's `~`): a relative path is "
        "resolved against the session's current directory, which moves with the session (the hooks page tells "
        "to use `$CLAUDE_PROJECT_DIR` for that reason), so skill-ls does not guess.",
    # ---- MCP
    "mcp/dangerous-stdio-command.mcp.json":
        "Advice about what a server's `command` does (a `curl … | sh` command line); skill-ls does not judge "
        f"commands. {ACCEPTED}.",
    "mcp/deprecated-sse.mcp.json":
        "agnix's MCP-012 is advice: Claude Code still connects to `type: sse` servers, and its documentation "
        f"calls the transport deprecated in favour of HTTP ({MCP_DOC}); skill-ls has no such note. {ACCEPTED}.",
    "mcp/valid-multiple-tools.mcp.json":
        "skill-ls is right: the file is a list of MCP tool definitions (protocol data a server sends), not a "
        "configuration of servers; as a `.mcp.json` Claude Code loads no server from it (the validator: "
        "`server config must be an object`, the server is dropped), and skill-ls says so (MS008).",
    "mcp/valid-tool.mcp.json":
        "skill-ls is right: the file is one MCP tool definition (protocol data a server sends), not a "
        "configuration of servers; as a `.mcp.json` Claude Code loads no server from it (the validator: "
        "`server config must be an object`), and skill-ls says so (MS008).",
}


# Agreements worth a word (a valid fixture with a warning).
NOTES: dict[str, str] = {
    "valid/skills/with-hooks/SKILL.md":
        "a warning (CC004): the handler sits directly under `PreToolUse`, without a matcher group's `hooks` list; "
        "as a plugin's `hooks/hooks.json` the validator refuses the same shape (`Hook matcher \"hooks\" must be an "
        "array of hook entries`)",
    "valid/skills/with-custom-agent/SKILL.md":
        "a warning (CC002): `agent: my-custom-agent` names a subagent the fixture does not ship",
}


def reason(result: Result) -> str | None:
    """The recorded reason for a disagreement (placement-specific first), or None."""
    return DISAGREE.get(result.key) or DISAGREE.get(result.case.fixture)


# ---------------------------------------------------------------------------------------------------
def validator_results() -> dict[str, dict[str, list[str]]]:
    """`claude plugin validate --json` per fixture placed in a plugin, as recorded (empty when not recorded)."""
    if not VALIDATOR.is_file():
        return {}
    data: dict[str, dict[str, list[str]]] = json.loads(VALIDATOR.read_text(encoding="utf-8"))["fixtures"]
    return data


def record_validator(claude: str) -> None:
    """Run Claude Code's validator on each fixture inside a plugin (skills/, agents/, hooks/hooks.json,
    .mcp.json, the manifest itself) and store its errors and warnings for that file."""
    plugin_path = {"skill": "skills/{name}/SKILL.md", "agent": "agents/{name}", "plugin": ".claude-plugin/plugin.json",
                   "hooks": "hooks/hooks.json", "mcp": ".mcp.json"}
    version = subprocess.run([claude, "--version"], capture_output=True, text=True).stdout.strip()
    out: dict[str, dict[str, list[str]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, HOME=tmp)
        for i, case in enumerate(CASES):
            root = Path(tmp) / f"p{i:03d}"
            dst = root / plugin_path[case.family].format(name=case.name)
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(FIXTURES / case.fixture, dst)
            if case.family != "plugin":
                (root / ".claude-plugin").mkdir(exist_ok=True)
                (root / ".claude-plugin" / "plugin.json").write_text(json.dumps(PLUGIN_JSON), encoding="utf-8")
            proc = subprocess.run([claude, "plugin", "validate", "--json", str(root)], capture_output=True,
                                  text=True, env=env, timeout=120)
            report = json.loads(proc.stdout)
            parts = [report.get("manifest") or {}] + list(report.get("contents") or [])
            mine = [p for p in parts if p.get("file") and os.path.realpath(p["file"]) == os.path.realpath(dst)]
            out[case.fixture] = {
                "errors": [f"{e.get('path') or ''}: {e['message']}" for p in mine for e in p.get("errors", [])],
                "warnings": [f"{w.get('path') or ''}: {w['message']}" for p in mine for w in p.get("warnings", [])],
            }
    VALIDATOR.write_text(json.dumps({"validator": f"claude plugin validate --json ({version})", "fixtures": out},
                                    indent=1, sort_keys=True) + "\n", encoding="utf-8")


def agnix_results() -> dict[str, list[str]]:
    """agnix 0.59.3's rules on each placed fixture, as recorded (empty when not recorded)."""
    if not AGNIX_RUN.is_file():
        return {}
    data: dict[str, list[str]] = json.loads(AGNIX_RUN.read_text(encoding="utf-8"))["fixtures"]
    return data


def record_agnix(agnix: str) -> None:
    """Run agnix (`--target claude-code --format json`) on each fixture placed as skill-ls sees it; store the
    rules it reports on the placed file (VER-001, about `.agnix.toml`, left out)."""
    version = subprocess.run([agnix, "--version"], capture_output=True, text=True).stdout.strip()
    out: dict[str, list[str]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, HOME=tmp)
        for i, (case, placement) in enumerate(placements()):
            ws = Path(tmp) / f"ws{i:03d}"
            ws.mkdir()
            placed = place(case, placement, ws)
            proc = subprocess.run([agnix, str(ws), "--target", "claude-code", "--format", "json"],
                                  capture_output=True, text=True, env=env, cwd=ws, timeout=120)
            found = json.loads(proc.stdout)["diagnostics"]
            out[f"{case.fixture} @{placement}"] = sorted({
                f"{d['rule']} ({d['level']})" for d in found if d["rule"] != "VER-001"
                and os.path.realpath(os.path.join(ws, d["file"])) == os.path.realpath(placed)})
    AGNIX_RUN.write_text(json.dumps({"agnix": version, "fixtures": out}, indent=1, sort_keys=True) + "\n",
                         encoding="utf-8")


def _short(text: str, limit: int = 110) -> str:
    return text if len(text) <= limit else text[:limit - 1].rstrip() + "…"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render(results: list[Result]) -> str:
    """docs/agnix-fixtures.md from the results (and the recorded validator verdicts)."""
    validated = validator_results()
    by_family: dict[str, Counter[str]] = {}
    for r in results:
        by_family.setdefault(r.case.family, Counter())["agree" if r.agrees else "disagree"] += 1
    lines = [
        "# agnix's fixtures, placed where Claude Code reads them",
        "",
        "Generated by `python -m tests.agnix_fixtures` from `tests/agnix_fixtures.py`; checked by "
        "`tests/test_agnix_fixtures.py` (issue 25). agnix's fixtures (https://github.com/agent-sh/agnix, "
        "`tests/fixtures/`) for skills, subagents, plugin manifests, "
        "hooks and MCP configurations (vendored unchanged in `tests/data/agnix/`, MIT/Apache-2.0) are each "
        "placed where Claude Code reads them, in a workspace of their own with a private HOME, and checked by "
        "skill-ls: a skill in `.claude/skills/<name>/SKILL.md`, a subagent in `.claude/agents/`, a manifest "
        "in a plugin's `.claude-plugin/plugin.json`, hooks in `.claude/settings.json` and in a plugin's "
        "`hooks/hooks.json`, an MCP configuration in the project's `.mcp.json` and in a plugin's `.mcp.json`.",
        "",
        "A fixture agnix calls invalid *agrees* when skill-ls reports a finding of the same concern on it "
        "(the skill-ls codes column); a valid one agrees when skill-ls reports no error on it. Expectations "
        "come from agnix's own tests (`tests/eval.yaml`, the `test_fixture_*` unit tests of agnix-core) or, "
        "where no test names the fixture, from its name. The fixtures predate agnix 0.59.3, which no longer "
        "reports some of them. Where skill-ls differs, the last column gives Claude Code's behaviour as the "
        "evidence: its documentation and `claude plugin validate` (Claude Code "
        + (re.sub(r".*\((\d[\d.]*) .*", r"\1", json.loads(VALIDATOR.read_text(encoding="utf-8"))["validator"])
           if VALIDATOR.is_file() else "not recorded")
        + ", the fixture placed in a plugin; its errors and warnings on that file are in the validator column).",
        "",
        "| family | placed | fixtures | agree | differ | placements: agree | differ |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    fixtures: dict[str, dict[str, bool]] = {}
    for r in results:
        fixtures.setdefault(r.case.family, {})
        fixtures[r.case.family][r.case.fixture] = fixtures[r.case.family].get(r.case.fixture, True) and r.agrees
    for family, counts in by_family.items():
        where = ", ".join(PLACEMENTS[family])
        fx = fixtures[family]
        agree = sum(fx.values())
        lines.append(f"| {family} | {where} | {len(fx)} | {agree} | {len(fx) - agree} | {counts['agree']} | "
                     f"{counts['disagree']} |")
    total = Counter(r.agrees for r in results)
    n_fx = sum(len(fx) for fx in fixtures.values())
    n_agree = sum(sum(fx.values()) for fx in fixtures.values())
    lines.append(f"| **all** | | **{n_fx}** | **{n_agree}** | **{n_fx - n_agree}** | **{total[True]}** | "
                 f"**{total[False]}** |")
    lines += ["", "## Where they differ", "",
              "Each differing fixture once (both placements of a hooks or MCP fixture differ alike), by what the "
              "evidence says:", ""]
    seen: dict[str, str] = {}
    for r in results:
        if not r.agrees:
            seen.setdefault(r.case.fixture, reason(r) or "not reviewed")
    classes = (("skill-ls is right (Claude Code loads or runs the file as skill-ls says)", "skill-ls is right"),
               ("agnix is right: gaps of skill-ls", "agnix is right"),
               ("advice, style or heuristics agnix reports and skill-ls decided not to", ""))
    for title, prefix in classes:
        group = [f for f, why in seen.items()
                 if (why.startswith(prefix) if prefix else not why.startswith(("skill-ls is right", "agnix is right")))]
        lines.append(f"- **{title}** ({len(group)}): " + (", ".join(f"`{f}`" for f in group) or "none") + ".")
    ran = agnix_results()
    lines += ["", "## Every fixture", "",
              "`from`: where agnix says what the fixture is about. `agnix 0.59.3`: what agnix itself reports on the "
              "fixture placed the same way (`--target claude-code`). `claude plugin validate`: the validator's "
              "errors and warnings on the fixture inside a plugin (`ok`: none).", "",
              "| fixture | placed | agnix expects | from | agnix 0.59.3 | skill-ls reports | skill-ls codes for it | "
              "`claude plugin validate` | verdict |",
              "|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        c = r.case
        expects = "valid (no error)" if c.valid else c.rule
        found = ", ".join(f"{code} ({sev})" for code, sev in r.findings) or "—"
        wanted = ", ".join(c.codes or FAMILY_PREFIX.get(c.family, ())) if not c.valid else "no error"
        v = validated.get(c.fixture)
        vtext = ("—" if v is None else
                 "; ".join([f"error: {_short(e)}" for e in v["errors"]] + [f"warning: {_short(w)}" for w in v["warnings"]])
                 or "ok")
        agnix_now = ", ".join(ran[r.key]) or "nothing" if r.key in ran else "—"
        note = NOTES.get(c.fixture)
        verdict = (("agree" + (f"; {note}" if note else "")) if r.agrees
                   else f"**differs**: {reason(r) or 'not reviewed'}")
        lines.append(f"| `{c.fixture}` | {r.placement} | {_cell(expects)} | {c.source} | {_cell(agnix_now)} | "
                     f"{_cell(found)} | {_cell(wanted or '—')} | {_cell(vtext)} | {_cell(verdict)} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    if "--agnix" in argv:
        agnix = shutil.which("agnix")
        if not agnix:
            print("agnix (pip install agnix==0.59.3) is not on PATH", file=sys.stderr)
            return 1
        record_agnix(agnix)
    if "--validate" in argv:
        claude = shutil.which("claude")
        if not claude:
            print("claude (npm @anthropic-ai/claude-code) is not on PATH", file=sys.stderr)
            return 1
        record_validator(claude)
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "home"
        home.mkdir()
        for var, value in (("HOME", home), ("AGH_HOME", home / ".agh"), ("CODEX_HOME", home / ".codex"),
                           ("XDG_CONFIG_HOME", home / ".config")):
            os.environ[var] = str(value)
        os.environ.pop("AMP_TOOLBOX", None)
        results = check_all(Path(tmp) / "ws")
    DOC.write_text(render(results), encoding="utf-8")
    print(f"wrote {DOC.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
