"""Cursor as documented (cursor.com/docs/skills, quoted in docs/fidelity.md): its project and user
roots, the Claude and Codex directories it also loads, its built-in skills, and the readings where
the page is silent (precedence, same-tier duplicates, catalog text)."""
from __future__ import annotations

from tests.conftest import check_tree, codes, diags_for, skill
from skill_ls.core.labels import where
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


def test_nested_project_folders_are_roots_scoped_to_their_folder(workspace, private_home):
    """"A `.cursor/skills/` (or `.agents/skills/`) folder anywhere inside your repository is picked
    up … Skills in nested project directories are automatically scoped to files inside that
    directory": the page's monorepo example, plus a nested `.agents/skills`."""

    skill(workspace / ".cursor" / "skills", "land-it")
    web = skill(workspace / "apps" / "web" / ".cursor" / "skills", "deploy-web")
    skill(workspace / "apps" / "api" / ".agents" / "skills", "deploy-api")
    index = index_for(workspace, ["cursor"])
    scopes = {d.name: (d.tier, d.root.scope_label if d.root and d.root.scope else None)
              for d in index.decls["cursor"] if not d.builtin}
    assert scopes == {"land-it": ("project", None), "deploy-web": ("project", "apps/web"),
                      "deploy-api": ("project", "apps/api")}
    entry = where(index, "cursor", "deploy-web")["entries"][0]
    assert (entry["label"], entry["scope"], entry["summary"]) == ("winner", "apps/web",
                                                                  "winner · project — for files under apps/web/")
    assert "scope" not in where(index, "cursor", "land-it")["entries"][0]
    assert codes(diags_for(check_tree(workspace, runtimes=["cursor"]), web)) == []


def test_a_nested_cursor_folder_activates_cursor_a_nested_agents_folder_does_not(workspace, private_home):
    skill(workspace / "pkg" / ".agents" / "skills", "a")
    assert "cursor" not in index_for(workspace).active
    skill(workspace / "pkg" / ".cursor" / "skills", "b")
    assert "cursor" in index_for(workspace).active


def test_hidden_and_dependency_folders_are_not_searched(workspace, private_home):
    """The CLI's changelog: skill scans "no longer descend into hidden dot-directories"; dependency
    folders (`node_modules`) are never walked."""
    skill(workspace / ".cursor" / "skills", "top")
    skill(workspace / ".hidden" / "pkg" / ".cursor" / "skills", "in-hidden")
    skill(workspace / "node_modules" / "dep" / ".cursor" / "skills", "in-deps")
    index = index_for(workspace, ["cursor"])
    assert sorted(d.name for d in index.decls["cursor"] if not d.builtin) == ["top"]


def test_same_name_in_disjoint_folders_is_no_conflict(workspace, private_home):
    """Two packages' `deploy` skills serve different files: each is loaded for its own folder."""
    a = skill(workspace / "apps" / "api" / ".cursor" / "skills", "deploy")
    b = skill(workspace / "apps" / "web" / ".cursor" / "skills", "deploy")
    index = index_for(workspace, ["cursor"])
    assert labels(index, "cursor", "deploy") == [("winner", "<ws>/apps/api/.cursor/skills/deploy/SKILL.md"),
                                                 ("also loaded", "<ws>/apps/web/.cursor/skills/deploy/SKILL.md")]
    result = check_tree(workspace, runtimes=["cursor"])
    assert codes(diags_for(result, a)) == [] and codes(diags_for(result, b)) == []


def test_a_nested_copy_of_a_repo_wide_name_is_ambiguous_for_its_folder(workspace, private_home):
    """Reading: the page ranks a nested copy against no other; for the files under `apps/web/` both
    project copies of `land-it` are surfaced, which one loads is not documented (SH003), while the
    repository-wide copy still serves every other file."""
    top = skill(workspace / ".cursor" / "skills", "land-it")
    nested = skill(workspace / "apps" / "web" / ".cursor" / "skills", "land-it")
    index = index_for(workspace, ["cursor"])
    obj = where(index, "cursor", "land-it")
    assert [(e["label"], e.get("scope")) for e in obj["entries"]] == [("winner", None), ("also loaded", "apps/web")]
    assert obj["entries"][1]["summary"] == ("also loaded · project — for files under apps/web/; ambiguous: same tier "
                                            "as the first copy, which loads is not documented")
    result = check_tree(workspace, runtimes=["cursor"])
    assert diags_for(result, top, "SH003") and diags_for(result, nested, "SH003")


def test_a_nested_copy_wins_over_a_user_copy_only_for_its_folder(workspace, private_home):
    """A project copy wins over a user copy (reading, as everywhere in Cursor): a nested one only for
    its folder, so the user copy stays the one every other file gets: nothing is shadowed."""
    user = skill(private_home / ".cursor" / "skills", "lint")
    nested = skill(workspace / "apps" / "web" / ".cursor" / "skills", "lint")
    index = index_for(workspace, ["cursor"])
    assert labels(index, "cursor", "lint") == [("winner", "~/.cursor/skills/lint/SKILL.md"),
                                               ("also loaded", "<ws>/apps/web/.cursor/skills/lint/SKILL.md")]
    result = check_tree(workspace, runtimes=["cursor"])
    assert "SH001" not in codes(diags_for(result, user)) and "SH001" not in codes(diags_for(result, nested))


def test_the_catalog_and_hover_say_which_folder_a_nested_skill_serves(workspace, private_home):
    from skill_ls.analysis.catalog import catalog_object
    from skill_ls.analysis.queries.hover import skill_hover
    from tests.conftest import workspace_state

    path = skill(workspace / "apps" / "web" / ".cursor" / "skills", "deploy-web")
    skill(workspace / ".cursor" / "skills", "top")
    obj = catalog_object(index_for(workspace, ["cursor"]), "cursor")
    assert [(s["name"], s.get("scope")) for s in obj["skills"]] == [("deploy-web", "apps/web"), ("top", None)]
    text = skill_hover(workspace_state(workspace), "deploy-web", str(path))
    assert "- winner: `project` `apps/web/.cursor/skills/deploy-web/SKILL.md` — for files under apps/web/" in text


def test_a_nested_folder_created_later_is_found_by_the_server(workspace, private_home):
    """The server's state: a `.cursor/skills` folder created in a subfolder after the index was built
    (a file event, or a directory event) asks for a rebuild, which finds the new root."""
    from tests.conftest import workspace_state

    skill(workspace / ".cursor" / "skills", "top")
    state = workspace_state(workspace)
    path = skill(workspace / "apps" / "web" / ".cursor" / "skills", "deploy-web")
    assert state.file_changed(str(path)) is None
    assert state.file_changed(str(workspace / "apps")) is None
    state.install(state.build_index())
    assert "deploy-web" in state.index.by_name["cursor"]
    assert state.file_changed(str(path)) is not None  # a known root now: an update, no rebuild
