"""Claude Code hooks in JSON (HK001): a plugin's `hooks/hooks.json` (and the hook files its
`plugin.json` names, and the inline `hooks` object of a `plugin.json`), the `hooks` of a project's
`.claude/settings.json` / `settings.local.json`, of the user's `~/.claude/settings.json` and of Claude
Code's managed settings (HK001-HK003).
The shape of hooks in frontmatter is CC004 (skills, commands) and SA005 (subagents); HK002 and HK003
judge their handlers too (at the end of this module)."""
from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING, Any

from skill_ls.analysis.rules import Reporter, rule
from skill_ls.analysis.rules.claude_code import _close, handler_field_problems, reads_skill_hooks
from skill_ls.analysis.rules.context import AgentContext, RuntimeContext, SidecarContext
from skill_ls.analysis.rules.plugins import json_doc
from skill_ls.analysis.rules.subagents import is_subagent_family, reads_subagents
from skill_ls.analysis.values import map_child, node_span, seq_items
from skill_ls.core.model import Severity, Span
from skill_ls.core.patterns import lazy_pattern
from skill_ls.core.runtimes import PLUGIN_RUNTIME, RUNTIMES
from skill_ls.core.plugins import PLUGIN_TIER, plugin_file_for, plugin_of
from skill_ls.core.runtimes.claude_code import GUARD_HOOK_EVENTS, HOOK_HANDLER_FIELD_KINDS, HOOK_TYPES_NOT_RUN

if TYPE_CHECKING:
    from skill_ls.core.disk import Disk
    from skill_ls.core.index import Document, Index
    from skill_ls.core.jsonpos import JsonDoc
    from skill_ls.core.parse.frontmatter import Frontmatter

Handler = tuple[str, tuple[Any, ...], dict[str, Any]]  # (event, its place in the file, the handler)


@rule("HK001", Severity.ERROR, "sidecar", file_kinds=("hooks", "settings", "manifest"))
def invalid_hooks_file(ctx: SidecarContext) -> None:
    """A `hooks/hooks.json`, an inline `hooks` object of `plugin.json`, or the `hooks` of `.claude/settings.json` does not have Claude Code's hook shape.

    ## What it does
    Reads the file as Claude Code does: `hooks` maps hook events (`PreToolUse`, `PostToolUse`,
    `Stop`, ...) to lists of matcher groups `{matcher?, hooks: [handler, ...]}`; each handler has a
    known `type` (`command`, `http`, `prompt`, `agent`, `mcp_tool`) and that type's field
    (`command`, `url`, `prompt`, `server` and `tool`); a `timeout` is a positive number; the other
    fields have the kind Claude Code's schema reads (`args` and `allowedEnvVars` lists of strings,
    `shell` `bash` or `powershell`, `onFailure` `continue` or `block`, `async`/`once`/`asyncRewake`
    true or false, `headers` an object of strings, `input` an object, `if`/`statusMessage`/`model`
    strings, an `http` hook's `url` a URL `new URL` accepts: not `${BASE}/x`, not a port `${PORT}`);
    a matcher is a valid regular expression. A file that is not JSON, a `hooks` that is a list instead of a map of
    events, and a `hooks.json` without `hooks` are errors (Claude Code drops every hook of the file);
    a broken entry (handler, matcher, group) is ignored at runtime while the rest loads, so it is a
    warning, except under `PreToolUse`, `PermissionRequest` and `PreSkillShellCommand`, where the hook
    that does not load may be the one guarding a permission (an error, as `claude plugin validate`
    says); an unknown event
    is a warning (Claude Code ignores it). A map that is one matcher group (`{matcher, hooks}` where
    the events belong) and an unknown key holding `PreToolUse`/`PermissionRequest` hooks are errors.
    In `plugin.json`, `hooks` may be a `./path`, an inline object that is the map of events itself (no
    inner `hooks` wrapper), or a list of both: each inline object is checked here, at its place in
    `plugin.json` (PL002 checks the paths). Checked in `hooks/hooks.json` and the hook files a
    `plugin.json` names, `plugin.json`, a project's `.claude/settings.json` and `settings.local.json`,
    the user's `~/.claude/settings.json` (`skill-ls check ~/.claude`) and managed settings
    (`/etc/claude-code/managed-settings.json`, `managed-settings.d/*.json`; on macOS in
    `/Library/Application Support/ClaudeCode/`).

    ## Why is this bad?
    A hook that does not match the shape never runs, and nothing tells the author: a formatter or a
    guard the team relies on is silently off.

    ## Example
    `{"hooks": [{"matcher": "Edit", "hooks": [...]}]}` — use `{"hooks": {"PostToolUse": [{"matcher":
    "Edit", "hooks": [{"type": "command", "command": "npm run fmt"}]}]}}`.

    ## Source
    https://code.claude.com/docs/en/hooks; https://code.claude.com/docs/en/plugins-reference ("Hooks");
    https://code.claude.com/docs/en/settings ("Settings files", managed settings);
    `claude plugin validate` ("hooks: Invalid input: expected record, received array").
    """
    doc = json_doc(ctx)
    what = {"hooks": "hooks.json", "manifest": "plugin.json"}.get(ctx.kind, "settings")
    if not doc.ok:
        if ctx.kind != "manifest":  # (PL001 reports a plugin.json that is not JSON)
            ctx.out.report(doc.problem_span, f"{what} {doc.problem}; Claude Code ignores every hook in it")
        return
    data = doc.value
    if not isinstance(data, dict):
        if ctx.kind != "manifest":
            ctx.out.report(doc.at(), f"{what} must be a JSON object")
        return
    if ctx.kind == "manifest":
        for base, hooks in inline_hooks(data):
            check_hook_events(ctx, doc, base, hooks, inline=True)
        value = data.get("hooks")
        if value is not None and not isinstance(value, (str, list, dict)) or isinstance(value, list) and any(
                not isinstance(v, (str, dict)) for v in value):
            ctx.out.report(doc.at("hooks"), "plugin.json 'hooks' must be a './path' to a hooks file, an inline hooks "
                           "object ({\"PreToolUse\": [...]}) or a list of them; Claude Code refuses this manifest")
        return
    if "hooks" not in data:
        if ctx.kind == "hooks" and not data.get("modules"):
            ctx.out.report(doc.at(), "hooks.json needs 'hooks' (a map of hook events to matcher groups)")
        return
    hooks = data["hooks"]
    if not isinstance(hooks, dict):
        ctx.out.report(doc.at("hooks"), f"'hooks' must map hook events (PreToolUse, PostToolUse, Stop, ...) to lists "
                       f"of matcher groups, not {_json_kind(hooks)}; Claude Code ignores these hooks")
        return
    check_hook_events(ctx, doc, ("hooks",), hooks)


