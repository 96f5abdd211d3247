"""Claude Code's roots: skills in `.claude/skills` folders nested in the workspace's subfolders
(https://code.claude.com/docs/en/skills: "When you work with files in subdirectories, Claude Code
automatically discovers skills from nested .claude/skills/ directories"), each serving the files
below its folder; on a name clash "the nested skill appears as `<dir>:<name>` so both stay
available" (Claude Code's CHANGELOG, 2.1.178)."""
from __future__ import annotations

from tests.conftest import check_tree, codes, diags_for, skill
from skill_ls.core.labels import where
from tests.runtime_helpers import index_for, labels


def _scopes(index):
    return {d.name: (d.tier, d.root.scope_label if d.root and d.root.scope else None)
            for d in index.decls["claude-code"]}


def test_a_nested_skill_is_read_for_the_files_under_its_folder(workspace, private_home):
    """The page's example: editing a file in `packages/frontend/` reads
    `packages/frontend/.claude/skills/`; the project's own `.claude/skills` is read once."""
    skill(workspace / ".claude" / "skills", "shared-conventions")
    front = skill(workspace / "packages" / "frontend" / ".claude" / "skills", "react-patterns")
    index = index_for(workspace, ["claude-code"])
    assert _scopes(index) == {"shared-conventions": ("project", None),
                              "react-patterns": ("project", "packages/frontend")}
    assert len(index.decls["claude-code"]) == 2  # `**` does not match the workspace's own `.claude/skills`
    entry = where(index, "claude-code", "react-patterns")["entries"][0]
    assert (entry["label"], entry["scope"], entry["summary"]) == (
        "winner", "packages/frontend", "winner · project — for files under packages/frontend/")
    assert "scope" not in where(index, "claude-code", "shared-conventions")["entries"][0]
    assert codes(diags_for(check_tree(workspace, runtimes=["claude-code"]), front)) == []


def test_a_nested_folder_alone_makes_claude_code_active(workspace, private_home):
    skill(workspace / "packages" / "api" / ".claude" / "skills", "api-design")
    assert "claude-code" in index_for(workspace).active


def test_the_catalog_and_hover_say_which_folder_a_nested_skill_serves(workspace, private_home):
    from skill_ls.analysis.catalog import catalog_object
    from skill_ls.analysis.queries.hover import skill_hover
    from tests.conftest import workspace_state

    path = skill(workspace / "packages" / "frontend" / ".claude" / "skills", "react-patterns")
    skill(workspace / ".claude" / "skills", "top")
    obj = catalog_object(index_for(workspace, ["claude-code"]), "claude-code")
    assert [(s["name"], s.get("scope")) for s in obj["skills"]] == [("react-patterns", "packages/frontend"),
                                                                   ("top", None)]
    text = skill_hover(workspace_state(workspace), "react-patterns", str(path))
    assert ("- winner: `project` `packages/frontend/.claude/skills/react-patterns/SKILL.md` — for files under "
            "packages/frontend/") in text


def test_same_name_in_disjoint_folders_is_no_conflict(workspace, private_home):
    a = skill(workspace / "packages" / "api" / ".claude" / "skills", "deploy")
    b = skill(workspace / "packages" / "web" / ".claude" / "skills", "deploy")
    index = index_for(workspace, ["claude-code"])
    assert labels(index, "claude-code", "deploy") == [
        ("winner", "<ws>/packages/api/.claude/skills/deploy/SKILL.md"),
        ("also loaded", "<ws>/packages/web/.claude/skills/deploy/SKILL.md")]
    result = check_tree(workspace, runtimes=["claude-code"])
    assert codes(diags_for(result, a)) == [] and codes(diags_for(result, b)) == []


def test_a_nested_copy_of_a_project_name_stays_available_qualified(workspace, private_home):
    """"on a name clash, the nested skill appears as `<dir>:<name>` so both stay available": the
    project's copy is the winner, the nested one is also loaded as `packages/web:deploy` (reading:
    `<dir>` is the folder relative to the workspace); neither is shadowed or ambiguous."""
    from skill_ls.analysis.catalog import catalog_object

    top = skill(workspace / ".claude" / "skills", "deploy")
    nested = skill(workspace / "packages" / "web" / ".claude" / "skills", "deploy")
    index = index_for(workspace, ["claude-code"])
    obj = where(index, "claude-code", "deploy")
    assert [(e["label"], e.get("scope")) for e in obj["entries"]] == [("winner", None),
                                                                      ("also loaded", "packages/web")]
    assert obj["entries"][1]["summary"] == "also loaded · project — for files under packages/web/; as packages/web:deploy"
    names = [s["name"] for s in catalog_object(index, "claude-code")["skills"]]
    assert names == ["deploy", "packages/web:deploy"]
    result = check_tree(workspace, runtimes=["claude-code"])
    for path in (top, nested):
        assert not {"SH001", "SH003"} & set(codes(diags_for(result, path)))


def test_a_nested_copy_of_a_personal_name_stays_available_qualified(workspace, private_home):
    """Enterprise > personal > project ranks the copies that serve every file; a nested copy is loaded
    beside the personal winner, qualified, and shadows nothing."""
    user = skill(private_home / ".claude" / "skills", "lint")
    top = skill(workspace / ".claude" / "skills", "lint")
    nested = skill(workspace / "packages" / "web" / ".claude" / "skills", "lint")
    index = index_for(workspace, ["claude-code"])
    assert labels(index, "claude-code", "lint") == [("winner", "~/.claude/skills/lint/SKILL.md"),
                                                    ("shadowed", "<ws>/.claude/skills/lint/SKILL.md"),
                                                    ("also loaded", "<ws>/packages/web/.claude/skills/lint/SKILL.md")]
    assert where(index, "claude-code", "lint")["entries"][2]["summary"].endswith("; as packages/web:lint")
    result = check_tree(workspace, runtimes=["claude-code"])
    assert diags_for(result, top, "SH001")
    assert "SH001" not in codes(diags_for(result, user)) and "SH001" not in codes(diags_for(result, nested))


def test_hidden_and_dependency_folders_are_not_searched(workspace, private_home):
    skill(workspace / ".claude" / "skills", "top")
    skill(workspace / ".hidden" / "pkg" / ".claude" / "skills", "in-hidden")
    skill(workspace / "node_modules" / "dep" / ".claude" / "skills", "in-deps")
    index = index_for(workspace, ["claude-code"])
    assert sorted(d.name for d in index.decls["claude-code"]) == ["top"]


def test_a_nested_folder_created_later_is_found_by_the_server(workspace, private_home):
    """The server's state: a `.claude/skills` folder created in a subfolder after the index was built
    asks for a rebuild, which finds the new root."""
    from tests.conftest import workspace_state

    skill(workspace / ".claude" / "skills", "top")
    state = workspace_state(workspace)
    path = skill(workspace / "packages" / "web" / ".claude" / "skills", "deploy-web")
    assert state.file_changed(str(path)) is None
    state.install(state.build_index())
    assert "deploy-web" in state.index.by_name["claude-code"]
