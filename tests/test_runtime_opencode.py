"""OpenCode as documented (opencode.ai/docs/skills, quoted in docs/fidelity.md): project roots from
the workspace up to the git worktree, global roots, `skills.paths` of opencode.json, the last copy
loaded winning, only five fields read, the strict name rule (a copy that breaks it is refused), the
description's length, and the `<available_skills>` list of its `skill` tool."""
from __future__ import annotations

import json

from tests.conftest import check_tree, codes, diags_for, skill, workspace_state, write
from tests.runtime_helpers import index_for, labels


def _repo(workspace):
    """A git worktree with the workspace two levels below its root."""
    root = workspace.parent / "repo"
    (root / ".git").mkdir(parents=True)
    ws = root / "packages" / "app"
    ws.mkdir(parents=True)
    return root, ws


def test_every_documented_root_is_read(workspace, private_home):
    roots = [(workspace / ".opencode" / "skills", "project"), (workspace / ".claude" / "skills", "project"),
             (workspace / ".agents" / "skills", "project"), (private_home / ".config" / "opencode" / "skills", "global"),
             (private_home / ".claude" / "skills", "global"), (private_home / ".agents" / "skills", "global")]
    for i, (root, _) in enumerate(roots):
        skill(root, f"s{i}")
    index = index_for(workspace, ["opencode"])
    assert {(d.tier, d.name) for d in index.decls["opencode"]} == {(t, f"s{i}") for i, (_, t) in enumerate(roots)}


def test_project_roots_from_the_workspace_up_to_the_git_worktree(workspace):
    """"OpenCode walks up from your current working directory until it reaches the git worktree": every
    level's `.opencode/skills`, `.claude/skills` and `.agents/skills`, nothing above the worktree."""
    root, ws = _repo(workspace)
    skill(root / ".opencode" / "skills", "at-root")
    skill(root / "packages" / ".agents" / "skills", "between")
    skill(ws / ".claude" / "skills", "here")
    skill(root.parent / ".opencode" / "skills", "above")  # outside the worktree
    names = {d.name for d in index_for(ws, ["opencode"]).decls["opencode"]}
    assert names == {"at-root", "between", "here"}


def test_the_last_copy_loaded_wins(workspace, private_home):
    """"if two skills share the same name, the last one loaded takes precedence. Load order: global home
    → project (walking up to the worktree) → configured `paths`": a project copy beats a global one,
    a configured path beats both; walking up, the outermost directory is loaded last."""
    root, ws = _repo(workspace)
    skill(private_home / ".config" / "opencode" / "skills", "review")
    skill(ws / ".opencode" / "skills", "review")
    skill(root / ".opencode" / "skills", "review")
    assert [p for _, p in labels(index_for(ws, ["opencode"]), "opencode", "review")] == [
        str(root / ".opencode/skills/review/SKILL.md"), "<ws>/.opencode/skills/review/SKILL.md",
        "~/.config/opencode/skills/review/SKILL.md"]
    skill(ws / "custom", "review")
    write(ws / "opencode.json", json.dumps({"skills": {"paths": ["./custom"]}}))
    assert labels(index_for(ws, ["opencode"]), "opencode", "review")[0] == ("winner", "<ws>/custom/review/SKILL.md")


def test_opencode_directory_is_loaded_after_the_compatibility_ones(workspace):
    """Reading (OpenCode's skill.ts scans `.opencode` after `.claude` and `.agents`): its copy wins."""
    skill(workspace / ".agents" / "skills", "review")
    skill(workspace / ".claude" / "skills", "review")
    skill(workspace / ".opencode" / "skills", "review")
    assert [lab for lab, _ in labels(index_for(workspace, ["opencode"]), "opencode", "review")] == [
        "winner", "shadowed", "shadowed"]
    assert labels(index_for(workspace, ["opencode"]), "opencode", "review")[0][1] == "<ws>/.opencode/skills/review/SKILL.md"


def test_skills_paths_relative_to_the_global_config_file(workspace, private_home):
    """"`paths` are resolved relative to the config file location. `~` expands to your home directory.\""""
    skill(private_home / ".config" / "opencode" / "mine", "g")
    skill(private_home / "shared-skills", "h")
    write(private_home / ".config" / "opencode" / "opencode.json",
          json.dumps({"skills": {"paths": ["./mine", "~/shared-skills"]}}))
    names = {d.name: d.tier for d in index_for(workspace, ["opencode"]).decls["opencode"]}
    assert names == {"g": "paths", "h": "paths"}


