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


def test_every_target_has_one_generated_block() -> None:
    from skill_ls.core.editor_patterns import ROOT

    for path, (marker, _) in TARGETS.items():
        text = (ROOT / path).read_text(encoding="utf-8")
        assert text.count(f"{marker} BEGIN GENERATED") == 1 and text.count(f"{marker} END GENERATED") == 1, path


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
