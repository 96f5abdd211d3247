"""Prompt budget rules."""
from __future__ import annotations

from skill_ls.core.model import Severity
from skill_ls.analysis.rules import rule
from skill_ls.core.runtimes import Runtime
from skill_ls.core.spans import header_span
from skill_ls.analysis.catalog import document_length
from skill_ls.analysis.rules.context import RuntimeContext


def has_prompt_budget(runtime: Runtime) -> bool:
    """Runtimes that cap the enabled skills' content (a prompt budget setting)."""
    return runtime.prompt_budget_setting is not None


@rule("BG001", Severity.ERROR, "runtime", runtimes=has_prompt_budget)
def larger_than_prompt_budget(ctx: RuntimeContext) -> None:
    """Agentcy: the skill is larger than the prompt budget, so it can never be enabled.

    ## What it does
    Agentcy injects the full content of every enabled skill and refuses a set whose total
    `content_length` (characters of the whole file) exceeds `agentcy.max_prompt_chars`
    (default 16,000). A single skill over the budget can never be enabled.
    """
    setting = ctx.runtime.prompt_budget_setting
    assert setting is not None
    budget: int = getattr(ctx.config, setting)
    size = document_length(ctx.doc)
    if size > budget:
        ctx.out.report(header_span(ctx.doc), f"skill is {size} characters; Agentcy's prompt budget is {budget}, so "
                       "it can never be enabled: split it or raise agentcy.max_prompt_chars")