def test_only_opencode_directories_activate_it(workspace):
    skill(workspace / ".claude" / "skills", "c")
    skill(workspace / ".agents" / "skills", "a")
    assert "opencode" not in index_for(workspace).active
    skill(workspace / ".opencode" / "skills", "o")
    assert "opencode" in index_for(workspace).active


def test_a_name_outside_the_rule_is_refused(workspace):
    """"`name` must: Be 1–64 characters; Be lowercase alphanumeric with single hyphen separators; Not
    start or end with `-`; Not contain consecutive `--`; Match the directory name": the copy is blocked
    under OpenCode, with the rule that refuses it, and SK008/SK009/SK010 are errors."""
    bad = {"Git_Release": "Git_Release", "double--hyphen": "double--hyphen", "-lead": "lead",
           "a" * 65: "a" * 65, "other": "dir-name"}
    paths = {name: skill(workspace / ".opencode" / "skills", directory, name=name) for name, directory in bad.items()}
    index = index_for(workspace, ["opencode"])
    for name in bad:
        (label, _), = labels(index, "opencode", name)
        assert label == "blocked", name
    reasons = {e["path"]: e["reason"] for n in bad for e in __import__("skill_ls.core.labels", fromlist=["where"])
               .where(index, "opencode", n)["entries"]}
    assert any("(SK008)" in r for r in reasons.values()) and any("(SK009)" in r for r in reasons.values())
    assert any("(SK010)" in r for r in reasons.values())
    result = check_tree(workspace, runtimes=["opencode"])
    assert diags_for(result, paths["other"], "SK009")[0].severity == 1
    assert diags_for(result, paths["Git_Release"], "SK008")


def test_a_valid_name_equal_to_its_directory_loads(workspace):
    skill(workspace / ".opencode" / "skills", "git-release")
    assert labels(index_for(workspace, ["opencode"]), "opencode", "git-release")[0][0] == "winner"


def test_the_pages_example_is_clean(workspace):
    path = write(workspace / ".opencode" / "skills" / "git-release" / "SKILL.md", """\
        ---
        name: git-release
        description: Create consistent releases and changelogs
        license: MIT
        compatibility: opencode
        metadata:
          audience: maintainers
          workflow: github
        ---
        ## What I do

        - Draft release notes from merged PRs
        """)
    assert diags_for(check_tree(workspace, runtimes=["opencode"]), path) == []


def test_only_five_fields_are_read_unknown_ones_are_ignored(workspace):
    """"Only these fields are recognized: name, description, license, compatibility, metadata …
    Unknown frontmatter fields are ignored.": a note (information), not a warning."""
    path = skill(workspace / ".opencode" / "skills", "x", extra="allowed-tools: Read\n")
    sk007 = diags_for(check_tree(workspace, runtimes=["opencode"]), path, "SK007")
    assert sk007 and sk007[0].severity == 3


def test_metadata_is_a_string_to_string_map(workspace):
    path = skill(workspace / ".opencode" / "skills", "x", extra="metadata:\n  n: 1\n")
    assert "SK006" in codes(diags_for(check_tree(workspace, runtimes=["opencode"]), path))


def test_description_is_1_to_1024_characters(workspace):
    path = skill(workspace / ".opencode" / "skills", "x", description="d" * 1025)
    assert diags_for(check_tree(workspace, runtimes=["opencode"]), path, "SK010")


def test_a_claude_code_skill_in_claude_skills_gets_no_opencode_noise(workspace):
    path = skill(workspace / ".claude" / "skills", "x", extra="allowed-tools: Read\n")
    result = check_tree(workspace, runtimes=["opencode", "claude-code"])
    assert not [d for d in diags_for(result, path) if d.runtime and "opencode" in d.runtime]


def test_available_skills_as_the_page_shows_it(workspace):
    """"OpenCode lists available skills in the `skill` tool description. Each entry includes the skill
    name and description" — the page's block, byte for byte."""
    from skill_ls.analysis.catalog import render_catalog

    skill(workspace / ".opencode" / "skills", "git-release", description="Create consistent releases and changelogs")
    assert render_catalog(index_for(workspace, ["opencode"]), "opencode") == (
        "<available_skills>\n"
        "  <skill>\n"
        "    <name>git-release</name>\n"
        "    <description>Create consistent releases and changelogs</description>\n"
        "  </skill>\n"
        "</available_skills>")


