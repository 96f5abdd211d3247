"""Gemini CLI as documented (geminicli.com, quoted in docs/fidelity.md): built-in < extension < user <
workspace, the `.agents/skills` alias winning within a tier, extension skills, the built-in
`skill-creator`, `skills.enabled` / `skills.disabled` in its settings files, and the system prompt
that gets the names and descriptions of enabled skills (its text is not documented)."""
from __future__ import annotations

import json

from tests.conftest import check_tree, codes, diags_for, skill, write
from skill_ls.core.labels import where
from tests.runtime_helpers import index_for, labels


def test_tiers_lowest_to_highest(workspace, private_home):
    """"Built-in Skills … Extension Skills … User Skills … Workspace Skills" (lowest to highest)."""
    skill(private_home / ".gemini" / "extensions" / "ext" / "skills", "review")
    write(private_home / ".gemini" / "extensions" / "ext" / "gemini-extension.json", '{"name": "ext"}')
    skill(private_home / ".gemini" / "skills", "review")
    skill(workspace / ".gemini" / "skills", "review")
    assert labels(index_for(workspace, ["gemini"]), "gemini", "review") == [
        ("winner", "<ws>/.gemini/skills/review/SKILL.md"), ("shadowed", "~/.gemini/skills/review/SKILL.md"),
        ("shadowed", "~/.gemini/extensions/ext/skills/review/SKILL.md")]


def test_the_agents_alias_wins_within_the_workspace_tier(workspace):
    """"Within the same tier (user or workspace), the `.agents/skills/` alias takes precedence over the
    `.gemini/skills/` directory." No ambiguity is reported."""
    skill(workspace / ".gemini" / "skills", "review")
    alias = skill(workspace / ".agents" / "skills", "review")
    assert labels(index_for(workspace, ["gemini"]), "gemini", "review") == [
        ("winner", "<ws>/.agents/skills/review/SKILL.md"), ("shadowed", "<ws>/.gemini/skills/review/SKILL.md")]
    assert not diags_for(check_tree(workspace, runtimes=["gemini"]), alias, "SH003")


def test_the_agents_alias_wins_within_the_user_tier(workspace, private_home):
    skill(private_home / ".gemini" / "skills", "review")
    skill(private_home / ".agents" / "skills", "review")
    assert labels(index_for(workspace, ["gemini"]), "gemini", "review")[0] == (
        "winner", "~/.agents/skills/review/SKILL.md")


def test_a_user_alias_loses_to_a_workspace_gemini_directory(workspace, private_home):
    """The tier decides first: the alias only wins within its own tier."""
    skill(private_home / ".agents" / "skills", "review")
    skill(workspace / ".gemini" / "skills", "review")
    assert labels(index_for(workspace, ["gemini"]), "gemini", "review")[0][1] == "<ws>/.gemini/skills/review/SKILL.md"


def test_extension_skills_of_every_installed_extension(workspace, private_home):
    """"On startup, Gemini CLI looks for extensions in `<home>/.gemini/extensions`"; "Extensions exist as a
    directory that contains a `gemini-extension.json` file"; "Skills must be placed in a `skills/`
    directory within the extension." A directory without the manifest is not an extension."""
    for ext in ("a-ext", "b-ext", "not-an-ext"):
        skill(private_home / ".gemini" / "extensions" / ext / "skills", f"{ext}-skill")
        if ext != "not-an-ext":
            write(private_home / ".gemini" / "extensions" / ext / "gemini-extension.json", '{"name": "%s"}' % ext)
    index = index_for(workspace, ["gemini"])
    assert sorted((d.tier, d.name) for d in index.decls["gemini"] if not d.builtin) == [
        ("extension", "a-ext-skill"), ("extension", "b-ext-skill")]
    assert "gemini" in index_for(workspace).active  # an installed extension's skills activate it


