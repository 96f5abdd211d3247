"""SH001-SH004 and precedence in every runtime (SPEC §3, §8)."""
from __future__ import annotations

import os

from conftest import check_tree, codes, diags_for, skill, write

from skill_ls.core.model import Severity
from skill_ls.core.labels import where
from skill_ls.core.resolve import resolve_name


def _winner_tier(res, runtime, name):
    r = resolve_name(res.index, runtime, name)
    return r.winner.tier if r.winner else None


def test_agh_tiers_workspace_beats_additional_user_marketplace_bundled(workspace, private_home, tmp_path):
    bundled, extra = tmp_path / "bundled", tmp_path / "extra"
    write(workspace / ".skill-ls.toml", f"[agh]\nbundled_roots = ['{bundled}']\nadditional_roots = ['{extra}']\n")
    copies = {
        "bundled": skill(bundled / "skills", "review"),
        "user": skill(private_home / ".agh" / "skills", "review"),
        "additional": skill(extra / ".agh" / "skills", "review"),
        "workspace": skill(workspace / ".agh" / "skills", "review"),
    }
    market = skill(private_home / ".agh" / "skills", "review-m", name="review")
    write(market.parent / ".agh-meta.json", '{"slug": "r", "registry": "hub", "version": "1", "installed_at": "x"}')
    res = check_tree(workspace, runtimes=["agh"], paths=[workspace, tmp_path])
    entries = where(res.index, "agh", "review")["entries"]
    assert [e["tier"] for e in entries] == ["workspace", "additional", "user", "marketplace", "bundled"]
    assert entries[0]["resolved_to_winner"] and not any(e["resolved_to_winner"] for e in entries[1:])
    [sh2] = diags_for(res, copies["workspace"], "SH002")
    assert len(sh2.related) == 4
    for tier in ("bundled", "user", "additional"):
        [d] = diags_for(res, copies[tier], "SH001")
        assert d.severity == Severity.WARNING
        assert d.related[0].path == str(copies["workspace"]) and "workspace" in d.related[0].message
    assert diags_for(res, market, "SH001")


def test_agh_same_tier_is_ambiguous_lexically_first_wins(workspace):
    a = skill(workspace / ".agh" / "skills", "a-dir", name="dup")
    b = skill(workspace / ".agh" / "skills", "b-dir", name="dup")
    res = check_tree(workspace, runtimes=["agh"])
    assert diags_for(res, a, "SH003") and diags_for(res, b, "SH003")
    assert resolve_name(res.index, "agh", "dup").winner.path == str(a)
    assert diags_for(res, a, "SH003")[0].related[0].path == str(b)


def test_agh_blocked_copy_does_not_shadow(workspace, private_home):
    user = skill(private_home / ".agh" / "skills", "tool")
    broken = write(workspace / ".agh" / "skills" / "tool" / "SKILL.md", "---\nname: tool\n---\n")
    res = check_tree(workspace, runtimes=["agh"], paths=[workspace, private_home])
    r = resolve_name(res.index, "agh", "tool")
    assert r.winner.path == str(user)
    assert not diags_for(res, user, "SH001")
    entries = where(res.index, "agh", "tool")["entries"]
    assert entries[1]["path"] == str(broken) and entries[1]["blocked"] is True


def test_agh_agent_local_overrides_only_for_its_agent(workspace):
    ws_copy = skill(workspace / ".agh" / "skills", "lint")
    agent_dir = workspace / ".agh" / "agents" / "reviewer"
    write(agent_dir / "AGENT.md", "---\nname: reviewer\nprovider: claude\n---\nReview code.\n")
    local = skill(agent_dir / "skills", "lint")
    res = check_tree(workspace, runtimes=["agh"])
    assert resolve_name(res.index, "agh", "lint").winner.path == str(ws_copy)
    assert resolve_name(res.index, "agh", "lint", "reviewer").winner.path == str(local)
    [over] = diags_for(res, local, "SH002")
    assert "for agent 'reviewer'" in over.message and over.severity == Severity.INFORMATION
    [shadowed] = diags_for(res, ws_copy, "SH001")
    assert shadowed.severity == Severity.INFORMATION and "reviewer" in shadowed.message
    assert [e["tier"] for e in where(res.index, "agh", "lint")["entries"]] == ["workspace"]
    assert [e["tier"] for e in where(res.index, "agh", "lint", "reviewer")["entries"]] == ["agent_local", "workspace"]


