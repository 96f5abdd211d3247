"""GitHub Copilot (agent mode in VS Code, the Copilot CLI, the cloud agent): project skills in
`.github/skills`, `.claude/skills` or `.agents/skills`; personal skills in `~/.copilot/skills`,
`~/.claude/skills` or `~/.agents/skills`.

Sources (read 2026-11): https://docs.github.com/en/copilot/concepts/agents/about-agent-skills,
https://docs.github.com/en/copilot/how-tos/copilot-cli/customize-copilot/create-skills and
https://docs.github.com/en/copilot/how-tos/copilot-cli/customize-copilot/add-skills (the shared
"Creating and adding a skill" steps), https://code.visualstudio.com/docs/copilot/customization/agent-skills
(field limits), and the skill reference VS Code ships to its own agent,
https://github.com/microsoft/vscode/blob/main/extensions/copilot/assets/prompts/skills/agent-customization/references/skills.md
(`argument-hint`, `user-invocable`, `disable-model-invocation`), and VS Code's current page,
https://code.visualstudio.com/docs/agent-customization/agent-skills (`chat.agentSkillsLocations`, the
name rule's words, `context`), https://code.visualstudio.com/docs/configure/settings (where the user
settings file is). docs/fidelity.md quotes each one.
Not documented: which of a project's three directories wins for one name; VS Code's source answers it
(`.github/skills`, then `.agents/skills`, then `.claude/skills`, the first copy found wins and the others
are skipped as duplicates: DEFAULT_SKILL_SOURCE_FOLDERS in
https://github.com/microsoft/vscode/blob/main/src/vs/workbench/contrib/chat/common/promptSyntax/config/promptFileLocations.ts
and "Skipping duplicate agent skill name" in
https://github.com/microsoft/vscode/blob/main/src/vs/workbench/contrib/chat/common/promptSyntax/service/promptsServiceImpl.ts).
Not documented either: the catalog text, a prompt budget.
"""
from __future__ import annotations

from skill_ls.core.runtimes.spec import DESCRIPTION_DOC, STANDARD_FIELDS, STANDARD_NAME, FieldSpec, NameRule, RootSpec, Runtime

# "The Agent Skills specification is an open standard": the standard's fields are read (reading: the
# page lists name, description and license "in their simplest form", not every field).
COPILOT_FIELDS: dict[str, FieldSpec] = {
    **STANDARD_FIELDS,
    "name": FieldSpec("str", "A unique identifier for the skill: lowercase, hyphens for spaces; typically the name of "
                      "the skill's directory. At most 64 characters.", required=True, max_len=64, min_len=1),
    "description": FieldSpec("str", DESCRIPTION_DOC + " At most 1,024 characters.", required=True, max_len=1024,
                             min_len=1),
    "license": FieldSpec("str", "A description of the license that applies to this skill."),
    "argument-hint": FieldSpec("str", "VS Code: hint shown for slash invocation."),
    "user-invocable": FieldSpec("bool", "VS Code: show the skill as a slash command (default true)."),
    "disable-model-invocation": FieldSpec("bool", "VS Code: the model does not load the skill on its own."),
    # No value check: the page names only `fork` ("Defaults to inline").
    "context": FieldSpec("str", "VS Code (experimental): `fork` runs the skill in a dedicated subagent context; by "
                         "default its instructions are added inline to the parent agent's context."),
}

# VS Code's `chat.agentSkillsLocations` in the user settings and the workspace's settings. "Depending on
# your platform, the user settings file is located here: … Linux `$HOME/.config/Code/User/settings.json`"
# (https://code.visualstudio.com/docs/configure/settings); VS Code merges an object setting across the
# two scopes, the workspace's entries winning. Not read: other platforms' and flavours' user files
# (Insiders, code-server: the page names none), a profile's own settings (which profile is in use is
# not in a settings file).
USER_SETTINGS = "{home}/.config/Code/User/settings.json"
WORKSPACE_SETTINGS = "{workspace}/.vscode/settings.json"
LOCATIONS_KEY = "chat.agentSkillsLocations"
VSCODE_SWITCH = ((USER_SETTINGS, WORKSPACE_SETTINGS), LOCATIONS_KEY)

COPILOT = Runtime(
    id="copilot", title="GitHub Copilot",
    # Reading: the documentation names project and personal skills without saying which wins for one
    # name; a project copy wins, as in every other runtime that has both.
    tiers=("personal", "project"),
    # Within a tier, VS Code's order of DEFAULT_SKILL_SOURCE_FOLDERS: the first copy of a name wins and
    # later ones are skipped as duplicates (see the module docstring; ordered=True: the earlier root wins).
    roots=(
        RootSpec("project", "{workspace}/.github/skills", ordered=True, json_switch=VSCODE_SWITCH),
        RootSpec("project", "{workspace}/.agents/skills", ordered=True, activates=False, json_switch=VSCODE_SWITCH),
        RootSpec("project", "{workspace}/.claude/skills", ordered=True, guest_of="claude-code", activates=False,
                 json_switch=VSCODE_SWITCH),
        # "You can configure additional file locations for project skills with the
        # `chat.agentSkillsLocations` setting": the workspace's `.vscode/settings.json` (JSON with
        # comments), a map of location -> true; "Relative paths are resolved from the root folder(s)
        # of your workspace. Supports home directory expansion (`~`)". VS Code's source
        # (`PromptsConfig.promptSourceFolders` in promptSyntax/config/config.ts) keeps every default
        # folder the map does not set to false, then adds the map's other true entries in its order,
        # a `~/` one as a personal location; a list is ignored (`getLocationsValue`).
        RootSpec("project", WORKSPACE_SETTINGS, ordered=True, json_keys=(LOCATIONS_KEY,), jsonc=True,
                 json_scope="workspace", json_lists=False),
        # The user settings' entries, the workspace's merged over them (a location the workspace maps
        # to false is not read; one both map to true is one root).
        RootSpec("project", USER_SETTINGS, origin="user", ordered=True, json_keys=(LOCATIONS_KEY,), jsonc=True,
                 json_scope="workspace", json_lists=False, json_merge=WORKSPACE_SETTINGS),
        RootSpec("personal", "{home}/.copilot/skills", origin="user", ordered=True, json_switch=VSCODE_SWITCH),
        RootSpec("personal", "{home}/.agents/skills", origin="user", ordered=True, activates=False,
                 json_switch=VSCODE_SWITCH),
        RootSpec("personal", "{home}/.claude/skills", origin="user", ordered=True, guest_of="claude-code",
                 activates=False, json_switch=VSCODE_SWITCH),
        RootSpec("personal", WORKSPACE_SETTINGS, origin="user", ordered=True, json_keys=(LOCATIONS_KEY,),
                 jsonc=True, json_scope="home", json_lists=False),
        RootSpec("personal", USER_SETTINGS, origin="user", ordered=True, json_keys=(LOCATIONS_KEY,),
                 jsonc=True, json_scope="home", json_lists=False, json_merge=WORKSPACE_SETTINGS),
    ),
    fields=COPILOT_FIELDS,
    # "name (required): A unique identifier for the skill. This must be lowercase, using hyphens for
    # spaces. Typically, this matches the name of the skill's directory."
    name_rule=NameRule(STANDARD_NAME, "lowercase letters, digits and hyphens", 64, "warning", "frontmatter"),
    default_extra_tier="project",
    # The documentation says nothing of unknown keys being refused: a key no reader knows is a note.
    unknown_field_severity="information",
    catalog_format="undocumented", catalog_order="name",
    catalog_hides=(("disable-model-invocation", True),),
)