def test_gemini_directories_activate_it_and_the_alias_alone_does_not(workspace):
    skill(workspace / ".agents" / "skills", "a")
    assert "gemini" not in index_for(workspace).active
    skill(workspace / ".gemini" / "skills", "g")
    assert "gemini" in index_for(workspace).active


def test_the_built_in_skill_creator_is_overridden_by_a_workspace_skill(workspace):
    path = skill(workspace / ".gemini" / "skills", "skill-creator")
    assert labels(index_for(workspace, ["gemini"]), "gemini", "skill-creator") == [
        ("winner", "<ws>/.gemini/skills/skill-creator/SKILL.md"), ("shadowed", "(built-in skill-creator)")]
    assert "SH002" in codes(diags_for(check_tree(workspace, runtimes=["gemini"]), path))


def test_skills_disabled_in_settings_json(workspace, private_home, capsys):
    """`skills.disabled` (array): "List of disabled skills." — in `~/.gemini/settings.json` and the
    project's `.gemini/settings.json`; a disabled skill is out of the system prompt."""
    from skill_ls.analysis.catalog import catalog_object
    from skill_ls.cli import main
    from skill_ls.core.labels import where

    skill(workspace / ".gemini" / "skills", "a")
    skill(workspace / ".gemini" / "skills", "b")
    skill(workspace / ".gemini" / "skills", "c")
    write(private_home / ".gemini" / "settings.json", json.dumps({"skills": {"disabled": ["a"]}}))
    write(workspace / ".gemini" / "settings.json", json.dumps({"skills": {"disabled": ["b"]}}))
    index = index_for(workspace, ["gemini"])
    assert [s["name"] for s in catalog_object(index, "gemini")["skills"]] == ["c"]
    obj = where(index, "gemini", "a")
    assert obj["disabled"] is True and obj["disabled_by"] == "skills.disabled in ~/.gemini/settings.json"
    assert main(["where", "b", "--workspace", str(workspace), "--runtime", "gemini"]) == 0
    assert "skills.disabled in " in capsys.readouterr().out


def test_skills_enabled_false_turns_skills_off(workspace, private_home):
    """`skills.enabled` (boolean): "Enable Agent Skills." Project settings override user settings."""
    from skill_ls.analysis.effective import resolve_effective_set
    from skill_ls.core.labels import where

    skill(workspace / ".gemini" / "skills", "a")
    write(private_home / ".gemini" / "settings.json", json.dumps({"skills": {"enabled": False}}))
    index = index_for(workspace, ["gemini"])
    assert resolve_effective_set(index, "gemini").skills == []
    assert "skills.enabled = false" in where(index, "gemini", "a")["skills_disabled"]
    write(workspace / ".gemini" / "settings.json", json.dumps({"skills": {"enabled": True}}))
    index = index_for(workspace, ["gemini"])
    assert [s.name for s in resolve_effective_set(index, "gemini").skills] == ["a"]


def test_a_malformed_settings_file_is_the_defaults(workspace, private_home):
    skill(workspace / ".gemini" / "skills", "a")
    write(private_home / ".gemini" / "settings.json", "{not json")
    from skill_ls.analysis.effective import resolve_effective_set

    assert [s.name for s in resolve_effective_set(index_for(workspace, ["gemini"]), "gemini").skills] == ["a"]


def test_name_and_description_required_and_name_should_match_the_directory(workspace):
    """"This file must contain YAML frontmatter with a `name` and a clear, concise `description`."
    A name other than the directory is a warning (reading: "should match")."""
    missing = write(workspace / ".gemini" / "skills" / "m" / "SKILL.md", "---\nname: m\n---\nBody\n")
    other = skill(workspace / ".gemini" / "skills", "dir-name", name="other-name")
    result = check_tree(workspace, runtimes=["gemini"])
    assert "SK005" in codes(diags_for(result, missing))
    sk009 = diags_for(result, other, "SK009")
    assert sk009 and sk009[0].severity == 2
    assert not diags_for(result, other, "SK008")  # no pattern is documented


