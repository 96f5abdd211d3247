"""Claude Code hooks in JSON (HK001): a plugin's `hooks/hooks.json` (and the hook files its
`plugin.json` names) and the `hooks` of a project's `.claude/settings.json` / `settings.local.json`.
Hooks in frontmatter are CC004 (skills) and SA005 (subagents)."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from skill_ls.analysis.rules import rule
from skill_ls.analysis.rules.claude_code import _close
from skill_ls.analysis.rules.context import SidecarContext
from skill_ls.analysis.rules.plugins import json_doc
from skill_ls.core.model import Severity, Span
from skill_ls.core.runtimes import PLUGIN_RUNTIME, RUNTIMES
from skill_ls.core.runtimes.claude_code import GUARD_HOOK_EVENTS

if TYPE_CHECKING:
    from skill_ls.core.jsonpos import JsonDoc


@rule("HK001", Severity.ERROR, "sidecar", file_kinds=("hooks", "settings"))
def invalid_hooks_file(ctx: SidecarContext) -> None:
    """A `hooks/hooks.json` or the `hooks` of `.claude/settings.json` does not have Claude Code's hook shape.

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
    is a warning (Claude Code ignores it).

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
    what = "hooks.json" if ctx.kind == "hooks" else "settings"
    if not doc.ok:
        ctx.out.report(doc.problem_span, f"{what} {doc.problem}; Claude Code ignores every hook in it")
        return
    data = doc.value
    if not isinstance(data, dict):
        ctx.out.report(doc.at(), f"{what} must be a JSON object")
        return
    if "hooks" not in data:
        if ctx.kind == "hooks" and not data.get("modules"):
            ctx.out.report(doc.at(), "hooks.json needs 'hooks' (a map of hook events to matcher groups)")
        return
    vocab = RUNTIMES[PLUGIN_RUNTIME].vocabulary
    hooks = data["hooks"]
    if not isinstance(hooks, dict):
        ctx.out.report(doc.at("hooks"), f"'hooks' must map hook events (PreToolUse, PostToolUse, Stop, ...) to lists "
                       f"of matcher groups, not {_json_kind(hooks)}; Claude Code ignores these hooks")
        return
    for event, groups in hooks.items():
        if event not in vocab.hook_events:
            hint = _close(str(event), vocab.hook_events)
            ctx.out.report(doc.key("hooks", event), f"unknown hook event '{event}': Claude Code ignores it" + (
                f"; did you mean '{hint}'?" if hint else f" (events: {', '.join(vocab.hook_events[:8])}, ...)"),
                severity=Severity.WARNING)
            continue
        if not isinstance(groups, list):
            ctx.out.report(doc.at("hooks", event), f"hooks.{event} must be a list of matcher groups "
                           "({matcher, hooks: [...]}); Claude Code ignores it", severity=Severity.WARNING)
            continue
        severity = Severity.ERROR if event in GUARD_HOOK_EVENTS else Severity.WARNING
        for gi, group in enumerate(groups):
            _group(ctx, doc, event, gi, group, vocab.hook_types, severity)


def _json_kind(value: Any) -> str:
    return {list: "a list", str: "a string", bool: "a boolean"}.get(type(value), "a " + type(value).__name__)


def _group(ctx: SidecarContext, doc: JsonDoc, event: str, gi: int, group: Any,
           types: dict[str, tuple[str, ...]], severity: Severity) -> None:
    """One matcher group: a broken entry is ignored at runtime (a warning), but a PreToolUse or
    PermissionRequest hook that cannot load may be what guards the permissions beside it (an error,
    as `claude plugin validate` says)."""
    where = ("hooks", event, gi)

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
