"""Listing budgets and Codex's `agents/openai.yaml`.

The listing budget is runtime data (`Vocabulary.listing_budget`, `listing_overflow`): Codex drops
skills past about 8,000 characters of its listing; Claude Code shortens descriptions past its budget
(8,000 characters when the context size is unknown). Entries are costed by the same code that renders
the catalog (`skill_ls.analysis.catalog.catalog_cost`), in catalog order.
"""
from __future__ import annotations

import os
import re
from typing import Any

import yaml

from skill_ls.analysis.rules import rule
from skill_ls.analysis.rules.context import RuntimeContext, SidecarContext
from skill_ls.core.index import Index, SkillDecl, read_bytes
from skill_ls.core.suggest import did_you_mean
from skill_ls.core.model import Severity
from skill_ls.core.parse.frontmatter import nesting_too_deep
from skill_ls.core.runtimes import RUNTIMES, Runtime
from skill_ls.core.spans import header_span, mapping_child, name_span, node_span

class Listing:
    """A runtime's listing: [(decl, cost, cumulative end)] in catalog order, the total, and each
    path's place in it (entry number, 1-based, and its row)."""

    def __init__(self, entries: list[tuple[SkillDecl, int, int]], total: int) -> None:
        self.entries = entries
        self.total = total
        self.by_path: dict[str, tuple[int, tuple[SkillDecl, int, int]]] = {}
        for i, row in enumerate(entries, 1):
            self.by_path.setdefault(row[0].path, (i, row))


def listing(index: Index, runtime: str) -> Listing:
    """A runtime's listing for its effective set, computed once per state of the index (it lives in
    `index.derived`, which the index clears on every change): every file's BG002 reads it. The
    effective set's order survives an in-place document swap (`index.derived_from_names`), and each
    entry's cost is kept with its parsed document, so a keystroke costs one entry, not the whole set."""
    from skill_ls.analysis.catalog import catalog_cost
    from skill_ls.analysis.effective import EffectiveSetError, resolve_effective_set

    key = ("listing", runtime)
    hit = index.derived.get(key)
    if isinstance(hit, Listing):
        return hit
    order = index.derived_from_names.get(key)
    if not isinstance(order, list):
        try:
            eff = resolve_effective_set(index, runtime, fail_closed=False)
        except EffectiveSetError:
            eff = None
        order = index.derived_from_names[key] = [s.decl for s in eff.enabled if not s.decl.builtin] if eff else []
    out: list[tuple[SkillDecl, int, int]] = []
    total = 0
    for decl in order:
        doc = decl.doc
        if doc is None or doc.fm is None or not doc.fm.ok:
            continue
        costs = doc.cache.setdefault("listing_costs", {})
        entry_key = (decl.runtime, decl.name, decl.path, decl.tier)
        cost = costs.get(entry_key)
        if cost is None:
            cost = costs[entry_key] = catalog_cost(decl).chars
        total += cost
        out.append((decl, cost, total))
    result = index.derived[key] = Listing(out, total)
    return result


def past_the_budget(index: Index, runtime: str) -> dict[str, tuple[int, int, int]]:
    """What BG002 says about each file of a runtime's listing that is past the budget: path ->
    (entry number, entries, cost). Empty without a budget or under it. The language server compares
    it before and after a change to republish exactly the files whose finding changed."""
    budget = RUNTIMES[runtime].vocabulary.listing_budget
    if budget is None or runtime not in index.decls:
        return {}
    found = listing(index, runtime)
    if found.total <= budget:
        return {}
    n = len(found.entries)
    return {path: (i, n, cost) for path, (i, (_, cost, end)) in found.by_path.items() if end > budget}


def has_listing_budget(runtime: Runtime) -> bool:
    """Runtimes whose skill listing has a character budget."""
    return runtime.vocabulary.listing_budget is not None


@rule("BG002", Severity.WARNING, "runtime", runtimes=has_listing_budget)
def over_listing_budget(ctx: RuntimeContext) -> None:
    """The runtime's skill listing is over its budget, and this skill is past the cut.

    ## What it does
    Adds up what every skill of the effective set costs in the runtime's listing, in catalog order.
    Codex keeps about 8,000 characters of skills in its initial context: skills past that point fall
    out of the listing, in order (warning, with the entry number). Claude Code keeps every name but
    shortens descriptions once the listing passes its budget (information).

    ## Why is this bad?
    A skill the model never sees in the listing is never chosen; with shortened descriptions the
    trigger phrases may be gone.

    ## Example
    Forty skills in `.agents/skills` with 300-character descriptions: about 12,000 characters of
    listing; Codex keeps the first ~8,000 and the last third of the skills never reach the model.

    ## Fix
    Shorten long descriptions, disable skills the project does not need, or move rarely used ones
    to a user root of another workspace.

    ## Source
    https://developers.openai.com/codex/skills (Codex listing), https://code.claude.com/docs/en/skills
    ("Claude doesn't see all my skills": the skill listing budget, `SLASH_COMMAND_TOOL_CHAR_BUDGET`).
    """
    vocab = ctx.runtime.vocabulary
    budget = vocab.listing_budget
    if budget is None or ctx.index is None or ctx.decl.root is None:
        return
    found = listing(ctx.index, ctx.runtime.id)
    entries = found.entries
    if found.total <= budget:
        return
    place = found.by_path.get(ctx.decl.path)
    if place is None:
        return
    i, (decl, cost, end) = place
    if end <= budget:
        return
    span = name_span(ctx.doc) if ctx.doc.fm is not None else header_span(ctx.doc)
    # The message names this entry only, not the listing's total: the total changes with every
    # description anywhere, and a message that changes would have to be republished to every file.
    if vocab.listing_overflow == "drop":
        ctx.out.report(span, f"{ctx.runtime.title}'s skill listing is over its budget of about {budget:,} "
                       f"characters: this skill (entry {i} of {len(entries)}, {cost} characters) falls out of the "
                       "listing and the model never sees it")
    else:
        ctx.out.report(span, f"{ctx.runtime.title}'s skill listing is over its {budget:,}-character budget: from "
                       f"this skill on (entry {i} of {len(entries)}) descriptions are shortened to fit",
                       severity=Severity.INFORMATION)


# https://developers.openai.com/codex/skills ("Optional metadata: agents/openai.yaml").
INTERFACE_KEYS = ("display_name", "short_description", "icon_small", "icon_large", "brand_color", "default_prompt")
TOOL_KEYS = ("type", "value", "description", "transport", "url", "command")
TOOL_TYPES = ("mcp",)
TRANSPORTS = ("streamable_http", "stdio", "sse")
POLICY_KEYS = ("allow_implicit_invocation",)
_COLOR = re.compile(r"^#(?:[0-9A-Fa-f]{3}|[0-9A-Fa-f]{6})$")


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
