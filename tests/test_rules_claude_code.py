"""Claude Code skill value checks and body hazards (CC001-CC008)."""
from __future__ import annotations

from conftest import check_tree, diags_for, skill, write

from skill_ls.core.model import Severity


def claude(workspace, dirname="a", **kw):
    return skill(workspace / ".claude" / "skills", dirname, **kw)


def run(workspace):
    return check_tree(workspace, runtimes=["claude-code"])


def pos(d):
    return d.span.start_line, d.span.start_col, d.span.end_col


def test_cc001_model(workspace):
    f = claude(workspace, extra="model: GPT-4.1\n")
    [d] = diags_for(run(workspace), f, "CC001")
    assert pos(d) == (3, 7, 14) and "not a Claude Code model" in d.message
    g = claude(workspace, "b", extra="model: Sonnet\n")
    [d] = diags_for(run(workspace), g, "CC001")
    assert "did you mean 'sonnet'" in d.message
    for ok in ("sonnet", "inherit", "claude-opus-4-1-20250805", "claude-sonnet-4-5@20250929",
               "us.anthropic.claude-sonnet-4-5-20250929-v1:0", "opus[1m]"):
        h = claude(workspace, "ok", extra=f"model: '{ok}'\n")
        assert not diags_for(run(workspace), h, "CC001"), ok


def test_cc002_agent_needs_fork_and_must_exist(workspace):
    f = claude(workspace, extra="agent: Explore\n")
    [d] = diags_for(run(workspace), f, "CC002")
    assert pos(d) == (3, 0, 5) and "context: fork" in d.message
    g = claude(workspace, "b", extra="context: fork\nagent: explorer\n")
    [d] = diags_for(run(workspace), g, "CC002")
    assert pos(d) == (4, 7, 15) and "did you mean 'Explore'" in d.message
    write(workspace / ".claude" / "agents" / "reviewer.md", "---\nname: reviewer\ndescription: Reviews.\n---\nReview.\n")
    for name in ("Explore", "reviewer", "my-plugin:helper", "general-purpose"):
        h = claude(workspace, "ok", extra=f"context: fork\nagent: {name}\n")
        assert not diags_for(run(workspace), h, "CC002"), name


def test_cc003_tools(workspace):
    f = claude(workspace, extra="allowed-tools: Read, grep, Bash(git diff *) mcp__github__search Azure Bash()\n")
    ds = diags_for(run(workspace), f, "CC003")
    assert [(pos(d), d.message.split(";")[0]) for d in ds] == [
        ((3, 21, 25), "unknown tool 'grep' for Claude Code"),
        ((3, 64, 69), "unknown tool 'Azure' for Claude Code (MCP tools are written 'mcp__<server>__<tool>')"),
        ((3, 70, 76), "'Bash()' has an empty pattern: write 'Bash' for the whole tool or 'Bash(pattern)'"),
    ]
    assert "did you mean 'Grep'" in ds[0].message and ds[0].severity == Severity.WARNING
    g = claude(workspace, "b", extra="disallowed-tools:\n  - Write\n  - WebFetch(domain:example.com)\n  - Wirte\n")
    [d] = diags_for(run(workspace), g, "CC003")
    assert pos(d) == (6, 4, 9) and "did you mean 'Write'" in d.message


def test_cc003_only_for_claude_code(workspace):
    f = skill(workspace / ".agents" / "skills", "a", extra="allowed-tools: Azure\n")
    assert not diags_for(check_tree(workspace, runtimes=["codex", "amp"]), f, "CC003")


def test_cc004_hooks(workspace):
    f = claude(workspace, extra=(
        "hooks:\n"
        "  preToolUse:\n"
        "    - matcher: Bash\n"
        "      hooks: [{type: command, command: ./x.sh}]\n"
        "  PostToolUse:\n"
        "    - matcher: Edit|Write\n"
        "      hooks:\n"
        "        - type: command\n"
        "        - type: shell\n"
        "          command: y\n"
        "        - type: http\n"
        "          url: http://localhost/h\n"
        "          timeout: -1\n"
        "  Stop:\n"
        "    - hooks: []\n"))
    ds = diags_for(run(workspace), f, "CC004")
    assert [(d.span.start_line, d.message.split(";")[0]) for d in ds] == [
        (4, "unknown hook event 'preToolUse'"),
        (10, "a 'command' hook handler needs 'command'"),
        (11, "hook handler type 'shell' is not one of command, http, prompt, agent, mcp_tool"),
        (13, "hook 'timeout' must be a positive number of seconds"),
        (17, "hooks.Stop group needs a non-empty 'hooks' list of handlers ({type: command, command: ...})"),
    ]
    assert "did you mean 'PreToolUse'" in ds[0].message
    ok = claude(workspace, "ok", extra="hooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n"
                "        - type: command\n          command: ./check.sh\n          timeout: 30\n")
    assert not diags_for(run(workspace), ok, "CC004")


def test_cc005_paths(workspace):
    f = claude(workspace, extra="paths: /src/**/*.ts, src\\\\x\\\\*.js, src/{a,b\n")
    ds = diags_for(run(workspace), f, "CC005")
    assert [pos(d) for d in ds] == [(3, 7, 19), (3, 21, 33), (3, 35, 43)]
    g = claude(workspace, "b", extra="paths:\n  - 'src/**/*.{ts,tsx}'\n  - ''\n")
    [d] = diags_for(run(workspace), g, "CC005")
    assert d.span.start_line == 5 and "empty" in d.message


def test_cc006_arguments(workspace):
    f = claude(workspace, extra="arguments: issue 1st issue\n")
    ds = diags_for(run(workspace), f, "CC006")
    assert [(pos(d), "twice" in d.message) for d in ds] == [((3, 17, 20), False), ((3, 21, 26), True)]
    ok = claude(workspace, "ok", extra="arguments: [issue, branch]\n")
    assert not diags_for(run(workspace), ok, "CC006")


