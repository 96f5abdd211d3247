"""Regression tests for the false positives of issue 25 on Claude Code plugins and projects: each case
is a file Claude Code reads and accepts (behaviour of Claude Code 2.1.332, `claude plugin validate`)."""
from __future__ import annotations

from conftest import check_tree, diags_for, skill, write

from skill_ls.core.model import Severity


def plugin(workspace, name="x", manifest='{"name": "x"}'):
    root = workspace / "plugins" / name
    write(root / ".claude-plugin" / "plugin.json", manifest)
    return root


def test_commands_are_named_by_file_and_folders_never_renamed(workspace):
    root = plugin(workspace)
    top = write(root / "commands" / "research.md", "---\nname: research\ndescription: Research\n---\nGo.\n")
    nested = write(root / "commands" / "frontend" / "review.md", "---\nname: review\ndescription: R\n---\nGo.\n")
    project = write(workspace / ".claude" / "commands" / "ops" / "deploy.md", "---\ndescription: D\n---\nGo.\n")
    res = check_tree(workspace)
    for f in (top, nested, project):
        assert not diags_for(res, f, "SK009"), f
        assert not [d for d in diags_for(res, f) if d.fix is not None and "commands" in d.fix.title], f
    [note] = diags_for(res, nested, "PL003")
    assert "'/x:frontend:review'" in note.message
    [note] = diags_for(res, project, "PL003")
    assert "'/ops:deploy'" in note.message


def test_command_name_namespaces():
    from skill_ls.core.plugins import Plugin, command_name

    p = Plugin("/r/plugins/x", "x", None)
    assert command_name("/r/plugins/x/commands/a.md", p) == "x:a"
    assert command_name("/r/plugins/x/commands/f/g/a.md", p) == "x:f:g:a"
    assert command_name("/w/.claude/commands/frontend/component.md", None) == "frontend:component"


def test_subagent_skills_comma_separated(workspace):
    skill(workspace / ".claude" / "skills", "s1")
    skill(workspace / ".claude" / "skills", "s2")
    f = write(workspace / ".claude" / "agents" / "a.md", "---\nname: a\ndescription: x\nskills: s1, s2\n---\nBody.\n")
    res = check_tree(workspace, runtimes=["claude-code"])
    assert not diags_for(res, f, "AG004")
    assert not diags_for(res, f, "AG005")
    g = write(workspace / ".claude" / "agents" / "b.md", "---\nname: b\ndescription: x\nskills: s1, nope\n---\nB.\n")
    [d] = diags_for(check_tree(workspace, runtimes=["claude-code"]), g, "AG005")
    assert (d.span.start_line, d.span.start_col, d.span.end_col) == (3, 12, 16)


def test_argument_hint_list_and_flag_words(workspace):
    root = workspace / ".claude" / "skills"
    f = skill(root, "a", extra='argument-hint: [project-name]\ndisable-model-invocation: "true"\n'
                                'user-invocable: "YES"\nbackground: Off\n')
    res = check_tree(workspace, runtimes=["claude-code"])
    assert not diags_for(res, f, "SK006")
    g = skill(root, "b", extra="user-invocable: maybe\n")
    [d] = diags_for(check_tree(workspace, runtimes=["claude-code"]), g, "SK006")
    assert "yes/no" in d.message and "ignored" in d.message


def test_flag_word_reading():
    from skill_ls.core.runtimes.spec import flag_word

    for true in (True, "true", " TRUE ", "yes", "On", 1, "1"):
        assert flag_word(true) is True, true
    for false in (False, "false", "No", "off", 0, "0"):
        assert flag_word(false) is False, false
    for other in ("maybe", 2, None, [], "y"):
        assert flag_word(other) is None, other


def test_amp_guest_reads_quoted_false_as_true(workspace):
    f = skill(workspace / ".claude" / "skills", "a", extra='disable-model-invocation: "false"\n')
    res = check_tree(workspace)
    [d] = diags_for(res, f, "SK006")
    assert d.runtime == "amp" and "read as true by Amp" in d.message
    g = skill(workspace / ".claude" / "skills", "b", extra='disable-model-invocation: "true"\n')
    assert not diags_for(check_tree(workspace), g, "SK006")


def test_skill_version_and_subagent_fields_known(workspace):
    f = skill(workspace / ".claude" / "skills", "a", extra="version: 1.0.0\n")
    a = write(workspace / ".claude" / "agents" / "a.md",
              "---\nname: a\ndescription: x\nautoCompactWindow: 200000\nomitClaudeMd: true\n---\nBody.\n")
    res = check_tree(workspace, runtimes=["claude-code"])
    assert not diags_for(res, f, "SK007")
    assert not diags_for(res, a, "AG002")


def test_missing_frontmatter_is_a_warning_where_claude_code_reads_it(workspace):
    f = write(workspace / ".claude" / "skills" / "nofm" / "SKILL.md", "First paragraph.\n\nMore.\n")
    res = check_tree(workspace)
    [d] = diags_for(res, f, "SK001")
    assert d.severity == Severity.WARNING and "first line" in d.message and "Amp does not load it" in d.message
    assert not diags_for(res, f, "SK013")  # no '---' at all: SK001 says it once
    g = write(workspace / ".agents" / "skills" / "nofm" / "SKILL.md", "Text.\n")
    [d] = diags_for(check_tree(workspace), g, "SK001")
    assert d.severity == Severity.ERROR


def test_cc007_javascript_object_is_not_awk(workspace):
    body = "```js\nrun({ system: \"$1\", user: \"$2\" })\n```\n\n```sh\nps | awk '{print $2}'\n```\n"
    f = skill(workspace / ".claude" / "skills", "a", extra="argument-hint: '[a] [b]'\n", body=body)
    res = check_tree(workspace, runtimes=["claude-code"])
    [d] = diags_for(res, f, "CC007")
    assert d.span.start_line == 10  # the awk line only


def test_sa005_missing_type(workspace):
    f = write(workspace / ".claude" / "agents" / "a.md",
              "---\nname: a\ndescription: x\nhooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n"
              "        - command: echo\n---\nBody.\n")
    [d] = diags_for(check_tree(workspace, runtimes=["claude-code"]), f, "SA005")
    assert "has no 'type'" in d.message and "None" not in d.message


def test_tier_names_in_the_runtimes_words(workspace):
    skill(workspace / ".claude" / "skills", "dup")
    skill(workspace / ".agents" / "skills", "dup")
    res = check_tree(workspace, runtimes=["amp"])
    messages = " ".join(d.message for d in res.diagnostics)
    assert "workspace_claude" not in messages and "workspace_agents" not in messages
    assert "project (.agents/skills)" in messages or "project (.claude/skills)" in messages


def test_cc008_advice_is_valid_yaml():
    from skill_ls.analysis.rules import all_rules

    doc = all_rules()["CC008"].doc
    assert 'argument-hint: "[base] [head]"' in doc
