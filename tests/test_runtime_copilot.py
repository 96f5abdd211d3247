"""GitHub Copilot as documented (docs.github.com and code.visualstudio.com, quoted in docs/fidelity.md):
its project and personal roots, which directories make it active, its name rule and limits, its fields,
and the readings where the documentation is silent (precedence, same-tier duplicates, catalog text)."""
from __future__ import annotations

import json

from tests.conftest import check_tree, codes, diags_for, skill, write
from tests.runtime_helpers import index_for, labels


def test_every_documented_root_is_read(workspace, private_home):
    """Project skills: `.github/skills`, `.agents/skills`, `.claude/skills`; personal skills:
    `~/.copilot/skills`, `~/.agents/skills`, `~/.claude/skills`."""
    for i, root in enumerate((workspace / ".github" / "skills", workspace / ".agents" / "skills",
                              workspace / ".claude" / "skills", private_home / ".copilot" / "skills",
                              private_home / ".agents" / "skills", private_home / ".claude" / "skills")):
        skill(root, f"s{i}")
    index = index_for(workspace, ["copilot"])
    found = {(d.tier, d.name) for d in index.decls["copilot"]}
    assert found == {("project", "s0"), ("project", "s1"), ("project", "s2"),
                     ("personal", "s3"), ("personal", "s4"), ("personal", "s5")}


def test_its_own_directories_activate_it_and_shared_ones_do_not(workspace, private_home):
    skill(workspace / ".agents" / "skills", "shared")
    skill(workspace / ".claude" / "skills", "claude")
    assert "copilot" not in index_for(workspace).active
    skill(workspace / ".github" / "skills", "mine")
    assert "copilot" in index_for(workspace).active
    ws2 = workspace.parent / "ws2"
    ws2.mkdir()
    skill(private_home / ".copilot" / "skills", "personal")
    assert "copilot" in index_for(ws2).active


def test_a_project_copy_wins_over_a_personal_one(workspace, private_home):
    """Reading: the documentation does not rank project and personal skills; the project wins."""
    skill(workspace / ".github" / "skills", "review")
    skill(private_home / ".copilot" / "skills", "review")
    assert labels(index_for(workspace, ["copilot"]), "copilot", "review") == [
        ("winner", "<ws>/.github/skills/review/SKILL.md"), ("shadowed", "~/.copilot/skills/review/SKILL.md")]


def test_one_name_in_two_project_directories_vs_code_order(workspace, private_home):
    """The Copilot pages do not rank `.github/skills`, `.agents/skills`, `.claude/skills`; VS Code's
    source does (DEFAULT_SKILL_SOURCE_FOLDERS, first copy found wins, later ones skipped as duplicates).
    Corpus review (issues 25/26): pbakaus/impeccable ships one copy per tool in all three, and SH003
    reported an ambiguity (an error) where VS Code loads the `.github` copy made for it."""
    a = skill(workspace / ".github" / "skills", "review")
    b = skill(workspace / ".agents" / "skills", "review")
    c = skill(workspace / ".claude" / "skills", "review")
    result = check_tree(workspace, runtimes=["copilot"])
    assert not [d for p in (a, b, c) for d in diags_for(result, p, "SH003")]
    [shadowed_b] = diags_for(result, b, "SH001")
    assert [d.code for d in diags_for(result, c, "SH001")] == ["SH001"]
    assert "in .github/skills/review" in shadowed_b.message
    assert labels(index_for(workspace, ["copilot"]), "copilot", "review") == [
        ("winner", "<ws>/.github/skills/review/SKILL.md"), ("shadowed", "<ws>/.agents/skills/review/SKILL.md"),
        ("shadowed", "<ws>/.claude/skills/review/SKILL.md")]
    from skill_ls.core.labels import where

    # hover, code lens and `where` say which directory wins, not "shadowed · project — by project"
    summaries = [e["summary"] for e in where(index_for(workspace, ["copilot"]), "copilot", "review")["entries"]]
    assert summaries[1:] == ["shadowed · project — by project (.github/skills)"] * 2
    skill(private_home / ".claude" / "skills", "mine")
    skill(private_home / ".agents" / "skills", "mine")
    assert labels(index_for(workspace, ["copilot"]), "copilot", "mine") == [
        ("winner", "~/.agents/skills/mine/SKILL.md"), ("shadowed", "~/.claude/skills/mine/SKILL.md")]


def test_name_must_be_lowercase_with_hyphens(workspace):
    """"This must be lowercase, using hyphens for spaces.\""""
    path = skill(workspace / ".github" / "skills", "web-testing", name="Web_Testing")
    result = check_tree(workspace, runtimes=["copilot"])
    sk008 = diags_for(result, path, "SK008")
    assert sk008 and sk008[0].runtime == "copilot"


