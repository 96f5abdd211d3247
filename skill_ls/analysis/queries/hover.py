"""Hover: on a skill name or reference, the winning copy per active runtime, shadowed copies,
blocked state and catalog cost; on a frontmatter key, its documentation and accepting runtimes.
The text is Markdown; the span is what it is about (the name, or the key)."""
from __future__ import annotations

import os

from skill_ls.analysis.navigation import key_at
from skill_ls.analysis.queries.scope import (agent_of, document, index_of, name_scope, ref_under, resolutions,
                                             runtime_title)
from skill_ls.analysis.workspace import WorkspaceState
from skill_ls.core.config import Config
from skill_ls.core.index import Index, SkillDecl
from skill_ls.core.labels import label_resolution, refused_under_other_names
from skill_ls.core.model import Span
from skill_ls.core.records import dataclass
from skill_ls.core.runtimes import DEFAULT_AGENT_FAMILY, RUNTIMES
from skill_ls.core.runtimes.agent_families import AGENT_FAMILIES


@dataclass(frozen=True)
class Hover:
    markdown: str
    span: Span


def hover(state: WorkspaceState, path: str, line: int, col: int) -> Hover | None:
    """What to show for the position: a skill name's copies, or a frontmatter key's documentation."""
    if not path.endswith(".md"):
        return _plugin_file_hover(state, path, line, col)
    ref = ref_under(state, path, line, col)
    if ref is not None:
        return Hover(skill_hover(state, ref.name, path, ref.kind), ref.span)
    doc = document(state, path)
    if doc is not None and line == 0:
        from skill_ls.core.plugins import command_name, plugin_file_for

        pf = plugin_file_for(path)
        if pf is not None and pf.kind == "command":
            where = f"the plugin `{pf.plugin.name}`" if pf.plugin is not None else "this project"
            return Hover(f"**command** `/{command_name(path, pf.plugin)}` — a Claude Code command of {where}, named "
                         "by its file and folders", Span(0, 0, 0, len(doc.src.line_text(0))))
    entry = key_at(doc, line, col) if doc is not None else None
    if entry is not None:
        return Hover(key_hover(state, entry.key, path), entry.key_span)
    return None


def _plugin_file_hover(state: WorkspaceState, path: str, line: int, col: int) -> Hover | None:
    """On a path of a Claude Code plugin.json or marketplace.json: the file or directory it names."""
    from skill_ls.analysis.navigation import link_at
    from skill_ls.core.plugins import plugin_file_for

    doc = document(state, path)
    link = link_at(doc, line, col) if doc is not None else None
    if link is None:
        return None
    pf = plugin_file_for(link.target)
    what = {"agent": "a plugin agent", "command": "a command", "manifest": "the plugin's manifest",
            "hooks": "a hooks file", "plugin_mcp": "an MCP configuration"}.get(pf.kind, "") if pf else ""
    kind = "directory" if os.path.isdir(link.target) else "file"
    return Hover(f"**{kind}** `{_display(link.target, state.workspace)}`" + (f" — {what}" if what else ""), link.span)


def _display(path: str, workspace: str) -> str:
    if path.startswith(workspace.rstrip(os.sep) + os.sep):
        return os.path.relpath(path, workspace)
    return path


def catalog_cost_line(decl: SkillDecl, config: Config) -> str | None:
    """The catalog cost line, computed by the same code that renders the catalog."""
    from skill_ls.analysis.catalog import catalog_cost

    if decl.doc is None or decl.blocked is not None or decl.builtin:
        return None
    cost = catalog_cost(decl)
    setting = RUNTIMES[decl.runtime].prompt_budget_setting
    if setting is not None:
        budget = getattr(config, setting)
        return f"{cost.chars:,} chars = {100 * cost.chars / max(budget, 1):.1f}% of the {budget:,}-char prompt budget"
    text = f"{cost.chars:,} chars in the catalog"
    if cost.truncated:
        text += f"; description cut at {cost.cut} code points"
    return text


