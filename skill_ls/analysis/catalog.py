"""Catalog renderers: the exact text each runtime injects to advertise its effective set (SPEC §4, §8).

`catalog_object(index, runtime, agent)` is the `skill-ls catalog --format json` object and the
result of the `skillLs.renderCatalog` command; `render_catalog` is its `text`. Every format is data
in `FORMATS` (a renderer per `Runtime.catalog_format`). Readings, documented in docs/catalog.md:
an empty effective set renders an empty string in every format; every non-empty text ends with a
newline (the reference `agentskills to-prompt` prints one too); Agentcy's enabled set defaults to
every skill of its roots, by name, and its budget line is `Skills budget: USED/MAX characters`.
"""
from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Callable

from skill_ls.analysis.effective import EffectiveSet, EffectiveSetError, EffectiveSkill, effective_mcp_servers, \
    resolve_effective_set
from skill_ls.core.index import Document, Index, SkillDecl
from skill_ls.core.parse.text import collapse
from skill_ls.core.parse.yaml12 import js_truthy
from skill_ls.core.runtimes import RUNTIMES

SKILL_VIEW_TOOL = "agh__skill_view"


class CatalogError(EffectiveSetError):
    """The catalog cannot be rendered; `str()` is a one-line reason."""


@dataclass
class CatalogEntry:
    name: str
    tier: str
    path: str
    description: str  # the full description
    shown: str  # what the catalog shows (after collapsing and cutting, before escaping)
    truncated: bool

    def as_json(self) -> dict:
        return {"name": self.name, "tier": self.tier, "path": self.path, "description": self.description,
                "truncated": self.truncated}


@dataclass
class Rendered:
    text: str
    entries: list[CatalogEntry]