def test_a_refused_copy_is_not_in_the_listing_and_where_shows_every_runtime(workspace, capsys):
    """The cross-runtime view: Claude Code loads a skill OpenCode refuses."""
    from skill_ls.cli import main

    skill(workspace / ".opencode" / "skills", "Review", name="Review")
    skill(workspace / ".claude" / "skills", "Review", name="Review")
    assert main(["where", "Review", "--workspace", str(workspace), "--runtime", "auto"]) == 0
    out = capsys.readouterr().out
    assert "Claude Code (claude-code)" in out and "OpenCode (opencode)" in out
    assert "refuses the name 'Review'" in out


def test_the_skill_tool_returns_the_skill_without_substitution(workspace):
    """"The agent calls `skill({ name: \"...\" })` … The `SKILL.md` content is returned as tool output. No
    argument substitution occurs." (its framing is not documented: `exact` is false)."""
    from skill_ls.analysis.preview import preview_skill
    from tests.runtime_helpers import index_for

    skill(workspace / ".opencode" / "skills", "analyze-logs", body="Analyze the $1 logs.\n")
    preview = preview_skill(index_for(workspace, ["opencode"]), "opencode", "analyze-logs", arguments="production")
    assert preview.text == "Analyze the $1 logs.\n" and preview.exact is False and preview.tool == "skill"
    assert "substitutes no arguments" in preview.notes[0]


def test_permission_deny_hides_skills(workspace, private_home):
    """"Control which skills agents can access using pattern-based permissions in `opencode.json`" —
    "`deny`: Skill hidden from agent, access rejected"; patterns support wildcards, the last match wins."""
    from skill_ls.analysis.catalog import catalog_object
    from skill_ls.core.labels import where

    for name in ("internal-docs", "internal-tools", "pr-review"):
        skill(workspace / ".opencode" / "skills", name)
    write(private_home / ".config" / "opencode" / "opencode.json",
          json.dumps({"permission": {"skill": {"*": "allow", "internal-*": "deny"}}}))
    write(workspace / "opencode.json", json.dumps({"permission": {"skill": {"internal-tools": "allow"}}}))
    index = index_for(workspace, ["opencode"])
    assert [s["name"] for s in catalog_object(index, "opencode")["skills"]] == ["internal-tools", "pr-review"]
    obj = where(index, "opencode", "internal-docs")
    assert obj["disabled"] is True and '"internal-*": "deny"' in obj["disabled_by"]


def test_opencode_jsonc_config_is_read_with_comments(workspace, private_home):
    """"OpenCode supports both **JSON** and **JSONC** (JSON with Comments) formats": `opencode.jsonc`
    (global or project), comments and trailing commas included, carries permissions and paths."""
    from skill_ls.analysis.catalog import catalog_object

    for name in ("internal-docs", "pr-review"):
        skill(workspace / ".opencode" / "skills", name)
    skill(workspace / "extra", "from-paths")
    write(private_home / ".config" / "opencode" / "opencode.jsonc",
          '{\n  // hide the internal ones\n  "permission": {"skill": {"internal-*": "deny",},},\n}\n')
    write(workspace / "opencode.jsonc", '{ /* more */ "skills": {"paths": ["./extra",]} }')
    index = index_for(workspace, ["opencode"])
    assert sorted(s["name"] for s in catalog_object(index, "opencode")["skills"]) == ["from-paths", "pr-review"]


def test_project_config_is_found_up_to_the_git_worktree(workspace):
    """"When OpenCode starts up, it looks for a config file in the current directory or traverse up to
    the nearest Git directory": the worktree root's `opencode.json` applies in a package below it, and
    the nearer file's rules come later (they win)."""
    from skill_ls.core.labels import where

    root, ws = _repo(workspace)
    skill(ws / ".opencode" / "skills", "internal-docs")
    skill(ws / ".opencode" / "skills", "internal-tools")
    write(root / "opencode.json", json.dumps({"permission": {"skill": {"internal-*": "deny"}}}))
    write(ws / "opencode.json", json.dumps({"permission": {"skill": {"internal-tools": "allow"}}}))
    index = index_for(ws, ["opencode"])
    assert where(index, "opencode", "internal-docs").get("disabled") is True
    assert "disabled" not in where(index, "opencode", "internal-tools")


