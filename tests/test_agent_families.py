"""Agent families are data: the family descriptors agree with the runtimes' agent scoping, and
discovery finds each family's definitions where its descriptor says (project beats user)."""
from __future__ import annotations

from conftest import check_tree, write

from skill_ls.core.runtimes import RUNTIMES, runtime_for_family
from skill_ls.core.runtimes.agent_families import AGENT_FAMILIES


def test_every_family_belongs_to_a_runtime_and_back() -> None:
    for family in AGENT_FAMILIES.values():
        assert runtime_for_family(family.id) in RUNTIMES
    for runtime in RUNTIMES.values():
        if runtime.agent_scoping is not None:
            assert runtime.agent_scoping.family in AGENT_FAMILIES, runtime.id


def test_agent_directories_alone_activate_their_runtime(workspace, private_home) -> None:
    """A family directory marked `activates` makes its runtime active without any skill root; one
    that is not (Claude Code's personal subagents) does not."""
    from skill_ls.core.config import Config
    from skill_ls.core.discovery import Environment, active_runtimes

    def active() -> set[str]:
        return set(active_runtimes(str(workspace), Environment.from_environ(), Config()))

    assert not active() & {"agh", "claude-code", "workspace-agents"}
    (private_home / ".claude" / "agents").mkdir(parents=True)
    assert "claude-code" not in active()
    (private_home / ".agh" / "agents").mkdir(parents=True)  # $AGH_HOME/agents
    assert "agh" in active()
    for rid, d in (("agh", ".agh/agents"), ("claude-code", ".claude/agents"), ("workspace-agents", "workspace/agents")):
        (workspace / d).mkdir(parents=True)
        assert rid in active()


def test_field_specs_have_the_skill_shape() -> None:
    from skill_ls.core.runtimes.spec import KIND_TEXT, FieldSpec

    for family in AGENT_FAMILIES.values():
        for key, spec in family.documented_fields().items():
            assert isinstance(spec, FieldSpec), (family.id, key)
            assert spec.kind == "any" or spec.kind in KIND_TEXT, (family.id, key)
            assert spec.doc, (family.id, key)


def test_project_subagent_beats_the_user_one(workspace, private_home) -> None:
    body = "---\nname: reviewer\ndescription: Reviews.\n---\nReview.\n"
    project = write(workspace / ".claude" / "agents" / "reviewer.md", body)
    user = write(private_home / ".claude" / "agents" / "reviewer.md", body)
    index = check_tree(workspace).index
    found = {a.path: a for a in index.agents if a.family == "claude-code"}
    assert found[str(project)].winner and found[str(project)].tier == "project"
    assert not found[str(user)].winner and found[str(user)].tier == "user"


def test_workspace_agents_in_both_layouts(workspace) -> None:
    write(workspace / "workspace" / "agents" / "flat.md", "---\nskills: []\n---\n")
    write(workspace / "workspace" / "agents" / "nested" / "AGENT.md", "---\nname: named\n---\n")
    write(workspace / "workspace" / "agents" / "skills" / "s" / "SKILL.md", "---\nname: s\n---\n")
    index = check_tree(workspace).index
    names = sorted((a.name, a.tier) for a in index.agents if a.family == "workspace-agents")
    assert names == [("flat", "workspace"), ("named", "workspace")]
