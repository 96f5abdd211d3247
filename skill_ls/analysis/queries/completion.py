"""Completion: frontmatter keys and enum values per runtime, skill names in agents' `skills:` lists
and tombstones (`skills.disabled`), and AGH ToolIDs in `tools` / `deny_tools`."""
from __future__ import annotations

import re
from typing import Literal

from skill_ls.analysis.navigation import BUILTIN_TOOL_IDS, enclosing_key, in_frontmatter
from skill_ls.analysis.queries.scope import agent_of, document, index_of, is_agent, name_scope
from skill_ls.analysis.workspace import WorkspaceState
from skill_ls.core.index import Document
from skill_ls.core.records import dataclass, replace
from skill_ls.core.resolve import effective_names
from skill_ls.core.runtimes import BASE_RUNTIME, DEFAULT_AGENT_FAMILY, RUNTIMES, STANDARD_FIELDS, runtime_for_family
from skill_ls.core.runtimes.agent_families import AGENT_FAMILIES

_KEY_PREFIX = re.compile(r"^([A-Za-z0-9_.-]*)$")
_KEY_VALUE = re.compile(r"^(\s*)([A-Za-z0-9_.-]+)\s*:\s*(.*)$")
# What an item replaces around the cursor: a key, a value, a skill name or a ToolID, `-` included
# (VS Code's word ends at `-`: without a range, `disable-m` + `disable-model-invocation` gave
# `disable-disable-model-invocation`); never `:` nor the space of `- item`.
_WORD_CHAR = re.compile(r"[A-Za-z0-9_.\-*\[\]@/]")
NAME_LISTS = ("skills", "disabled", "skills.disabled")
TOOL_LISTS = ("tools", "deny_tools")

CompletionKind = Literal["field", "value", "skill", "tool"]


@dataclass(frozen=True)
class CompletionItem:
    label: str
    kind: CompletionKind  # field: a frontmatter key; value: an enum value; skill: a name; tool: a ToolID
    detail: str | None = None
    documentation: str | None = None
    insert_text: str | None = None
    # The code point columns (start, end) of the cursor's line the item replaces: the word typed.
    replace: tuple[int, int] | None = None


def completions(state: WorkspaceState, path: str, line: int, col: int) -> list[CompletionItem]:
    """What may be written at (line, col): a key at the start of a frontmatter line, else a value of
    the key (or of the list under the key) the cursor is in. Each item replaces the word around the
    cursor (`replace`)."""
    doc = document(state, path)
    items = _completions(state, path, doc, line, col)
    if not items or doc is None:
        return items
    span = word_span(doc.src.line_text(line), col)
    return [replace(i, replace=span) for i in items]


def word_span(text: str, col: int) -> tuple[int, int]:
    """The code point columns of the word around `col` that a completion replaces (`_WORD_CHAR`)."""
    start = col
    while start > 0 and _WORD_CHAR.match(text[start - 1]):
        start -= 1
    end = col
    while end < len(text) and _WORD_CHAR.match(text[end]):
        end += 1
    return start, end


def _completions(state: WorkspaceState, path: str, doc: Document | None, line: int, col: int) -> list[CompletionItem]:
    if doc is None or not in_frontmatter(doc, line):
        return []
    text = doc.src.line_text(line)
    prefix = text[:col]
    existing = _written_keys(doc, line)
    if _KEY_PREFIX.match(prefix) and ":" not in text[col:]:
        return _key_items(state, path, existing)
    kv = _KEY_VALUE.match(prefix)
    agent_file = is_agent(state, path)
    if kv and not kv.group(1):  # top-level `key: |`
        key = kv.group(2)
        if agent_file and key in NAME_LISTS:
            return _name_items(state, path)
        if agent_file and key in TOOL_LISTS:
            return _tool_items(doc)
        return _enum_items(state, path, key)
    top = enclosing_key(doc, line)
    if not agent_file or top is None:
        return []
    if top in NAME_LISTS:
        return _name_items(state, path)
    if top in TOOL_LISTS:
        return _tool_items(doc)
    return []


def _key_items(state: WorkspaceState, path: str, existing: set[str]) -> list[CompletionItem]:
    agent = agent_of(state, path)
    items = []
    if agent is not None or state.is_agent_file(path):
        family = AGENT_FAMILIES[agent.family if agent else DEFAULT_AGENT_FAMILY]
        for key, spec in family.documented_fields().items():
            if key not in existing:
                items.append(CompletionItem(key, "field", f"{family.id} agent", spec.doc, f"{key}: "))
        return items
    rids = state.runtimes_for(path)
    fields: dict[str, tuple[str, list[str]]] = {}
    if not rids:
        for key, spec in STANDARD_FIELDS.items():
            fields[key] = (spec.doc, [BASE_RUNTIME])
    for rid in rids:
        for key, spec in RUNTIMES[rid].fields.items():
            doc, owners = fields.setdefault(key, (spec.doc, []))
            owners.append(rid)
    for key, (doc, owners) in sorted(fields.items()):
        if key in existing:
            continue
        items.append(CompletionItem(key, "field", ", ".join(owners), doc, f"{key}: "))
    return items


def _enum_items(state: WorkspaceState, path: str, key: str) -> list[CompletionItem]:
    agent = agent_of(state, path)
    values: set[str] = set()
    if agent is not None or state.is_agent_file(path):
        family = AGENT_FAMILIES[agent.family if agent else DEFAULT_AGENT_FAMILY]
        spec = family.documented_fields().get(key)
        values.update(spec.enum if spec else ())
        rid = runtime_for_family(family.id)
        if spec is not None and spec.suggest and rid in RUNTIMES:  # e.g. the model aliases the rules accept
            values.update(getattr(RUNTIMES[rid].vocabulary, spec.suggest, ()))
    else:
        for rid in state.runtimes_for(path) or list(RUNTIMES):
            field = RUNTIMES[rid].fields.get(key)
            if field is not None:
                values.update(field.enum)
                if field.suggest:
                    values.update(getattr(RUNTIMES[rid].vocabulary, field.suggest, ()))
                if field.kind == "bool":
                    values.update(("true", "false"))
    return [CompletionItem(v, "value") for v in sorted(values)]


def _name_items(state: WorkspaceState, path: str) -> list[CompletionItem]:
    scope = name_scope(state, path)
    if not scope.runtimes:
        return []
    items = []
    for res in effective_names(index_of(state), scope.runtimes[0], scope.agent):
        w = res.winner
        if w is None or w.builtin:
            continue
        items.append(CompletionItem(res.name, "skill", f"{scope.runtimes[0]} · {w.tier_label}", w.path))
    return items


def _tool_items(doc: Document) -> list[CompletionItem]:
    ids = list(BUILTIN_TOOL_IDS)
    servers = doc.fm.value("mcp_servers") if doc.fm is not None and doc.fm.ok else None
    if isinstance(servers, list):
        for s in servers:
            if isinstance(s, dict) and isinstance(s.get("name"), str):
                ids.append(f"mcp__{s['name']}__*")
    return [CompletionItem(t, "tool", "ToolID") for t in ids]


def _written_keys(doc: Document, skip_line: int) -> set[str]:
    # From the text, not the parse: the line being typed usually makes the YAML invalid.
    fm = doc.fm
    assert fm is not None
    end = fm.close_line if fm.close_line is not None else doc.src.line_count
    keys = set()
    for ln in range((fm.open_line or 0) + 1, end):
        m = re.match(r"^([A-Za-z0-9_.-]+)\s*:", doc.src.line_text(ln))
        if m and ln != skip_line:
            keys.add(m.group(1))
    return keys
