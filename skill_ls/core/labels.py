"""One place that labels a declaration: what one copy of a skill name is to one runtime (and agent).

`label_decl(res, decl)` gives a `DeclLabel` — winner, shadowed, blocked, not discovered, also loaded
(a runtime that loads every copy), or overridden (for an agent, by its agent-local copy) — with the
reason, the copy that wins over it, and the range of its name. `where()` (the `where --format json`
object and the `skillLs.where` command) carries the label of every entry; hover, code lens and the
CLI's text output print it; the editors display what the server says instead of deriving it.
Pure: reads `NameResolution`/`SkillDecl` values (and, for tombstones, the agent definition).
"""
from __future__ import annotations

import os
from typing import Any, Literal

from skill_ls.core.index import Index, SkillDecl
from skill_ls.core import spans
from skill_ls.core.model import Span
from skill_ls.core.records import dataclass
from skill_ls.core.resolve import NameResolution, resolve_name
from skill_ls.core.runtimes import RUNTIMES

LabelState = Literal["winner", "shadowed", "blocked", "not discovered", "also loaded", "overridden"]


@dataclass(frozen=True)
class DeclLabel:
    state: LabelState
    decl: SkillDecl
    reason: str | None = None  # blocked / not discovered: why
    by: SkillDecl | None = None  # shadowed / overridden: the copy that wins over this one
    agent: str | None = None  # overridden: the agent whose local copy wins
    shadows: int = 0  # winner: how many loadable copies it shadows
    ambiguous: bool = False  # winner or shadowed: in one tier the runtime does not rank (SH003)
    alias: str | None = None  # also loaded: the name the runtime gives it (Claude Code's `apps/web:deploy`)

    @property
    def scope(self) -> str | None:
        """For a copy that serves only the files below one directory (Cursor's nested
        `.cursor/skills`): "for files under apps/web/"."""
        root = self.decl.root
        if root is None or root.scope is None:
            return None
        return f"for files under {root.scope_label.replace(chr(92), '/')}/"

    @property
    def detail(self) -> str | None:
        """What follows the state in one line: the reason, the winner, or what the winner shadows."""
        scope = self.scope
        if scope is not None and self.state in ("winner", "also loaded", "shadowed"):
            plain = self._detail()
            if self.state == "also loaded":  # the winner serves the other files: not an ambiguity
                plain = "ambiguous: same tier as the first copy, which loads is not documented" if self.ambiguous \
                    else (f"as {self.alias}" if self.alias else None)
            return scope + (f"; {plain}" if plain else "")
        return self._detail()

    def _detail(self) -> str | None:
        if self.state == "winner":
            if self.ambiguous:
                return "ambiguous: first of its tier's copies, which loads is not documented"
            return f"shadows {self.shadows}" if self.shadows else None
        if self.state in ("blocked", "not discovered"):
            return self.reason
        if self.state == "also loaded":
            return "ambiguous"
        if self.state == "overridden":
            return f"for agent '{self.agent}'"
        if self.ambiguous:
            return "ambiguous: same tier as the first copy, which loads is not documented"
        if self.by is None:
            return None
        if self.by.tier == self.decl.tier and self.by.root is not None:
            # One tier, ranked by directory (Gemini CLI's `.agents/skills` before `.gemini/skills`):
            # "shadowed · workspace — by workspace" would not say which copy wins.
            return f"by {self.by.tier_label} ({_short_root(self.by.root.path)})"
        return f"by {self.by.tier_label}"

    @property
    def summary(self) -> str:
        """One line: `state · tier — detail` (the code lens title)."""
        detail = self.detail
        head = f"{self.state} · {self.decl.tier_label}"
        if self.state == "not discovered":  # the reason is long; hover and `where` show it
            return head
        return head + (f" — {detail}" if detail else "")

    @property
    def name_span(self) -> Span | None:
        return name_span(self.decl)


def _short_root(path: str) -> str:
    """A skills root as a reader tells it apart: its last two parts (`.github/skills`)."""
    parts = [p for p in path.replace("\\", "/").split("/") if p]
    return "/".join(parts[-2:])


def name_span(decl: SkillDecl) -> Span | None:
    """Where a copy's name is written: the `name:` value, else the frontmatter's opening line (the
    name then comes from the directory) — where SH001-SH004 report. None for built-ins."""
    if decl.builtin or decl.doc is None:
        return None
    return spans.name_span(decl.doc)


def label_decl(res: NameResolution, decl: SkillDecl) -> DeclLabel:
    """The label of `decl` in `res` (the resolution of its name for one runtime and agent)."""
    winner = res.winner
    if decl is winner:
        tied = any(decl in group for group in res.ambiguous)
        return DeclLabel("winner", decl, shadows=len(res.shadowed), ambiguous=tied)
    if decl.undiscovered is not None:
        return DeclLabel("not discovered", decl, reason=decl.undiscovered)
    if decl.blocked is not None:
        return DeclLabel("blocked", decl, reason=decl.blocked)
    if decl in res.loaded:
        tied = any(decl in group and winner in group for group in res.ambiguous)
        return DeclLabel("also loaded", decl, by=winner, ambiguous=tied, alias=res.aliases.get(decl.path))
    if res.agent is not None and winner is not None and winner.agent is not None and decl.agent is None:
        base = [d for d in res.shadowed if d.agent is None]
        if base and decl is base[0]:  # the copy the agent-local overlay replaces
            return DeclLabel("overridden", decl, by=winner, agent=winner.agent)
    tied = any(decl in group and winner in group for group in res.ambiguous)
    return DeclLabel("shadowed", decl, by=winner, ambiguous=tied)


