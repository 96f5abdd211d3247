"""Claude Code: enterprise > personal > project; the command name is the directory."""
from __future__ import annotations

from skill_ls.core.patterns import lazy_pattern
from skill_ls.core.runtimes.spec import (
    DESCRIPTION_DOC,
    STANDARD_FIELDS,
    STANDARD_NAME,
    AgentScoping,
    FieldSpec,
    NameRule,
    RootSpec,
    Runtime,
    Setting,
    Vocabulary,
)

# Sources (read 2026-11): https://code.claude.com/docs/en/skills (frontmatter reference, string
# substitutions, skill listing budget), https://code.claude.com/docs/en/model-config (aliases),
# https://code.claude.com/docs/en/settings#tools-available-to-claude (tool names),
# https://code.claude.com/docs/en/sub-agents (built-in subagents, frontmatter, permission modes),
# https://code.claude.com/docs/en/hooks (events, handler types). `fable` (Claude Fable 5.x) is an alias of
# `claude --model` and of subagent `model` since 2026 (https://code.claude.com/docs/en/model-config).
MODEL_ALIASES = ("default", "best", "sonnet", "opus", "haiku", "fable", "opusplan", "sonnet[1m]", "opus[1m]",
                 "fable[1m]", "inherit")
MODEL_ID_PATTERNS = (
    lazy_pattern(r"^claude-[a-z0-9][a-z0-9.\-]*(?:@\d{8})?(?:\[1m\])?$"),  # API ids; Vertex `@date`
    lazy_pattern(r"^(?:[a-z]{2,6}\.)?anthropic\.claude-[a-z0-9.\-:]+$"),  # Bedrock ids and inference profiles
    lazy_pattern(r"^arn:aws:bedrock:[^\s]+$"),  # Bedrock ARNs
)
# https://code.claude.com/docs/en/tools (the tools reference) and the settings page; older names that
# still resolve (Task for Agent, MultiEdit, LS, BashOutput, KillShell, NotebookRead, SlashCommand) stay.
BUILTIN_TOOLS = (
    "Agent", "Artifact", "AskUserQuestion", "Bash", "BashOutput", "CronCreate", "CronDelete", "CronList", "Edit",
    "EndConversation", "EnterPlanMode", "EnterWorktree", "ExitPlanMode", "ExitWorktree", "Glob", "Grep",
    "KillShell", "LS", "LSP", "ListAgents", "ListMcpResourcesTool", "Monitor", "MultiEdit", "MultiTool",
    "NotebookEdit", "NotebookRead", "PowerShell", "PushNotification", "Read", "ReadMcpResourceTool",
    "RemoteTrigger", "ReportFindings", "ScheduleWakeup", "SendMessage", "SendMessageTool", "SendUserFile",
    "ShareOnboardingGuide", "Skill", "SlashCommand", "StatusBarMessageTool", "SubagentHandback", "Task",
    "TaskCreate", "TaskGet", "TaskList", "TaskOutput", "TaskStop", "TaskUpdate", "TeamCreate", "TeamDelete",
    "TodoRead", "TodoWrite", "ToolSearch", "WaitForMcpServers", "WebFetch", "WebSearch", "Workflow", "Write",
)
BUILTIN_AGENTS = ("general-purpose", "Explore", "Plan", "statusline-setup", "claude-code-guide")
HOOK_EVENTS = (
    "Setup", "SessionStart", "SessionEnd", "UserPromptSubmit", "UserPromptExpansion", "PreToolUse",
    "PermissionRequest", "PermissionDenied", "PostToolUse", "PostToolUseFailure", "PostToolBatch", "Notification",
    "SubagentStart", "SubagentStop", "TaskCreated", "TaskCompleted", "Stop", "StopFailure", "TeammateIdle",
    "PreCompact", "PostCompact", "InstructionsLoaded", "ConfigChange", "CwdChanged", "FileChanged",
    "WorktreeCreate", "WorktreeRemove", "Elicitation", "ElicitationResult",
    # Not on the hooks page, but registered and run by Claude Code 2.1.332 (its event list), and listed by
    # `claude plugin validate` among what a hooks file provides (behaviour wins: not unknown events).
    "PreModelSwitch", "PostModelSwitch", "DirectoryAdded", "MessageDisplay", "PreSkillShellCommand",
)
HOOK_TYPES: dict[str, tuple[str, ...]] = {"command": ("command",), "http": ("url",), "prompt": ("prompt",),
                                          "agent": ("prompt",), "mcp_tool": ("server", "tool")}
