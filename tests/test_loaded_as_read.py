"""A copy is blocked for a runtime only when that runtime refuses it (issue 25): Claude Code loads a
`.claude/skills` skill without frontmatter (named after its directory, its first line as the
description) and one whose YAML only its quoting repair fixes, so `where`, hover, code lens, the catalog
and precedence say "loaded" where `check` says "warning: it loads"; AGH, Amp and Codex keep blocking them.
The descriptor says so (`Runtime.frontmatter_optional`, `repairs_unquoted_values`,
`description_from_body`)."""
from __future__ import annotations

import json

from conftest import check_tree, diags_for, skill, write

from skill_ls.analysis.catalog import catalog_object
from skill_ls.analysis.queries.hover import skill_hover
from skill_ls.analysis.queries.lens import code_lenses
from skill_ls.core.index import Document, first_line_description
from skill_ls.core.labels import label_resolution, where
from skill_ls.core.model import Severity
from skill_ls.core.parse.frontmatter import parse_frontmatter
from skill_ls.core.parse.text import SourceText
from skill_ls.core.resolve import resolve_name
from tests.conftest import workspace_state

NO_FRONTMATTER = "# Deploy helper\n\nDeploys the app to staging.\n"
COLON = "---\nname: colon\ndescription: Use when: the user asks for a report\n---\nBody.\n"


def _tree(workspace, private_home):
    root = workspace / ".claude" / "skills"
    nofm = write(root / "nofm" / "SKILL.md", NO_FRONTMATTER)
    colon = write(root / "colon" / "SKILL.md", COLON)
    # The same files where AGH, Amp and Codex read them as their own.
    for base in (".agh", ".agents"):
        write(workspace / base / "skills" / "nofm" / "SKILL.md", NO_FRONTMATTER)
        write(workspace / base / "skills" / "colon" / "SKILL.md", COLON)
    return nofm, colon


def _states(index, runtime, name):
    return [(lab.state, lab.decl.tier) for lab in label_resolution(resolve_name(index, runtime, name))]


def test_where_lists_them_as_loaded_for_claude_code_and_blocked_elsewhere(workspace, private_home):
    nofm, colon = _tree(workspace, private_home)
    res = check_tree(workspace, runtimes=["claude-code", "agh", "codex"])
    index = res.index
    assert _states(index, "claude-code", "nofm") == [("winner", "project")]
    assert _states(index, "claude-code", "colon") == [("winner", "project")]
    for runtime in ("agh", "codex"):
        assert [s for s, _ in _states(index, runtime, "nofm")] == ["blocked"], runtime
        assert [s for s, _ in _states(index, runtime, "colon")] == ["blocked"], runtime
    for name in ("nofm", "colon"):
        [entry] = where(index, "claude-code", name)["entries"]
        assert entry["label"] == "winner" and not entry["blocked"] and entry["tier"] == "project"
        [entry] = where(index, "agh", name)["entries"]
        assert entry["label"] == "blocked" and entry["blocked"]
    assert where(index, "codex", "nofm")["entries"][0]["reason"] == "no frontmatter"
    # check agrees: warnings where Claude Code alone reads the file, errors where AGH does.
    [d] = diags_for(res, nofm, "SK001")
    assert d.severity == Severity.WARNING
    [d] = diags_for(res, colon, "SK003")
    assert d.severity == Severity.WARNING
    [d] = diags_for(res, workspace / ".agh" / "skills" / "nofm" / "SKILL.md", "SK001")
    assert d.severity == Severity.ERROR


def test_catalog_lists_them_as_claude_code_does(workspace, private_home):
    _tree(workspace, private_home)
    index = check_tree(workspace, runtimes=["claude-code", "agh"]).index
    skills = {s["name"]: s for s in catalog_object(index, "claude-code")["skills"]}
    # No frontmatter: the directory's name; the first non-blank line, its heading marks dropped.
    assert skills["nofm"]["description"] == "Deploy helper"
    # The repaired value, as Claude Code reads it after quoting.
    assert skills["colon"]["description"] == "Use when: the user asks for a report"
    text = catalog_object(index, "claude-code")["text"]
    assert "<name>\nnofm\n</name>" in text and "Deploy helper" in text
    agh = {s["name"] for s in catalog_object(index, "agh")["skills"]}
    assert "nofm" not in agh and "colon" not in agh


def test_they_take_part_in_precedence(workspace, private_home):
    # Claude Code ranks personal over project: a personal copy without frontmatter wins over the
    # project's, and a project copy without frontmatter is shadowed by (not blocked beside) a personal one.
    write(private_home / ".claude" / "skills" / "nofm" / "SKILL.md", NO_FRONTMATTER)
    skill(workspace / ".claude" / "skills", "nofm")
    skill(private_home / ".claude" / "skills", "colon")
    write(workspace / ".claude" / "skills" / "colon" / "SKILL.md", COLON)
    res = check_tree(workspace, runtimes=["claude-code"])
    assert _states(res.index, "claude-code", "nofm") == [("winner", "personal"), ("shadowed", "project")]
    assert _states(res.index, "claude-code", "colon") == [("winner", "personal"), ("shadowed", "project")]
    project_copy = workspace / ".claude" / "skills" / "nofm" / "SKILL.md"
    assert diags_for(res, project_copy, "SH001") or diags_for(res, project_copy, "SH002")