def skill_hover(state: WorkspaceState, name: str, path: str, kind: str | None = None) -> str:
    """Every copy of `name` per active runtime that declares it, with its label, and what turns it off.
    `kind` is how the name is written there (`SkillRef.kind`): a name in an agent's `skills.disabled`
    (a tombstone) is not in that agent's catalog, so its catalog line says so instead of a cost."""
    from skill_ls.analysis.effective import skills_off
    from skill_ls.core.own_settings import disabled_names, permission_notes

    index = index_of(state)
    tombstoned_by = None
    if kind == "tombstone":
        holder = agent_of(state, path)
        scope = name_scope(state, path)
        tombstoned_by = (holder.name, scope.runtimes[0]) if holder is not None and scope.runtimes else None
    lines = [f"**skill `{name}`**", ""]
    found = False
    for res in resolutions(state, name, path):
        real = [d for d in res.entries if not d.builtin]
        if not res.entries:
            continue
        found = True
        agent = f" — agent `{res.agent}`" if res.agent else ""
        lines.append(f"**{runtime_title(res.runtime)}** (`{res.runtime}`){agent}")
        for lab in label_resolution(res):
            d = lab.decl
            where = f"`{_display(d.path, state.workspace)}`" if d.path else "built-in"
            if d.root is not None and d.root.via:  # a root a link file moved (a linked Gemini CLI extension)
                where += f" (linked from `{os.path.dirname(d.root.via)}`)"
            note = f" — {lab.detail}" if (lab.state != "winner" or lab.scope) and lab.detail else ""
            lines.append(f"- {lab.state}: `{d.tier_label}` {where}{note}")
        for d in refused_under_other_names(index, res.runtime, name, res.agent):
            lines.append(f"- blocked: `{d.tier_label}` `{_display(d.path, state.workspace)}` — declared as "
                         f"'{d.name}': {d.blocked}")
        if res.winner is None and real:
            lines.append("- no loadable copy: the runtime loads nothing under this name")
        if res.ambiguous:
            lines.append("- ambiguous: several copies in one tier")
        if tombstoned_by is not None and res.runtime == tombstoned_by[1]:
            lines.append(f"- catalog: not in agent `{tombstoned_by[0]}`'s catalog: its `skills.disabled` removes it")
        elif res.winner is not None and not res.winner.builtin:
            cost = catalog_cost_line(res.winner, state.config)
            if cost:
                lines.append(f"- catalog: {cost}")
            meta = res.winner.meta
            if meta is not None and meta.ok:
                fields = ", ".join(f"{k} `{meta.data[k]}`" for k in ("slug", "registry", "version", "installed_at")
                                   if k in meta.data)
                lines.append(f"- provenance: {fields}")
        disabled_by = disabled_names(RUNTIMES[res.runtime], index).get(name)
        if disabled_by is not None:
            lines.append(f"- disabled (`{disabled_by}`): omitted from catalogs")
        lines.extend(f"- {note}" for note in permission_notes(RUNTIMES[res.runtime], index, name))
        off = skills_off(index, RUNTIMES[res.runtime])
        if off:
            lines.append(f"- {runtime_title(res.runtime)} skills are disabled: `{off}`")
        lines.append("")
    if not found:
        lines.append(f"not declared in any root of the active runtimes ({', '.join(index.active) or 'none'})")
    if os.path.basename(path) == "SKILL.md" and _own_name(index, path) == name:
        from skill_ls.analysis.portability import hover_lines

        lines += ["", *hover_lines(index, path)]
    return "\n".join(lines).rstrip()


def _own_name(index: Index, path: str) -> str | None:
    """The name a SKILL.md declares (or its directory), so the verdicts show on the skill's own name."""
    doc = index.store.get(path)
    name = doc.fm.value("name") if doc.fm is not None and doc.fm.ok else None
    return name if isinstance(name, str) and name else doc.dir_name


def key_hover(state: WorkspaceState, key: str, path: str) -> str:
    """A frontmatter key's documentation: the agent family's field, or every runtime that accepts it."""
    agent = agent_of(state, path)
    if agent is not None or state.is_agent_file(path):
        family = AGENT_FAMILIES[agent.family if agent else DEFAULT_AGENT_FAMILY]
        spec = family.documented_fields().get(key)
        if spec is None:
            return f"**`{key}`** — not a known {family.id} agent field"
        text = f"**`{key}`** ({family.id} agent)\n\n{spec.doc}"
        return text + (f"\n\nValues: {', '.join(f'`{v}`' for v in spec.enum)}" if spec.enum else "")
    accepting = [rid for rid, rt in RUNTIMES.items() if key in rt.fields]
    if not accepting:
        return f"**`{key}`** — no runtime knows this field"
    docs: dict[str, list[str]] = {}
    for rid in accepting:
        docs.setdefault(RUNTIMES[rid].fields[key].doc, []).append(rid)
    parts = [f"**`{key}`**", ""]
    for doc, rids in docs.items():
        parts.append(f"- {doc} ({', '.join(rids)})")
    enums = {v for rid in accepting for v in RUNTIMES[rid].fields[key].enum}
    if enums:
        parts.append(f"\nValues: {', '.join(f'`{v}`' for v in sorted(enums))}")
    parts.append(f"\nAccepted by: {', '.join(accepting)}")
    others = [rid for rid in RUNTIMES if rid not in accepting]
    if others:
        parts.append(f"Not accepted by: {', '.join(others)}")
    return "\n".join(parts)
