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
    write(private_home / ".gemini" / "extensions" / "ext" / "gemini-extension.json", '{"name": "ext", "version": "1.0.0"}')
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
            write(private_home / ".gemini" / "extensions" / ext / "gemini-extension.json", '{"name": "%s", "version": "1.0.0"}' % ext)
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


def test_system_settings_override_and_file_admin_settings_ignored(workspace, private_home, tmp_path, monkeypatch):
    """"System settings act as overrides, taking precedence over all other settings files" (its path
    "can be overridden using the `GEMINI_CLI_SYSTEM_SETTINGS_PATH` environment variable"); the system
    defaults file is the lowest layer. `admin.skills.enabled` is on the configuration page, but Gemini
    CLI's settings loader ignores every file's `admin` keys ("Remote admin settings always take
    precedence and file-based admin settings are ignored"): skills stay loaded."""
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
    write(system, json.dumps({"admin": {"skills": {"enabled": False}, "extensions": {"enabled": False}}}))
    write(defaults, json.dumps({"admin": {"skills": {"enabled": False}}}))
    index = index_for(workspace, ["gemini"])
    assert [s.name for s in resolve_effective_set(index, "gemini").enabled] == ["a", "b"]
    assert not where(index, "gemini", "a").get("skills_disabled")


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


def _link(home, folder, source, kind="link"):
    """What `gemini extensions link <source>` leaves in `~/.gemini/extensions/<folder>`: the install
    metadata alone (Gemini CLI's `INSTALL_METADATA_FILENAME`), nothing copied."""
    return write(home / ".gemini" / "extensions" / folder / ".gemini-extension-install.json",
                 json.dumps({"source": str(source), "type": kind}))


def _source(path, name, *skills):
    write(path / "gemini-extension.json", json.dumps({"name": name, "version": "1.0.0"}))
    return [skill(path / "skills", s) for s in skills]


def test_a_linked_extension_s_skills_load_from_its_source(workspace, private_home, tmp_path):
    """`gemini extensions link <path>`: Gemini CLI's `loadExtension` reads the extension from the
    install metadata's `source` when its `type` is `link` (`effectiveExtensionPath =
    installMetadata.source`), manifest and `skills/` both: edits there are live. Its skills are
    extension skills, below the user and workspace tiers, in `where`, hover and the catalog."""
    from skill_ls.analysis.catalog import catalog_object
    from skill_ls.analysis.queries.hover import skill_hover
    from tests.conftest import workspace_state

    dev = tmp_path / "dev" / "tools"
    lint, fmt = _source(dev, "tools", "lint", "fmt")
    _link(private_home, "tools", dev)
    skill(workspace / ".gemini" / "skills", "fmt")
    index = index_for(workspace, ["gemini"])
    assert labels(index, "gemini", "lint") == [("winner", str(lint))]
    assert labels(index, "gemini", "fmt") == [("winner", "<ws>/.gemini/skills/fmt/SKILL.md"), ("shadowed", str(fmt))]
    entry = where(index, "gemini", "lint")["entries"][0]
    assert entry["tier"] == "extension" and entry["linked_from"] == str(private_home / ".gemini" / "extensions" / "tools")
    assert [s["name"] for s in catalog_object(index, "gemini")["skills"]] == ["fmt", "lint"]
    assert "gemini" in index_for(workspace).active  # a linked extension's skills activate it as a copy's do
    text = skill_hover(workspace_state(workspace), "fmt", str(fmt))
    assert f"- shadowed: `extension` `{fmt}` (linked from `{private_home}/.gemini/extensions/tools`) — by workspace" in text


def test_check_reads_a_linked_source_with_gemini_s_rules(private_home, tmp_path):
    """The extension's own repository, opened as the workspace, is what Gemini CLI loads: its skills
    are checked as Gemini CLI's extension skills (here SK009, the name Gemini CLI says should match
    the directory), not as a loose repository of skills."""
    dev = tmp_path / "dev" / "tools"
    _source(dev, "tools")
    other = skill(dev / "skills", "dir-name", name="other-name")
    # Not linked: a repository of skills, read with the Agent Skills standard (name = directory: an error).
    assert [d.severity for d in diags_for(check_tree(dev), other, "SK009")] == [1]
    _link(private_home, "tools", dev)
    result = check_tree(dev)
    assert [d.severity for d in diags_for(result, other, "SK009")] == [2]  # Gemini CLI: "should match"
    assert "gemini" in result.index.active