def test_agh_scan_depth_four(workspace):
    ok = skill(workspace / ".agh" / "skills" / "a" / "b" / "c", "deep4", name="deep4")
    too_deep = skill(workspace / ".agh" / "skills" / "a" / "b" / "c" / "d", "deep5", name="deep5")
    res = check_tree(workspace, runtimes=["agh"])
    assert not diags_for(res, ok, "SH004")
    [d] = diags_for(res, too_deep, "SH004")
    assert "scan depth of 4" in d.message
    assert resolve_name(res.index, "agh", "deep5").winner is None


def test_agh_300_candidate_cap(workspace):
    root = workspace / ".agh" / "skills"
    paths = [skill(root, f"s{i:03d}") for i in range(302)]
    res = check_tree(workspace, runtimes=["agh"])
    hidden = [p for p in paths if diags_for(res, p, "SH004")]
    assert hidden == paths[300:]
    assert "cap of 300" in diags_for(res, paths[301], "SH004")[0].message


def test_amp_first_location_wins_and_builtin_is_overridden(workspace, private_home):
    first = skill(workspace / ".agents" / "skills", "code-review")
    later = skill(private_home / ".claude" / "skills", "code-review")
    res = check_tree(workspace, runtimes=["amp"], paths=[workspace, private_home])
    r = resolve_name(res.index, "amp", "code-review")
    assert r.winner.path == str(first)
    assert [d.tier for d in r.entries] == ["workspace_agents", "user_claude", "builtin"]
    [sh2] = diags_for(res, first, "SH002")
    assert "built-in code-review" in sh2.message
    assert diags_for(res, later, "SH001")


def test_claude_personal_beats_project_and_name_is_directory(workspace, private_home):
    project = skill(workspace / ".claude" / "skills", "deploy", name="Deploy Label")
    personal = skill(private_home / ".claude" / "skills", "deploy")
    res = check_tree(workspace, runtimes=["claude-code"], paths=[workspace, private_home])
    r = resolve_name(res.index, "claude-code", "deploy")
    assert r.winner.path == str(personal) and r.shadowed[0].path == str(project)
    assert diags_for(res, project, "SH001")


def test_claude_enterprise_beats_personal(workspace, private_home, tmp_path):
    ent = tmp_path / "enterprise"
    write(workspace / ".skill-ls.toml", f"[claude-code]\nenterprise_roots = ['{ent}']\n")
    e = skill(ent, "deploy")
    skill(private_home / ".claude" / "skills", "deploy")
    res = check_tree(workspace, runtimes=["claude-code"])
    assert resolve_name(res.index, "claude-code", "deploy").winner.path == str(e)


def test_codex_loads_both_copies_and_reports_ambiguity(workspace, private_home):
    a = skill(workspace / ".agents" / "skills", "fmt")
    b = skill(private_home / ".agents" / "skills", "fmt")
    res = check_tree(workspace, runtimes=["codex"], paths=[workspace, private_home])
    r = resolve_name(res.index, "codex", "fmt")
    assert len(r.loaded) == 2
    assert diags_for(res, a, "SH003") and diags_for(res, b, "SH003")
    assert not diags_for(res, b, "SH001")


def test_codex_scan_depth_six(workspace):
    deep = skill(workspace / ".agents" / "skills" / "1" / "2" / "3" / "4" / "5" / "6", "x")
    res = check_tree(workspace, runtimes=["codex"])
    # Codex's own depth limit applies (SPEC §3.5), so SH004 names it.
    [d] = diags_for(res, deep, "SH004")
    assert "scan depth of 6" in d.message
    assert resolve_name(res.index, "codex", "x").winner is None
    ok = skill(workspace / ".agents" / "skills" / "1" / "2" / "3" / "4" / "5", "y")
    assert not diags_for(check_tree(workspace, runtimes=["codex"]), ok, "SH004")