def test_system_prompt_text_is_not_documented(workspace, capsys):
    from skill_ls.cli import main

    skill(workspace / ".gemini" / "skills", "review")
    assert main(["catalog", "--workspace", str(workspace), "--runtime", "gemini", "--format", "json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["documented"] is False and obj["text"] == "" and [s["name"] for s in obj["skills"]] == ["review"]


def test_the_standards_optional_fields_are_known(workspace):
    """Reading: Gemini CLI is "Based on the Agent Skills open standard"; its optional fields are not
    reported as unknown."""
    path = skill(workspace / ".gemini" / "skills", "x", extra="license: MIT\nmetadata:\n  a: b\n")
    assert "SK007" not in codes(diags_for(check_tree(workspace, runtimes=["gemini"]), path))


def test_activate_skill_adds_the_body_and_the_folder_structure(workspace):
    """"The `SKILL.md` body and folder structure is added to the conversation history" — the exact
    text is not documented (`exact` is false)."""
    from skill_ls.analysis.preview import preview_skill

    skill(workspace / ".gemini" / "skills", "review", body="Review it.\n")
    write(workspace / ".gemini" / "skills" / "review" / "scripts" / "run.sh", "echo\n")
    preview = preview_skill(index_for(workspace, ["gemini"]), "gemini", "review")
    assert preview.tool == "activate_skill" and preview.exact is False
    assert preview.text.startswith("Review it.\n") and "scripts/run.sh" in preview.text


def test_system_settings_override_and_admin_switch(workspace, private_home, tmp_path, monkeypatch):
    """"System settings act as overrides, taking precedence over all other settings files" (its path
    "can be overridden using the `GEMINI_CLI_SYSTEM_SETTINGS_PATH` environment variable"); the system
    defaults file is the lowest layer; "`admin.skills.enabled` (boolean): … If false, disallows agent
    skills from being used." """
    from skill_ls.analysis.effective import resolve_effective_set
    from skill_ls.core.labels import where

    skill(workspace / ".gemini" / "skills", "a")
    skill(workspace / ".gemini" / "skills", "b")
    system = tmp_path / "system" / "settings.json"
    defaults = tmp_path / "system" / "system-defaults.json"
    monkeypatch.setenv("GEMINI_CLI_SYSTEM_SETTINGS_PATH", str(system))
    monkeypatch.setenv("GEMINI_CLI_SYSTEM_DEFAULTS_PATH", str(defaults))
    write(defaults, json.dumps({"skills": {"enabled": False}}))
    write(workspace / ".gemini" / "settings.json", json.dumps({"skills": {"enabled": True}}))
    write(system, json.dumps({"skills": {"disabled": ["b"]}}))
    index = index_for(workspace, ["gemini"])
    assert [s.name for s in resolve_effective_set(index, "gemini").enabled] == ["a"]  # defaults overridden
    assert where(index, "gemini", "b")["disabled_by"] == f"skills.disabled in {system}"
    write(system, json.dumps({"admin": {"skills": {"enabled": False}}}))
    index = index_for(workspace, ["gemini"])
    assert resolve_effective_set(index, "gemini").skills == []
    assert "admin.skills.enabled = false" in where(index, "gemini", "a")["skills_disabled"]


def _extension(home, name, skill_name):
    skill(home / ".gemini" / "extensions" / name / "skills", skill_name)
    write(home / ".gemini" / "extensions" / name / "gemini-extension.json", '{"name": "%s", "version": "1.0.0"}' % name)


def test_a_disabled_extension_s_skills_are_not_loaded(private_home):
    """"Extensions are, by default, enabled across all workspaces. You can disable an extension
    entirely or for specific workspace": `gemini extensions disable NAME` writes `!<home>/*`,
    `--scope=workspace` `!<folder>/*`, and `enable` the same without `!`, to
    `~/.gemini/extensions/extension-enablement.json` (Gemini CLI's `ExtensionEnablementManager`: the
    last rule matching the folder wins)."""
    from skill_ls.analysis.catalog import catalog_object

    workspace = private_home / "work" / "proj"
    skill(workspace / ".gemini" / "skills", "mine")
    _extension(private_home, "off-everywhere", "a")
    _extension(private_home, "off-here", "b")
    _extension(private_home, "off-elsewhere", "c")
    _extension(private_home, "back-on-here", "d")
    write(private_home / ".gemini" / "extensions" / "extension-enablement.json", json.dumps({
        "off-everywhere": {"overrides": [f"!{private_home}/*"]},
        "off-here": {"overrides": [f"!{workspace}/*"]},
        "off-elsewhere": {"overrides": [f"!{private_home}/other/*"]},
        "back-on-here": {"overrides": [f"!{private_home}/*", f"{workspace}/*"]},
    }))
    index = index_for(workspace, ["gemini"])
    assert [s["name"] for s in catalog_object(index, "gemini")["skills"]] == ["c", "d", "mine"]
    obj = where(index, "gemini", "a")
    assert obj["entries"][0]["label"] == "not discovered"
    assert obj["entries"][0]["not_discovered"] == (
        f"extension 'off-everywhere' is disabled for this folder (~/.gemini/extensions/extension-enablement.json: "
        f"\"!{private_home}/*\")")
    assert where(index, "gemini", "b")["entries"][0]["not_discovered"].startswith("extension 'off-here' is disabled")
    from skill_ls.analysis.catalog import catalog_notes

    not_loaded = catalog_object(index, "gemini")["not_loaded"]
    assert [(e["root"].split("/")[-2], e["reason"].split(" is ")[0]) for e in not_loaded] == [
        ("off-everywhere", "extension 'off-everywhere'"), ("off-here", "extension 'off-here'")]
    assert any(n.startswith(f"the skills of {private_home}/.gemini/extensions/off-here/skills are not loaded: "
                            "extension 'off-here' is disabled") for n in catalog_notes(index, "gemini"))


def test_a_user_level_disable_reaches_only_folders_under_home(workspace, private_home):
    """Reading of Gemini CLI's code over the page's «disabled everywhere»: the user scope's rule is
    `!<home>/*`, so a folder outside the home directory still loads the extension."""
    _extension(private_home, "tools", "lint")
    write(private_home / ".gemini" / "extensions" / "extension-enablement.json",
          json.dumps({"tools": {"overrides": [f"!{private_home}/*"]}}))
    assert labels(index_for(workspace, ["gemini"]), "gemini", "lint")[0][0] == "winner"


def test_the_hover_says_why_a_disabled_extension_s_skill_is_not_loaded(workspace, private_home):
    from skill_ls.analysis.queries.hover import skill_hover
    from tests.conftest import workspace_state

    _extension(private_home, "tools", "lint")
    user = skill(private_home / ".gemini" / "skills", "only-user")
    write(private_home / ".gemini" / "extensions" / "extension-enablement.json",
          json.dumps({"tools": {"overrides": [f"!{workspace}/*"]}}))
    skill(workspace / ".gemini" / "skills", "x")
    text = skill_hover(workspace_state(workspace), "lint", str(user))
    assert "- not discovered: `extension`" in text and "extension 'tools' is disabled for this folder" in text


def test_the_server_rebuilds_when_the_enablement_file_changes(workspace, private_home):
    from tests.conftest import workspace_state

    _extension(private_home, "tools", "lint")
    skill(workspace / ".gemini" / "skills", "x")
    state = workspace_state(workspace)
    path = write(private_home / ".gemini" / "extensions" / "extension-enablement.json",
                 json.dumps({"tools": {"overrides": [f"!{workspace}/*"]}}))
    assert state.file_changed(str(path)) is None
    state.install(state.build_index())
    assert where(state.index, "gemini", "lint")["entries"][0]["label"] == "not discovered"