def test_a_disabled_linked_extension_is_not_loaded(workspace, private_home, tmp_path):
    """Enablement is by the extension's `name`, read from the linked source's `gemini-extension.json`
    (the folder under `~/.gemini/extensions` may be named otherwise)."""
    dev = tmp_path / "dev" / "tools-repo"
    _source(dev, "tools", "lint")
    _link(private_home, "tools-link", dev)
    write(private_home / ".gemini" / "extensions" / "extension-enablement.json",
          json.dumps({"tools": {"overrides": [f"!{workspace}/*"]}}))
    obj = where(index_for(workspace, ["gemini"]), "gemini", "lint")
    assert obj["entries"][0]["label"] == "not discovered"
    assert obj["entries"][0]["not_discovered"].startswith("extension 'tools' is disabled for this folder")


def test_a_link_to_a_missing_source_or_to_no_extension_is_skipped(workspace, private_home, tmp_path):
    """Gemini CLI's `loadExtensionConfig` throws when the source holds no `gemini-extension.json`
    (gone, moved, or never an extension), and `loadExtension` then skips the extension ("Skipping
    extension in …"): none of its skills load, and the folder's own files are not read instead. Install
    metadata of another `type` (`local`, `git`) leaves the copy in place; a relative `source` is taken
    from the folder Gemini CLI runs in; a `source` that is not a string loads nothing."""
    _link(private_home, "gone", tmp_path / "deleted")
    skill(private_home / ".gemini" / "extensions" / "gone" / "skills", "stale")  # not read: the link wins
    write(private_home / ".gemini" / "extensions" / "gone" / "gemini-extension.json", '{"name": "gone", "version": "1"}')
    bare = tmp_path / "dev" / "bare"
    skill(bare / "skills", "bare-skill")  # a folder with skills but no manifest
    _link(private_home, "bare", bare)
    _extension(private_home, "copied", "copied-skill")
    _link(private_home, "copied", tmp_path / "elsewhere", kind="local")  # a copy's metadata: read in place
    _source(workspace / "ext", "rel", "rel-skill")
    _link(private_home, "rel", "ext")  # relative: from the workspace
    write(private_home / ".gemini" / "extensions" / "odd" / ".gemini-extension-install.json",
          '{"type": "link", "source": 3}')
    skill(private_home / ".gemini" / "extensions" / "odd" / "skills", "odd-skill")
    write(private_home / ".gemini" / "extensions" / "odd" / "gemini-extension.json", '{"name": "odd", "version": "1"}')
    index = index_for(workspace, ["gemini"])
    assert sorted(d.name for d in index.decls["gemini"] if not d.builtin) == ["copied-skill", "rel-skill"]


def test_a_linked_and_a_copied_extension_of_one_name(workspace, private_home, tmp_path):
    """Gemini CLI loads the folders of `~/.gemini/extensions` in name order and skips an extension
    whose name "already was loaded" — linked or copied, enabled or not: the first folder's skills
    load; the other's are "not discovered", and `where` says which one won."""
    dev = tmp_path / "dev" / "tools"
    linked, = _source(dev, "tools", "lint")
    _link(private_home, "a-tools", dev)
    _extension(private_home, "b-tools", "lint")
    write(private_home / ".gemini" / "extensions" / "b-tools" / "gemini-extension.json",
          '{"name": "tools", "version": "2.0.0"}')
    index = index_for(workspace, ["gemini"])
    entries = where(index, "gemini", "lint")["entries"]
    assert [(e["label"], e["path"]) for e in entries] == [
        ("winner", str(linked)), ("not discovered", str(private_home / ".gemini/extensions/b-tools/skills/lint/SKILL.md"))]
    assert entries[1]["not_discovered"] == (
        f"extension 'tools' is already loaded from {dev}/gemini-extension.json (extension folders load in name order)")
    # The other way round: the copy comes first, the link is skipped.
    (private_home / ".gemini" / "extensions" / "a-tools").rename(private_home / ".gemini" / "extensions" / "c-tools")
    entries = where(index_for(workspace, ["gemini"]), "gemini", "lint")["entries"]
    assert [e["label"] for e in entries] == ["winner", "not discovered"]
    assert entries[0]["path"].startswith(str(private_home)) and entries[1]["path"] == str(linked)