# `.claude-plugin/plugin.json` as `claude plugin validate` (Claude Code 2.1.332) reads it: field → kind.
# Kinds: str, url, bool, str_list, object, author (object with a non-empty `name`), any; the component
# paths (`commands`, `agents`, `skills`, `hooks`, `mcpServers`, `outputStyles`, `themes`, `workflows`,
# `lspServers`) are checked as paths. Any other field is ignored at load time (a warning).
PLUGIN_MANIFEST_FIELDS: dict[str, str] = {
    "$schema": "str", "name": "str", "displayName": "str", "version": "str", "description": "str",
    "author": "author", "homepage": "url", "repository": "str", "license": "str", "keywords": "str_list",
    "defaultEnabled": "bool", "dependencies": "list", "optionalDependencies": "list", "metadata": "object",
    "engines": "object", "network": "object", "userConfig": "object", "settings": "object", "channels": "any",
    "monitors": "any", "experimental": "any", "icon": "str", "privacyPolicyUrl": "url",
    "commands": "path", "agents": "path", "skills": "path", "hooks": "path", "mcpServers": "path",
    "outputStyles": "path", "themes": "path", "workflows": "path", "lspServers": "path",
}
# Plugin and marketplace names `claude plugin validate` reserves for Anthropic's own plugins (and any
# name putting "official" beside "claude" or "anthropic").
PLUGIN_RESERVED_PREFIXES = ("claude-", "anthropic-", "anthropics-", "cc-plugin-")
PLUGIN_RESERVED_NAMES = ("claude", "anthropic", "anthropics", "claude-code", "claude-mods")
# Events whose broken hook entries `claude plugin validate` calls errors: such a hook may be what guards
# the permissions declared beside it (other events' broken entries are ignored at runtime: warnings).
GUARD_HOOK_EVENTS = ("PreToolUse", "PermissionRequest", "PreSkillShellCommand")
# The directories of Claude Code's managed settings (`managed-settings.json`, `managed-settings.d/`):
# /etc/claude-code (Linux, WSL), /Library/Application Support/ClaudeCode (macOS).
MANAGED_SETTINGS_DIRS = ("claude-code", "ClaudeCode")
# Hook handler types Claude Code (2.1.332) does not run on an event, with why (HK002). Prompt and agent
# hooks need the conversation: events run outside it skip them ("Prompt stop hooks are not yet
# supported outside REPL"), and SessionStart, Setup and SubagentStart, which have none, fail them
# ("prompt-type hooks are not supported for SessionStart events (no conversation context is
# available)"); HTTP hooks are skipped on SessionStart and Setup ("HTTP hooks are not supported for
# SessionStart"); an agent hook cannot answer a PermissionRequest ("agent-type hooks are not supported
# for PermissionRequest events"). https://code.claude.com/docs/en/hooks ("Prompt-based hooks") lists
# the same events, and also PermissionDenied and TeammateIdle, which 2.1.332 runs with the
# conversation (behaviour wins: not reported).
_OUTSIDE_CONVERSATION = ("ConfigChange", "CwdChanged", "Elicitation", "ElicitationResult", "FileChanged",
                         "InstructionsLoaded", "Notification", "PostCompact", "PreCompact", "SessionEnd",
                         "StopFailure", "WorktreeCreate", "WorktreeRemove", "SubagentStart")
