"""Claude Code plugin rules: the plugin manifest, the paths it points to, and legacy
commands. Plugin skills and agents are checked by the Claude Code skill and subagent rules."""
from __future__ import annotations

import json
import os
import re

from skill_ls.analysis.rules import rule
from skill_ls.analysis.rules.context import SidecarContext
from skill_ls.core.model import Severity, Span
from skill_ls.core.parse.text import read_bytes
from skill_ls.core.plugins import read_manifest
from skill_ls.core.runtimes.spec import str_items

# https://code.claude.com/docs/en/plugins-reference ("Plugin manifest schema"): `name` is required,
# kebab-case; component path fields are relative to the plugin root and start with `./`.
PLUGIN_NAME = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
SEMVER = re.compile(r"^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$")
PATH_FIELDS = ("commands", "agents", "skills", "hooks", "mcpServers", "outputStyles", "lspServers")


def _locate(text: str, key: str) -> Span:
    at = text.find(json.dumps(key))
    if at < 0:
        return Span(0, 0, 0, 0)
    line = text.count("\n", 0, at)
    col = at - (text.rfind("\n", 0, at) + 1)
    return Span(line, col, line, col + len(json.dumps(key)))


def _text(path: str) -> str:
    data, _, _ = read_bytes(path)
    return data.decode("utf-8", errors="replace")


@rule("PL001", Severity.ERROR, "sidecar", file_kinds=("manifest",))
def invalid_plugin_manifest(ctx: SidecarContext) -> None:
    """`.claude-plugin/plugin.json` is not valid: not JSON, no kebab-case `name`, or a malformed `version`.

    ## What it does
    The manifest must be a JSON object whose `name` is kebab-case (lowercase letters, digits and
    single hyphens); `version`, when present, must be semantic (`1.2.0`, warning otherwise).

    ## Why is this bad?
    Claude Code refuses a plugin whose manifest does not parse or has no valid name; the name is
    also the namespace of every skill and agent (`name:skill`).

    ## Example
    `{"name": "My Tools", "version": "1"}` — use `{"name": "my-tools", "version": "1.0.0"}`.

    ## Source
    https://code.claude.com/docs/en/plugins-reference ("Plugin manifest schema").
    """
    m = read_manifest(ctx.path)
    if not m.ok:
        ctx.out.report(m.span, f"plugin.json {m.problem}; Claude Code cannot load this plugin")
        return
    text = _text(ctx.path)
    name = m.data.get("name")
    if not isinstance(name, str) or not name.strip():
        ctx.out.report(Span(0, 0, 0, 1), "plugin.json needs a 'name' (kebab-case): it is the plugin's namespace")
    elif not PLUGIN_NAME.match(name):
        ctx.out.report(_locate(text, "name"), f"plugin name '{name}' must be kebab-case (lowercase letters, digits, "
                       "single hyphens)")
    version = m.data.get("version")
    if version is not None and not (isinstance(version, str) and SEMVER.match(version)):
        ctx.out.report(_locate(text, "version"), f"plugin version {version!r} is not a semantic version like '1.2.0'",
                       severity=Severity.WARNING)


@rule("PL002", Severity.ERROR, "sidecar", file_kinds=("manifest",))
def plugin_path_missing(ctx: SidecarContext) -> None:
    """A path in `plugin.json` (commands, agents, skills, hooks, mcpServers, ...) does not exist or is not `./`-relative.

    ## What it does
    Resolves each path of the component fields against the plugin root (the directory that holds
    `.claude-plugin/`). A path must start with `./` (warning otherwise) and must exist (error).
    Inline objects (an `mcpServers` or `hooks` object) are not paths. Component directories placed
    inside `.claude-plugin/` (where only `plugin.json` belongs) are reported too.

    ## Why is this bad?
    Claude Code loads nothing from a missing path, and the component the manifest promises is
    silently absent.

    ## Example
    `"agents": "custom/agents/"` — use `"./custom/agents/"` and create the directory.

    ## Source
    https://code.claude.com/docs/en/plugins-reference ("Path behavior rules").
    """
    m = read_manifest(ctx.path)
    if not m.ok:
        return
    root = os.path.dirname(os.path.dirname(ctx.path))
    text = _text(ctx.path)
    for component in ("commands", "agents", "skills", "hooks"):
        if ctx.disk.is_dir(os.path.join(root, ".claude-plugin", component)):
            ctx.out.report(Span(0, 0, 0, 1), f"'.claude-plugin/{component}/' is never loaded: component directories "
                           f"belong at the plugin root ('{component}/'), only plugin.json goes in .claude-plugin/")
    for key in PATH_FIELDS:
        for rel in str_items(m.data.get(key)):
            span = _locate(text, rel) if rel else _locate(text, key)
            if not rel.startswith("./"):
                ctx.out.report(span, f"'{key}' path '{rel}' must be relative to the plugin root and start with './'",
                               severity=Severity.WARNING)
            target = os.path.normpath(os.path.join(root, rel.replace("${CLAUDE_PLUGIN_ROOT}", ".")))
            if not (target == root or target.startswith(root + os.sep)):
                ctx.out.report(span, f"'{key}' path '{rel}' leaves the plugin directory")
            elif not ctx.disk.exists(target):
                ctx.out.report(span, f"'{key}' path '{rel}' does not exist in the plugin")


@rule("PL003", Severity.INFORMATION, "sidecar", file_kinds=("command",))
def legacy_command(ctx: SidecarContext) -> None:
    """A command file (`.claude/commands/*.md` or a plugin's `commands/*.md`): skills supersede commands.

    ## What it does
    Notes each legacy command file (its frontmatter gets Claude Code's skill value checks,
    like a skill's). Claude Code still runs it as `/name`, but a skill in
    `.claude/skills/<name>/SKILL.md` (or a plugin's `skills/<name>/SKILL.md`) is the same command
    with supporting files, model invocation and the other skill fields.

    ## Why is this bad?
    It is not broken, but commands get none of a skill's features (supporting files, model
    invocation, `context: fork`), and new Claude Code features land in skills.

    ## Example
    `.claude/commands/review.md` runs as `/review`.

    ## Fix
    Move `commands/review.md` to `skills/review/SKILL.md` and add a `description`.

    ## Source
    https://code.claude.com/docs/en/skills ("Custom commands have been merged into skills"),
    https://code.claude.com/docs/en/plugins-reference.
    """
    stem = os.path.splitext(os.path.basename(ctx.path))[0]
    where = "skills" if os.path.basename(os.path.dirname(os.path.dirname(ctx.path))) != ".claude" else ".claude/skills"
    ctx.out.report(Span(0, 0, 0, 0), f"'/{stem}' is a legacy command: move it to {where}/{stem}/SKILL.md (commands "
                   "were merged into skills)")