def test_where_ranks_a_linked_extension_below_user_and_workspace(workspace, private_home, tmp_path, capsys):
    from skill_ls.cli import main

    dev = tmp_path / "dev" / "tools"
    linked, = _source(dev, "tools", "review")
    _link(private_home, "tools", dev)
    skill(private_home / ".gemini" / "skills", "review")
    skill(workspace / ".agents" / "skills", "review")
    assert labels(index_for(workspace, ["gemini"]), "gemini", "review") == [
        ("winner", "<ws>/.agents/skills/review/SKILL.md"), ("shadowed", "~/.gemini/skills/review/SKILL.md"),
        ("shadowed", str(linked))]
    assert main(["where", "review", "--workspace", str(workspace), "--runtime", "gemini"]) == 0
    out = capsys.readouterr().out
    assert f"{linked} (linked from {private_home}/.gemini/extensions/tools)" in out


def test_the_server_follows_links(workspace, private_home, tmp_path):
    """A change to a link file, a linked extension's folder appearing (`gemini extensions link`) or
    going (`uninstall`), rebuilds the index; an edit in the linked source is a skill edit."""
    from tests.conftest import workspace_state

    dev = tmp_path / "dev" / "tools"
    linked, = _source(dev, "tools", "lint")
    skill(workspace / ".gemini" / "skills", "x")
    state = workspace_state(workspace)
    assert where(state.index, "gemini", "lint")["entries"] == []
    folder = private_home / ".gemini" / "extensions" / "tools"
    meta = _link(private_home, "tools", dev)
    assert state.file_changed(str(folder)) is None  # a linked extension appeared
    state.install(state.build_index())
    assert where(state.index, "gemini", "lint")["entries"][0]["path"] == str(linked)
    assert state.file_changed(str(meta)) is None  # relinked
    write(linked, "---\nname: lint-all\ndescription: Lints.\n---\nNew body.\n")
    assert ("gemini", "lint-all") in state.file_changed(str(linked))  # an edit in the source: no rebuild
    assert where(state.index, "gemini", "lint-all")["entries"][0]["path"] == str(linked)
    meta.unlink()
    folder.rmdir()
    assert state.file_changed(str(folder)) is None  # unlinked
    state.install(state.build_index())
    assert where(state.index, "gemini", "lint")["entries"] == []


def _manifest(home, folder, text):
    return write(home / ".gemini" / "extensions" / folder / "gemini-extension.json", text)


def test_an_extension_whose_manifest_gemini_cli_refuses_is_skipped(workspace, private_home, tmp_path):
    """Gemini CLI's `loadExtensionConfig` throws on a manifest that is not JSON (`JSON.parse`), has no
    truthy `name` or `version` (`if (!rawConfig.name || !rawConfig.version)`: «Invalid configuration
    in …: missing "version"»; an array, a string or `null` has no `name` either) or a `name` outside
    `validateName`'s `^[a-zA-Z0-9-]+$` («Only letters (a-z, A-Z), numbers (0-9), and dashes (-) are
    allowed»), and `loadExtension` skips the extension («Warning: Skipping extension in …»): none of its
    skills load; `where`, hover, the catalog's `not_loaded` and SH004 say what is wrong. A `name` that
    JavaScript reads as a string of those characters (`42`) and a `version` of any truthy kind load."""
    from skill_ls.analysis.catalog import catalog_object

    cases = {
        "no-version": ('{"name": "no-version"}', 'has no "version"'),
        "empty-version": ('{"name": "empty-version", "version": ""}', 'has no "version"'),
        "zero-version": ('{"name": "zero-version", "version": 0}', 'has no "version"'),
        "no-name": ('{"version": "1.0.0"}', 'has no "name"'),
        "not-json": ('{"name": "not-json", "version": "1",}', "is not valid JSON ("),
        "a-list": ('[{"name": "a-list", "version": "1"}]', "is not a JSON object"),
        "null": ("null", "is not a JSON object"),
        "bad-name": ('{"name": "bad name", "version": "1"}', 'the name "bad name" does not match ^[a-zA-Z0-9-]+$'),
    }
    for folder, (text, _) in cases.items():
        skill(private_home / ".gemini" / "extensions" / folder / "skills", f"{folder}-skill")
        _manifest(private_home, folder, text)
    skill(private_home / ".gemini" / "extensions" / "numeric" / "skills", "numeric-skill")
    _manifest(private_home, "numeric", '{"name": 42, "version": 1}')
    skill(workspace / ".gemini" / "skills", "mine")
    index = index_for(workspace, ["gemini"])
    for folder, (_, why) in cases.items():
        [entry] = where(index, "gemini", f"{folder}-skill")["entries"]
        assert entry["label"] == "not discovered", folder
        assert entry["not_discovered"].startswith(f"~/.gemini/extensions/{folder}/gemini-extension.json"), folder
        assert why in entry["not_discovered"] and entry["not_discovered"].endswith("the extension is skipped"), folder
    assert labels(index, "gemini", "numeric-skill")[0][0] == "winner"
    obj = catalog_object(index, "gemini")
    assert [s["name"] for s in obj["skills"]] == ["mine", "numeric-skill"]
    assert sorted(e["root"].split("/")[-2] for e in obj["not_loaded"]) == sorted(cases)


