"""Listing budgets (BG002) and Codex's `agents/openai.yaml` (CX001).

The listing budget is runtime data (`Vocabulary.listing_*`, `core/listing_budget.py` for its inputs):
Codex drops skills past about 8,000 characters of its listing; Claude Code sizes its budget from the
model's context and lists the skills past it by name only. `skill_ls.analysis.listing` computes the
listing (and keeps it live across keystrokes); BG002 words what it finds.
"""
from __future__ import annotations

import os
from typing import Any

import yaml

from skill_ls.analysis.listing import RELATED, listing
from skill_ls.analysis.rules import rule
from skill_ls.analysis.rules.context import RuntimeContext, SidecarContext
from skill_ls.core.index import read_bytes
from skill_ls.core.patterns import lazy_pattern
from skill_ls.core.suggest import did_you_mean
from skill_ls.core.model import Related, Severity, Span
from skill_ls.core.parse.frontmatter import nesting_too_deep
from skill_ls.core.runtimes import Runtime
from skill_ls.core.spans import header_span, mapping_child, name_span, node_span


def has_listing_budget(runtime: Runtime) -> bool:
    """Runtimes whose skill listing has a character budget."""
    return runtime.vocabulary.listing_budget is not None


@rule("BG002", Severity.WARNING, "runtime", runtimes=has_listing_budget)
def over_listing_budget(ctx: RuntimeContext) -> None:
    """The runtime's skill listing is over its budget: a handful of findings on the longest entries.

    ## What it does
    Costs every skill of the effective set in the runtime's listing, in listing order, as the runtime
    does. **Claude Code** (2.1.332): the budget is `$SLASH_COMMAND_TOOL_CHAR_BUDGET` when set, else the
    model's context window x 4 characters per token x `skillListingBudgetFraction` (1%: 8,000
    characters for a 200,000-token context, 40,000 for 1M); each entry is `- name: description` with
    the description (plus ` - ` and `when_to_use`) cut at `skillListingMaxDescChars` (1,536). Over the
    budget every skill keeps its name, and descriptions are given back, most-invoked skill first,
    while they fit: the others are listed by name only (information). Claude Code's listing holds
    its commands too: every `.claude/commands/**/*.md` of the project (and its parent directories)
    and of `~/.claude/commands`, named by its path (`frontend/review.md` is `frontend:review`),
    described by its `description` or its first line; skills and commands with
    `disable-model-invocation` are not listed. Installed plugins (whose skills and commands Claude
    Code lists too, a plugin command only when it has a `description` or `when_to_use`) are not
    modelled. **Codex** keeps about 8,000 characters: skills past that point fall out of the
    listing (warning).

    One over-budget listing gives at most five findings, on the longest entries (shortening them helps
    most), each saying how many skills lose their description or fall out, with those skills as
    related locations; not one finding per skill.

    The inputs are configurable: `[claude-code] context_window` (tokens; e.g. 1000000 for a 1M
    context), `listing_budget_fraction`, `listing_budget` (characters, as the environment variable);
    Claude Code's own `skillListingBudgetFraction` and `skillListingMaxDescChars` in
    `~/.claude/settings.json`, `.claude/settings.json` and `.claude/settings.local.json`, and
    `$SLASH_COMMAND_TOOL_CHAR_BUDGET`, are read too (the environment wins).

    ## Why is this bad?
    A skill the model never sees in the listing is never chosen; listed by name only, its trigger
    phrases are gone.

    ## Example
    Forty skills in `.agents/skills` with 300-character descriptions: about 12,000 characters of
    listing; Codex keeps the first ~8,000 and the last third of the skills never reach the model.

    ## Fix
    Shorten the longest descriptions, disable skills the project does not need (Claude Code: `/skills`),
    or raise the budget (`skillListingBudgetFraction`).

    ## Source
    https://code.claude.com/docs/en/skills ("Claude doesn't see all my skills": the skill listing budget,
    `SLASH_COMMAND_TOOL_CHAR_BUDGET`), https://code.claude.com/docs/en/settings (`skillListingBudgetFraction`,
    `skillListingMaxDescChars`), https://code.claude.com/docs/en/skills ("Custom commands have been
    merged into skills"); Claude Code 2.1.332's skill listing (its skill tool lists every prompt
    command the model may invoke from `.claude/commands`);
    https://developers.openai.com/codex/skills (Codex listing).
    """
    if ctx.index is None or ctx.decl.root is None:
        return
    found = listing(ctx.index, ctx.runtime.id)
    rank = found.reported.get(ctx.decl.path)
    place = found.place(ctx.decl.path)
    if rank is None or place is None or found.budget is None:
        return
    i, cost = place
    n, cut = found.count, found.cut_count
    span = name_span(ctx.doc) if ctx.doc.fm is not None else header_span(ctx.doc)
    budget = found.budget
    where = f"{budget.budget:,} characters" + (f", {budget.source}" if budget.source != "about" else "")
    names_only = ctx.runtime.vocabulary.listing_overflow == "names_only"
    related = [Related(p, Span(0, 0, 0, 0), "listed by name only" if names_only else "falls out of the listing")
               for p in found.cut_paths(RELATED) if p != ctx.decl.path]
    mine = found.is_cut(ctx.decl.path)
    kinds = "skills and commands" if found.has_commands else "skills"
    if names_only:
        ctx.out.report(span, f"{ctx.runtime.title}'s skill listing is {found.total:,} characters, over its budget "
                       f"({where}): {cut} of {n} {kinds} are listed by name only, without their description"
                       + (", this one among them" if mine else "")
                       + f". This entry is {cost:,} characters, the {_ordinal(rank)} longest: shorten the longest "
                       "descriptions or disable skills to bring the listing under the budget",
                       severity=Severity.INFORMATION, related=related)
    else:
        ctx.out.report(span, f"{ctx.runtime.title}'s skill listing is over its budget of about {where}: {cut} of "
                       f"{n} {kinds} fall out of the listing and the model never sees them"
                       + (f", this one among them (entry {i})" if mine else "")
                       + f". This entry is {cost:,} characters, the {_ordinal(rank)} longest: shorten the longest "
                       "descriptions or disable skills", related=related)


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