def inline_hooks(data: dict[str, Any]) -> list[tuple[tuple[Any, ...], dict[str, Any]]]:
    """The inline hooks objects of a `plugin.json` (`"hooks": {"PreToolUse": [...]}`, or objects in a
    list beside paths), each with its JSON path: the object is the map of events itself."""
    value = data.get("hooks")
    if isinstance(value, dict):
        return [(("hooks",), value)]
    if isinstance(value, list):
        return [(("hooks", i), v) for i, v in enumerate(value) if isinstance(v, dict)]
    return []


def _holds_guard(value: Any, depth: int = 0) -> bool:
    """Whether a value that is not a hook event holds PreToolUse/PermissionRequest hooks below it."""
    if depth > 4:
        return False
    if isinstance(value, dict):
        return any(k in GUARD_HOOK_EVENTS or _holds_guard(v, depth + 1) for k, v in value.items())
    if isinstance(value, list):
        return any(_holds_guard(v, depth + 1) for v in value)
    return False


def check_hook_events(ctx: SidecarContext, doc: JsonDoc, base: tuple[Any, ...], hooks: dict[str, Any],
                      inline: bool = False) -> None:
    """A map of hook events to matcher groups at `base` in `doc` (the `hooks` of a hooks file or of
    settings, or an inline hooks object of plugin.json)."""
    vocab = RUNTIMES[PLUGIN_RUNTIME].vocabulary
    if "matcher" in hooks or isinstance(hooks.get("hooks"), list):
        ctx.out.report(doc.at(*base), "this is one matcher group ({matcher, hooks: [...]}), not a map of hook events: "
                       "put it in a list under its event ({\"PostToolUse\": [{\"matcher\": ..., \"hooks\": [...]}]}); "
                       "Claude Code loads none of it (`claude plugin validate` refuses it)")
        return
    for event, groups in hooks.items():
        if event not in vocab.hook_events:
            guard = _holds_guard(groups)
            if inline and event == "hooks":
                message = ("an inline 'hooks' object in plugin.json is the map of events itself: remove this inner "
                           "'hooks' wrapper")
            else:
                hint = _close(str(event), vocab.hook_events)
                message = f"unknown hook event '{event}': Claude Code ignores it" + (
                    f"; did you mean '{hint}'?" if hint else f" (events: {', '.join(vocab.hook_events[:8])}, ...)")
            if guard:
                message += ("; it holds PreToolUse/PermissionRequest hooks, which then guard nothing "
                            "(`claude plugin validate` refuses it)")
            ctx.out.report(doc.key(*base, event), message, severity=None if guard else Severity.WARNING)
            continue
        if not isinstance(groups, list):
            severity = Severity.ERROR if event in GUARD_HOOK_EVENTS else Severity.WARNING
            ctx.out.report(doc.at(*base, event), f"hooks.{event} must be a list of matcher groups "
                           "({matcher, hooks: [...]})" + ("" if severity == Severity.ERROR else
                                                          "; Claude Code ignores it"), severity=severity)
            continue
        severity = Severity.ERROR if event in GUARD_HOOK_EVENTS else Severity.WARNING
        for gi, group in enumerate(groups):
            _group(ctx, doc, base, event, gi, group, vocab.hook_types, severity)