def test_a_linked_source_with_a_refused_manifest_reports_sh004(private_home, tmp_path):
    """The extension's repository opened as the workspace: with a manifest Gemini CLI refuses, the
    skills it would load are «not discovered» (SH004 names the manifest and what is wrong with it)."""
    dev = tmp_path / "dev" / "tools"
    lint, = _source(dev, "tools", "lint")
    _link(private_home, "tools", dev)
    assert not diags_for(check_tree(dev), lint, "SH004")
    write(dev / "gemini-extension.json", '{"name": "tools"}')
    [sh4] = diags_for(check_tree(dev), lint, "SH004")
    assert sh4.message == f'not discovered by Gemini CLI: {dev}/gemini-extension.json has no "version": the extension is skipped'


def test_of_two_extensions_the_later_folder_s_skill_wins(workspace, private_home):
    """Gemini CLI adds the skills of each active extension in load order (the folders of
    `~/.gemini/extensions` in name order: `loadExtensions`' `readdirSync`), and
    `addSkillsWithPrecedence` lets a skill added later override one of its name added before, with a
    warning («Skill conflict detected: "review" from "…" is overriding the same skill from "…"»):
    the later folder's copy wins — no ambiguity (no SH003); SH001 quotes the warning; `where`, hover
    and the catalog show that winner. Above the extensions the tiers decide as before, with the same
    warning."""
    from skill_ls.analysis.catalog import catalog_object
    from skill_ls.analysis.queries.hover import skill_hover
    from tests.conftest import workspace_state

    first = skill(private_home / ".gemini" / "extensions" / "a-tools" / "skills", "review", description="From a.")
    _manifest(private_home, "a-tools", '{"name": "a-tools", "version": "1.0.0"}')
    second = skill(private_home / ".gemini" / "extensions" / "b-tools" / "skills", "review", description="From b.")
    _manifest(private_home, "b-tools", '{"name": "b-tools", "version": "1.0.0"}')
    skill(workspace / ".gemini" / "skills", "x")
    index = index_for(workspace, ["gemini"])
    assert labels(index, "gemini", "review") == [
        ("winner", "~/.gemini/extensions/b-tools/skills/review/SKILL.md"),
        ("shadowed", "~/.gemini/extensions/a-tools/skills/review/SKILL.md")]
    assert [(s["name"], s["description"]) for s in catalog_object(index, "gemini")["skills"] if s["name"] == "review"] \
        == [("review", "From b.")]
    res = check_tree(private_home / ".gemini", workspace=workspace, runtimes=["gemini"])
    assert not diags_for(res, first, "SH003") and not diags_for(res, second, "SH003")
    [sh1] = diags_for(res, first, "SH001")
    assert sh1.message.endswith(
        'Gemini CLI warns: Skill conflict detected: "review" from "~/.gemini/extensions/b-tools/skills/review/SKILL.md" '
        'is overriding the same skill from "~/.gemini/extensions/a-tools/skills/review/SKILL.md".')
    assert "SH002" in codes(diags_for(res, second))
    text = skill_hover(workspace_state(workspace), "review", str(first))
    assert f"- shadowed: `extension` `{first}`" in text
    # An extension's copy below a user copy: the user copy wins, and Gemini CLI warns the same way.
    skill(private_home / ".gemini" / "skills", "review")
    res = check_tree(private_home / ".gemini", workspace=workspace, runtimes=["gemini"])
    [sh1] = diags_for(res, second, "SH001")
    assert sh1.message.endswith('from "~/.gemini/skills/review/SKILL.md" is overriding the same skill from '
                                '"~/.gemini/extensions/b-tools/skills/review/SKILL.md".')


