"""Gemini CLI: built-in < extension < user < workspace; within the user and workspace tiers the
`.agents/skills` alias wins over `.gemini/skills`; `skills.enabled` / `skills.disabled` in its
settings files (system defaults, user, project, system); `admin.*` is never read from a file (Gemini
CLI takes it from its remote admin controls only).

Sources (read 2026-11): https://geminicli.com/docs/cli/skills/ (tiers, precedence and aliases, how
it works), https://geminicli.com/docs/cli/using-agent-skills/ (disable),
https://geminicli.com/docs/cli/creating-skills/ (the built-in `skill-creator`),
https://geminicli.com/docs/reference/configuration (`skills.enabled`,
`skills.disabled`, settings files), https://github.com/google-gemini/gemini-cli/blob/main/docs/cli/skills.md
(the repository's page: the required fields),
https://github.com/google-gemini/gemini-cli/blob/main/docs/extensions/reference.md (where installed
extensions live and where their skills go),
https://github.com/google-gemini/gemini-cli/blob/main/docs/extensions/index.md (disabling an extension),
and where the pages are silent its code:
https://github.com/google-gemini/gemini-cli/blob/main/packages/cli/src/config/extension-manager.ts
(which extensions load: a linked one's source, a manifest it refuses, one extension per name),
https://github.com/google-gemini/gemini-cli/blob/main/packages/core/src/skills/skillManager.ts (the
order skills are added in, the later one overriding with a warning) and
https://github.com/google-gemini/gemini-cli/blob/main/packages/core/src/skills/skillLoader.ts (the
files of one folder, in `glob`'s order); Trusted Folders: https://geminicli.com/docs/cli/trusted-folders
(the feature, the file, safe mode),
https://github.com/google-gemini/gemini-cli/blob/main/packages/cli/src/config/trustedFolders.ts (how a
rule decides), https://github.com/google-gemini/gemini-cli/blob/main/packages/core/src/config/config.ts
(`isTrustedFolder`, and the trust handed to `discoverSkills`) and
https://github.com/google-gemini/gemini-cli/blob/main/packages/cli/src/config/settings.ts (the settings
that decide trust; a folder not trusted has its settings ignored). docs/fidelity.md quotes each one. Not documented: the exact
system-prompt text ("injects the name and description of all enabled skills"), a name pattern or
length, a prompt budget, where `gemini extensions disable` records a disabled extension (Gemini CLI's
source does: `extension-enablement.json`, read as `ExtensionEnablementManager.isEnabled` reads it).
"""
from __future__ import annotations

from skill_ls.core.runtimes.spec import DESCRIPTION_DOC, NAME_DOC, STANDARD_FIELDS, FieldSpec, FolderTrust, NameRule, \
    OwnSettings, RootLink, RootSpec, Runtime

# "Based on the Agent Skills open standard": the standard's optional fields are known (reading: the
# pages document only `name` and `description`, and no limits).
GEMINI_FIELDS: dict[str, FieldSpec] = {
    **{k: v for k, v in STANDARD_FIELDS.items() if k not in ("name", "description")},
    "name": FieldSpec("str", NAME_DOC + " A unique identifier; should match the directory name.", required=True,
                      min_len=1),
    "description": FieldSpec("str", DESCRIPTION_DOC + " Gemini CLI decides from it when to activate the skill.",
                             required=True, min_len=1),
}