def test_permission_ask_keeps_the_skill_listed_and_says_so(workspace, private_home):
    """"`ask`: User prompted for approval before loading": the skill stays in the `skill` tool's list;
    `where` and hover say that OpenCode asks, with the rule and its file."""
    from skill_ls.analysis.catalog import catalog_object
    from skill_ls.analysis.queries.hover import skill_hover
    from skill_ls.core.labels import where

    path = skill(workspace / ".opencode" / "skills", "experimental-x")
    write(workspace / "opencode.json", json.dumps({"permission": {"skill": {"experimental-*": "ask"}}}))
    index = index_for(workspace, ["opencode"])
    assert [s["name"] for s in catalog_object(index, "opencode")["skills"]] == ["experimental-x"]
    obj = where(index, "opencode", "experimental-x")
    assert "disabled" not in obj
    assert obj["notes"] == ['OpenCode asks before loading it (permission.skill "experimental-*": "ask" in '
                            f'{workspace / "opencode.json"})']
    write(workspace / ".skill-ls.toml", 'runtimes = ["opencode"]\n')
    hover = skill_hover(workspace_state(workspace), "experimental-x", str(path))
    assert '- OpenCode asks before loading it (permission.skill "experimental-*": "ask" in' in hover


def test_permission_wildcards_and_the_catch_all(workspace):
    """"`*` matches zero or more of any character; `?` matches exactly one character"; "You can set
    permissions globally (with `*`)" and "You can also set all permissions at once": `"permission":
    "deny"` hides every skill, `{"*": "deny", "skill": {...}}` is overridden by the later skill rules,
    and `"skill": "deny"` is every name."""
    from skill_ls.analysis.catalog import catalog_object

    for name in ("ab1", "ab12", "other"):
        skill(workspace / ".opencode" / "skills", name)

    def listed(config):
        write(workspace / "opencode.json", json.dumps(config))
        return [s["name"] for s in catalog_object(index_for(workspace, ["opencode"]), "opencode")["skills"]]

    assert listed({"permission": {"skill": {"ab?": "deny"}}}) == ["ab12", "other"]
    assert listed({"permission": "deny"}) == []
    assert listed({"permission": {"*": "deny", "skill": {"other": "allow"}}}) == ["other"]
    assert listed({"permission": {"skill": "deny"}}) == []
    assert listed({"permission": {"skill": {"*": "deny"}, "*": "allow"}}) == ["ab1", "ab12", "other"]


def test_per_agent_overrides_in_opencode_json_and_agent_markdown(workspace, private_home, capsys):
    """"Give specific agents different permissions than the global defaults": `agent.<name>.permission
    .skill` in opencode.json (built-in agents) and `permission: skill:` in an agent's Markdown
    frontmatter (custom agents; "The markdown file name becomes the agent name"); "Agent permissions
    are merged with the global config, and agent rules take precedence". `where` names each agent that
    sees the skill otherwise than the global rules, and why."""
    from skill_ls.cli import main
    from skill_ls.core.labels import where

    skill(workspace / ".opencode" / "skills", "internal-docs")
    skill(workspace / ".opencode" / "skills", "documents-pdf")
    write(workspace / "opencode.json", json.dumps({
        "permission": {"skill": {"internal-*": "deny", "documents-*": "deny"}},
        "agent": {"plan": {"permission": {"skill": {"internal-*": "allow"}}}}}))
    write(private_home / ".config" / "opencode" / "agents" / "review.md",
          '---\ndescription: Reviews\npermission:\n  skill:\n    "documents-*": "allow"\n---\nReview.\n')
    index = index_for(workspace, ["opencode"])
    obj = where(index, "opencode", "internal-docs")
    assert obj["disabled"] is True
    assert obj["notes"] == ['agent `plan`: listed (agent.plan.permission.skill "internal-*": "allow" in '
                            f'{workspace / "opencode.json"})']
    assert where(index, "opencode", "documents-pdf")["notes"] == [
        'agent `review`: listed (permission.skill "documents-*": "allow" in ~/.config/opencode/agents/review.md)']
    assert main(["where", "internal-docs", "--runtime", "opencode", "--workspace", str(workspace)]) == 0
    assert "note: agent `plan`: listed" in capsys.readouterr().out


