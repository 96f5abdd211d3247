"""The editors' file patterns are generated from the runtime and agent-family descriptors.

VS Code's `logic.ts` and both Neovim Lua files hold a generated block; this fails when a block is
stale (run `python -m skill_ls.core.editor_patterns --write`), and checks that the patterns
recognise what the server indexes.
"""
from __future__ import annotations

from skill_ls.core.editor_patterns import TARGETS, agent_globs, editor_patterns, stale
from skill_ls.core.runtimes.agent_families import AGENT_FAMILIES, family_of_path, matches_glob


def test_generated_blocks_are_current() -> None:
    assert stale() == [], "run: python -m skill_ls.core.editor_patterns --write"


def test_every_target_has_one_generated_block_per_renderer() -> None:
    from skill_ls.core.editor_patterns import ROOT

    for path, (marker, kinds) in TARGETS.items():
        if not marker:  # JSON: no comments, the value is replaced in place
            continue
        text = (ROOT / path).read_text(encoding="utf-8")
        n = len(kinds.split())
        assert text.count(f"{marker} BEGIN GENERATED") == n and text.count(f"{marker} END GENERATED") == n, path


def test_vscode_runtimes_setting_lists_every_runtime() -> None:
    """`skillLs.runtimes` in package.json offers `auto` and every descriptor's id, in registry order
    (generated: a new runtime needs no hand edit of the extension)."""
    import json

    from skill_ls.core.editor_patterns import ROOT
    from skill_ls.core.runtimes import RUNTIMES

    package = json.loads((ROOT / "editors" / "vscode" / "package.json").read_text(encoding="utf-8"))
    setting = package["contributes"]["configuration"]["properties"]["skillLs.runtimes"]
    assert setting["items"]["enum"] == ["auto", *RUNTIMES]  # (skill_ls.core.settings_schema generates it)


def test_every_family_glob_is_offered_to_the_editors() -> None:
    markdown = editor_patterns()["markdown"]
    for family in AGENT_FAMILIES.values():
        for glob in family.globs:
            assert glob in markdown or any(glob.endswith("/" + g[3:]) for g in markdown if g.startswith("**/")), glob
    assert set(agent_globs()) <= set(markdown)


def test_family_of_path_follows_the_globs() -> None:
    assert family_of_path("/w/.agh/agents/rev/AGENT.md").id == "agh"  # type: ignore[union-attr]
    assert family_of_path("/w/.claude/agents/team/rev.md").id == "claude-code"  # type: ignore[union-attr]
    assert family_of_path("/w/workspace/agents/rev.md").id == "workspace-agents"  # type: ignore[union-attr]
    assert family_of_path("/w/workspace/agents/skills/s/SKILL.md") is None
    assert family_of_path("/w/notes/README.md") is None
    assert not matches_glob("/w/xAGENT.md", "**/AGENT.md")


def test_the_patterns_cover_every_file_check_reads() -> None:
    """Every file name `skill-ls check` reads (skills, agents, sidecars) and the configuration file
    is opened by the editors and watched by the server: a change to any of them reaches the editor."""
    from skill_ls.analysis.check import OPENAI_YAML, WANTED
    from skill_ls.core.config import CONFIG_FILE
    from skill_ls.server.features.watching import WATCH_GLOBS

    patterns = editor_patterns()
    offered = patterns["markdown"] + patterns["sidecars"]
    for name in sorted(WANTED | {CONFIG_FILE}):
        path = f"/w/s/agents/{name}" if name == OPENAI_YAML else f"/w/s/{name}"
        assert any(matches_glob(path, g) for g in offered), name
        assert any(matches_glob(path, g) for g in WATCH_GLOBS), name
    assert set(offered) <= set(WATCH_GLOBS)


def test_the_editor_readmes_list_the_patterns() -> None:
    """The READMEs say which files the editors hand to the server: the same patterns."""
    from skill_ls.core.editor_patterns import ROOT

    vscode = (ROOT / "editors" / "vscode" / "README.md").read_text(encoding="utf-8")
    nvim = (ROOT / "editors" / "nvim" / "README.md").read_text(encoding="utf-8")
    patterns = editor_patterns()
    for glob in patterns["markdown"] + patterns["sidecars"]:
        assert f"`{glob}`" in vscode, glob
    for glob in patterns["markdown"]:
        assert f"`{glob.removeprefix('**/')}`" in nvim, glob  # "The client starts for ..."
        assert f'{{ glob = "{glob.removeprefix("**/")}" }}' in nvim, glob  # the Helix file-types


def _lua_strings(lua: str, name: str) -> list[str]:
    """The strings of `local <name> = { ... }` in a Lua file (list or set form)."""
    import re

    line = next(line for line in lua.splitlines() if line.startswith(f"local {name} = "))
    return re.findall(r"'([^']+)'", line)


def test_neovim_root_detection_knows_every_skill_and_user_directory() -> None:
    """lua/skill_ls/project.lua decides the workspace root and whether a file is in a user-level root
    from lists of directories; they must cover every directory the descriptors scan."""
    from skill_ls.core.editor_patterns import ROOT
    from skill_ls.core.runtimes import RUNTIMES

    lua = (ROOT / "editors" / "nvim" / "lua" / "skill_ls" / "project.lua").read_text(encoding="utf-8")
    # (a settings file listing roots, `.vscode/settings.json`, is not a skill directory)
    templates = [(s.template, s.origin) for rt in RUNTIMES.values() for s in rt.roots if not s.json_keys] + \
                [(d.template, d.origin) for f in AGENT_FAMILIES.values() for d in f.dirs]
    hidden = {t.split("}/", 1)[1].split("/")[0] for t, origin in templates if origin == "workspace"
              and t.split("}/", 1)[1].startswith(".")}
    assert set(_lua_strings(lua, "skill_dirs")) == hidden
    homes = {h.env_var: h.default for rt in RUNTIMES.values() for h in rt.home_dirs}
    assert set(_lua_strings(lua, "user_env_vars")) == set(homes)
    user_dirs = _lua_strings(lua, "user_dirs")
    below_home = [t.removeprefix("{home}/") for t, origin in templates if origin == "user" and t.startswith("{home}/")]
    for rel in [*homes.values(), *below_home]:
        assert any(rel == d or rel.startswith(d + "/") for d in user_dirs), rel