def test_agentskills_workspace_beats_user(workspace, private_home):
    ws_copy = skill(workspace / ".agents" / "skills", "a")
    user = skill(private_home / ".agents" / "skills", "a")
    res = check_tree(workspace, runtimes=["agentskills"], paths=[workspace, private_home])
    assert resolve_name(res.index, "agentskills", "a").winner.path == str(ws_copy)
    assert diags_for(res, user, "SH001")


def test_workspace_agents_root_and_duplicate(workspace):
    root = workspace / "workspace" / "agents" / "skills"
    a = skill(root, "one", name="same")
    b = skill(root, "two", name="same")
    res = check_tree(workspace, runtimes=["workspace-agents"])
    assert diags_for(res, a, "SH003") and diags_for(res, b, "SH003")


def test_agentcy_unique_slug(workspace):
    write(workspace / ".skill-ls.toml", "[agentcy]\nroots = ['team']\n")
    a = skill(workspace / "team", "one", name="same")
    b = skill(workspace / "team", "two", name="same")
    res = check_tree(workspace)
    assert "agentcy" in res.index.active
    assert diags_for(res, a, "SH003") and diags_for(res, b, "SH003")


def test_no_user_roots_ignores_home(workspace, private_home):
    skill(private_home / ".agh" / "skills", "x")
    ws_copy = skill(workspace / ".agh" / "skills", "x")
    res = check_tree(workspace, runtimes=["agh"], no_user_roots=True)
    assert not diags_for(res, ws_copy, "SH002")


def test_diagnostics_only_for_files_under_paths(workspace, private_home):
    user = skill(private_home / ".agh" / "skills", "x")
    ws_copy = skill(workspace / ".agh" / "skills", "x")
    res = check_tree(workspace, runtimes=["agh"])
    assert diags_for(res, ws_copy, "SH002")
    assert diags_for(res, user) == []  # indexed for resolution, not reported


def test_workspace_that_is_home_does_not_shadow_itself(private_home):
    # <ws>/.agh/skills and $AGH_HOME/skills are the same directory when the workspace is $HOME.
    f = skill(private_home / ".agh" / "skills", "deploy")
    res = check_tree(private_home, runtimes=["agh"])
    assert diags_for(res, f, "SH001") == [] and diags_for(res, f, "SH003") == []
    entries = where(res.index, "agh", "deploy")["entries"]
    assert [(e["tier"], e["resolved_to_winner"]) for e in entries] == [("workspace", True)]


def test_agent_local_override_names_the_agent_once(workspace):
    """Issue 10: SH001 for an agent-local override said "agent 'reviewer'" twice."""
    base = skill(workspace / ".agh" / "skills", "lint")
    agent_dir = workspace / ".agh" / "agents" / "reviewer"
    write(agent_dir / "AGENT.md", "---\nname: reviewer\nprovider: claude\n---\nReview code.\n")
    skill(agent_dir / "skills", "lint")
    res = check_tree(workspace, runtimes=["agh"])
    [over] = diags_for(res, base, "SH001")
    assert over.message.count("reviewer") == 1, over.message


def test_related_information_names_the_tier_and_the_directory(workspace, private_home):
    """Issue 10: VS Code's Problems panel shows only `SKILL.md(2, 7): shadowed (user)`; every copy is
    called SKILL.md, so the message itself names the tier and the skill directory."""
    user = skill(private_home / ".agh" / "skills", "review")
    ws = skill(workspace / ".agh" / "skills", "review")
    res = check_tree(workspace, runtimes=["agh"], paths=[workspace, private_home])
    [sh1] = diags_for(res, user, "SH001")
    assert sh1.related[0].message == f"winner: workspace copy in {os.path.join('.agh', 'skills', 'review')}"
    [sh2] = diags_for(res, ws, "SH002")
    assert sh2.related[0].message == f"shadowed: user copy in {os.path.join('~', '.agh', 'skills', 'review')}"


