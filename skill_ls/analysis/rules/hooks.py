"""Claude Code hooks in JSON (HK001): a plugin's `hooks/hooks.json` (and the hook files its
`plugin.json` names, and the inline `hooks` object of a `plugin.json`) and the `hooks` of a project's
`.claude/settings.json` / `settings.local.json`.
Hooks in frontmatter are CC004 (skills) and SA005 (subagents)."""
from __future__ import annotations

import re
from typing import Any

from skill_ls.analysis.rules import rule
from skill_ls.analysis.rules.claude_code import _close
from skill_ls.analysis.rules.context import SidecarContext
from skill_ls.analysis.rules.plugins import json_doc
from skill_ls.core.jsonpos import JsonDoc
from skill_ls.core.model import Severity, Span
from skill_ls.core.runtimes import PLUGIN_RUNTIME, RUNTIMES
from skill_ls.core.runtimes.claude_code import GUARD_HOOK_EVENTS


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
    `plugin.json` (PL002 checks the paths).

    ## Why is this bad?
    A hook that does not match the shape never runs, and nothing tells the author: a formatter or a
    guard the team relies on is silently off.

    ## Example
    `{"hooks": [{"matcher": "Edit", "hooks": [...]}]}` — use `{"hooks": {"PostToolUse": [{"matcher":
    "Edit", "hooks": [{"type": "command", "command": "npm run fmt"}]}]}}`.

    ## Source
    https://code.claude.com/docs/en/hooks; https://code.claude.com/docs/en/plugins-reference ("Hooks");
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