def test_two_copies_of_a_name_in_one_extension_stay_ambiguous(workspace, private_home):
    """Reading: within one `skills/` folder Gemini CLI's `loadSkillsFromDir` takes its copies in the
    order `glob` returns them (not sorted), the later one overriding: which one loads is not
    predictable, so two copies in one extension stay ambiguous (SH003)."""
    a = skill(private_home / ".gemini" / "extensions" / "tools" / "skills", "review")
    b = skill(private_home / ".gemini" / "extensions" / "tools" / "skills", "review-again", name="review")
    _manifest(private_home, "tools", '{"name": "tools", "version": "1.0.0"}')
    skill(workspace / ".gemini" / "skills", "x")
    res = check_tree(private_home / ".gemini", workspace=workspace, runtimes=["gemini"])
    assert diags_for(res, a, "SH003") and diags_for(res, b, "SH003")


def test_the_server_rebuilds_when_a_manifest_changes(workspace, private_home, tmp_path):
    """`gemini-extension.json` decides whether an extension loads (it exists, it is valid, its `name`
    for the enablement rules and the one-extension-per-name rule): a change to it — an installed
    extension's, or a linked extension's at its source — rebuilds the index, as a settings file's does."""
    from tests.conftest import workspace_state

    _extension(private_home, "tools", "lint")
    dev = tmp_path / "dev" / "linked"
    _source(dev, "linked", "fmt")
    _link(private_home, "linked", dev)
    skill(workspace / ".gemini" / "skills", "x")
    state = workspace_state(workspace)
    assert where(state.index, "gemini", "lint")["entries"][0]["label"] == "winner"
    manifest = _manifest(private_home, "tools", '{"name": "tools"}')
    assert state.file_changed(str(manifest)) is None
    state.install(state.build_index())
    assert where(state.index, "gemini", "lint")["entries"][0]["label"] == "not discovered"
    manifest.unlink()
    assert state.file_changed(str(manifest)) is None  # removed: not an extension at all
    state.install(state.build_index())
    assert where(state.index, "gemini", "lint")["entries"] == []
    linked = dev / "gemini-extension.json"
    linked.unlink()
    assert state.file_changed(str(linked)) is None
    state.install(state.build_index())
    assert where(state.index, "gemini", "fmt")["entries"] == []
    write(linked, '{"name": "linked", "version": "1"}')  # created again at the source
    assert state.file_changed(str(linked)) is None
    state.install(state.build_index())
    assert where(state.index, "gemini", "fmt")["entries"][0]["label"] == "winner"


# -- Trusted Folders ------------------------------------------------------------------------------

def _trust_on(home, value=True):
    """`{"security": {"folderTrust": {"enabled": true}}}` in the user settings: «To use it, you must
    first enable it in your settings.»"""
    return write(home / ".gemini" / "settings.json", json.dumps({"security": {"folderTrust": {"enabled": value}}}))


def _rules(home, rules, text=None):
    return write(home / ".gemini" / "trustedFolders.json", text if text is not None else json.dumps(rules))


def _first(index, name):
    entry = where(index, "gemini", name)["entries"][0]
    return entry["label"], entry.get("not_discovered")


def test_folder_trust_is_off_unless_a_settings_file_turns_it_on(workspace, private_home):
    """«The Trusted Folders feature is **disabled by default**»: without `security.folderTrust.enabled`
    (or with it false) the decisions in `~/.gemini/trustedFolders.json` do not matter, and the
    workspace's skills load."""
    skill(workspace / ".gemini" / "skills", "mine")
    skill(workspace / ".agents" / "skills", "alias")
    _rules(private_home, {str(workspace): "DO_NOT_TRUST"})
    assert _first(index_for(workspace, ["gemini"]), "mine") == ("winner", None)
    assert _first(index_for(workspace, ["gemini"]), "alias") == ("winner", None)
    _trust_on(private_home, False)
    assert _first(index_for(workspace, ["gemini"]), "mine") == ("winner", None)
    # The workspace's own settings never turn it on («we can only use user and system settings»).
    write(workspace / ".gemini" / "settings.json", json.dumps({"security": {"folderTrust": {"enabled": True}}}))
    assert _first(index_for(workspace, ["gemini"]), "mine") == ("winner", None)