def _json_kind(value: Any) -> str:
    return {list: "a list", str: "a string", bool: "a boolean"}.get(type(value), "a " + type(value).__name__)


def _group(ctx: SidecarContext, doc: JsonDoc, base: tuple[Any, ...], event: str, gi: int, group: Any,
           types: dict[str, tuple[str, ...]], severity: Severity) -> None:
    """One matcher group: a broken entry is ignored at runtime (a warning), but a PreToolUse or
    PermissionRequest hook that cannot load may be what guards the permissions beside it (an error,
    as `claude plugin validate` says)."""
    where = (*base, event, gi)

    def report(span: Span, message: str) -> None:
        ctx.out.report(span, message + ("" if severity == Severity.ERROR else "; Claude Code ignores this entry"),
                       severity=severity)

    if not isinstance(group, dict):
        report(doc.at(*where), f"each hooks.{event} entry must be an object with 'hooks' (and optionally "
                       "'matcher')")
        return
    matcher = group.get("matcher")
    if matcher is not None and not isinstance(matcher, str):
        report(doc.at(*where, "matcher"), f"hooks.{event} 'matcher' must be a string (a tool name or a regex "
                       "like 'Edit|Write')")
    elif isinstance(matcher, str) and matcher not in ("", "*"):
        try:
            re.compile(matcher)
        except re.error as exc:
            ctx.out.report(doc.at(*where, "matcher"), f"hooks.{event} matcher '{matcher}' is not a valid regex "
                           f"({exc}): it matches no tool name", severity=Severity.WARNING)
    handlers = group.get("hooks")
    if handlers == []:
        return  # an empty group runs nothing (Claude Code accepts it)
    if not isinstance(handlers, list):
        report(doc.at(*where, "hooks") if "hooks" in group else doc.at(*where),
                       f"hooks.{event} group needs a 'hooks' list of handlers "
                       "({\"type\": \"command\", \"command\": ...})")
        return
    for hi, handler in enumerate(handlers):
        span = doc.at(*where, "hooks", hi)
        if not isinstance(handler, dict):
            report(span, f"each hooks.{event} handler must be an object like "
                           "{\"type\": \"command\", \"command\": ...}")
            continue
        kind = handler.get("type")
        if kind is None:
            report(span, f"hook handler has no 'type' (one of {', '.join(types)})")
            continue
        if kind not in types:
            report(doc.at(*where, "hooks", hi, "type"), f"hook handler type {kind!r} is not one of "
                           f"{', '.join(types)}")
            continue
        for needed in types[kind]:
            value = handler.get(needed)
            if not isinstance(value, str) or needed == "url" and not value.strip():
                report(span, f"a '{kind}' hook handler needs '{needed}'")
            elif not value.strip():  # (the schema takes any string: the hook loads, and does nothing)
                ctx.out.report(doc.at(*where, "hooks", hi, needed), f"this '{kind}' hook's '{needed}' is empty: "
                               "the hook does nothing", severity=Severity.WARNING)
        timeout = handler.get("timeout")
        if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or timeout <= 0):
            report(doc.at(*where, "hooks", hi, "timeout"), "hook 'timeout' must be a positive number of seconds")
        for field, why in handler_field_problems(kind, handler, HOOK_HANDLER_FIELD_KINDS):
            report(doc.at(*where, "hooks", hi, field), why)


def hook_handlers(ctx: SidecarContext) -> tuple[JsonDoc, list[Handler]]:
    """Every handler of the file that has the hook shape, on an event Claude Code runs (event, its JSON
    path, the handler): the `hooks` of a hooks file or settings, the inline hooks objects of a
    plugin.json. HK001 reports the rest."""
    doc = json_doc(ctx)
    out: list[Handler] = []
    if not doc.ok or not isinstance(doc.value, dict):
        return doc, out
    if ctx.kind == "manifest":
        maps = inline_hooks(doc.value)
    else:
        hooks = doc.value.get("hooks")
        maps = [(("hooks",), hooks)] if isinstance(hooks, dict) else []
    known = RUNTIMES[PLUGIN_RUNTIME].vocabulary.hook_events
    for base, events in maps:
        for event, groups in events.items():
            if not isinstance(groups, list) or event not in known:
                continue  # (an unknown event's hooks never run: HK001 says so)
            for gi, group in enumerate(groups):
                handlers = group.get("hooks") if isinstance(group, dict) else None
                for hi, handler in enumerate(handlers if isinstance(handlers, list) else []):
                    if isinstance(handler, dict):
                        out.append((str(event), (*base, event, gi, "hooks", hi), handler))
    return doc, out