GEMINI = Runtime(
    id="gemini", title="Gemini CLI",
    tiers=("builtin", "extension", "user", "workspace"),
    roots=(
        # "Within the same tier (user or workspace), the `.agents/skills/` alias takes precedence
        # over the `.gemini/skills/` directory": ordered, the alias first.
        RootSpec("workspace", "{workspace}/.agents/skills", ordered=True, activates=False),
        RootSpec("workspace", "{workspace}/.gemini/skills", ordered=True),
        RootSpec("user", "{home}/.agents/skills", origin="user", ordered=True, activates=False),
        RootSpec("user", "{home}/.gemini/skills", origin="user", ordered=True),
        # "On startup, Gemini CLI looks for extensions in `<home>/.gemini/extensions`"; "Extensions exist
        # as a directory that contains a `gemini-extension.json` file"; "Skills must be placed in a
        # `skills/` directory within the extension."
        # "Extensions are, by default, enabled across all workspaces. You can disable an extension
        # entirely or for specific workspace": `gemini extensions disable NAME [--scope=workspace]`
        # records it in `~/.gemini/extensions/extension-enablement.json` (the pages do not say where;
        # Gemini CLI's `ExtensionEnablementManager` does: per extension `name`, path rules, the last
        # rule matching the folder wins). A disabled extension's skills are not loaded.
        # `gemini extensions link <path>` copies nothing: the extension's folder holds only
        # `.gemini-extension-install.json`, `{"source": "<path>", "type": "link"}`, and Gemini CLI
        # reads the extension (manifest, `skills/`) from `<path>` (its `loadExtension`:
        # `if (installMetadata?.type === 'link') effectiveExtensionPath = installMetadata.source`), so
        # edits there are live; a source without `gemini-extension.json` (or gone) is skipped like a
        # folder without one. Folders load in name order, and an extension whose `name` "already was
        # loaded" is skipped (`marker_unique`), linked or copied.
        # A manifest Gemini CLI cannot use skips the extension, skills included (`loadExtensionConfig`
        # throws, `loadExtension` logs "Warning: Skipping extension in …"): not JSON (`JSON.parse`),
        # `if (!rawConfig.name || !rawConfig.version) throw new Error(… missing "name" …)`, and
        # `validateName`: "Only letters (a-z, A-Z), numbers (0-9), and dashes (-) are allowed."
        # Skills of one name in two extensions: `discoverSkills` adds each active extension's skills
        # in load order (folder name order) and `addSkillsWithPrecedence` lets a later one override
        # an earlier one ("Skill conflict detected"): the last folder's copy wins (`last_wins`).
        RootSpec("extension", "{home}/.gemini/extensions/*/skills", origin="user", title="installed extensions",
                 ordered=True, last_wins=True,
                 marker="../gemini-extension.json", enablement="{home}/.gemini/extensions/extension-enablement.json",
                 marker_unique=True, marker_required=("name", "version"), marker_name_pattern=r"^[a-zA-Z0-9-]+$",
                 link=RootLink("../.gemini-extension-install.json", ("type", "link"), "source")),
    ),
    fields=GEMINI_FIELDS,
    # "A unique identifier for the skill. This should match the directory name." No pattern, no length.
    name_rule=NameRule(None, "", None, "warning", "frontmatter"),
    default_extra_tier="workspace",
    # The documentation says nothing of unknown keys being refused: a key no reader knows is a note.
    unknown_field_severity="information",
    # "The recommended way to create a new skill is to use the built-in `skill-creator` skill."
    builtin_names=("skill-creator",),
    # Every skill added after one of its name overrides it (built-in < extensions in folder name
    # order < `~/.gemini/skills` < `~/.agents/skills` < `.gemini/skills` < `.agents/skills`), and
    # unless the one overridden is built in, Gemini CLI warns in the session
    # (`SkillManager.addSkillsWithPrecedence`, `coreEvents.emitFeedback('warning', …)`).
    conflict_warning='Skill conflict detected: "{name}" from "{winner}" is overriding the same skill from "{loser}".',
    # "Configuration is applied in the following order of precedence": the system defaults file, the
    # user settings file, the project settings file, then the system settings file ("System settings
    # act as overrides, taking precedence over all other settings files"); the Linux paths, each
    # movable by its environment variable (https://geminicli.com/docs/reference/configuration).
    own_settings=OwnSettings(("{env:GEMINI_CLI_SYSTEM_DEFAULTS_PATH=/etc/gemini-cli/system-defaults.json}",
                              "{home}/.gemini/settings.json", "{workspace}/.gemini/settings.json",
                              "{env:GEMINI_CLI_SYSTEM_SETTINGS_PATH=/etc/gemini-cli/settings.json}"), "json",
                             switch=("skills", "enabled"), switch_effect="no skills in the system prompt",
                             disabled=("skills", "disabled")),
    # Trusted Folders: "The Trusted Folders feature is **disabled by default**. To use it, you must
    # first enable it in your settings" (`{"security": {"folderTrust": {"enabled": true}}}` in the user
    # settings). Its code decides from the system defaults, user and system settings only ("For the
    # initial trust check, we can only use user and system settings"). Reading: the configuration
    # reference now lists the key with "Default: `true`"; skill-ls checks trust only where a settings
    # file turns it on, as the feature's page says (docs/fidelity.md).
    # `SkillManager.discoverSkills(storage, extensions, isTrusted)`: "if (!isTrusted) { … 'Workspace
    # skills disabled because folder is not trusted.' … return; }" — built-in, extension and user
    # skills still load, `.gemini/skills` and `.agents/skills` of the folder do not; and "Workspace
    # settings are ignored" (`mergeSettings(…, isTrusted)`), so its `skills.disabled` does not apply.
    # `isTrustedFolder()`: "Default to untrusted if folder trust is enabled and no explicit value is
    # set" (the dialog asks at start). The rules (`isPathTrusted`): the longest rule path whose folder
    # (TRUST_PARENT: its parent) holds the workspace, both as real paths; a file Gemini CLI cannot read
    # or a level it does not know is a `FatalConfigError` at start. Not modelled: the IDE's trust
    # signal ("The IDE's response takes highest priority": skill-ls cannot know whether an IDE
    # companion is connected), headless runs (`-p`, no terminal) and `--skip-trust`.
    folder_trust=FolderTrust(
        switch=("security", "folderTrust", "enabled"),
        switch_files=("{env:GEMINI_CLI_SYSTEM_DEFAULTS_PATH=/etc/gemini-cli/system-defaults.json}",
                      "{home}/.gemini/settings.json",
                      "{env:GEMINI_CLI_SYSTEM_SETTINGS_PATH=/etc/gemini-cli/settings.json}"),
        # "you can set the `GEMINI_CLI_TRUSTED_FOLDERS_PATH` environment variable to the desired
        # absolute file path"
        file="{env:GEMINI_CLI_TRUSTED_FOLDERS_PATH={home}/.gemini/trustedFolders.json}",
        trusted_levels=("TRUST_FOLDER",), parent_levels=("TRUST_PARENT",), untrusted_levels=("DO_NOT_TRUST",),
        ignored_settings=("{workspace}/.gemini/settings.json",),
        effect="neither the workspace's skills nor its .gemini/settings.json are loaded",
        undecided="Gemini CLI asks at start whether to trust it",
        file_fatal='Gemini CLI stops at start ("Please fix the configuration file and try again.")'),
    # "When Gemini identifies a task matching a skill's description, it calls the `activate_skill` tool."
    skill_tool="activate_skill",
    catalog_format="undocumented", catalog_order="name",
)