def test_a_trusted_folder_loads_its_skills(workspace, private_home):
    """«Trust folder: Grants full trust to the current folder»; a rule for a folder holds the folders
    below it too (`isWithinRoot`)."""
    skill(workspace / ".gemini" / "skills", "mine")
    _trust_on(private_home)
    _rules(private_home, {str(workspace): "TRUST_FOLDER"})
    assert _first(index_for(workspace, ["gemini"]), "mine") == ("winner", None)
    _rules(private_home, {str(workspace.parent): "TRUST_FOLDER"})
    assert _first(index_for(workspace, ["gemini"]), "mine") == ("winner", None)


def test_a_trusted_parent_loads_its_subfolders_skills(workspace, private_home):
    """«Trust parent folder: Grants trust to the parent directory …, which automatically trusts all of
    its subdirectories as well»: the dialog writes the current folder with `TRUST_PARENT`, and the
    rule covers that folder's parent (`path.dirname`), so a sibling folder is trusted too."""
    skill(workspace / ".gemini" / "skills", "mine")
    _trust_on(private_home)
    _rules(private_home, {str(workspace.parent / "sibling") + "/": "TRUST_PARENT"})
    assert _first(index_for(workspace, ["gemini"]), "mine") == ("winner", None)
    _rules(private_home, {str(workspace.parent / "sibling"): "TRUST_FOLDER"})  # the folder alone: not this one
    assert _first(index_for(workspace, ["gemini"]), "mine")[0] == "not discovered"


def test_an_untrusted_folder_s_workspace_skills_are_not_loaded(workspace, private_home, capsys):
    """«Don't trust: Marks the folder as untrusted. The CLI will operate in a restricted "safe mode."»;
    `discoverSkills(…, isTrusted)`: «Workspace skills disabled because folder is not trusted.» — the
    `.gemini/skills` and `.agents/skills` of the folder are not loaded, built-in, extension and user
    skills are; and «Workspace settings are ignored», so the folder's `skills.disabled` does not apply."""
    from skill_ls.analysis.catalog import catalog_notes, catalog_object
    from skill_ls.cli import main

    mine = skill(workspace / ".gemini" / "skills", "mine")
    skill(workspace / ".agents" / "skills", "alias")
    skill(private_home / ".gemini" / "skills", "personal")
    skill(workspace / ".gemini" / "skills", "review")
    skill(private_home / ".gemini" / "skills", "review")
    write(workspace / ".gemini" / "settings.json", json.dumps({"skills": {"disabled": ["personal"]}}))
    _trust_on(private_home)
    _rules(private_home, {str(workspace): "DO_NOT_TRUST"})
    index = index_for(workspace, ["gemini"])
    reason = (f"the folder is not trusted (~/.gemini/trustedFolders.json: \"{workspace}\": DO_NOT_TRUST; "
              "security.folderTrust.enabled is true in ~/.gemini/settings.json): neither the workspace's skills "
              "nor its .gemini/settings.json are loaded")
    assert _first(index, "mine") == ("not discovered", reason)
    assert _first(index, "alias") == ("not discovered", reason)
    # The user copy wins now, and the folder's settings no longer disable `personal`.
    assert labels(index, "gemini", "review") == [("winner", "~/.gemini/skills/review/SKILL.md"),
                                                  ("not discovered", "<ws>/.gemini/skills/review/SKILL.md")]
    obj = catalog_object(index, "gemini")
    assert [s["name"] for s in obj["skills"]] == ["personal", "review"]
    assert {e["root"] for e in obj["not_loaded"]} == {str(workspace / ".gemini" / "skills"),
                                                      str(workspace / ".agents" / "skills")}
    assert f"the skills of .gemini/skills are not loaded: {reason}" in catalog_notes(index, "gemini")
    assert where(index, "gemini", "personal").get("disabled") is not True
    [sh4] = diags_for(check_tree(workspace, runtimes=["gemini"]), mine, "SH004")
    assert sh4.message == f"not discovered by Gemini CLI: {reason}"
    assert main(["where", "mine", "--workspace", str(workspace), "--runtime", "gemini"]) == 0
    assert "the folder is not trusted (~/.gemini/trustedFolders.json" in capsys.readouterr().out