def test_hover_and_code_lens_agree(workspace, private_home):
    nofm, colon = _tree(workspace, private_home)
    write(workspace / ".skill-ls.toml", "runtimes = ['claude-code', 'agh']\n")
    state = workspace_state(workspace)
    [lens] = [lens for lens in code_lenses(state, str(nofm)) or []]
    assert lens.title == "winner · project"
    [lens] = code_lenses(state, str(colon)) or []
    assert lens.title == "winner · project"
    [lens] = code_lenses(state, str(workspace / ".agh" / "skills" / "nofm" / "SKILL.md")) or []
    assert lens.title.startswith("blocked")
    hover = skill_hover(state, "nofm", str(nofm))
    assert "**Claude Code** (`claude-code`)\n- winner: `project` `.claude/skills/nofm/SKILL.md`\n- catalog: " in hover
    assert "- blocked: `workspace` `.agh/skills/nofm/SKILL.md` — no frontmatter" in hover
    assert "- Claude Code ⚠ SK001" in hover  # portability: loads, with a warning


def test_first_line_description_as_claude_code_computes_it():
    def doc(text):
        src = SourceText.from_str(text)
        return Document("/x/SKILL.md", src, parse_frontmatter(src))

    assert first_line_description(doc("\n\n  ## Title here  \nMore\n"), 0, "Skill") == "Title here"
    assert first_line_description(doc("#hashtag line\n"), 0, "Skill") == "#hashtag line"
    assert first_line_description(doc("x" * 101 + "\n"), 0, "Skill") == "x" * 97 + "..."
    assert first_line_description(doc("x" * 100 + "\n"), 0, "Skill") == "x" * 100
    assert first_line_description(doc("\n  \n"), 0, "Custom command") == "Custom command"


def test_a_missing_description_is_the_first_line_under_claude_code(workspace, private_home):
    write(workspace / ".claude" / "skills" / "bare" / "SKILL.md", "---\nname: bare\n---\n\nFirst line.\n")
    index = check_tree(workspace, runtimes=["claude-code"]).index
    [entry] = catalog_object(index, "claude-code")["skills"]
    assert entry["description"] == "First line."


def test_a_frontmatter_claude_code_cannot_read_is_ignored_there(workspace, private_home):
    """Claude Code 2.1.332 loads a skill whose YAML does not parse even after its repair, or is not a
    mapping, with the frontmatter ignored ("failed to parse and was ignored"): named after its
    directory, its first line as the description. SK003/SK004 stay errors (every setting is lost)
    and say so; AGH keeps it blocked."""
    root = workspace / ".claude" / "skills"
    broken = write(root / "broken" / "SKILL.md", '---\nname: broken\ndescription: "unclosed\n---\n# Broken skill\n')
    listy = write(root / "listy" / "SKILL.md", "---\n- a\n- b\n---\nA list, not a mapping.\n")
    dup = write(root / "dup" / "SKILL.md", "---\nname: dup\ndescription: a\ndescription: b\n---\nBody.\n")
    write(workspace / ".agh" / "skills" / "broken" / "SKILL.md", '---\nname: broken\ndescription: "unclosed\n---\nB\n')
    res = check_tree(workspace, runtimes=["claude-code", "agh"])
    assert _states(res.index, "claude-code", "broken") == [("winner", "project")]
    assert _states(res.index, "claude-code", "listy") == [("winner", "project")]
    assert [s for s, _ in _states(res.index, "claude-code", "dup")] == ["blocked"]  # a repeated key: not shown
    assert [s for s, _ in _states(res.index, "agh", "broken")] == ["blocked"]
    [d] = diags_for(res, broken, "SK003")
    assert d.severity == Severity.ERROR and "Claude Code ignores the whole frontmatter" in d.message
    [d] = diags_for(res, listy, "SK004")
    assert d.severity == Severity.ERROR and "with none of its settings" in d.message
    assert not [d for d in diags_for(res, dup, "SK004") if "ignores" in d.message]
    skills = {s["name"]: s["description"] for s in catalog_object(res.index, "claude-code")["skills"]}
    assert skills["broken"] == "Broken skill" and skills["listy"] == "A list, not a mapping."


def test_claude_code_catalog_leaves_out_what_the_model_may_not_invoke(workspace, private_home):
    """Claude Code's skill tool lists only skills the model may invoke: `disable-model-invocation`
    read as Claude Code reads a flag (`"true"`, `yes`, `On`...)."""
    root = workspace / ".claude" / "skills"
    skill(root, "manual", extra='disable-model-invocation: "yes"\n')
    skill(root, "auto", extra="disable-model-invocation: false\n")
    index = check_tree(workspace, runtimes=["claude-code"]).index
    assert [s["name"] for s in catalog_object(index, "claude-code")["skills"]] == ["auto"]