# -- text helpers ---------------------------------------------------------------------------------
def escape_text(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def escape_attr(text: str) -> str:
    return escape_text(text).replace('"', "&quot;")


def _text(value) -> str:
    if value is None:
        return ""
    return value if isinstance(value, str) else str(value)


def _description(s: EffectiveSkill) -> str:
    return _text(s.field("description"))


# -- AGH ------------------------------------------------------------------------------------------
def agh_entry(name: str, description: str, cut: int = 200) -> tuple[str, str, bool]:
    """(line, shown description, truncated) of one `<skill>` line of AGH's catalog."""
    collapsed = collapse(description)
    shown = collapsed[:cut]
    return f'  <skill name="{escape_attr(name)}">{escape_text(shown)}</skill>', shown, len(collapsed) > cut


def render_agh(eff: EffectiveSet) -> Rendered:
    cut = RUNTIMES["agh"].catalog_cut or 200
    skills = eff.enabled
    if not skills:
        return Rendered("", [])
    lines = ["<available-skills>"]
    entries = []
    for s in skills:
        description = _description(s)
        line, shown, truncated = agh_entry(s.name, description, cut)
        lines.append(line)
        entries.append(CatalogEntry(s.name, s.tier, s.path, description, shown, truncated))
    lines += ["</available-skills>", ""]
    first = skills[0].name
    if eff.definition is None or eff.definition.may_call(SKILL_VIEW_TOOL):
        lines.append(f'Use `{SKILL_VIEW_TOOL}` with `{{ "name": "{first}" }}` to load full instructions for any skill.')
        lines.append(f'Use `{SKILL_VIEW_TOOL}` with `{{ "name": "{first}", "file": "<path>" }}` to read a specific '
                     "skill resource file.")
    else:
        lines.append("Use `agh skill view <name>` to load full instructions for any skill.")
        lines.append("Use `agh skill view <name> --file <path>` to read a specific skill resource file.")
    return Rendered("\n".join(lines) + "\n", entries)


# -- Amp ------------------------------------------------------------------------------------------
AMP_INTRO = ("The following skills provide specialized instructions for specific tasks.\n"
             "Use the skill tool to load a skill when the task matches its description.")


def render_amp(eff: EffectiveSet) -> Rendered:
    # Amp's formatAvailableSkills: no escaping, argument-hint computed but never printed; a skill is
    # hidden when `disable-model-invocation` is truthy in JavaScript, as Amp's YAML 1.2 reads it.
    visible = [s for s in eff.enabled if not js_truthy(s.field_in("1.2", "disable-model-invocation"))]
    if not visible:
        return Rendered("", [])
    items, entries = [], []
    for s in visible:
        description = _description(s)
        items.append(f"  <skill>\n    <name>{s.name}</name>\n    <description>{description}</description>\n  </skill>")
        entries.append(CatalogEntry(s.name, s.tier, s.path, description, description, False))
    # The function returns the template literal as is: no newline after `</available_skills>`.
    text = f"{AMP_INTRO}\n\n<available_skills>\n" + "\n".join(items) + "\n</available_skills>"
    return Rendered(text, entries)


# -- the reference `to-prompt` layout (agentskills, codex, claude-code) ---------------------------
def reference_description(s: EffectiveSkill, runtime: str) -> tuple[str, str, bool]:
    """(full, shown, truncated). Claude Code lists description + when_to_use, cut at 1,536."""
    description = _description(s).strip()
    cut = RUNTIMES[runtime].catalog_cut
    if cut is None:
        return description, description, False
    when = s.field("when_to_use")
    full = description + ("\n" + when.strip() if isinstance(when, str) and when.strip() else "")
    return full, full[:cut], len(full) > cut


def render_reference(eff: EffectiveSet) -> Rendered:
    skills = sorted(eff.enabled, key=lambda s: (s.name, s.path))
    if not skills:
        return Rendered("", [])
    lines = ["<available_skills>"]
    entries = []
    for s in skills:
        full, shown, truncated = reference_description(s, eff.runtime)
        lines += ["<skill>", "<name>", html.escape(s.name), "</name>", "<description>", html.escape(shown),
                  "</description>", "<location>", s.path, "</location>", "</skill>"]
        entries.append(CatalogEntry(s.name, s.tier, s.path, full, shown, truncated))
    lines.append("</available_skills>")
    return Rendered("\n".join(lines) + "\n", entries)


# -- workspace-agents -----------------------------------------------------------------------------
WORKSPACE_AGENTS_FOOTER = "Use the `skill_use` tool to load a skill's full instructions when needed."


def render_workspace_agents(eff: EffectiveSet) -> Rendered:
    visible = [s for s in eff.enabled if s.field("user-invocable", True) is not False]
    if not visible:
        return Rendered("", [])
    lines, entries = ["## Available Skills", ""], []
    for s in visible:
        description = _description(s).strip()
        hint = s.field("argument-hint")
        hint_text = f" {_text(hint).strip()}" if hint not in (None, "") else ""
        lines.append(f"- **{s.name}**{hint_text}: {description}")
        entries.append(CatalogEntry(s.name, s.tier, s.path, description, description, False))
    lines += ["", WORKSPACE_AGENTS_FOOTER]
    return Rendered("\n".join(lines) + "\n", entries)


# -- Agentcy --------------------------------------------------------------------------------------
def document_length(doc: Document) -> int:
    """Agentcy's `content_length`: characters of the whole file (a BOM counts)."""
    return len(doc.src.text) + (1 if doc.src.had_bom else 0)


def content_length(decl: SkillDecl) -> int:
    return document_length(decl.doc) if decl.doc is not None else 0


def render_agentcy(eff: EffectiveSet, budget: int) -> Rendered:
    skills = eff.enabled
    if not skills:
        return Rendered("", [])
    used = sum(content_length(s.decl) for s in skills)
    if used > budget:
        biggest = max(skills, key=lambda s: content_length(s.decl))
        raise CatalogError(f"the enabled skills need {used} characters but agentcy.max_prompt_chars is {budget} "
                           f"(largest: '{biggest.name}', {content_length(biggest.decl)}): Agentcy refuses to "
                           "enable this set")
    blocks, entries = [], []
    for s in skills:
        content = s.decl.doc.src.text if s.decl.doc is not None else ""
        blocks.append(f'<skill name="{s.name}">\n{content.rstrip(chr(10) + chr(13))}\n</skill>')
        description = _description(s)
        entries.append(CatalogEntry(s.name, s.tier, s.path, description, description, False))
    text = "\n".join(blocks) + f"\nSkills budget: {used}/{budget} characters\n"
    return Rendered(text, entries)


FORMATS: dict[str, Callable[..., Rendered]] = {
    "agh": render_agh,
    "amp": render_amp,
    "reference": render_reference,
    "workspace-agents": render_workspace_agents,
}


# -- public API -----------------------------------------------------------------------------------
def render_effective_set(index: Index, eff: EffectiveSet) -> Rendered:
    fmt = RUNTIMES[eff.runtime].catalog_format
    if fmt == "agentcy":
        return render_agentcy(eff, index.config.agentcy_max_prompt_chars)
    return FORMATS[fmt](eff)


def catalog_object(index: Index, runtime: str, agent: str | None = None, *,
                   enabled: list[str] | None = None) -> dict:
    """The `catalog --format json` object (SPEC §6.1). Raises `CatalogError` with a one-line reason for
    an unknown runtime, a missing agent, an agent that fails closed, or an Agentcy set over budget.
    `enabled` narrows the set to these names (Agentcy's chosen enabled set)."""
    try:
        eff = resolve_effective_set(index, runtime, agent)
    except CatalogError:
        raise
    except EffectiveSetError as exc:
        raise CatalogError(str(exc)) from None
    if enabled is not None:
        unknown = [n for n in enabled if n not in eff.names()]
        if unknown:
            raise CatalogError(f"not in the effective set: {', '.join(unknown)}")
        eff.skills = [s for s in eff.skills if s.name in set(enabled)]
    rendered = render_effective_set(index, eff)
    return {
        "runtime": runtime,
        "agent": eff.agent,
        "text": rendered.text,
        "chars": len(rendered.text),
        "skills": [e.as_json() for e in rendered.entries],
        "mcp_servers": effective_mcp_servers(index, eff),
    }


def render_catalog(index: Index, runtime: str, agent: str | None = None) -> str:
    return catalog_object(index, runtime, agent)["text"]


def catalog_notes(index: Index, runtime: str, agent: str | None = None) -> list[str]:
    """Warnings about the set that the text cannot carry (e.g. Codex loading one name twice)."""
    try:
        return resolve_effective_set(index, runtime, agent).notes
    except EffectiveSetError:
        return []


@dataclass
class CatalogCost:
    chars: int  # code points this skill adds to the catalog
    truncated: bool
    cut: int | None


def catalog_cost(decl: SkillDecl) -> CatalogCost:
    """What one copy of a skill costs in its runtime's catalog (for hover and SK011)."""
    runtime = RUNTIMES[decl.runtime]
    s = EffectiveSkill(decl.name, decl)
    fmt = runtime.catalog_format
    if fmt == "agh":
        line, _, truncated = agh_entry(decl.name, _description(s), runtime.catalog_cut or 200)
        return CatalogCost(len(line) + 1, truncated, runtime.catalog_cut)
    if fmt == "amp":
        description = _description(s)
        item = f"  <skill>\n    <name>{decl.name}</name>\n    <description>{description}</description>\n  </skill>\n"
        return CatalogCost(len(item), False, None)
    if fmt == "workspace-agents":
        rendered = render_workspace_agents(EffectiveSet(decl.runtime, None, None, None, [s]))
        return CatalogCost(len(rendered.text.splitlines()[2]) + 1 if rendered.text else 0, False, None)
    if fmt == "agentcy":
        return CatalogCost(content_length(decl), False, None)
    _, shown, truncated = reference_description(s, decl.runtime)
    parts = ["<skill>", "<name>", html.escape(decl.name), "</name>", "<description>", html.escape(shown),
             "</description>", "<location>", decl.path, "</location>", "</skill>"]
    return CatalogCost(sum(len(p) + 1 for p in parts), truncated, runtime.catalog_cut)