def test_a_folder_no_rule_covers_is_not_trusted_until_it_is_decided(workspace, private_home):
    """`isTrustedFolder()`: «Default to untrusted if folder trust is enabled and no explicit value is
    set» — Gemini CLI shows its trust dialog at start; until the folder is trusted its skills do not
    load. No `trustedFolders.json`, or one whose rules cover other folders, is undecided."""
    skill(workspace / ".gemini" / "skills", "mine")
    _trust_on(private_home)
    label, reason = _first(index_for(workspace, ["gemini"]), "mine")
    assert label == "not discovered" and reason == (
        "the folder's trust is not decided (no rule of ~/.gemini/trustedFolders.json covers it; "
        "security.folderTrust.enabled is true in ~/.gemini/settings.json): Gemini CLI asks at start whether to "
        "trust it, and until then neither the workspace's skills nor its .gemini/settings.json are loaded")
    _rules(private_home, {str(workspace) + "-other": "TRUST_FOLDER", str(workspace / "sub"): "TRUST_FOLDER"})
    assert _first(index_for(workspace, ["gemini"]), "mine")[1] == reason


def test_the_longest_rule_that_covers_the_folder_decides(workspace, private_home):
    """`isPathTrusted`: of the rules whose folder holds the workspace, the one with the longest path
    wins (`rulePath.length`: for `TRUST_PARENT`, the path written, not its parent)."""
    skill(workspace / ".gemini" / "skills", "mine")
    _trust_on(private_home)
    parent = workspace.parent
    _rules(private_home, {str(parent): "TRUST_FOLDER", str(workspace): "DO_NOT_TRUST"})
    assert _first(index_for(workspace, ["gemini"]), "mine")[0] == "not discovered"
    _rules(private_home, {str(workspace): "TRUST_FOLDER", str(parent): "DO_NOT_TRUST"})
    assert _first(index_for(workspace, ["gemini"]), "mine") == ("winner", None)
    # `<parent>/zzzz-long` TRUST_PARENT covers <parent>, and its path is longer than the workspace's.
    _rules(private_home, {str(workspace): "DO_NOT_TRUST", str(parent / "zzzz-long-name"): "TRUST_PARENT"})
    assert _first(index_for(workspace, ["gemini"]), "mine") == ("winner", None)


def test_rules_compare_real_paths(workspace, private_home, tmp_path):
    """Both the folder and each rule's path are compared as real paths (`fs.realpathSync`): a rule
    written through a symbolic link decides the folder it points at."""
    skill(workspace / ".gemini" / "skills", "mine")
    link = tmp_path / "link-to-ws"
    link.symlink_to(workspace, target_is_directory=True)
    _trust_on(private_home)
    _rules(private_home, {str(link): "DO_NOT_TRUST"})
    assert _first(index_for(workspace, ["gemini"]), "mine")[0] == "not discovered"


def test_a_trusted_folders_file_gemini_cli_cannot_read(workspace, private_home):
    """`loadTrustedFolders` reads the file with `JSON.parse(stripJsonComments(…))` (comments are fine);
    a file that is not JSON, not an object, or gives a level Gemini CLI does not know («Invalid trust
    level … Possible values are: TRUST_FOLDER, TRUST_PARENT, DO_NOT_TRUST») is a `FatalConfigError`
    at start: «Please fix the configuration file and try again.»"""
    skill(workspace / ".gemini" / "skills", "mine")
    _trust_on(private_home)
    _rules(private_home, None, '{\n  // mine\n  "%s": "TRUST_FOLDER" /* ok */\n}' % workspace)
    assert _first(index_for(workspace, ["gemini"]), "mine") == ("winner", None)
    fatal = 'Gemini CLI stops at start ("Please fix the configuration file and try again.")'
    for text, problem in (
            ('{"%s": "TRUST_FOLDER",}' % workspace, "is not valid JSON (line 1"),  # no trailing commas
            ('["%s"]' % workspace, "is not a JSON object"),
            ('{"%s": "TRUST_FOLDER", "/x": "YES"}' % workspace,
             'gives "YES" for "/x", which is not one of TRUST_FOLDER, TRUST_PARENT, DO_NOT_TRUST')):
        _rules(private_home, None, text)
        label, reason = _first(index_for(workspace, ["gemini"]), "mine")
        assert label == "not discovered" and reason.startswith(f"~/.gemini/trustedFolders.json {problem}"), reason
        assert reason.endswith(fatal)