def test_name_typically_matches_the_directory_a_warning(workspace):
    """"Typically, this matches the name of the skill's directory": a warning, not a refusal."""
    path = skill(workspace / ".github" / "skills", "webapp-testing", name="web-testing")
    result = check_tree(workspace, runtimes=["copilot"])
    sk009 = diags_for(result, path, "SK009")
    assert sk009 and sk009[0].severity == 2
    assert labels(index_for(workspace, ["copilot"]), "copilot", "web-testing")[0][0] == "winner"


def test_name_and_description_are_required(workspace):
    path = write(workspace / ".github" / "skills" / "x" / "SKILL.md", "---\nname: x\n---\nBody\n")
    assert labels(index_for(workspace, ["copilot"]), "copilot", "x")[0][0] == "blocked"
    assert "SK005" in codes(diags_for(check_tree(workspace, runtimes=["copilot"]), path))


def test_vs_code_limits_64_and_1024(workspace):
    path = skill(workspace / ".github" / "skills", "a" * 65, description="d" * 1025)
    sk010 = diags_for(check_tree(workspace, runtimes=["copilot"]), path, "SK010")
    assert len(sk010) == 2


def test_documented_fields_are_known(workspace):
    """`license` (docs.github.com) and VS Code's `argument-hint`, `user-invocable`,
    `disable-model-invocation` are Copilot's: no unknown-field finding."""
    path = skill(workspace / ".github" / "skills", "x", extra="license: MIT\nargument-hint: '[file]'\n"
                 "user-invocable: true\ndisable-model-invocation: false\n")
    found = codes(diags_for(check_tree(workspace, runtimes=["copilot"]), path))
    assert "SK007" not in found and "SK006" not in found


def test_an_unknown_field_is_a_note_for_copilot(workspace):
    path = skill(workspace / ".github" / "skills", "x", extra="owner: team\n")
    sk007 = diags_for(check_tree(workspace, runtimes=["copilot"]), path, "SK007")
    assert sk007 and sk007[0].severity == 3  # information: the documentation does not say unknown keys fail


def test_skill_md_must_be_spelled_in_capitals(workspace):
    """"Skill files must be named `SKILL.md`.": a `skill.md` is reported and never loaded."""
    path = write(workspace / ".github" / "skills" / "x" / "skill.md", "---\nname: x\ndescription: d\n---\nB\n")
    result = check_tree(workspace, runtimes=["copilot"])
    assert diags_for(result, path)
    assert labels(index_for(workspace, ["copilot"]), "copilot", "x") == []


