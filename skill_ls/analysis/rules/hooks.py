"""Claude Code hooks in JSON (HK001): a plugin's `hooks/hooks.json` (and the hook files its
`plugin.json` names, and the inline `hooks` object of a `plugin.json`), the `hooks` of a project's
`.claude/settings.json` / `settings.local.json`, of the user's `~/.claude/settings.json` and of Claude
Code's managed settings (HK001-HK003).
Hooks in frontmatter are CC004 (skills) and SA005 (subagents)."""
from __future__ import annotations

import os
import re
import shlex
from typing import TYPE_CHECKING, Any

from skill_ls.analysis.rules import rule
from skill_ls.analysis.rules.claude_code import _close
from skill_ls.analysis.rules.context import SidecarContext
from skill_ls.analysis.rules.plugins import json_doc
from skill_ls.core.model import Severity, Span
from skill_ls.core.runtimes import PLUGIN_RUNTIME, RUNTIMES
from skill_ls.core.plugins import plugin_file_for
from skill_ls.core.runtimes.claude_code import GUARD_HOOK_EVENTS, HOOK_TYPES_NOT_RUN

if TYPE_CHECKING:
    from skill_ls.core.jsonpos import JsonDoc


@rule("HK001", Severity.ERROR, "sidecar", file_kinds=("hooks", "settings", "manifest"))
def invalid_hooks_file(ctx: SidecarContext) -> None:
    """A `hooks/hooks.json`, an inline `hooks` object of `plugin.json`, or the `hooks` of `.claude/settings.json` does not have Claude Code's hook shape.

    ## What it does
    Reads the file as Claude Code does: `hooks` maps hook events (`PreToolUse`, `PostToolUse`,
    `Stop`, ...) to lists of matcher groups `{matcher?, hooks: [handler, ...]}`; each handler has a
    known `type` (`command`, `http`, `prompt`, `agent`, `mcp_tool`) and that type's field
    (`command`, `url`, `prompt`, `server` and `tool`); a `timeout` is a positive number; a matcher is
    a valid regular expression. A file that is not JSON, a `hooks` that is a list instead of a map of
    events, and a `hooks.json` without `hooks` are errors (Claude Code drops every hook of the file);
    a broken entry (handler, matcher, group) is ignored at runtime while the rest loads, so it is a
    warning, except under `PreToolUse` and `PermissionRequest`, where the hook that does not load may
    be the one guarding a permission (an error, as `claude plugin validate` says); an unknown event
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
            if not (isinstance(handler.get(needed), str) and handler[needed].strip()):
                report(span, f"a '{kind}' hook handler needs '{needed}'")
        timeout = handler.get("timeout")
        if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or timeout <= 0):
            report(doc.at(*where, "hooks", hi, "timeout"), "hook 'timeout' must be a positive number of seconds")


def hook_handlers(ctx: SidecarContext) -> tuple[JsonDoc, list[tuple[str, tuple[Any, ...], dict[str, Any]]]]:
    """Every handler of the file that has the hook shape (event, its JSON path, the handler): the `hooks`
    of a hooks file or settings, the inline hooks objects of a plugin.json. HK001 reports the rest."""
    doc = json_doc(ctx)
    out: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = []
    if not doc.ok or not isinstance(doc.value, dict):
        return doc, out
    if ctx.kind == "manifest":
        maps = inline_hooks(doc.value)
    else:
        hooks = doc.value.get("hooks")
        maps = [(("hooks",), hooks)] if isinstance(hooks, dict) else []
    for base, events in maps:
        for event, groups in events.items():
            if not isinstance(groups, list):
                continue
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
    hook files and inline hooks of `plugin.json`, and `.claude/settings*.json`.

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
        kind = handler.get("type")
        if isinstance(kind, str) and kind in HOOK_TYPES_NOT_RUN.get(event, ()):
            why = ("an agent hook answers ok or not ok and cannot give the allow/deny decision a permission request "
                   "needs" if event == "PermissionRequest" else "Claude Code skips HTTP hooks there"
                   if kind == "http" else "prompt and agent hooks need the conversation, which this event runs "
                   "outside of")
            ctx.out.report(doc.at(*path, "type"), f"{'an' if kind == 'agent' else 'a'} '{kind}' hook on {event} never runs: {why}; use a 'command' "
                           "hook" + ("" if event in ("SessionStart", "Setup") else " (or 'http')"))


# `${CLAUDE_PLUGIN_ROOT}`, `$CLAUDE_PROJECT_DIR`, `~`: the directories Claude Code resolves them to are
# known from where the file is (a plugin's root, the project holding `.claude/`, the user's home).
_ROOTED = re.compile(r"^(?:\$\{(?P<braced>[A-Z_]+)\}|\$(?P<bare>[A-Z_]+)|(?P<tilde>~))(?P<rest>/.+)$")
_SHELL = re.compile(r"[|&;<>`\n]|\$\(")
# Programs that run the script named next (after their options): `node ${CLAUDE_PLUGIN_ROOT}/x.js`.
_RUNNERS = frozenset({"bash", "sh", "zsh", "dash", "node", "python", "python3", "bun", "deno", "ruby", "perl",
                      "php", "tsx", "ts-node", "pwsh", "uv", "run", "exec"})


def script_of(command: str) -> str | None:
    """The script a hook command runs, when that is unambiguous: the command itself or the file a known
    runner is given (`bash x.sh`, `node x.js`, `uv run x.py`), in a command without shell operators."""
    if _SHELL.search(command):
        return None  # pipelines, lists, redirections, substitutions: never guessed
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
    `~` or `$HOME` in the user's `~/.claude/settings.json`; the script is the command itself or the
    file a runner is given (`bash`, `node`, `python3`, `uv run`, ...). Commands with shell operators
    (pipes, `&&`, `;`, redirections, `$(...)`) and relative paths (resolved against whatever directory
    the session runs in) are never guessed at.

    ## Why is this bad?
    The hook fails every time its event fires (a `PreToolUse` guard that fails lets the tool run); a
    script renamed or left out of the plugin is the usual cause.

    ## Example
    `"command": "${CLAUDE_PLUGIN_ROOT}/scripts/check.sh"` with no `scripts/check.sh` in the plugin —
    add the script, or fix the path.

    ## Source
    https://code.claude.com/docs/en/hooks ("Reference scripts by path": `$CLAUDE_PROJECT_DIR`,
    `${CLAUDE_PLUGIN_ROOT}`), https://code.claude.com/docs/en/plugins-reference (`${CLAUDE_PLUGIN_ROOT}`).
    """
    roots = _variable_roots(ctx)
    if not roots:
        return
    doc, handlers = hook_handlers(ctx)
    for event, path, handler in handlers:
        command = handler.get("command")
        if handler.get("type") != "command" or not isinstance(command, str):
            continue
        script = script_of(command)
        m = _ROOTED.match(script) if script else None
        if m is None or any(c in m.group("rest") for c in "$*?[{"):
            continue
        variable = "~" if m.group("tilde") else m.group("braced") or m.group("bare")
        root = roots.get(variable)
        if root is None:
            continue
        target = os.path.normpath(root + m.group("rest"))
        if not (target == root or target.startswith(root.rstrip(os.sep) + os.sep)) or ctx.disk.exists(target):
            continue
        where = {"CLAUDE_PLUGIN_ROOT": "in the plugin", "CLAUDE_PROJECT_DIR": "in the project"}.get(
            variable, "in your home directory")
        ctx.out.report(doc.at(*path, "command"), f"the {event} hook runs '{script}', which does not exist {where} "
                       f"({os.path.relpath(target, root)}): the hook fails every time it runs")


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
