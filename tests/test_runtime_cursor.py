"""Cursor as documented (cursor.com/docs/skills, quoted in docs/fidelity.md): its project and user
roots, the Claude and Codex directories it also loads, its built-in skills, and the readings where
the page is silent (precedence, same-tier duplicates, catalog text)."""
from __future__ import annotations

from tests.conftest import check_tree, codes, diags_for, skill
from tests.runtime_helpers import index_for, labels


def test_every_documented_root_is_read(workspace, private_home):
    roots = [(workspace / ".agents" / "skills", "project"), (workspace / ".cursor" / "skills", "project"),
             (workspace / ".claude" / "skills", "project"), (workspace / ".codex" / "skills", "project"),
             (private_home / ".agents" / "skills", "user"), (private_home / ".cursor" / "skills", "user"),
             (private_home / ".claude" / "skills", "user"), (private_home / ".codex" / "skills", "user")]
    for i, (root, _) in enumerate(roots):
        skill(root, f"s{i}")
    index = index_for(workspace, ["cursor"])
    found = {(d.tier, d.name) for d in index.decls["cursor"] if not d.builtin}
    assert found == {(tier, f"s{i}") for i, (_, tier) in enumerate(roots)}


def test_cursor_directories_activate_it_compatibility_ones_do_not(workspace, private_home):
    skill(workspace / ".claude" / "skills", "c")
    skill(workspace / ".codex" / "skills", "x")
    skill(workspace / ".agents" / "skills", "a")
    assert "cursor" not in index_for(workspace).active
    skill(workspace / ".cursor" / "skills", "mine")
    assert "cursor" in index_for(workspace).active


def test_built_in_skills_are_lowest_and_a_project_skill_overrides_one(workspace):
    """"Cursor includes a small set of built in skills … managed by Cursor": a project skill of the
    same name wins over the built-in (reading: built-ins rank lowest) and SH002 says so."""
    path = skill(workspace / ".cursor" / "skills", "autopilot")
    index = index_for(workspace, ["cursor"])
    assert labels(index, "cursor", "autopilot") == [("winner", "<ws>/.cursor/skills/autopilot/SKILL.md"),
                                                    ("shadowed", "(built-in autopilot)")]
    assert "SH002" in codes(diags_for(check_tree(workspace, runtimes=["cursor"]), path))


def test_project_wins_over_user_and_one_tier_twice_is_ambiguous(workspace, private_home):
    skill(workspace / ".cursor" / "skills", "lint")
    skill(private_home / ".cursor" / "skills", "lint")
    assert [lab for lab, _ in labels(index_for(workspace, ["cursor"]), "cursor", "lint")] == ["winner", "shadowed"]
    a = skill(workspace / ".agents" / "skills", "lint")
    result = check_tree(workspace, runtimes=["cursor"])
    assert diags_for(result, a, "SH003")


def test_standard_fields_and_disable_model_invocation_are_known(workspace):
    path = skill(workspace / ".cursor" / "skills", "x", extra="license: MIT\ncompatibility: node\n"
                 "metadata:\n  owner: me\ndisable-model-invocation: true\n")
    assert "SK007" not in codes(diags_for(check_tree(workspace, runtimes=["cursor"]), path))


def test_a_claude_code_skill_in_claude_skills_is_clean_for_cursor(workspace):
    """Cursor reads `.claude/skills` for compatibility: Claude Code's keys there are expected."""
    path = skill(workspace / ".claude" / "skills", "x", extra="allowed-tools: Read\nargument-hint: '[f]'\n")
    result = check_tree(workspace, runtimes=["cursor", "claude-code"])
    assert not [d for d in diags_for(result, path) if d.runtime and "cursor" in d.runtime]


def test_disable_model_invocation_keeps_it_out_of_the_listing(workspace):
    from skill_ls.analysis.catalog import catalog_object

    skill(workspace / ".cursor" / "skills", "manual", extra="disable-model-invocation: true\n")
    skill(workspace / ".cursor" / "skills", "auto")
    obj = catalog_object(index_for(workspace, ["cursor"]), "cursor")
    assert [s["name"] for s in obj["skills"]] == ["auto"] and obj["documented"] is False


def test_name_follows_the_standard(workspace):
    path = skill(workspace / ".cursor" / "skills", "x", name="Bad Name")
    assert diags_for(check_tree(workspace, runtimes=["cursor"]), path, "SK008")


def test_every_built_in_skill_the_page_lists(workspace):
    """The page's "Built-in Cursor skills" table, every row: each resolves as a built-in of the lowest
    tier (the list as the page shows it, no name added)."""
    from skill_ls.core.runtimes import RUNTIMES

    assert RUNTIMES["cursor"].builtin_names == (
        "automate", "autopilot", "canvas", "create-hook", "create-rule", "create-skill", "create-subagent",
        "cursor-blame", "loop", "migrate-to-skills", "review", "review-bugbot", "review-security", "sdk", "shell",
        "split-to-prs", "statusline", "update-cli-config", "update-cursor-settings")
    skill(workspace / ".cursor" / "skills", "mine")
    index = index_for(workspace, ["cursor"])
    assert labels(index, "cursor", "create-skill") == [("winner", "(built-in create-skill)")]


def test_the_frontmatter_fields_table(workspace):
    """"Frontmatter fields": `paths` ("Accepts a comma-separated string or a list"), the legacy `globs`,
    `icon`, `color` ("One of `default`, `green`, …"), `metadata` (the standard's string map):
    known to Cursor (no SK007) and type-checked; a colour outside the list is not reported ("Unrecognized
    icons or colors fall back to the default badge")."""
    ok = skill(workspace / ".cursor" / "skills", "ok", extra='paths:\n  - "**/*.tsx"\nglobs: "*.py, scripts/*.py"\n'
               "icon: beaker\ncolor: green\nmetadata:\n  owner: me\n")
    bad = skill(workspace / ".cursor" / "skills", "bad", extra="paths: 3\ncolor: teal\n")
    result = check_tree(workspace, runtimes=["cursor"])
    assert codes(diags_for(result, ok)) == []
    assert codes(diags_for(result, bad)) == ["SK006"]  # `paths: 3`, not the colour


def test_nested_skill_directories_are_read(workspace):
    """"Cursor walks the skills root recursively and picks up any `SKILL.md` it finds … The skill's
    identity comes from the folder containing `SKILL.md`": a category folder is organizational."""
    skill(workspace / ".cursor" / "skills" / "shipping", "land-it")
    skill(workspace / ".cursor" / "skills" / "workflow", "tdd")
    index = index_for(workspace, ["cursor"])
    assert sorted(d.name for d in index.decls["cursor"] if not d.builtin) == ["land-it", "tdd"]