def test_system_settings_and_the_trust_file_s_variable(workspace, private_home, tmp_path, monkeypatch):
    """The settings that decide trust are the system defaults, user and system settings, the last one
    that sets it winning (System settings «act as overrides»); `GEMINI_CLI_TRUSTED_FOLDERS_PATH` moves
    the file («set the `GEMINI_CLI_TRUSTED_FOLDERS_PATH` environment variable to the desired absolute
    file path»)."""
    skill(workspace / ".gemini" / "skills", "mine")
    system = write(tmp_path / "etc" / "settings.json", json.dumps({"security": {"folderTrust": {"enabled": True}}}))
    monkeypatch.setenv("GEMINI_CLI_SYSTEM_SETTINGS_PATH", str(system))
    rules = write(tmp_path / "trust.json", json.dumps({str(workspace): "DO_NOT_TRUST"}))
    monkeypatch.setenv("GEMINI_CLI_TRUSTED_FOLDERS_PATH", str(rules))
    label, reason = _first(index_for(workspace, ["gemini"]), "mine")
    assert label == "not discovered" and reason.startswith(f"the folder is not trusted ({rules}: ")
    assert f"security.folderTrust.enabled is true in {system}" in reason
    _trust_on(private_home)  # the user's true under the system's
    write(system, json.dumps({"security": {"folderTrust": {"enabled": False}}}))
    assert _first(index_for(workspace, ["gemini"]), "mine") == ("winner", None)


def test_the_rules_file_is_read_only_when_trust_is_on(workspace, private_home, monkeypatch):
    """At most one read of `trustedFolders.json` per index build, and none while trust is off."""
    from skill_ls.core import discovery

    calls = []
    real = discovery._trust_rules
    monkeypatch.setattr(discovery, "_trust_rules", lambda *a: calls.append(a) or real(*a))
    skill(workspace / ".gemini" / "skills", "mine")
    _rules(private_home, {str(workspace): "DO_NOT_TRUST"})
    index_for(workspace, ["gemini"])
    assert calls == []
    _trust_on(private_home)
    index = index_for(workspace, ["gemini"])
    where(index, "gemini", "mine")
    from skill_ls.analysis.catalog import catalog_object

    catalog_object(index, "gemini")
    assert len(calls) == 1


def test_the_hover_says_the_folder_is_not_trusted(workspace, private_home):
    from skill_ls.analysis.queries.hover import skill_hover
    from tests.conftest import workspace_state

    mine = skill(workspace / ".gemini" / "skills", "mine")
    _trust_on(private_home)
    _rules(private_home, {str(workspace): "DO_NOT_TRUST"})
    text = skill_hover(workspace_state(workspace), "mine", str(mine))
    assert "- not discovered: `workspace`" in text and "the folder is not trusted (~/.gemini/trustedFolders.json" in text


def test_the_server_rebuilds_when_trust_changes(workspace, private_home):
    """`~/.gemini/trustedFolders.json` and the settings that turn trust on are watched like the other
    settings files: a change rebuilds the index, so the editor shows what `skill-ls check` says."""
    from tests.conftest import workspace_state

    skill(workspace / ".gemini" / "skills", "mine")
    state = workspace_state(workspace)
    assert _first(state.index, "mine") == ("winner", None)
    settings = _trust_on(private_home)
    assert state.file_changed(str(settings)) is None
    state.install(state.build_index())
    assert _first(state.index, "mine")[0] == "not discovered"
    rules = _rules(private_home, {str(workspace): "TRUST_FOLDER"})
    assert state.file_changed(str(rules)) is None
    state.install(state.build_index())
    assert _first(state.index, "mine") == ("winner", None)
    rules = _rules(private_home, {str(workspace): "DO_NOT_TRUST"})
    assert state.file_changed(str(rules)) is None
    state.install(state.build_index())
    assert _first(state.index, "mine")[1].startswith("the folder is not trusted")


def test_started_in_the_home_directory_an_untrusted_folder_still_has_its_user_skills(private_home):
    """The workspace's `.gemini/skills` is then `~/.gemini/skills`: Gemini CLI skips it as workspace
    skills but has already loaded it as user skills (`discoverSkills` adds the user skills before it
    asks whether the folder is trusted)."""
    skill(private_home / ".gemini" / "skills", "mine")
    _trust_on(private_home)
    _rules(private_home, {str(private_home): "DO_NOT_TRUST"})
    assert labels(index_for(private_home, ["gemini"]), "gemini", "mine") == [
        ("winner", "<ws>/.gemini/skills/mine/SKILL.md")]
    assert where(index_for(private_home, ["gemini"]), "gemini", "mine")["entries"][0]["tier"] == "user"