def test_copies_of_one_tier_are_told_apart_by_their_directory(workspace):
    """Corpus review (issues 25/26): a runtime that ranks the directories of one tier (Gemini CLI's
    `.agents/skills` before `.gemini/skills`) read "this workspace copy ... shadows 1 other copy (the
    workspace copy)"; the message names the other copy's directory when the tier is the same."""
    a = skill(workspace / ".agents" / "skills", "review")
    g = skill(workspace / ".gemini" / "skills", "review")
    res = check_tree(workspace, runtimes=["gemini"])
    [sh1] = diags_for(res, g, "SH001")
    assert sh1.message == (f"'review' is shadowed by the workspace copy in {os.path.join('.agents', 'skills', 'review')}"
                           " (Gemini CLI): this copy is not loaded; Gemini CLI warns: Skill conflict detected: "
                           f"\"review\" from \"{os.path.join('.agents', 'skills', 'review', 'SKILL.md')}\" is "
                           f"overriding the same skill from \"{os.path.join('.gemini', 'skills', 'review', 'SKILL.md')}\".")
    [sh2] = diags_for(res, a, "SH002")
    assert sh2.message.endswith(f"(the workspace copy in {os.path.join('.gemini', 'skills', 'review')})")


class _CountingDecls(dict):
    """index.decls that counts whole-table reads (a scan of every declaration)."""

    scans = 0

    def items(self):
        type(self).scans += 1
        return super().items()

    def values(self):
        type(self).scans += 1
        return super().values()

    def get(self, key, default=None):
        type(self).scans += 1
        return super().get(key, default)


def test_checking_one_file_does_not_scan_every_declaration(workspace):
    """The editor checks one document per keystroke: its declarations come from the index's path
    table, not from a scan of all of them (at 10,000 skills that scan was most of a keystroke's CPU)."""
    import os

    from skill_ls.analysis.workspace import WorkspaceState

    files = [skill(workspace / ".agh" / "skills", f"s{i:03d}") for i in range(50)]
    skill(workspace / ".agents" / "skills", "s001")  # a copy in another root: resolution has work to do
    (workspace / ".skill-ls.toml").write_text('runtimes = ["agh"]\n')
    state = WorkspaceState(str(workspace), environ=dict(os.environ))
    state.load_config()
    state.install(state.build_index())
    index = state.index
    full = state.diagnostics([str(f) for f in files])
    index.decls_for_path(str(files[1]))  # the path table is built once per index state
    index.decls = _CountingDecls(index.decls)
    _CountingDecls.scans = 0
    one = state.diagnostics([str(files[1])])
    assert _CountingDecls.scans == 0
    assert codes(one[str(files[1])]) == codes(full[str(files[1])])


def test_a_copy_whose_name_moves_in_the_editor_republishes_the_copies_pointing_at_it(workspace, private_home):
    """SH001/SH002 on one copy point at the other copy's name (related location): a keystroke that
    moves that name (a line added above it) makes the other copy affected, and its findings then
    equal `check`'s; a keystroke that leaves the name where it was touches nothing."""
    import os

    from skill_ls.analysis.workspace import WorkspaceState

    edited = skill(private_home / ".claude" / "skills", "dup")  # the personal copy wins
    other = skill(workspace / ".claude" / "skills", "dup")
    (workspace / ".skill-ls.toml").write_text('runtimes = ["claude-code"]\n')
    state = WorkspaceState(str(workspace), environ=dict(os.environ))
    state.load_config()
    state.install(state.build_index())
    assert state.diagnostics([str(other)])[str(other)]  # shadowed by the edited copy
    assert state.set_overlay(str(edited), edited.read_text() + "More.\n", 2) == set()
    text = edited.read_text().replace("---\nname:", "---\nlicense: MIT\nname:")
    edited.write_text(text)
    touched = state.set_overlay(str(edited), text, 3)
    assert str(other) in state.affected_paths(touched)
    live = state.diagnostics([str(other)])[str(other)]
    fresh = diags_for(check_tree(workspace), other)
    assert sorted(d.identity() for d in live) == sorted(d.identity() for d in fresh)
    assert any(r.path == str(edited) and r.span.start_line == 2 for d in live for r in d.related)