@rule("HK002", Severity.WARNING, "sidecar", file_kinds=("hooks", "settings", "manifest"))
def hook_type_not_run_on_event(ctx: SidecarContext) -> None:
    """A `prompt`, `agent` or `http` hook handler sits on an event where Claude Code does not run that type.

    ## What it does
    Reports a handler whose `type` the event does not run: `prompt` and `agent` hooks need the
    conversation, so Claude Code skips or fails them on events outside it (`SessionStart`, `Setup`,
    `SessionEnd`, `SubagentStart`, `Notification`, `PreCompact`, `PostCompact`, `ConfigChange`,
    `CwdChanged`, `FileChanged`, `InstructionsLoaded`, `Elicitation`, `ElicitationResult`,
    `StopFailure`, `WorktreeCreate`, `WorktreeRemove`); `http` hooks are skipped on `SessionStart` and
    `Setup`; an `agent` hook cannot answer a `PermissionRequest`. Checked in `hooks/hooks.json`, the
    hook files and inline hooks of `plugin.json`, `.claude/settings*.json`, and the `hooks` of a skill's,
    command's or subagent's frontmatter (all events are registered there; a subagent's `Stop` runs as
    `SubagentStop`; a plugin's subagents' hooks are ignored, PL005).

    ## Why is this bad?
    The hook never does its work, and nothing but a debug log says so: the check or the context it
    was meant to add is silently missing.

    ## Example
    `{"hooks": {"SessionStart": [{"hooks": [{"type": "prompt", "prompt": "Summarise the repo"}]}]}}` —
    use a `command` hook on `SessionStart` (its output is added to the context), or move the prompt
    hook to an event that supports it (`UserPromptSubmit`, `PreToolUse`, `Stop`, ...).

    ## Source
    https://code.claude.com/docs/en/hooks ("Prompt-based hooks": the events that support each type);
    Claude Code 2.1.332's hook runner ("prompt-type hooks are not supported for SessionStart events",
    "HTTP hooks are not supported for SessionStart"), which also runs them on `PermissionDenied` and
    `TeammateIdle` (the page says it does not; skill-ls follows the behaviour and reports neither).
    """
    doc, handlers = hook_handlers(ctx)
    for event, path, handler in handlers:
        message = type_not_run(event, handler)
        if message is not None:
            ctx.out.report(doc.at(*path, "type"), message)


def type_not_run(event: str, handler: dict[str, Any]) -> str | None:
    """HK002's message for a handler whose type `event` does not run (None: it runs)."""
    kind = handler.get("type")
    if not (isinstance(kind, str) and kind in HOOK_TYPES_NOT_RUN.get(event, ())):
        return None
    why = ("an agent hook answers ok or not ok and cannot give the allow/deny decision a permission request "
           "needs" if event == "PermissionRequest" else "Claude Code skips HTTP hooks there"
           if kind == "http" else "prompt and agent hooks need the conversation, which this event runs "
           "outside of")
    return (f"{'an' if kind == 'agent' else 'a'} '{kind}' hook on {event} never runs: {why}; use a 'command' "
            "hook" + ("" if event in ("SessionStart", "Setup") else " (or 'http')"))


# `${CLAUDE_PLUGIN_ROOT}`, `$CLAUDE_PROJECT_DIR`, `~`: the directories Claude Code resolves them to are
# known from where the file is (a plugin's root, the project holding `.claude/`, the user's home).
_ROOTED = lazy_pattern(r"^(?:\$\{(?P<braced>[A-Z_]+)\}|\$(?P<bare>[A-Z_]+)|(?P<tilde>~))(?P<rest>/.+)$")
_SHELL = lazy_pattern(r"[|&;<>`\n]|\$\(")
# Programs that run the script named next (after their options): `node ${CLAUDE_PLUGIN_ROOT}/x.js`.
_RUNNERS = frozenset({"bash", "sh", "zsh", "dash", "node", "python", "python3", "bun", "deno", "ruby", "perl",
                      "php", "tsx", "ts-node", "pwsh", "uv", "run", "exec"})


def script_of(command: str) -> str | None:
    """The script a hook command runs, when that is unambiguous: the command itself or the file a known
    runner is given (`bash x.sh`, `node x.js`, `uv run x.py`), in a command without shell operators."""
    if _SHELL.search(command):
        return None  # pipelines, lists, redirections, substitutions: never guessed
    import shlex  # (only here: most runs split no command)

    try:
        words = shlex.split(command)
    except ValueError:
        return None
    for word in words:
        if "=" in word.split("/", 1)[0] and not word.startswith(("$", "~")):
            continue  # FOO=bar before the command
        if word in ("-c", "-e", "--eval", "-m"):
            return None  # inline code or a module, not a file
        if word.startswith("-") or os.path.basename(word) in _RUNNERS:
            continue
        return word
    return None


