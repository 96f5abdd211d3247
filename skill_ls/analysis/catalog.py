"""Catalog renderers: the exact text each runtime injects to advertise its effective set.

`catalog_object(index, runtime, agent)` is the `skill-ls catalog --format json` object and the
result of the `skillLs.renderCatalog` command; `render_catalog` is its `text`. Every format is one
`CatalogFormat` in `FORMATS` (keyed by `Runtime.catalog_format`) whose `entry` renders *and* costs one
skill: the catalog, hover's cost line and SK011 all read it. Readings, documented in docs/catalog.md:
an empty effective set renders an empty string in every format; every non-empty text ends with a
newline (the reference `agentskills to-prompt` prints one too); Agentcy's enabled set defaults to
every skill of its roots, by name; its budget is in the JSON (`budget`), not in the text (the source's
prompt example has no budget line).
"""
from __future__ import annotations

import abc
import functools
import re
from typing import Any

from skill_ls.analysis.effective import EffectiveSet, EffectiveSetError, EffectiveSkill, effective_mcp_servers, \
    hidden, resolve_effective_set
from skill_ls.core.index import Document, Index, SkillDecl
from skill_ls.core.own_settings import remote_note, remote_sources
from skill_ls.core.parse.text import collapse
from skill_ls.core.parse.yaml12 import js_string
from skill_ls.core.records import dataclass, field, replace
from skill_ls.core.runtimes import RUNTIMES, Runtime

SKILL_VIEW_TOOL = "agh__skill_view"


class CatalogError(EffectiveSetError):
    """The catalog cannot be rendered; `str()` is a one-line reason."""


@dataclass
class CatalogEntry:
    """One skill as its runtime's catalog shows it. `text` is exactly what the entry adds to the
    catalog (the renderer joins these texts), `chars` what it costs: the entry and its separator
    (Agentcy: the characters charged to the prompt budget)."""

    name: str
    tier: str
    path: str
    description: str  # the full description (Claude Code: with `when_to_use`)
    shown: str  # what the catalog shows (after collapsing and cutting, before escaping)
    truncated: bool
    text: str = ""
    chars: int = 0
    builtin_source: str | None = None  # a compiled-in skill: where its description comes from
    scope: str | None = None  # a copy that serves only the files below this directory (`RootDir.scope_label`)

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "tier": self.tier, "path": self.path,
                               "description": self.description, "truncated": self.truncated}
        if self.builtin_source is not None:
            out["builtin"] = True
            out["description_source"] = self.builtin_source
        if self.scope is not None:
            out["scope"] = self.scope
        return out


@dataclass
class Rendered:
    """A rendered catalog: its text, the entries in it and the skills left out (with the reason)."""

    text: str
    entries: list[CatalogEntry]
    left_out: list[tuple[EffectiveSkill, str]] = field(default_factory=list)  # (skill, reason)


@dataclass
class CatalogCost:
    """What one skill costs in a runtime's catalog, and whether its description is cut there."""

    chars: int  # code points this skill adds to the catalog (Agentcy: charges to the prompt budget)
    truncated: bool
    cut: int | None
    full: str = ""  # the description as the catalog composes it, before the cut
    shown: str = ""  # what survives the cut


# -- text helpers ---------------------------------------------------------------------------------

def _xml_escape(text: str) -> str:
    """`html.escape(text)` (the `html` module's import costs ~1 ms of every start, for this)."""
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;").replace("'", "&#x27;"))