def test_cc007_positional_in_code_is_substituted(workspace):
    body = "# X\n\n```sh\nps aux | awk '{print $2}'\necho $1\n```\n\nCosts $5 in prose. Run `cut -f$1`.\n"
    f = claude(workspace, body=body)
    ds = diags_for(run(workspace), f, "CC007")
    assert [pos(d) for d in ds] == [(7, 21, 23), (8, 5, 7), (11, 30, 32)]
    assert "'$(2)'" in ds[0].message and "'${1}'" in ds[1].message
    # A skill that takes arguments means its shell $1; awk programs are still reported.
    g = claude(workspace, "b", extra="argument-hint: '[pid]'\n", body=body)
    assert [pos(d) for d in diags_for(run(workspace), g, "CC007")] == [(8, 21, 23)]
    # Not for runtimes that do not substitute.
    h = skill(workspace / ".agents" / "skills", "c", body=body)
    assert not diags_for(check_tree(workspace, runtimes=["codex"]), h, "CC007")


def test_cc008_indexed_arguments_without_hint(workspace):
    f = claude(workspace, body="Compare $ARGUMENTS[0] with $ARGUMENTS[1].\n")
    [d] = diags_for(run(workspace), f, "CC008")
    assert pos(d) == (4, 8, 21) and d.severity == Severity.INFORMATION
    g = claude(workspace, "b", extra="argument-hint: '[a] [b]'\n", body="Compare $ARGUMENTS[0].\n")
    assert not diags_for(run(workspace), g, "CC008")


def test_templated_skill_dir_paths_are_resolved_for_rf001(workspace):
    body = ("Run `python ${CLAUDE_SKILL_DIR}/scripts/go.py` then `bash {baseDir}/scripts/missing.sh`.\n"
            "See [guide](${CLAUDE_SKILL_DIR}/references/guide.md) and [x](${SKILL_DIR}/references/gone.md).\n")
    f = claude(workspace, body=body)
    (f.parent / "scripts").mkdir()
    (f.parent / "scripts" / "go.py").write_text("")
    (f.parent / "references").mkdir()
    (f.parent / "references" / "guide.md").write_text("# Guide\n")
    ds = diags_for(run(workspace), f, "RF001")
    assert [(pos(d), d.data["target"]) for d in ds] == [((4, 58, 86), "scripts/missing.sh"),
                                                        ((5, 61, 92), "references/gone.md")]


def test_rf004_nested_references(workspace):
    f = claude(workspace, body="See [guide](references/guide.md) and [api](references/api.md).\n")
    refs = f.parent / "references"
    refs.mkdir()
    (refs / "guide.md").write_text("# Guide\n\nDetails in [deep](deep.md), the [api](api.md) and [skill](../SKILL.md).\n"
                                   "```\n[not a link](code.md)\n```\n")
    (refs / "deep.md").write_text("# Deep\n")
    (refs / "api.md").write_text("# API\n")
    (refs / "code.md").write_text("# Code\n")
    [d] = diags_for(run(workspace), f, "RF004")
    assert pos(d) == (4, 12, 31) and "(references/deep.md)" in d.message and d.severity == Severity.INFORMATION
    g = claude(workspace, "b", body="See [guide](references/guide.md).\n")
    (g.parent / "references").mkdir()
    (g.parent / "references" / "guide.md").write_text("# Flat\n")
    assert not diags_for(run(workspace), g, "RF004")


def test_cc007_money_is_prose_not_a_positional(workspace):
    body = ("```\nYear 2: $2.5M ARR, CAC: $1,200 | $20.00\nRate $150/hr, $0 of $X/month, $0 (never), $50-200/mo\n```\n"
            "```bash\nawk '{print $1}'\n```\n")
    f = claude(workspace, body=body)
    assert [pos(d) for d in diags_for(run(workspace), f, "CC007")] == [(9, 12, 14)]


def test_rf004_links_to_nested_skills_are_not_references(workspace):
    f = claude(workspace, body="See [child](child/SKILL.md).\n")
    (f.parent / "child").mkdir()
    (f.parent / "child" / "SKILL.md").write_text("---\nname: child\ndescription: d\n---\n[gc](grand/SKILL.md)\n")
    (f.parent / "child" / "grand").mkdir()
    (f.parent / "child" / "grand" / "SKILL.md").write_text("---\nname: grand\ndescription: d\n---\n")
    assert not diags_for(run(workspace), f, "RF004")


def test_rf003_names_the_runtime_that_runs_the_line(workspace):
    f = claude(workspace, body="Status: !`git status`\n")
    [d] = diags_for(run(workspace), f, "RF003")
    assert "when Claude Code activates" in d.message and pos(d) == (4, 8, 21)


def test_cc007_named_argument_shadowing_a_shell_variable(workspace):
    body = "Review $file.\n\n```bash\nfor file in *.py; do\n  echo \"$file\" ${file}\ndone\n```\n\n```bash\ncat $file\n```\n"
    f = claude(workspace, extra="arguments: [file]\n", body=body)
    [d] = diags_for(run(workspace), f, "CC007")
    assert pos(d) == (9, 8, 13) and "'${file}'" in d.message


def test_cc009_skill_invoked_by_nobody(workspace):
    f = claude(workspace, extra="user-invocable: 'false'\ndisable-model-invocation: yes\n")
    [d] = diags_for(run(workspace), f, "CC009")
    assert "nobody can invoke it" in d.message and d.span.start_line == 3
    g = claude(workspace, "b", extra="user-invocable: false\n")
    assert not diags_for(run(workspace), g, "CC009")