@rule("HK003", Severity.WARNING, "sidecar", file_kinds=("hooks", "settings", "manifest"))
def hook_script_missing(ctx: SidecarContext) -> None:
    """A command hook runs a script that does not exist (`${CLAUDE_PLUGIN_ROOT}/scripts/check.sh` with no such file).

    ## What it does
    Resolves the script a `command` hook runs when its location is certain: a path under
    `${CLAUDE_PLUGIN_ROOT}` in a plugin's hooks (its `hooks/hooks.json`, the hook files and inline hooks
    of its `plugin.json`), under `$CLAUDE_PROJECT_DIR` in a project's `.claude/settings*.json`, and under
    `~` or `$HOME` in the user's `~/.claude/settings.json`; the same in the `hooks` of a skill's,
    command's or subagent's frontmatter: `${CLAUDE_PLUGIN_ROOT}` in a plugin's skills and commands,
    `$CLAUDE_PROJECT_DIR` in a project's `.claude/skills`, `.claude/commands` and `.claude/agents`
    (the directory holding `.claude/`), `~`/`$HOME` in the user's. The script is the command itself or
    the file a runner is given (`bash`, `node`, `python3`, `uv run`, ...). Commands with shell operators
    (pipes, `&&`, `;`, redirections, `$(...)`), relative paths (resolved against whatever directory
    the session runs in) and `${CLAUDE_SKILL_DIR}` (the hooks page does not say it is expanded in hook
    commands) are never guessed at. In an editor, creating, deleting or renaming the script updates
    the finding at once, whether the file naming it is open or not.
    Also reported: a command hook naming `${CLAUDE_PLUGIN_ROOT}` or `${CLAUDE_PLUGIN_DATA}` where Claude
    Code gives it no value, so it refuses to run the hook ("Hook command references
    ${CLAUDE_PLUGIN_ROOT} but the hook is not associated with a plugin"): in settings and in a
    project's or the user's subagents; in a skill's or command's hooks outside a plugin,
    `${CLAUDE_PLUGIN_DATA}` (the skill's own root stands for `${CLAUDE_PLUGIN_ROOT}` there).

    ## Why is this bad?
    The hook fails every time its event fires (a `PreToolUse` guard that fails lets the tool run); a
    script renamed or left out of the plugin is the usual cause.

    ## Example
    `"command": "${CLAUDE_PLUGIN_ROOT}/scripts/check.sh"` with no `scripts/check.sh` in the plugin —
    add the script, or fix the path.

    ## Source
    https://code.claude.com/docs/en/hooks ("Reference scripts by path": `$CLAUDE_PROJECT_DIR`,
    `${CLAUDE_PLUGIN_ROOT}`; "Hooks in skills and agents"; the path placeholders, "plugin hooks only"),
    https://code.claude.com/docs/en/plugins-reference (`${CLAUDE_PLUGIN_ROOT}`); Claude Code 2.1.332's
    hook runner (the placeholders outside a plugin).
    """
    doc, handlers = hook_handlers(ctx)
    for event, path, script, variable, root, target in missing_scripts(ctx, handlers):
        where = {"CLAUDE_PLUGIN_ROOT": "in the plugin", "CLAUDE_PROJECT_DIR": "in the project"}.get(
            variable, "in your home directory")
        ctx.out.report(doc.at(*path, "command"), f"the {event} hook runs '{script}', which does not exist {where} "
                       f"({os.path.relpath(target, root)}): the hook fails every time it runs")
    if ctx.kind == "settings":  # (a plugin's hooks have both)
        for event, path, variable, where in plugin_only_placeholders(handlers, PLUGIN_PLACEHOLDERS):
            ctx.out.report(doc.at(*path, where), plugin_only_message(event, variable))


# Claude Code 2.1.332 refuses to run a command hook that names `${CLAUDE_PLUGIN_ROOT}` or `${CLAUDE_PLUGIN_DATA}`
# where it has no value: "Hook command references ${CLAUDE_PLUGIN_ROOT} but the hook is not associated with a
# plugin" (settings, a subagent's hooks), "... but only ${CLAUDE_PLUGIN_ROOT} is available for skill hooks
# (${CLAUDE_PLUGIN_DATA} is plugin-only)" (a skill's hooks outside a plugin).
PLUGIN_PLACEHOLDERS = ("CLAUDE_PLUGIN_ROOT", "CLAUDE_PLUGIN_DATA")