def escape_text(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def escape_attr(text: str) -> str:
    return escape_text(text).replace('"', "&quot;")


# -- injection safety -------------------------------------------------------------------------------
# A catalog is text put into an agent's prompt. A name or description that would leave its slot (close
# the element it sits in, forge a line of guidance, start a new list item or heading, carry terminal
# or bidi controls) is not rendered: the skill is left out of the catalog and SK016 says why.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
_NAME_BREAKERS = re.compile(r"[\n\r\t\"`\\<>*]")


def _control_reason(what: str, text: str) -> str | None:
    ch = _first_control(text)
    if ch is None:
        return None
    return f"its {what} contains the control character U+{ord(ch):04X}"


@functools.lru_cache(maxsize=64)
def _first_control(text: str) -> str | None:
    """The first control character of `text` (one search per text, however many runtimes' catalogs
    and rules ask about the same description: eleven runtimes read `.agents/skills`)."""
    m = _CONTROL.search(text)
    return m.group() if m is not None else None


def name_refusal(name: str) -> str | None:
    """Why a name cannot sit in a catalog slot safely, or None: a line break, tab or control
    character, a double quote, backtick or backslash (the `name="…"` attribute, the
    `{ "name": "…" }` guidance in backticks), an angle bracket (elements that are not escaped) or an
    asterisk (`**name**`). Spaces and other punctuation stay inside every slot."""
    reason = _control_reason("name", name)
    if reason:
        return reason
    m = _NAME_BREAKERS.search(name)
    if m is not None:
        ch = m.group()
        shown = {"\n": "a line break", "\r": "a line break", "\t": "a tab"}.get(ch, f"'{ch}'")
        return f"its name contains {shown}, which can break out of the name's place in the catalog"
    return None


def line_refusal(name: str) -> str | None:
    """Why a name cannot stay on its line of a catalog: a line break, tab or control character. The
    formats that escape the name's slot (AGH's `name="…"` attribute) or print it as the runtime does
    (Amp) refuse only these; quotes, angle brackets and asterisks stay (escaped where the runtime
    escapes)."""
    reason = _control_reason("name", name)
    if reason is None and any(ch in name for ch in "\n\r\t"):
        reason = "its name contains a line break or tab, which can break out of the name's line in the catalog"
    return reason


def _text(value: object) -> str:
    if value is None:
        return ""
    return value if isinstance(value, str) else str(value)


def _description(s: EffectiveSkill) -> str:
    return _text(s.field("description"))


def _js_description(runtime: Runtime, s: EffectiveSkill) -> str:
    """`${s.description}` as a JavaScript template literal prints the value the runtime's YAML reader
    gives (Amp: YAML 1.2, so `on` stays "on", `0o17` is 15, `1.0` prints 1)."""
    value = s.field_in(runtime.yaml_dialect, "description")
    return value if isinstance(value, str) else js_string(value)


def document_length(doc: Document) -> int:
    """Agentcy's `content_length`: characters of the whole file (a BOM counts)."""
    return len(doc.src.text) + (1 if doc.src.had_bom else 0)


def _entry(s: EffectiveSkill, full: str, shown: str, truncated: bool, text: str, chars: int) -> CatalogEntry:
    return CatalogEntry(s.name, s.tier, s.path, full, shown, truncated, text, chars, scope=_scope(s))


def _scope(s: EffectiveSkill) -> str | None:
    root = s.decl.root
    return root.scope_label if root is not None and root.scope is not None else None


class CatalogFormat(abc.ABC):
    """One catalog layout. `entry` renders one skill (its text, what is shown, whether it is cut,
    what it costs); `frame` puts the entries' texts together with the format's header and footer.
    `render` (the catalog) and `cost` (hover, SK011) both go through `entry`, so they cannot differ."""

    id: str = ""
    documented: bool = True  # False: the runtime's documentation does not show its catalog text

    @abc.abstractmethod
    def entry(self, runtime: Runtime, s: EffectiveSkill) -> CatalogEntry:
        """One skill: its text in the catalog, what it shows, whether it is cut, what it costs."""

    @abc.abstractmethod
    def frame(self, index: Index, eff: EffectiveSet, entries: list[CatalogEntry]) -> str:
        """The whole catalog text from the entries' texts (header, separators, footer)."""

    def order(self, skills: list[EffectiveSkill]) -> list[EffectiveSkill]:
        return skills

    def refusal(self, runtime: Runtime, s: EffectiveSkill) -> str | None:
        """Why this skill cannot be rendered safely in this format (it is then left out), or None.
        The base check: the name (see `name_refusal`) and control characters in the description;
        formats that do not escape add what would close their elements."""
        return name_refusal(s.name) or _control_reason("description", self.slot_text(runtime, s))

    def slot_text(self, runtime: Runtime, s: EffectiveSkill) -> str:
        """The description text this format puts into the prompt (before its own escaping)."""
        return _description(s)

    def render(self, index: Index, eff: EffectiveSet) -> Rendered:
        runtime = RUNTIMES[eff.runtime]
        visible = [s for s in eff.enabled if not hidden(runtime, s)]
        left_out = [(s, reason) for s in visible if (reason := self.refusal(runtime, s)) is not None]
        refused = {id(s) for s, _ in left_out}
        skills = self.order([s for s in visible if id(s) not in refused])
        if not skills:
            return Rendered("", [], left_out)
        entries = [self.entry(runtime, s) for s in skills]
        for e, s in zip(entries, skills):
            if s.decl.builtin_description is not None:
                e.builtin_source = s.decl.builtin_source
        return Rendered(self.frame(index, eff, entries), entries, left_out)

    def cost(self, decl: SkillDecl, doc: Document | None = None) -> CatalogCost:
        """What `decl` costs in the catalog; `doc` (when given) is the text to read instead of `decl.doc`."""
        if doc is not None and doc is not decl.doc:
            decl = replace(decl, doc=doc)
        runtime = RUNTIMES[decl.runtime]
        s = EffectiveSkill(decl.name, decl)
        e = self.entry(runtime, s)
        if hidden(runtime, s) or self.refusal(runtime, s) is not None:  # left out: costs nothing there
            return CatalogCost(0, False, runtime.catalog_cut, e.description, "")
        return CatalogCost(e.chars, e.truncated, runtime.catalog_cut, e.description, e.shown)


# -- AGH ------------------------------------------------------------------------------------------
class AghLines(CatalogFormat):
    """`<available-skills>` with one `<skill name="…">` line per skill: the description is
    whitespace-collapsed and cut at `catalog_cut` code points, name and text escaped; then the
    `agh__skill_view` guidance (the CLI's when the agent may not call the tool)."""

    id = "agh_lines"

    def refusal(self, runtime: Runtime, s: EffectiveSkill) -> str | None:
        """AGH accepts any non-empty name and escapes the `name="…"` attribute: only a name that would
        leave its line is refused (`*`, `"` and `<` are escaped, not dropped)."""
        return line_refusal(s.name) or _control_reason("description", self.slot_text(runtime, s))

    def slot_text(self, runtime: Runtime, s: EffectiveSkill) -> str:
        return collapse(_description(s))

    def entry(self, runtime: Runtime, s: EffectiveSkill) -> CatalogEntry:
        description = _description(s)
        collapsed = collapse(description)
        cut = runtime.catalog_cut
        shown = collapsed[:cut] if cut is not None else collapsed
        line = f'  <skill name="{escape_attr(s.name)}">{escape_text(shown)}</skill>'
        truncated = cut is not None and len(collapsed) > cut
        return CatalogEntry(s.name, s.tier, s.path, description, shown, truncated, line, len(line) + 1,
                            scope=_scope(s))

    def cost(self, decl: SkillDecl, doc: Document | None = None) -> CatalogCost:
        cost = super().cost(decl, doc)
        cost.full = collapse(cost.full)  # what is cut is the collapsed text
        return cost

    def frame(self, index: Index, eff: EffectiveSet, entries: list[CatalogEntry]) -> str:
        lines = ["<available-skills>", *(e.text for e in entries), "</available-skills>", ""]
        # The example names the first skill whose name sits in the JSON in backticks as written.
        first = next((e.name for e in entries if not any(ch in e.name for ch in '"`\\')), "<name>")
        if eff.definition is None or eff.definition.may_call(SKILL_VIEW_TOOL):
            lines.append(f'Use `{SKILL_VIEW_TOOL}` with `{{ "name": "{first}" }}` to load full instructions for any '
                         "skill.")
            lines.append(f'Use `{SKILL_VIEW_TOOL}` with `{{ "name": "{first}", "file": "<path>" }}` to read a specific '
                         "skill resource file.")
        else:
            lines.append("Use `agh skill view <name>` to load full instructions for any skill.")
            lines.append("Use `agh skill view <name> --file <path>` to read a specific skill resource file.")
        return "\n".join(lines) + "\n"


# -- Amp ------------------------------------------------------------------------------------------
AMP_INTRO = ("The following skills provide specialized instructions for specific tasks.\n"
             "Use the skill tool to load a skill when the task matches its description.")


class AmpXml(CatalogFormat):
    """Amp's formatAvailableSkills: no escaping, argument-hint computed but never printed; the
    function returns its template literal as is, so there is no newline after `</available_skills>`."""

    id = "amp_xml"

    def refusal(self, runtime: Runtime, s: EffectiveSkill) -> str | None:
        """Only what would forge a line (a line break or control character in the name, control
        characters in the description): Amp renders every visible skill unescaped
        (`formatAvailableSkills` filters only on `disable-model-invocation`), so markup in the text is
        rendered as Amp renders it, and SK014 warns about it."""
        return line_refusal(s.name) or _control_reason("description", self.slot_text(runtime, s))

    def slot_text(self, runtime: Runtime, s: EffectiveSkill) -> str:
        return _js_description(runtime, s)

    def entry(self, runtime: Runtime, s: EffectiveSkill) -> CatalogEntry:
        description = _js_description(runtime, s)
        item = f"  <skill>\n    <name>{s.name}</name>\n    <description>{description}</description>\n  </skill>"
        return _entry(s, description, description, False, item, len(item) + 1)

    def frame(self, index: Index, eff: EffectiveSet, entries: list[CatalogEntry]) -> str:
        return f"{AMP_INTRO}\n\n<available_skills>\n" + "\n".join(e.text for e in entries) + "\n</available_skills>"


class OpenCodeXml(AmpXml):
    """OpenCode's `skill` tool description as its documentation shows it: `<available_skills>`, one
    `<skill>` with `<name>` and `<description>` per skill, indented by two spaces per level. Nothing
    is said of escaping (OpenCode interpolates the values: reading, as Amp), of an intro or of a final
    newline (none)."""

    id = "opencode_xml"

    def frame(self, index: Index, eff: EffectiveSet, entries: list[CatalogEntry]) -> str:
        return "<available_skills>\n" + "\n".join(e.text for e in entries) + "\n</available_skills>"


class Undocumented(CatalogFormat):
    """A runtime whose catalog text is not documented (GitHub Copilot, Cursor, Gemini CLI): skill-ls
    renders no text rather than invent one. What is documented is which skills are listed and that
    their name and description are given to the model; a skill's cost is those two texts' length."""

    id = "undocumented"
    documented = False

    def entry(self, runtime: Runtime, s: EffectiveSkill) -> CatalogEntry:
        description = _description(s)
        return _entry(s, description, description, False, "", len(s.name) + len(description))

    def frame(self, index: Index, eff: EffectiveSet, entries: list[CatalogEntry]) -> str:
        return ""


# -- the reference `to-prompt` layout (agentskills, codex, claude-code) ---------------------------
class Reference(CatalogFormat):
    """The reference `agentskills to-prompt` layout, one tag per line, HTML-escaped. The description
    is stripped; each field of `catalog_appends` (Claude Code: `when_to_use`) follows on its own line,
    and the whole is cut at `catalog_cut` characters."""

    id = "reference"

    def order(self, skills: list[EffectiveSkill]) -> list[EffectiveSkill]:
        return sorted(skills, key=lambda s: (s.name, s.path))

    def entry(self, runtime: Runtime, s: EffectiveSkill) -> CatalogEntry:
        full = _description(s).strip()
        cut = runtime.catalog_cut
        shown, truncated = full, False
        if cut is not None:
            for key in runtime.catalog_appends:
                extra = s.field(key)
                if isinstance(extra, str) and extra.strip():
                    full += "\n" + extra.strip()
            shown, truncated = full[:cut], len(full) > cut
        text = "\n".join(("<skill>", "<name>", _xml_escape(s.name), "</name>", "<description>", _xml_escape(shown),
                          "</description>", "<location>", _xml_escape(s.path), "</location>", "</skill>"))
        return _entry(s, full, shown, truncated, text, len(text) + 1)

    def frame(self, index: Index, eff: EffectiveSet, entries: list[CatalogEntry]) -> str:
        return "\n".join(("<available_skills>", *(e.text for e in entries), "</available_skills>")) + "\n"


# -- workspace-agents -----------------------------------------------------------------------------
WORKSPACE_AGENTS_FOOTER = "Use the `skill_use` tool to load a skill's full instructions when needed."


class MarkdownList(CatalogFormat):
    """`## Available Skills`, one `- **name** hint: description` line per skill, then the footer."""

    id = "markdown_list"

    def refusal(self, runtime: Runtime, s: EffectiveSkill) -> str | None:
        """The base refusal only (a name that leaves its slot, control characters): nothing in the
        workspace agents page filters skills, so a multi-line description or hint is rendered as it is
        (issue 23); control characters in the hint are refused like the description's."""
        reason = super().refusal(runtime, s)
        hint = s.field("argument-hint")
        if reason is None and hint not in (None, ""):
            reason = _control_reason("argument-hint", _text(hint))
        return reason

    def entry(self, runtime: Runtime, s: EffectiveSkill) -> CatalogEntry:
        description = _description(s).strip()
        hint = s.field("argument-hint")
        hint_text = f" {_text(hint).strip()}" if hint not in (None, "") else ""
        line = f"- **{s.name}**{hint_text}: {description}"
        return _entry(s, description, description, False, line, len(line) + 1)

    def frame(self, index: Index, eff: EffectiveSet, entries: list[CatalogEntry]) -> str:
        return "\n".join(("## Available Skills", "", *(e.text for e in entries), "", WORKSPACE_AGENTS_FOOTER)) + "\n"


# -- Agentcy --------------------------------------------------------------------------------------
class FullContent(CatalogFormat):
    """Agentcy injects every enabled skill's whole file, then the budget line; a set over the
    budget (`prompt_budget_setting`) is refused. An entry costs its `content_length`."""

    id = "full_content"

    def slot_text(self, runtime: Runtime, s: EffectiveSkill) -> str:
        doc = s.decl.doc
        return doc.src.text if doc is not None else ""

    def refusal(self, runtime: Runtime, s: EffectiveSkill) -> str | None:
        # The file goes in whole: what matters is that it cannot end its block early. Control
        # characters in a body (form feeds, escapes in examples) stay inside it.
        reason = name_refusal(s.name)
        if reason is None and re.search(r"</\s*skill\s*>", self.slot_text(runtime, s), re.I):
            reason = f"its file contains '</skill>' and {runtime.title} injects the file as is: it would end the skill's block"
        return reason

    def entry(self, runtime: Runtime, s: EffectiveSkill) -> CatalogEntry:
        doc = s.decl.doc
        content = doc.src.text if doc is not None else ""
        # The chat route prepends (name, content) pairs: the display name, not the slug that identifies it.
        display = s.field("name", s.name)
        block = f'<skill name="{display}">\n{content.rstrip(chr(10) + chr(13))}\n</skill>'
        description = _description(s)
        return _entry(s, description, description, False, block, document_length(doc) if doc is not None else 0)

    def frame(self, index: Index, eff: EffectiveSet, entries: list[CatalogEntry]) -> str:
        runtime = RUNTIMES[eff.runtime]
        setting = runtime.prompt_budget_setting
        budget: int = getattr(index.config, setting) if setting else 0
        used = sum(e.chars for e in entries)
        if setting and used > budget:
            biggest = max(entries, key=lambda e: e.chars)
            raise CatalogError(f"the enabled skills need {used} characters but {runtime.setting_key(setting)} "
                               f"is {budget} (largest: '{biggest.name}', {biggest.chars}): "
                               f"{runtime.title} refuses to enable this set")
        # The blocks only: the source's prompt example has no budget line (the budget travels in the
        # skills_state_changed event; `catalog --format json` carries it as "budget").
        return "\n".join(e.text for e in entries) + "\n"


FORMATS: dict[str, CatalogFormat] = {f.id: f for f in (AghLines(), AmpXml(), Reference(), MarkdownList(), FullContent(),
                                                       OpenCodeXml(), Undocumented())}


def catalog_format(runtime: Runtime) -> CatalogFormat:
    return FORMATS[runtime.catalog_format]


# -- public API -----------------------------------------------------------------------------------
def render_effective_set(index: Index, eff: EffectiveSet) -> Rendered:
    return catalog_format(RUNTIMES[eff.runtime]).render(index, eff)


def catalog_object(index: Index, runtime: str, agent: str | None = None, *,
                   enabled: list[str] | None = None) -> dict[str, Any]:
    """The `catalog --format json` object. Raises `CatalogError` with a one-line reason for
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
    out: dict[str, Any] = {
        "runtime": runtime,
        "agent": eff.agent,
        "text": rendered.text,
        "chars": len(rendered.text),
        "skills": [e.as_json() for e in rendered.entries],
        "mcp_servers": effective_mcp_servers(index, eff),
        # skills that cannot be rendered safely (CT001): not in `text`, said here and on stderr
        "left_out": [{"name": sk.name, "path": sk.path, "reason": reason} for sk, reason in rendered.left_out],
        # False: the runtime does not document its catalog text, so `text` is empty (never invented)
        "documented": catalog_format(RUNTIMES[runtime]).documented,
    }
    remote = remote_sources(RUNTIMES[runtime], index) if runtime in RUNTIMES else []
    if remote:  # OpenCode's `skills.urls`: never fetched, so their skills are not in `skills`
        out["not_checked"] = [{"url": url, "file": path} for url, path in remote]
    unread = unread_roots(index, runtime)
    if unread:  # roots the runtime's own settings turn off (a disabled Gemini CLI extension)
        out["not_loaded"] = [{"root": root, "reason": reason} for root, reason in unread]
    setting = RUNTIMES[runtime].prompt_budget_setting if runtime in RUNTIMES else None
    if setting:  # Agentcy's skills_state_changed event: budget_used_chars / budget_max_chars
        out["budget"] = {"budget_used_chars": sum(e.chars for e in rendered.entries),
                         "budget_max_chars": getattr(index.config, setting)}
    return out


def render_catalog(index: Index, runtime: str, agent: str | None = None) -> str:
    text: str = catalog_object(index, runtime, agent)["text"]
    return text


def unread_roots(index: Index, runtime: str) -> list[tuple[str, str]]:
    """(root, reason) of each root holding skills that the runtime's own settings keep it from
    reading (`RootDir.unused`: Gemini CLI's disabled extensions); agent-local roots are per agent."""
    roots = [r for r in index.roots.get(runtime, ()) if r.unused and r.agent is None]
    held = {id(d.root) for d in index.decls.get(runtime, ()) if d.root is not None}
    return [(r.path, r.unused) for r in roots if id(r) in held and r.unused]


def catalog_notes(index: Index, runtime: str, agent: str | None = None) -> list[str]:
    """Warnings about the set that the text cannot carry (e.g. Codex loading one name twice, a skill
    left out because it cannot be rendered safely)."""
    try:
        eff = resolve_effective_set(index, runtime, agent)
    except EffectiveSetError:
        return []
    fmt = catalog_format(RUNTIMES[eff.runtime])
    left = [f"'{s.name}' ({s.path}) is left out of the catalog: {reason}"
            for s in eff.enabled if not hidden(RUNTIMES[eff.runtime], s)
            and (reason := fmt.refusal(RUNTIMES[eff.runtime], s)) is not None]
    if not fmt.documented:
        left.insert(0, f"{RUNTIMES[eff.runtime].title} does not document the text of its skill listing: no text is "
                       "shown (never invented); `--format json` lists the skills it gives the model")
    unread = [f"the skills of {index.display_path(root)} are not loaded: {reason}"
              for root, reason in unread_roots(index, runtime)]
    remote = [remote_note(RUNTIMES[runtime], index, url, path) + " (nor listed here)"
              for url, path in remote_sources(RUNTIMES[runtime], index)]
    return [*eff.notes, *unread, *remote, *left]


def catalog_cost(decl: SkillDecl, doc: Document | None = None) -> CatalogCost:
    """What one copy of a skill costs in its runtime's catalog (hover, SK011): the same `entry` the
    catalog is rendered from. `doc` overrides `decl.doc` (a rule's document)."""
    return catalog_format(RUNTIMES[decl.runtime]).cost(decl, doc)
