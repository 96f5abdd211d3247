"""Listing budgets and Codex's `agents/openai.yaml`.

The listing budget is runtime data (`Vocabulary.listing_*`, `core/listing_budget.py` for its inputs):
Codex drops skills past about 8,000 characters of its listing (entries costed by the code that renders
the catalog, `skill_ls.analysis.catalog.catalog_cost`); Claude Code sizes its budget from the model's
context and lists the skills past it by name only (its own `- name: description` entries).
"""
from __future__ import annotations

import heapq

import os
import re
from typing import TYPE_CHECKING, Any

import yaml

from skill_ls.analysis.rules import rule
from skill_ls.analysis.rules.context import RuntimeContext, SidecarContext
from skill_ls.core.index import Index, SkillDecl, description_as_read, frontmatter_as_read, read_bytes
from skill_ls.core.parse.frontmatter import Frontmatter
from skill_ls.core.plugins import COMMAND_TIER
from skill_ls.core.runtimes.spec import flag_word
from skill_ls.core.suggest import did_you_mean
from skill_ls.core.model import Related, Severity, Span
from skill_ls.core.parse.frontmatter import nesting_too_deep
from skill_ls.core.runtimes import RUNTIMES, Runtime
from skill_ls.core.spans import header_span, mapping_child, name_span, node_span

if TYPE_CHECKING:
    from skill_ls.core.listing_budget import BudgetInputs

REPORTED = 5  # BG002 findings per over-budget listing: the entries whose shortening helps most


class Listing:
    """A runtime's listing: [(decl, cost, cumulative end)] in catalog order, the total, each path's
    place in it (entry number, 1-based, and its row), the budget and what falls past it: `cut` holds
    the paths that fall out (drop) or are listed by name only (names_only), `reported` the paths
    BG002 reports on (at most `REPORTED`, the longest entries) with their rank."""

    def __init__(self, entries: list[tuple[SkillDecl, int, int]], total: int, budget: BudgetInputs | None = None,
                 cut: list[str] | None = None) -> None:
        self.entries = entries
        self.total = total
        self.budget = budget
        self.cut = cut or []
        self.by_path: dict[str, tuple[int, tuple[SkillDecl, int, int]]] = {}
        for i, row in enumerate(entries, 1):
            self.by_path.setdefault(row[0].path, (i, row))
        self.reported: dict[str, int] = {}
        if not self.cut:
            return
        cut_set = set(self.cut)
        # Findings go on skill files (a command is no declaration a rule runs on); commands count in
        # the total and among what is cut. The longest first (then the cut ones, then the later):
        # the first REPORTED distinct paths of that order, taken from a heap (a listing has thousands
        # of entries, the report five).
        ranked = [(-row[1], row[0].path not in cut_set, -i) for i, row in enumerate(entries, 1)
                  if row[0].root is not None]
        heapq.heapify(ranked)
        while ranked and len(self.reported) < REPORTED:
            path = entries[-heapq.heappop(ranked)[2] - 1][0].path
            if path not in self.reported:
                self.reported[path] = len(self.reported) + 1


_UNLISTED = (-1, -1)


def _listed_entry(decl: SkillDecl, runtime: Runtime, cap: int | None) -> tuple[int, int] | None:
    """(full entry, name only) characters of one skill in the runtime's listing, or None when the
    runtime leaves it out (a skill whose frontmatter it cannot read, one the model may not invoke).
    Claude Code's entry is `- name: description` (description + " - " + when_to_use, cut at `cap`
    with an ellipsis); other runtimes' entries are their catalog entries (`catalog_cost`). Kept with
    the parsed document: a keystroke recomputes the edited entry only, not the whole listing's."""
    doc = decl.doc
    assert doc is not None
    costs = doc.cache.setdefault("listing_costs", {})
    key = (decl.runtime, decl.name, decl.path, decl.tier, cap)
    hit: tuple[int, int] | None = costs.get(key)
    if hit is None:
        listed = (decl.root is None or frontmatter_as_read(doc, runtime) is not None) and _model_invocable(decl, runtime)
        hit = costs[key] = _entry_costs(decl, runtime, cap) if listed else _UNLISTED
    return None if hit is _UNLISTED else hit


def _entry_costs(decl: SkillDecl, runtime: Runtime, cap: int | None) -> tuple[int, int]:
    """(full entry, name only) of a listed skill, computed (`_listed_entry` keeps it)."""
    from skill_ls.analysis.catalog import catalog_cost

    doc = decl.doc
    assert doc is not None
    if runtime.vocabulary.listing_overflow != "names_only":
        full = catalog_cost(decl).chars
        return (full, full)
    fm = _read_for_listing(decl, runtime)
    description = description_as_read(doc, runtime, fm, "Custom command" if decl.root is None else "Skill")
    text = str(description) if isinstance(description, (str, int, float)) else ""
    when = fm.value("when_to_use")
    if isinstance(when, (str, int, float)) and str(when):
        text = f"{text} - {when}"
    if cap is not None and len(text) > cap:
        text = text[:cap - 1] + "\u2026"
    name_only = len(decl.name) + 2
    return (name_only + 2 + len(text), name_only)