def plugin_only_placeholders(handlers: list[Handler], unavailable: tuple[str, ...]
                             ) -> list[tuple[str, tuple[Any, ...], str, str]]:
    """(event, place, variable, field) for each command handler whose `command` or `args` names one of
    the `unavailable` placeholders (braced: Claude Code looks for `${NAME}`)."""
    out = []
    for event, path, handler in handlers:
        if handler.get("type") != "command":
            continue
        command, args = handler.get("command"), handler.get("args")
        texts = [("command", command)] + [("args", a) for a in (args if isinstance(args, list) else [])]
        for variable in unavailable:
            field = next((f for f, t in texts if isinstance(t, str) and "${" + variable + "}" in t), None)
            if field is not None:
                out.append((event, path, variable, field))
    return out


def plugin_only_message(event: str, variable: str, skill: bool = False) -> str:
    return (f"the {event} hook names ${{{variable}}}, which Claude Code sets only for a plugin's hooks"
            + (" (a skill's hooks get ${CLAUDE_PLUGIN_ROOT} only)" if skill else "")
            + ": it refuses to run the hook, every time")


def script_targets(roots: dict[str, str], handlers: list[Handler]) -> list[tuple[str, tuple[Any, ...], str, str, str, str]]:
    """The scripts of the `command` handlers whose place is certain: (event, place, script as written,
    the variable it starts with, that variable's directory, the script's path). `roots`: what the
    variables stand for where the hooks are declared."""
    out = []
    for event, path, handler in handlers if roots else ():
        command = handler.get("command")
        if handler.get("type") != "command" or not isinstance(command, str):
            continue
        script = script_of(command)
        m = _ROOTED.match(script) if script else None
        if script is None or m is None or any(c in m.group("rest") for c in "$*?[{"):
            continue
        variable = "~" if m.group("tilde") else m.group("braced") or m.group("bare")
        root = roots.get(variable)
        if root is None:
            continue
        target = os.path.normpath(root + m.group("rest"))
        if target == root or target.startswith(root.rstrip(os.sep) + os.sep):
            out.append((event, path, script, variable, root, target))
    return out


def missing_scripts(ctx: SidecarContext, handlers: list[Handler]) -> list[tuple[str, tuple[Any, ...], str, str, str, str]]:
    """`script_targets` of this hook file whose script does not exist."""
    return [t for t in script_targets(_variable_roots(ctx), handlers) if not ctx.disk.exists(t[5])]


def hook_script_paths(ctx: SidecarContext) -> set[str]:
    """Every script path this hook file's HK003 asks about: its findings change when one of them is
    created or deleted (the server re-checks the file then: `WorkspaceState.depending_on`)."""
    return {t[5] for t in script_targets(_variable_roots(ctx), hook_handlers(ctx)[1])}


def _variable_roots(ctx: SidecarContext) -> dict[str, str]:
    """The directories the variables of this file's hook commands stand for, where they are known."""
    home = ctx.index.env.home if ctx.index is not None else None
    if ctx.kind in ("hooks", "manifest"):
        pf = plugin_file_for(ctx.path)
        root = pf.plugin.root if pf is not None and pf.plugin is not None else None
        return {"CLAUDE_PLUGIN_ROOT": root} if root else {}
    project = os.path.dirname(os.path.dirname(os.path.abspath(ctx.path)))
    if home and project == os.path.abspath(home):  # the user's own settings: no project, a known home
        return {"HOME": project, "~": project}
    if os.path.basename(os.path.dirname(ctx.path)) == ".claude":
        return {"CLAUDE_PROJECT_DIR": project}
    return {}


# -- hooks in frontmatter --------------------------------------------------------------------------
# A skill's (or command's) and a subagent's `hooks` field has the shape of settings hooks (CC004 and
# SA005 check it); HK002 and HK003 judge its handlers as they judge a hooks file's, at their place in
# the YAML. Claude Code registers every event of the field when the skill is invoked (for the rest of
# the session) or while the subagent runs, a subagent's `Stop` as `SubagentStop`
# (https://code.claude.com/docs/en/hooks, "Hooks in skills and agents"); a plugin's subagents' hooks
# are ignored (PL005 says so), so they are not judged here.


def frontmatter_handlers(fm: Frontmatter | None, subagent: bool) -> list[Handler]:
    """Every handler of a frontmatter `hooks` field that has the hook shape: (the event Claude Code runs
    it on — a subagent's `Stop` is `SubagentStop` —, (the handler's YAML node, the event as written),
    the handler)."""
    entry = fm.fields.get("hooks") if fm is not None and fm.ok else None
    if entry is None or not isinstance(entry.value, dict):
        return []
    out: list[Handler] = []
    known = RUNTIMES[PLUGIN_RUNTIME].vocabulary.hook_events
    for event, groups in entry.value.items():
        if not isinstance(groups, list) or event not in known:
            continue  # (an unknown event's hooks never run: CC004/SA005 say so)
        _, vnode = map_child(entry.node, str(event))
        gnodes = seq_items(vnode)
        for gi, group in enumerate(groups):
            if not isinstance(group, dict) or gi >= len(gnodes):
                continue
            handlers = group.get("hooks")
            items = seq_items(map_child(gnodes[gi], "hooks")[1])
            for hi, handler in enumerate(handlers if isinstance(handlers, list) else []):
                if isinstance(handler, dict) and hi < len(items):
                    runs_on = "SubagentStop" if subagent and event == "Stop" else str(event)
                    out.append((runs_on, (items[hi], str(event)), handler))
    return out


