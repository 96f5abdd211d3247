"""The inputs of a runtime's skill-listing budget (BG002): the descriptor's defaults, skill-ls's
settings, the runtime's own settings files and the environment, in that order of strength.

Claude Code (2.1.332, its skill tool's listing): the budget is `$SLASH_COMMAND_TOOL_CHAR_BUDGET` when
that is a positive number, else floor(context window in tokens x 4 x `skillListingBudgetFraction`)
(0.01 by default: 8,000 characters for a 200,000-token context, 40,000 for a 1M-token one); each
description is cut at `skillListingMaxDescChars` (1,536). Read once per index state (`Index.derived`).
"""
from __future__ import annotations

import os
from typing import Any

from skill_ls.core.files import read_json
from skill_ls.core.index import Index
from skill_ls.core.records import dataclass
from skill_ls.core.runtimes import Runtime


@dataclass(frozen=True)
class BudgetInputs:
    """A listing budget and where it comes from (for messages and hover)."""

    budget: int  # characters
    description_cap: int | None  # characters of one entry's description, None: no cap
    source: str  # how the budget was found, in words


def budget_inputs(index: Index | None, runtime: Runtime, environ: Any = None) -> BudgetInputs | None:
    """The runtime's listing budget for this index (None: the runtime's listing has no budget)."""
    vocab = runtime.vocabulary
    if vocab.listing_budget is None:
        return None
    key = ("listing_budget", runtime.id)
    if index is not None and environ is None:
        hit = index.derived.get(key)
        if isinstance(hit, BudgetInputs):
            return hit
    env = os.environ if environ is None else environ
    config = index.config if index is not None else None
    fraction, cap = vocab.listing_budget_fraction, vocab.listing_description_cap
    settings_source = ""
    if vocab.listing_settings and index is not None:
        for template in vocab.listing_settings_files:
            path = _expand(template, index)
            if path is None or not os.path.isfile(path):
                continue
            data, problem, _ = read_json(path)
            if problem or not isinstance(data, dict):
                continue
            f, c = data.get(vocab.listing_settings[0]), data.get(vocab.listing_settings[1])
            if isinstance(f, (int, float)) and not isinstance(f, bool) and 0 < f <= 1:
                fraction, settings_source = float(f), f"{vocab.listing_settings[0]} {f} in {path}"
            if isinstance(c, int) and not isinstance(c, bool) and c > 0:
                cap = c
    tokens = vocab.listing_context_tokens
    configured_tokens = getattr(config, "claude_context_window", None) if config is not None else None
    configured_fraction = getattr(config, "claude_listing_budget_fraction", None) if config is not None else None
    configured_budget = getattr(config, "claude_listing_budget", None) if config is not None else None
    if configured_fraction:
        fraction, settings_source = configured_fraction, f"listing_budget_fraction {configured_fraction}"
    if configured_tokens:
        tokens = configured_tokens
    out: BudgetInputs
    raw = env.get(vocab.listing_budget_env) if vocab.listing_budget_env else None
    from_env = _positive(raw)
    if from_env is not None:
        out = BudgetInputs(from_env, cap, f"${vocab.listing_budget_env}")
    elif configured_budget:
        out = BudgetInputs(configured_budget, cap, "listing_budget in the skill-ls configuration")
    elif tokens and fraction:
        budget = max(1, int(tokens * vocab.listing_chars_per_token * fraction))
        out = BudgetInputs(budget, cap, f"{fraction:g} of a {tokens:,}-token context"
                           + (f" ({settings_source})" if settings_source else ""))
    else:
        out = BudgetInputs(vocab.listing_budget, cap, "about")
    if index is not None and environ is None:
        index.derived[key] = out
    return out


def _positive(raw: Any) -> int | None:
    try:
        value = float(raw) if raw is not None else 0.0
    except ValueError:
        return None
    return int(value) if value > 0 else None


def _expand(template: str, index: Index) -> str | None:
    if "{home}" in template:
        if not index.env.home:
            return None
        template = template.replace("{home}", index.env.home)
    return template.replace("{workspace}", index.workspace).replace("/", os.sep)
