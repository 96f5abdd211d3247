"""workspace agents: `<ws>/workspace/agents/skills`; agents list skills (https://z-fab.github.io/agentmd/skills)."""
from __future__ import annotations

from skill_ls.core.runtimes.spec import STANDARD_FIELDS, WORKSPACE_AGENTS_NAME, AgentScoping, FieldSpec, NameRule, RootSpec, Runtime, \
    Vocabulary

WORKSPACE_AGENTS_FIELDS: dict[str, FieldSpec] = {
    "name": FieldSpec("str", "Skill name; defaults to the directory name (letters, digits, '-', '_')."),
    "description": FieldSpec("str", "Shown in the agent's skill list; defaults to empty."),
    "argument-hint": FieldSpec("str", "Shown after the name in the skill list."),
    "user-invocable": FieldSpec("bool", "Whether users may invoke the skill directly (default true)."),
    # "following the Agent Skills standard" / "Skills follow the Agent Skills standard and are
    # compatible with Claude Code": the standard's optional fields are the standard's, not unknown keys.
    **{k: STANDARD_FIELDS[k] for k in ("license", "compatibility", "metadata", "allowed-tools")},
}


WORKSPACE_AGENTS = Runtime(
    id="workspace-agents", title="workspace agents",
    tiers=("workspace",),
    roots=(RootSpec("workspace", "{workspace}/workspace/agents/skills"),),
    fields=WORKSPACE_AGENTS_FIELDS,
    # "name | string | directory name": the directory is only the default; nothing in the page asks
    # the two to agree (no SK009 here).
    name_rule=NameRule(WORKSPACE_AGENTS_NAME, "letters, digits, '-' and '_'", None, None, "frontmatter_or_directory"),
    # An agent's `skills:` list, in its order, is its set.
    agent_scoping=AgentScoping(family="workspace-agents", skills_list="ordered"),
    # !`cmd` lines run before the agent sees the skill: "Dynamic context injection"; "$ARGUMENTS",
    # "$ARGUMENTS[N] / $N" and "${SKILL_DIR}" are substituted (https://z-fab.github.io/agentmd/skills).
    vocabulary=Vocabulary(substitutes_arguments=True, executes_shell_lines=True, skill_dir_variables=("${SKILL_DIR}",),
                          substitution_event="when an agent calls skill_use with arguments",
                          # "paths are validated to be within the skill directory — traversal attempts are blocked"
                          confined_read_tool="skill_read_file"),
    skill_tool="skill_context",
    catalog_format="markdown_list", catalog_order="name", catalog_hides=(("user-invocable", False),),
)