def frontmatter_roots(path: str, home: str | None, disk: Disk) -> dict[str, str]:
    """What the variables of a skill's, command's or subagent's hook commands stand for, where that is
    certain: `${CLAUDE_PLUGIN_ROOT}` in a plugin's skills and commands (the plugin's root), and in a
    project's `.claude/skills`, `.claude/commands` and `.claude/agents` `$CLAUDE_PROJECT_DIR` (the
    directory holding `.claude/`, when it is the project: it holds `.git`, or no directory above it
    holds `.git` or `.claude/` — a nested package's `.claude/skills` is read in a session started
    higher up, whose directory `$CLAUDE_PROJECT_DIR` is) or, in the user's own (`~/.claude/...`), `~`
    and `$HOME`. Anywhere else (a repository of skills, `${CLAUDE_SKILL_DIR}`, relative paths) nothing
    is resolved."""
    plugin = plugin_of(path, "skills") or (pf.plugin if (pf := plugin_file_for(path)) is not None else None)
    if plugin is not None:
        return {"CLAUDE_PLUGIN_ROOT": plugin.root}
    parts = os.path.abspath(path).split(os.sep)
    if ".claude" not in parts[:-2]:
        return {}
    i = len(parts) - 1 - parts[::-1].index(".claude")
    if parts[i + 1] not in ("skills", "commands", "agents"):
        return {}
    project = os.sep.join(parts[:i]) or os.sep
    if home and project == os.path.abspath(home):
        return {"HOME": project, "~": project}
    if not disk.exists(os.path.join(project, ".git")):
        above = os.path.dirname(project)
        limit = os.path.abspath(home) if home else None
        while above != os.path.dirname(above) and above != limit:
            if disk.exists(os.path.join(above, ".git")) or disk.is_dir(os.path.join(above, ".claude")):
                return {}  # a project inside another: which one the session runs in is not known
            above = os.path.dirname(above)
    return {"CLAUDE_PROJECT_DIR": project}


def _frontmatter_report(out: Reporter, doc: Document, handlers: list[Handler], roots: dict[str, str], disk: Disk,
                        code: str, unavailable: tuple[str, ...] = ()) -> None:
    for event, (node, _), handler in handlers:
        if code == "HK002":
            message = type_not_run(event, handler)
            if message is not None:
                out.report(node_span(doc, map_child(node, "type")[1], node_span(doc, node, Span(0, 0, 0, 0))), message)
    if code == "HK003":
        for event, (node, written), script, variable, root, target in script_targets(roots, handlers):
            if not disk.exists(target):
                where = {"CLAUDE_PLUGIN_ROOT": "in the plugin", "CLAUDE_PROJECT_DIR": "in the project"}.get(
                    variable, "in your home directory")
                out.report(node_span(doc, map_child(node, "command")[1], node_span(doc, node, Span(0, 0, 0, 0))),
                           f"the {written} hook runs '{script}', which does not exist {where} "
                           f"({os.path.relpath(target, root)}): the hook fails every time it runs")
        for event, (node, written), variable, field in plugin_only_placeholders(handlers, unavailable):
            out.report(node_span(doc, map_child(node, field)[1], node_span(doc, node, Span(0, 0, 0, 0))),
                       plugin_only_message(written, variable, skill=unavailable == ("CLAUDE_PLUGIN_DATA",)))


def _skill_hooks(ctx: RuntimeContext, code: str) -> None:
    fm = ctx.doc.fm
    if fm is None or not fm.ok or "hooks" not in fm.fields or ctx.doc.read_error:
        return
    roots = frontmatter_roots(ctx.doc.path, ctx.index.env.home if ctx.index is not None else None, ctx.disk) \
        if code == "HK003" else {}
    # (outside a plugin a skill's hooks get ${CLAUDE_PLUGIN_ROOT}, the skill's own root, but no data directory)
    unavailable = () if "CLAUDE_PLUGIN_ROOT" in roots or _in_plugin(ctx.doc.path) else ("CLAUDE_PLUGIN_DATA",)
    _frontmatter_report(ctx.out, ctx.doc, frontmatter_handlers(fm, subagent=False), roots, ctx.disk, code,
                        unavailable if code == "HK003" else ())


