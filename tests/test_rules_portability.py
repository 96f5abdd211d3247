"""SK007 semantics across reading runtimes, PT001-PT003 (issue 11)."""
from __future__ import annotations

from conftest import check_tree, diags_for, skill

from skill_ls.core.model import Severity

CLAUDE_ONLY = ("when_to_use: When asked.\nargument-hint: '[file]'\nallowed-tools: Read Grep\nmodel: sonnet\n"
               "effort: high\ncontext: fork\nagent: Explore\nuser-invocable: true\ndisallowed-tools: Write\n"
               "paths: src/**/*.py\nshell: bash\n")


def test_valid_claude_skill_in_claude_dir_is_clean_although_amp_reads_it(workspace):
    f = skill(workspace / ".claude" / "skills", "a", extra=CLAUDE_ONLY)
    res = check_tree(workspace, runtimes=["claude-code", "amp"])
    assert diags_for(res, f) == []


def test_claude_keys_are_not_unknown_for_amp_alone_in_claude_dir(workspace):
    f = skill(workspace / ".claude" / "skills", "a", extra="model: sonnet\n")
    res = check_tree(workspace, runtimes=["amp"])
    assert diags_for(res, f) == []


def test_key_one_reader_ignores_is_a_portability_note(workspace):
    f = skill(workspace / ".agents" / "skills", "a", extra="isolatedContext: true\n")
    res = check_tree(workspace, runtimes=["amp", "codex", "agentskills"])
    assert not diags_for(res, f, "SK007")
    [d] = diags_for(res, f, "PT001")
    assert d.severity == Severity.INFORMATION and (d.span.start_line, d.span.start_col, d.span.end_col) == (3, 0, 15)
    assert "Agent Skills standard, Codex" in d.message


def test_key_no_reader_knows_is_still_sk007(workspace):
    f = skill(workspace / ".claude" / "skills", "a", extra="colour: red\n")
    res = check_tree(workspace, runtimes=["claude-code", "amp"])
    assert {d.runtime for d in diags_for(res, f, "SK007")} == {"amp", "claude-code"}
    assert not diags_for(res, f, "PT001")


def test_did_you_mean_never_offers_a_key_that_exists(workspace):
    f = skill(workspace, "a", extra="nme: x\n")
    [d] = diags_for(check_tree(workspace), f, "SK007")
    assert "did you mean" not in d.message and d.fix is None


def test_version_is_read_by_claude_code(workspace):
    """Current Claude Code accepts `version` in a skill's frontmatter (issue 25): no SK007."""
    f = skill(workspace / ".claude" / "skills", "a", extra="version: 1.0\n")
    res = check_tree(workspace, runtimes=["claude-code"])
    assert not diags_for(res, f, "SK007")


def test_standalone_key_known_somewhere_is_a_note(workspace):
    f = skill(workspace / "repo", "a", extra="argument-hint: '[x]'\n")
    res = check_tree(workspace / "repo")
    assert not diags_for(res, f, "SK007")
    [d] = diags_for(res, f, "PT001")
    assert "Claude Code" in d.message and d.span.start_line == 3


def test_empty_compatibility_breaks_the_limit(workspace):
    f = skill(workspace, "a", extra='compatibility: ""\n')
    [d] = diags_for(check_tree(workspace), f, "SK010")
    assert "empty" in d.message and (d.span.start_line, d.span.start_col) == (3, 15)
    g = skill(workspace, "b", extra="compatibility: needs git\n")
    assert not diags_for(check_tree(workspace), g, "SK010")


def test_pt002_reserved_word_in_name(workspace):
    f = skill(workspace, "claude-helper")
    [d] = diags_for(check_tree(workspace), f, "PT002")
    assert d.severity == Severity.INFORMATION and "'claude'" in d.message
    assert (d.span.start_line, d.span.start_col, d.span.end_col) == (1, 6, 19)
    ok = skill(workspace, "code-helper")
    assert not diags_for(check_tree(workspace), ok, "PT002")


def test_pt003_xml_tag_in_description(workspace):
    f = skill(workspace, "a", description="Sends <TMessage> between models. Use for MVVM.")
    [d] = diags_for(check_tree(workspace), f, "PT003")
    assert "<TMessage>" in d.message and d.span.start_line == 2 and d.span.start_col == 13
    g = skill(workspace, "b", description="Use when a < b and c > d.")
    assert not diags_for(check_tree(workspace), g, "PT003")


def test_plugin_skill_is_read_by_claude_code(workspace):
    root = workspace / "plugins" / "tools"
    (root / "agents").mkdir(parents=True)
    f = skill(root / "skills", "a", extra="model: GPT-4.1\nversoin: 1\n")
    res = check_tree(workspace)
    assert [d.runtime for d in diags_for(res, f, "CC001")] == ["claude-code"]
    assert diags_for(res, f, "SK007")[0].runtime == "claude-code"
    assert not diags_for(res, f, "PT001")
    # Not a plugin: the same skill elsewhere keeps the standard's base rules.
    g = skill(workspace / "lib", "a", extra="model: GPT-4.1\n")
    assert not diags_for(check_tree(workspace), g, "CC001")