HOOK_TYPES_NOT_RUN: dict[str, tuple[str, ...]] = {
    **{event: ("prompt", "agent") for event in _OUTSIDE_CONVERSATION},
    "SessionStart": ("prompt", "agent", "http"), "Setup": ("prompt", "agent", "http"),
    "PermissionRequest": ("agent",),
}
# The value each optional field of a hook handler takes, per handler type, as Claude Code 2.1.332's schema
# reads them (`claude plugin validate`: "Invalid command hook (shell: Invalid option: expected one of
# "bash"|"powershell")"): str, bool, str_list, str_map (strings by name), map, nonempty (a non-empty
# string), url, or a tuple of allowed strings. A handler with a value of another kind is not loaded
# (HK001, CC004, SA005); a field not listed is accepted (the schema ignores unknown keys).
_COMMON_HANDLER_FIELDS: dict[str, str | tuple[str, ...]] = {"if": "str", "statusMessage": "str", "once": "bool"}
HOOK_HANDLER_FIELD_KINDS: dict[str, dict[str, str | tuple[str, ...]]] = {
    "command": {**_COMMON_HANDLER_FIELDS, "args": "str_list", "shell": ("bash", "powershell"),
                "onFailure": ("continue", "block"), "async": "bool", "asyncRewake": "bool", "holdsTools": "bool",
                "rewakeMessage": "nonempty", "rewakeSummary": "nonempty"},
    "prompt": {**_COMMON_HANDLER_FIELDS, "model": "str", "continueOnBlock": "bool"},
    "agent": {**_COMMON_HANDLER_FIELDS, "model": "str"},
    "http": {**_COMMON_HANDLER_FIELDS, "url": "url", "onFailure": ("continue", "block"), "headers": "str_map",
             "allowedEnvVars": "str_list"},
    "mcp_tool": {**_COMMON_HANDLER_FIELDS, "input": "map"},
}
# Hook handler fields beyond each type's required ones (hooks.json, settings.json, frontmatter).
HOOK_HANDLER_FIELDS = ("type", "command", "url", "prompt", "server", "tool", "timeout", "async", "statusMessage",
                       "headers", "allowedEnvVars", "model", "once", "args", "shell", "input")
PERMISSION_MODES = ("default", "acceptEdits", "auto", "dontAsk", "bypassPermissions", "plan")
AGENT_COLORS = ("red", "blue", "green", "yellow", "purple", "orange", "pink", "cyan", "magenta", "white")

CLAUDE_VOCABULARY = Vocabulary(
    model_aliases=MODEL_ALIASES, model_id_patterns=MODEL_ID_PATTERNS, builtin_tools=BUILTIN_TOOLS,
    builtin_agents=BUILTIN_AGENTS, hook_events=HOOK_EVENTS, hook_types=HOOK_TYPES,
    permission_modes=PERMISSION_MODES, agent_colors=AGENT_COLORS, agent_isolation=("worktree",),
    substitutes_arguments=True, executes_shell_lines=True,
    substitution_event="when Claude Code runs the skill with arguments",
    skill_dir_variables=("${CLAUDE_SKILL_DIR}", "$CLAUDE_SKILL_DIR"),  # `${CLAUDE_PLUGIN_ROOT}` is the plugin's
    # The skill listing's budget, as Claude Code 2.1.332 computes it (its skill tool's listing: the
    # budget is SLASH_COMMAND_TOOL_CHAR_BUDGET, else floor(context window x 4 x skillListingBudgetFraction),
    # 1% of a 200,000-token context = 8,000 characters; each entry is `- name: description` with
    # description + " - " + when_to_use cut at skillListingMaxDescChars (1,536); over the budget, the
    # least-invoked skills are listed by name only). https://code.claude.com/docs/en/skills ("Claude
    # doesn't see all my skills"), https://code.claude.com/docs/en/settings.
    listing_budget=8000, listing_overflow="names_only", listing_context_tokens=200_000, listing_chars_per_token=4,
    listing_budget_fraction=0.01, listing_budget_env="SLASH_COMMAND_TOOL_CHAR_BUDGET", listing_description_cap=1536,
    listing_settings=("skillListingBudgetFraction", "skillListingMaxDescChars"),
    listing_settings_files=("{home}/.claude/settings.json", "{workspace}/.claude/settings.json",
                            "{workspace}/.claude/settings.local.json"),
    # Commands are listed too (2.1.332's skill tool takes every prompt command of `.claude/commands`,
    # personal and project, that the model may invoke; https://code.claude.com/docs/en/skills: "Custom
    # commands have been merged into skills").
    listing_command_dirs=("{home}/.claude/commands", "{ancestors}/.claude/commands"),
)