def _agent_hooks(ctx: AgentContext, code: str) -> None:
    agent = ctx.agent
    fm = agent.doc.fm
    if agent.tier == PLUGIN_TIER or fm is None or not fm.ok or "hooks" not in fm.fields:
        return  # (a plugin's subagents: Claude Code ignores their hooks)
    roots = frontmatter_roots(agent.path, ctx.index.env.home, ctx.index.disk) if code == "HK003" else {}
    _frontmatter_report(ctx.out, agent.doc, frontmatter_handlers(fm, subagent=True), roots, ctx.index.disk, code,
                        PLUGIN_PLACEHOLDERS if code == "HK003" else ())


def _in_plugin(path: str) -> bool:
    return plugin_of(path, "skills") is not None or (pf := plugin_file_for(path)) is not None and pf.plugin is not None


@rule("HK002", Severity.WARNING, "runtime", runtimes=reads_skill_hooks, part=True)
def skill_hook_type_not_run(ctx: RuntimeContext) -> None:
    """HK002 in the `hooks` of a skill's or command's frontmatter."""
    _skill_hooks(ctx, "HK002")


@rule("HK002", Severity.WARNING, "agent", runtimes=reads_subagents, part=True)
def subagent_hook_type_not_run(ctx: AgentContext) -> None:
    """HK002 in the `hooks` of a subagent's frontmatter (its `Stop` runs as `SubagentStop`)."""
    _agent_hooks(ctx, "HK002")


@rule("HK003", Severity.WARNING, "runtime", runtimes=reads_skill_hooks, part=True)
def skill_hook_script_missing(ctx: RuntimeContext) -> None:
    """HK003 in the `hooks` of a skill's or command's frontmatter."""
    _skill_hooks(ctx, "HK003")


@rule("HK003", Severity.WARNING, "agent", runtimes=reads_subagents, part=True)
def subagent_hook_script_missing(ctx: AgentContext) -> None:
    """HK003 in the `hooks` of a subagent's frontmatter."""
    _agent_hooks(ctx, "HK003")


def script_dependencies(index: Index, path: str) -> set[str]:
    """The script paths whose existence the HK003 findings of `path` depend on (a hooks file, settings,
    plugin.json, or a skill, command or subagent with `hooks` in its frontmatter): the server re-checks
    `path` when one of them is created or deleted (`WorkspaceState.depending_on`)."""
    base = os.path.basename(path)
    home = index.env.home
    if base.endswith(".json"):
        pf = plugin_file_for(path)
        if pf is None or pf.kind not in ("hooks", "settings", "manifest"):
            return set()
        ctx = SidecarContext(path, pf.kind, None, index, index.config, Reporter(path, None, []))
        return hook_script_paths(ctx)
    agent = index.agent_at(path)
    if agent is not None:
        if agent.tier == PLUGIN_TIER or not is_subagent_family(agent.family):
            return set()
        handlers = frontmatter_handlers(agent.doc.fm, subagent=True)
    elif base.endswith(".md"):
        handlers = frontmatter_handlers(index.store.peek(path).fm, subagent=False)
    else:
        return set()
    # (the roots only for a file with hooks: finding a plugin reads the directories above the file)
    return {t[5] for t in script_targets(frontmatter_roots(path, home, index.disk), handlers)} if handlers else set()


def hook_script_links(index: Index, path: str) -> list[tuple[Span, str]]:
    """The hook commands of `path` whose script is certain and exists, each as (the span of its `command`
    value, inside quotes in JSON, the script): document links and go-to-definition in an editor."""
    base = os.path.basename(path)
    home = index.env.home
    out: list[tuple[Span, str]] = []
    if base.endswith(".json"):
        pf = plugin_file_for(path)
        if pf is None or pf.kind not in ("hooks", "settings", "manifest"):
            return []
        ctx = SidecarContext(path, pf.kind, None, index, index.config, Reporter(path, None, []))
        doc, handlers = hook_handlers(ctx)
        for _, place, _, _, _, target in script_targets(_variable_roots(ctx), handlers):
            if index.disk.is_file(target):
                span = doc.at(*place, "command")
                if span.start_line == span.end_line and span.end_col - span.start_col >= 2:
                    span = Span(span.start_line, span.start_col + 1, span.end_line, span.end_col - 1)
                out.append((span, target))
        return out
    agent = index.agent_at(path)
    if agent is not None:
        if agent.tier == PLUGIN_TIER or not is_subagent_family(agent.family):
            return []
        document, subagent = agent.doc, True
    elif base.endswith(".md"):
        document, subagent = index.store.peek(path), False
    else:
        return []
    handlers = frontmatter_handlers(document.fm, subagent=subagent)
    for _, (node, _), _, _, _, target in script_targets(frontmatter_roots(path, home, index.disk) if handlers
                                                        else {}, handlers):
        if index.disk.is_file(target):
            out.append((node_span(document, map_child(node, "command")[1], Span(0, 0, 0, 0)), target))
    return out