def label_resolution(res: NameResolution) -> list[DeclLabel]:
    """Every copy of the name, in `where` order (winner, loadable, blocked, undiscovered)."""
    return [label_decl(res, d) for d in res.entries]


def json_range(decl: SkillDecl) -> dict[str, dict[str, int]] | None:
    """The 0-based LSP range (UTF-16 columns) of the copy's name, as the JSON outputs write ranges."""
    span = name_span(decl)
    if span is None or decl.doc is None:
        return None
    src = decl.doc.src
    return {"start": {"line": span.start_line, "character": src.utf16_col(span.start_line, span.start_col)},
            "end": {"line": span.end_line, "character": src.utf16_col(span.end_line, span.end_col)}}


MARKETPLACE_KEYS = ("slug", "registry", "version", "installed_at")


def provenance(res: NameResolution, index: Index | None = None) -> dict[str, Any] | None:
    """AGH's `provenance` of the winning copy (https://agh.network/runtime/core/skills/, Provenance And
    Shadow Audit): `precedence_tier`, the losing declarations in `shadowed_by`, and the marketplace
    metadata (`slug`, `registry`, `version`, `installed_at`) when the winner came from one."""
    winner = res.winner
    if winner is None:
        return None
    out: dict[str, Any] = {"precedence_tier": winner.tier,
                           "shadowed_by": [d.path or f"(built-in {res.name})" for d in res.shadowed]}
    if winner.meta is not None and winner.meta.ok:
        out.update({k: winner.meta.data[k] for k in MARKETPLACE_KEYS if k in winner.meta.data})
    return out


def refused_under_other_names(index: Index, runtime_id: str, name: str, agent: str | None = None) -> list[SkillDecl]:
    """Blocked copies in a directory named `name` that the runtime files under the other name their
    frontmatter declares (OpenCode refusing `name: Review` in `review/`): the author's `name` skill
    too, so `where` and hover list them with the rule that refuses them."""
    key = ("refused_by_dir", runtime_id)  # (once per index state: hover asks for every runtime)
    table: dict[str, list[SkillDecl]] | None = index.derived.get(key)
    if table is None:
        table = {}
        for d in index.decls.get(runtime_id, ()):
            if d.blocked is not None and d.undiscovered is None and d.path and d.name != d.dir_name:
                table.setdefault(d.dir_name, []).append(d)
        index.derived[key] = table
    return [d for d in table.get(name, ()) if d.name != name and (d.agent is None or d.agent == agent)]


def where(index: Index, runtime_id: str, name: str, agent: str | None = None) -> dict[str, Any]:
    """The `skill-ls where --format json` object and the `skillLs.where` result: every
    declaration, winner first, each with its `label`, one-line `summary` and the `range` of its name;
    `disabled` / `tombstoned` when the operator or the agent turns the name off (AGH); `notes` for what
    the runtime's permissions say beyond that (OpenCode: `ask`, per-agent overrides)."""
    res = resolve_name(index, runtime_id, name, agent)
    entries = []
    for lab in label_resolution(res):
        d = lab.decl
        entries.append({
            "tier": d.tier,
            "tier_label": d.tier_label,  # the runtime's own words (what the text output prints)
            "path": d.path or f"(built-in {name})",
            **({"builtin": True} if d.builtin else {}),
            "resolved_to_winner": d is res.winner,
            "blocked": d.blocked is not None,
            **({"reason": d.blocked} if d.blocked else {}),
            **({"not_discovered": d.undiscovered} if d.undiscovered else {}),
            **({"agent": d.agent} if d.agent else {}),
            "label": lab.state,
            **({"scope": d.root.scope_label} if d.root is not None and d.root.scope is not None else {}),
            # A root a link file moved (a linked Gemini CLI extension): the folder holding that file.
            **({"linked_from": os.path.dirname(d.root.via)} if d.root is not None and d.root.via else {}),
            "summary": lab.summary,
            "range": json_range(d),
        })
    for d in refused_under_other_names(index, runtime_id, name, agent):
        entries.append({"tier": d.tier, "tier_label": d.tier_label, "path": d.path, "resolved_to_winner": False,
                        "blocked": True, "reason": d.blocked, "filed_as": d.name, "label": "blocked",
                        "summary": f"blocked · {d.tier_label} — declared as '{d.name}'", "range": json_range(d)})
    obj: dict[str, Any] = {"name": name, "runtime": runtime_id, "agent": agent, "entries": entries}
    prov = provenance(res)
    if prov is not None:
        obj["provenance"] = prov
    runtime = RUNTIMES.get(runtime_id)
    if runtime is None:
        return obj
    from skill_ls.core.own_settings import disabled_names, permission_notes, skills_switched_off

    disabled_by = disabled_names(runtime, index, agent if runtime.agent_scoping is None else None).get(name)
    if disabled_by is not None:
        obj["disabled"] = True
        obj["disabled_by"] = disabled_by
    notes = permission_notes(runtime, index, name, agent if runtime.agent_scoping is None else None) if entries else []
    if notes:  # OpenCode: `ask`, and the agents whose own permissions see the name otherwise
        obj["notes"] = notes
    off = skills_switched_off(runtime, index)
    if off:
        obj["skills_disabled"] = off
    scoping = runtime.agent_scoping
    decl = index.agent(agent, scoping.family) if agent and scoping is not None and scoping.tombstones else None
    if decl is not None:
        from skill_ls.core.agents import parse_agent  # agents imports the index; only `where --agent` needs it

        if any(t.name == name for t in parse_agent(decl, index).tombstones):
            obj["tombstoned"] = True
    return obj