CLAUDE_FIELDS: dict[str, FieldSpec] = {
    "name": FieldSpec("str", "Display label (lowercase letters, digits, hyphens); the command name is the directory name.",
                      max_len=64),
    "description": FieldSpec("str", DESCRIPTION_DOC + " description + when_to_use are cut at 1,536 characters in the listing."),
    "when_to_use": FieldSpec("str", "When Claude should use the skill; appended to the description in the listing."),
    # `String(frontmatter["argument-hint"])`: a YAML list (`[project-name]`, the form of Claude Code's own
    # documentation) is shown joined by commas, without its brackets.
    "argument-hint": FieldSpec("str_or_list", "Hint shown for the slash command's arguments."),
    "arguments": FieldSpec("any", "Named arguments of the skill."),
    "disable-model-invocation": FieldSpec("bool", "Only the user can invoke the skill."),
    "user-invocable": FieldSpec("bool", "Whether the skill appears as a slash command."),
    "allowed-tools": FieldSpec("str_or_list", "Tools the skill may use without asking."),
    "disallowed-tools": FieldSpec("str_or_list", "Tools the skill may not use."),
    "model": FieldSpec("str", "Model to use while the skill is active.", suggest="model_aliases"),
    "effort": FieldSpec("str", "Reasoning effort.", enum=("low", "medium", "high", "xhigh", "max")),
    "context": FieldSpec("str", "Run in a forked context.", enum=("fork",)),
    "agent": FieldSpec("str", "Subagent type for a forked context."),
    "background": FieldSpec("bool", "Run in the background."),
    "hooks": FieldSpec("any", "Hooks scoped to the skill."),
    "paths": FieldSpec("str_or_list", "Glob patterns that make the skill relevant."),
    "shell": FieldSpec("str", "Shell for `!` commands.", enum=("bash", "powershell")),
    "metadata": FieldSpec("map", "Arbitrary metadata."),
    "version": FieldSpec("scalar", "The skill's version (read as text)."),
    "license": STANDARD_FIELDS["license"],
    "compatibility": STANDARD_FIELDS["compatibility"],
}

CLAUDE_CODE = Runtime(
    id="claude-code", title="Claude Code",
    tiers=("project", "personal", "enterprise"),
    roots=(
        RootSpec("enterprise", "{config:claude_enterprise_roots}", origin="config"),
        RootSpec("personal", "{home}/.claude/skills", origin="user"),
        RootSpec("project", "{ancestors}/.claude/skills", ordered=True),
        # "When you work with files in subdirectories, Claude Code automatically discovers skills from
        # nested .claude/skills/ directories" (https://code.claude.com/docs/en/skills): every
        # subfolder of the workspace (`**` excludes the workspace itself, read above; hidden folders and
        # `node_modules` are not searched), each root serving the files below the folder that holds it.
        # "on a name clash, the nested skill appears as `<dir>:<name>` so both stay available"
        # (https://github.com/anthropics/claude-code/blob/main/CHANGELOG.md, 2.1.178): `Runtime.scoped_clash`.
        RootSpec("project", "{workspace}/**/.claude/skills", scoped=True, title="nested project directories"),
    ),
    fields=CLAUDE_FIELDS,
    name_rule=NameRule(STANDARD_NAME, "lowercase letters, digits and hyphens", 64, "warning", "directory"),
    # Machine-wide roots belong in the project file, not in one person's editor settings. The skill
    # listing's budget inputs (BG002): the model's context window in tokens, the fraction of it the
    # listing gets, or a fixed budget in characters.
    settings={"enterprise_roots": Setting("claude_enterprise_roots", "paths", editor=False),
              "context_window": Setting("claude_context_window", "int", editor=False, doc=
                                        "Claude Code: the model's context window in tokens, which sizes the skill "
                                        "listing's budget (BG002; default 200000)."),
              "listing_budget_fraction": Setting("claude_listing_budget_fraction", "fraction", editor=False, doc=
                                                 "Claude Code: the fraction of the context window the skill listing "
                                                 "gets (skillListingBudgetFraction; default 0.01)."),
              "listing_budget": Setting("claude_listing_budget", "int", editor=False, doc=
                                        "Claude Code: a fixed skill-listing budget in characters, as "
                                        "SLASH_COMMAND_TOOL_CHAR_BUDGET (BG002).")},
    default_extra_tier="project",
    scoped_clash="qualified",  # a nested copy of a name in use "appears as `<dir>:<name>`" (CHANGELOG 2.1.178)
    # A subagent with a `skills:` list sees those skills; one without sees the whole set.
    agent_scoping=AgentScoping(family="claude-code", skills_list="filter"),
    truthiness="words", frontmatter_optional=True, repairs_unquoted_values=True, description_from_body=True,
    ignores_unreadable_frontmatter=True,
    vocabulary=CLAUDE_VOCABULARY,  # !`cmd` lines run before the model sees the skill (executes_shell_lines)
    # Its skill tool lists only what the model may invoke (2.1.332: `disable-model-invocation` read as a flag word).
    catalog_format="reference", catalog_order="name", catalog_cut=1536, catalog_appends=("when_to_use",),
    catalog_hides=(("disable-model-invocation", True),),
)