# https://developers.openai.com/codex/skills ("Optional metadata: agents/openai.yaml").
INTERFACE_KEYS = ("display_name", "short_description", "icon_small", "icon_large", "brand_color", "default_prompt")
TOOL_KEYS = ("type", "value", "description", "transport", "url", "command")
TOOL_TYPES = ("mcp",)
TRANSPORTS = ("streamable_http", "stdio", "sse")
POLICY_KEYS = ("allow_implicit_invocation",)
_COLOR = lazy_pattern(r"^#(?:[0-9A-Fa-f]{3}|[0-9A-Fa-f]{6})$")


def _keys(node: Any) -> list[tuple[str, Any, Any]]:
    if not isinstance(node, yaml.MappingNode):
        return []
    return [(k.value, k, v) for k, v in node.value if isinstance(k, yaml.ScalarNode)]


def _unknown(key: str, known: tuple[str, ...], where: str) -> str:
    hint = did_you_mean(key, known) or f" (known: {', '.join(known)})"
    return f"unknown key '{key}' in {where}; Codex ignores it" + hint


@rule("CX001", Severity.WARNING, "sidecar", file_kinds=("openai",))
def openai_yaml_values(ctx: SidecarContext) -> None:
    """Codex's `agents/openai.yaml` has keys or values Codex does not use.

    ## What it does
    `interface` may hold `display_name`, `short_description`, `icon_small`, `icon_large` (files
    inside the skill), `brand_color` (`#RRGGBB`) and `default_prompt`; each `dependencies.tools`
    entry needs `type: mcp` and a `value` (the server name), with an optional `description`,
    `transport` (`streamable_http`, `stdio`, `sse`) and `url`; `policy.allow_implicit_invocation` is
    true or false. Unknown keys get a did-you-mean. (A malformed file is MC001.)

    ## Why is this bad?
    Codex ignores what it does not know: a misspelled `short_descripton` leaves the app without a
    description, and `allow_implicit_invocation: "no"` is not false.

    ## Example
    ```yaml
    policy:
      allow_implicit_invocation: "false"
    ```
    Use instead: `allow_implicit_invocation: false`.

    ## Source
    https://developers.openai.com/codex/skills ("agents/openai.yaml").
    """
    data, error, _ = read_bytes(ctx.path)
    if error:
        return
    text = data.decode("utf-8", errors="replace")
    if nesting_too_deep(text):
        return
    try:
        root = yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except (yaml.YAMLError, RecursionError, ValueError):
        return
    if not isinstance(root, yaml.MappingNode):
        return
    skill_dir = os.path.dirname(os.path.dirname(ctx.path))
    report = ctx.out.report
    for key, knode, vnode in _keys(root):
        if key not in ("interface", "dependencies", "policy"):
            report(node_span(knode), _unknown(key, ("interface", "dependencies", "policy"), "openai.yaml"))
    _, interface = mapping_child(root, "interface")
    for key, knode, vnode in _keys(interface):
        if key not in INTERFACE_KEYS:
            report(node_span(knode), _unknown(key, INTERFACE_KEYS, "interface"))
        elif not isinstance(vnode, yaml.ScalarNode):
            report(node_span(vnode), f"interface.{key} must be a string")
        elif key in ("icon_small", "icon_large") and vnode.value:
            target = os.path.normpath(os.path.join(skill_dir, vnode.value))
            if not target.startswith(os.path.normpath(skill_dir) + os.sep):
                report(node_span(vnode), f"interface.{key} '{vnode.value}' leaves the skill directory")
            elif not ctx.disk.exists(target):
                report(node_span(vnode), f"interface.{key} '{vnode.value}' does not exist in the skill")
        elif key == "brand_color" and not _COLOR.match(vnode.value):
            report(node_span(vnode), f"interface.brand_color '{vnode.value}' is not a hex color like '#3B82F6'")
    _, deps = mapping_child(root, "dependencies")
    _, tools = mapping_child(deps, "tools")
    if isinstance(tools, yaml.SequenceNode):
        for item in tools.value:
            if not isinstance(item, yaml.MappingNode):
                continue
            keys = {k: v for k, _, v in _keys(item)}
            for key, knode, _ in _keys(item):
                if key not in TOOL_KEYS:
                    report(node_span(knode), _unknown(key, TOOL_KEYS, "a dependencies.tools entry"))
            kind = keys.get("type")
            if kind is None or not isinstance(kind, yaml.ScalarNode) or kind.value not in TOOL_TYPES:
                report(node_span(kind if kind is not None else item), "a dependencies.tools entry needs 'type: mcp'")
            value = keys.get("value")
            if value is None or not isinstance(value, yaml.ScalarNode) or not value.value.strip():
                report(node_span(item.value[0][0]) if item.value else node_span(item),
                       "a dependencies.tools entry needs 'value' (the MCP server's name)")
            transport = keys.get("transport")
            if isinstance(transport, yaml.ScalarNode) and transport.value not in TRANSPORTS:
                report(node_span(transport), f"transport '{transport.value}' is not one of {', '.join(TRANSPORTS)}")
    _, policy = mapping_child(root, "policy")
    for key, knode, vnode in _keys(policy):
        if key not in POLICY_KEYS:
            report(node_span(knode), _unknown(key, POLICY_KEYS, "policy"))
        elif not (isinstance(vnode, yaml.ScalarNode) and vnode.tag == "tag:yaml.org,2002:bool"):
            report(node_span(vnode), "policy.allow_implicit_invocation must be true or false (unquoted)")