def _read_for_listing(decl: SkillDecl, runtime: Runtime) -> Frontmatter:
    """The frontmatter the runtime lists an entry by: as it reads it (`frontmatter_as_read`); a
    command whose block does not parse even after the repair is listed with none (Claude Code
    ignores such a block and loads the command)."""
    doc = decl.doc
    assert doc is not None
    fm = frontmatter_as_read(doc, runtime)
    if fm is not None:
        return fm
    start = doc.fm.body_start_line if doc.fm is not None and doc.fm.status == "invalid" else 0
    return Frontmatter(status="ok", body_start_line=start)


def _model_invocable(decl: SkillDecl, runtime: Runtime) -> bool:
    """False when `disable-model-invocation` (read with the runtime's truthiness) keeps the entry out
    of the model's listing (Claude Code lists only what the model may invoke)."""
    if decl.doc is None or runtime.truthiness != "words":
        return True
    value = _read_for_listing(decl, runtime).value("disable-model-invocation")
    return flag_word(value) is not True


def listing(index: Index, runtime: str) -> Listing:
    """A runtime's listing for its effective set, computed once per state of the index (it lives in
    `index.derived`, which the index clears on every change): every file's BG002 reads it. The
    effective set's order survives an in-place document swap (`index.derived_from_names`), and each
    entry's cost is kept with its parsed document, so a keystroke costs one entry, not the whole set."""
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
    from skill_ls.core.listing_budget import budget_inputs  # (here: only a listing needs it)

    rt = RUNTIMES[runtime]
    inputs = budget_inputs(index, rt)
    cap = inputs.description_cap if inputs is not None else None
    out: list[tuple[SkillDecl, int, int]] = []
    short: list[int] = []
    total = 0
    commands = [SkillDecl(doc.path, runtime, None, COMMAND_TIER, name, doc=doc)
                for name, doc in index.listed_commands(rt)]
    if commands:  # a command whose name a skill holds is that skill's (the first of a name is listed)
        taken = {d.name for d in order}
        commands = [d for d in commands if d.name not in taken]
    separator = 1 if rt.vocabulary.listing_overflow == "names_only" else 0  # (newlines between entries)
    for decl in [*order, *commands]:
        doc = decl.doc
        if doc is None:
            continue
        # The entry kept with its parsed document (`_listed_entry`), looked up here without a call:
        # this loop runs over the whole listing on every keystroke in a skill the runtime lists.
        kept = doc.cache.get("listing_costs")
        row = kept.get((decl.runtime, decl.name, decl.path, decl.tier, cap)) if kept is not None else None
        if row is None:
            row = _listed_entry(decl, rt, cap)
            if row is None:
                continue
        elif row is _UNLISTED:
            continue
        full, name_only = row
        total += full + (separator if out else 0)
        out.append((decl, full, total))
        short.append(name_only)
    cut: list[str] = []
    if inputs is not None and total > inputs.budget:
        if rt.vocabulary.listing_overflow == "names_only":
            # Every skill keeps its name; descriptions are given back in order of use (most invoked
            # first; with no history, listing order) while they fit what is left of the budget.
            left = inputs.budget - (sum(short) + max(0, len(out) - 1))
            for (decl, full, _), name_only in zip(out, short):
                extra = full - name_only
                if extra <= left:
                    left -= extra
                else:
                    cut.append(decl.path)
        else:
            cut = [decl.path for decl, _, end in out if end > inputs.budget]
    result = index.derived[key] = Listing(out, total, inputs, cut)
    return result


def past_the_budget(index: Index, runtime: str) -> dict[str, tuple[int, int, int, int, int, int]]:
    """What BG002 says about each file it reports on in a runtime's listing: path -> (rank, entry
    number, cost, entries cut, entries, total). Empty without a budget or under it. The language
    server compares it before and after a change to republish exactly the files whose finding changed."""
    if RUNTIMES[runtime].vocabulary.listing_budget is None or runtime not in index.decls:
        return {}
    found = listing(index, runtime)
    out: dict[str, tuple[int, int, int, int, int, int]] = {}
    for path, rank in found.reported.items():
        i, (_, cost, _) = found.by_path[path]
        out[path] = (rank, i, cost, len(found.cut), len(found.entries), found.total)
    return out


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
    if rank is None or found.budget is None:
        return
    i, (decl, cost, end) = found.by_path[ctx.decl.path]
    n, cut = len(found.entries), found.cut
    span = name_span(ctx.doc) if ctx.doc.fm is not None else header_span(ctx.doc)
    budget = found.budget
    where = f"{budget.budget:,} characters" + (f", {budget.source}" if budget.source != "about" else "")
    related = [Related(p, Span(0, 0, 0, 0), "listed by name only" if ctx.runtime.vocabulary.listing_overflow ==
                       "names_only" else "falls out of the listing")
               for p in cut[:20] if p != ctx.decl.path]
    mine = ctx.decl.path in set(cut)
    kinds = "skills and commands" if any(row[0].root is None for row in found.entries) else "skills"
    if ctx.runtime.vocabulary.listing_overflow == "names_only":
        ctx.out.report(span, f"{ctx.runtime.title}'s skill listing is {found.total:,} characters, over its budget "
                       f"({where}): {len(cut)} of {n} {kinds} are listed by name only, without their description"
                       + (", this one among them" if mine else "")
                       + f". This entry is {cost:,} characters, the {_ordinal(rank)} longest: shorten the longest "
                       "descriptions or disable skills to bring the listing under the budget",
                       severity=Severity.INFORMATION, related=related)
    else:
        ctx.out.report(span, f"{ctx.runtime.title}'s skill listing is over its budget of about {where}: {len(cut)} of "
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