def test_an_agent_without_the_skill_tool_has_no_skills(workspace):
    """"Completely disable skills for agents that shouldn't use them" (`tools: skill: false` in the
    agent's frontmatter or `agent.<name>.tools.skill` in opencode.json): "When disabled, the
    `<available_skills>` section is omitted entirely." `where` says the agent has no skills."""
    from skill_ls.core.labels import where

    skill(workspace / ".opencode" / "skills", "pr-review")
    write(workspace / "opencode.json", json.dumps({"agent": {"plan": {"tools": {"skill": False}}}}))
    write(workspace / ".opencode" / "agents" / "docs.md", "---\ntools:\n  skill: false\n---\nDocs.\n")
    notes = where(index_for(workspace, ["opencode"]), "opencode", "pr-review")["notes"]
    assert notes == ["agent `docs` has no skills (tools.skill: false in "
                     f"{workspace / '.opencode' / 'agents' / 'docs.md'})",
                     f"agent `plan` has no skills (agent.plan.tools.skill: false in {workspace / 'opencode.json'})"]


def test_catalog_for_one_agent(workspace, private_home, capsys):
    """`--agent` for OpenCode: a built-in agent ("OpenCode comes with two built-in primary agents, Build
    and Plan"), one of opencode.json's `agent` map or an `<agent>.md` sees the config files' rules with
    its own after them; an agent without the skill tool has an empty catalog ("the `<available_skills>`
    section is omitted entirely"); an unknown agent is a one-line error."""
    from skill_ls.analysis.catalog import catalog_object
    from skill_ls.cli import main

    for name in ("internal-docs", "pr-review"):
        skill(workspace / ".opencode" / "skills", name)
    write(workspace / "opencode.json", json.dumps({
        "permission": {"skill": {"internal-*": "deny"}},
        "agent": {"plan": {"permission": {"skill": {"internal-*": "allow", "pr-*": "deny"}}}}}))
    write(workspace / ".opencode" / "agents" / "docs.md", "---\ntools:\n  skill: false\n---\nDocs.\n")
    index = index_for(workspace, ["opencode"])

    def names(agent):
        return [s["name"] for s in catalog_object(index, "opencode", agent)["skills"]]

    assert names(None) == names("build") == ["pr-review"]
    assert names("plan") == ["internal-docs"]
    assert catalog_object(index, "opencode", "docs")["text"] == ""
    assert main(["catalog", "--agent", "plan", "--workspace", str(workspace)]) == 0
    assert "<name>internal-docs</name>" in capsys.readouterr().out
    assert main(["where", "pr-review", "--agent", "plan", "--workspace", str(workspace), "--format", "json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["disabled"] is True and "notes" not in obj  # (the other agents' views are not this agent's)
    assert main(["catalog", "--runtime", "opencode", "--agent", "nobody", "--workspace", str(workspace)]) != 0
    assert "nobody" in capsys.readouterr().err


def test_both_config_files_of_a_level_before_the_next_level(workspace):
    """Reading: of one directory, `opencode.jsonc` is loaded before `opencode.json`, and a nearer
    directory's files after both of an outer one's ("Later configs override earlier ones")."""
    from skill_ls.core.labels import where

    root, ws = _repo(workspace)
    skill(ws / ".opencode" / "skills", "internal-docs")
    write(root / "opencode.json", json.dumps({"permission": {"skill": {"internal-*": "deny"}}}))
    write(ws / "opencode.jsonc", '{"permission": {"skill": {"internal-docs": "allow"}}} // nearer')
    assert "disabled" not in where(index_for(ws, ["opencode"]), "opencode", "internal-docs")


def test_permission_patterns_match_in_linear_time():
    """Patterns come from a config file anyone may write: `*`/`?` are matched by a two-pointer scan,
    so a pattern built to make a regular expression backtrack (`*a*a…*ab`) cannot stall a check."""
    from skill_ls.core.own_settings import wildcard_match

    assert wildcard_match("internal-*", "internal-docs") and not wildcard_match("internal-*", "internal")
    assert wildcard_match("a?c", "abc") and not wildcard_match("a?c", "ac") and wildcard_match("x[y]", "x[y]")
    assert not wildcard_match("*a" * 40 + "b", "a" * 5000)  # (a backtracking regex would not return)


def test_remote_skill_urls_are_never_fetched_and_every_answer_says_so(workspace, private_home, capsys):
    """"Remote `urls` must serve an `index.json` listing available skills and their files. OpenCode
    fetches the index and downloads matching skills to a local cache", loaded last: skill-ls opens
    no network connection, so `where`, hover and the catalog say the remote skills are not checked
    and that a remote copy of a name would win."""
    from skill_ls.analysis.catalog import catalog_notes, catalog_object
    from skill_ls.analysis.queries.hover import skill_hover
    from skill_ls.core.labels import where

    path = skill(workspace / ".opencode" / "skills", "review")
    write(workspace / "opencode.json", json.dumps({"skills": {"urls": ["https://skills.example.com/"]}}))
    write(private_home / ".config" / "opencode" / "opencode.jsonc",
          '{\n  // team skills\n  "skills": {"urls": ["https://team.example.com/", "https://skills.example.com/"]},\n}\n')
    index = index_for(workspace, ["opencode"])
    notes = where(index, "opencode", "review")["notes"]
    assert notes == [
        "OpenCode also loads the skills served at https://team.example.com/ (skills.urls in "
        "~/.config/opencode/opencode.jsonc): skill-ls opens no network connection, so they are not checked; "
        "a remote 'review' would win over the local copies",
        "OpenCode also loads the skills served at https://skills.example.com/ (skills.urls in "
        "~/.config/opencode/opencode.jsonc): skill-ls opens no network connection, so they are not checked; "
        "a remote 'review' would win over the local copies"]
    obj = catalog_object(index, "opencode")
    assert [e["url"] for e in obj["not_checked"]] == ["https://team.example.com/", "https://skills.example.com/"]
    assert [s["name"] for s in obj["skills"]] == ["review"]
    assert any("https://team.example.com/" in n and n.endswith("(nor listed here)") for n in catalog_notes(index, "opencode"))
    assert "skills served at https://team.example.com/" in skill_hover(workspace_state(workspace), "review", str(path))


def test_no_remote_note_without_urls(workspace, private_home):
    from skill_ls.analysis.catalog import catalog_object
    from skill_ls.core.labels import where

    skill(workspace / ".opencode" / "skills", "review")
    write(workspace / "opencode.json", json.dumps({"skills": {"urls": []}}))
    index = index_for(workspace, ["opencode"])
    assert "notes" not in where(index, "opencode", "review") and "not_checked" not in catalog_object(index, "opencode")


def test_where_lists_a_copy_refused_under_the_name_it_declares(workspace, private_home, capsys):
    """The issue's cross-runtime view: `.agents`, `.claude`, `.github`, `.gemini` and `.opencode` hold
    `review/`; the `.opencode` copy declares `name: Review`, which OpenCode refuses. `where review`
    shows it under OpenCode, blocked, with the rule and the name it declares; hover says the same."""
    from skill_ls.analysis.queries.hover import skill_hover
    from skill_ls.cli import main
    from skill_ls.core.labels import where

    for root in (".agents", ".claude", ".github", ".gemini"):
        skill(workspace / root / "skills", "review")
    refused = skill(workspace / ".opencode" / "skills", "review", name="Review")
    index = index_for(workspace, ["opencode", "copilot", "gemini", "claude-code"])
    entries = where(index, "opencode", "review")["entries"]
    assert [(e["label"], e["path"].split("/")[-4]) for e in entries] == [
        ("winner", ".agents"), ("shadowed", ".claude"), ("blocked", ".opencode")]
    assert entries[-1]["filed_as"] == "Review" and "refuses the name 'Review'" in entries[-1]["reason"]
    assert main(["where", "review", "--workspace", str(workspace), "--runtime", "auto"]) == 0
    out = capsys.readouterr().out
    for title in ("GitHub Copilot (copilot)", "Gemini CLI (gemini)", "OpenCode (opencode)", "Claude Code (claude-code)"):
        assert title in out
    assert "/.opencode/skills/review/SKILL.md (OpenCode refuses the name 'Review'" in out
    text = skill_hover(workspace_state(workspace), "review", str(workspace / ".agents" / "skills" / "review" / "SKILL.md"))
    assert "- blocked: `project` `.opencode/skills/review/SKILL.md` — declared as 'Review': OpenCode refuses" in text
    assert refused.exists()