def test_catalog_text_is_not_documented(workspace, capsys):
    """The catalog text is not documented: nothing is invented; JSON says so and lists the skills."""
    from skill_ls.cli import main

    skill(workspace / ".github" / "skills", "review")
    assert main(["catalog", "--workspace", str(workspace), "--runtime", "copilot", "--format", "json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["documented"] is False and obj["text"] == "" and [s["name"] for s in obj["skills"]] == ["review"]
    assert main(["catalog", "--workspace", str(workspace), "--runtime", "copilot"]) == 0
    assert "does not document the text" in capsys.readouterr().err


def test_the_standards_optional_fields_are_known(workspace):
    """Reading: "The Agent Skills specification is an open standard"; the page lists name, description
    and license "in their simplest form", so the standard's other fields are not reported."""
    path = skill(workspace / ".github" / "skills", "x", extra="compatibility: node\nmetadata:\n  a: b\n")
    assert "SK007" not in codes(diags_for(check_tree(workspace, runtimes=["copilot"]), path))


def test_chat_agent_skills_locations_adds_roots(workspace, private_home):
    """"You can configure additional file locations for project skills with the
    `chat.agentSkillsLocations` setting": the workspace's `.vscode/settings.json` (comments allowed),
    a map of location -> true, relative to the workspace; a `false` entry adds nothing; a `~/`
    location is personal. They come after the default folders of their tier."""
    skill(workspace / "tools" / "skills", "custom")
    skill(workspace / "tools" / "skills", "review")
    skill(workspace / ".github" / "skills", "review")
    skill(workspace / "off" / "skills", "hidden")
    skill(private_home / "shared-skills", "mine")
    write(workspace / ".vscode" / "settings.json", '{\n  // extra skills\n  "chat.agentSkillsLocations": '
          '{"tools/skills": true, "off/skills": false, "~/shared-skills": true,},\n}\n')
    index = index_for(workspace, ["copilot"])
    found = {(d.tier, d.name) for d in index.decls["copilot"]}
    assert {("project", "custom"), ("personal", "mine")} <= found and ("project", "hidden") not in found
    assert labels(index, "copilot", "review") == [("winner", "<ws>/.github/skills/review/SKILL.md"),
                                                  ("shadowed", "<ws>/tools/skills/review/SKILL.md")]


def test_chat_agent_skills_locations_false_turns_a_default_folder_off(workspace, private_home):
    """VS Code keeps every default folder the map does not set to false (`.claude/skills: false`
    turns that folder off for Copilot, the string "false" too, as VS Code's `asBoolean` reads it); a
    list is not the setting's form and is ignored."""
    skill(workspace / ".claude" / "skills", "claude-only")
    skill(private_home / ".claude" / "skills", "personal-claude")
    skill(workspace / "more", "listed")
    write(workspace / ".vscode" / "settings.json", json.dumps(
        {"chat.agentSkillsLocations": {".claude/skills": False, "~/.claude/skills": "false"}}))
    names = {d.name for d in index_for(workspace, ["copilot"]).decls["copilot"]}
    assert "claude-only" not in names and "personal-claude" not in names
    write(workspace / ".vscode" / "settings.json", json.dumps({"chat.agentSkillsLocations": ["more"]}))
    names = {d.name for d in index_for(workspace, ["copilot"]).decls["copilot"]}
    assert "listed" not in names and {"claude-only", "personal-claude"} <= names


def test_context_fork_is_known(workspace):
    """"`context` … (Experimental) Controls how the skill is loaded. … Set to `fork` to run the skill in a
    dedicated subagent context.": no SK007 under Copilot."""
    path = skill(workspace / ".github" / "skills", "review-pr", extra="context: fork\n")
    assert "SK007" not in codes(diags_for(check_tree(workspace, runtimes=["copilot"]), path))


def _user_settings(home, obj):
    return write(home / ".config" / "Code" / "User" / "settings.json", json.dumps(obj))


def test_chat_agent_skills_locations_in_the_user_settings(workspace, private_home):
    """"Depending on your platform, the user settings file is located here: … Linux
    `$HOME/.config/Code/User/settings.json`": its `chat.agentSkillsLocations` adds project (relative to
    the workspace) and personal (`~/`) locations, and can turn a default folder off."""
    skill(workspace / "team" / "skills", "team-skill")
    skill(private_home / "my-skills", "mine")
    skill(workspace / ".claude" / "skills", "claude-only")
    _user_settings(private_home, {"chat.agentSkillsLocations": {"team/skills": True, "~/my-skills": True,
                                                                ".claude/skills": False}})
    found = {(d.tier, d.name) for d in index_for(workspace, ["copilot"]).decls["copilot"]}
    assert {("project", "team-skill"), ("personal", "mine")} <= found
    assert not any(name == "claude-only" for _, name in found)


def test_the_workspace_settings_are_merged_over_the_user_settings(workspace, private_home):
    """VS Code merges an object setting across scopes, the workspace's entries winning: a location the
    user adds and the workspace maps to false is not read; a default folder the user turns off and the
    workspace turns back on is read; one both add is one root."""
    skill(workspace / "team" / "skills", "team-skill")
    skill(workspace / "both" / "skills", "both-skill")
    skill(workspace / ".claude" / "skills", "claude-only")
    _user_settings(private_home, {"chat.agentSkillsLocations": {"team/skills": True, "both/skills": True,
                                                                ".claude/skills": False}})
    write(workspace / ".vscode" / "settings.json", json.dumps(
        {"chat.agentSkillsLocations": {"team/skills": False, "both/skills": True, ".claude/skills": True}}))
    index = index_for(workspace, ["copilot"])
    names = sorted(d.name for d in index.decls["copilot"])
    assert names == ["both-skill", "claude-only"]
    assert len([r for r in index.roots["copilot"] if r.path.endswith("both/skills")]) == 1


def test_no_user_roots_keeps_the_workspace_settings_locations(workspace, private_home):
    from skill_ls.analysis.check import CheckOptions, build_index, prepare_config

    skill(workspace / "tools" / "skills", "custom")
    write(workspace / ".vscode" / "settings.json", json.dumps({"chat.agentSkillsLocations": {"tools/skills": True}}))
    config = prepare_config(str(workspace), CheckOptions(workspace=str(workspace), runtimes=["copilot"],
                                                         no_user_roots=True))
    assert [d.name for d in build_index(str(workspace), config).decls["copilot"]] == ["custom"]
