"""Completion: frontmatter keys and enum values per runtime, skill names in agents' `skills:` lists
and tombstones (`skills.disabled`), and AGH ToolIDs in `tools` / `deny_tools`."""
from __future__ import annotations

import re

from lsprotocol import types

from skill_ls.analysis.navigation import BUILTIN_TOOL_IDS, enclosing_key, in_frontmatter
from skill_ls.core.resolve import effective_names
from skill_ls.core.runtimes import BASE_RUNTIME, DEFAULT_AGENT_FAMILY, RUNTIMES, STANDARD_FIELDS, runtime_for_family
from skill_ls.core.runtimes.agent_families import AGENT_FAMILIES
from skill_ls.server.lookup import Cursor, agent_of, context_of, cursor_at, feature_about

_KEY_PREFIX = re.compile(r"^([A-Za-z0-9_.-]*)$")
_KEY_VALUE = re.compile(r"^(\s*)([A-Za-z0-9_.-]+)\s*:\s*(.*)$")
# What an item replaces around the cursor: a key, a value, a skill name or a ToolID, `-` included
# (VS Code's word ends at `-`: without a range, `disable-m` + `disable-model-invocation` gave
# `disable-disable-model-invocation`).
_WORD_CHAR = re.compile(r"[A-Za-z0-9_.\-*\[\]@/]")
NAME_LISTS = ("skills", "disabled", "skills.disabled")
TOOL_LISTS = ("tools", "deny_tools")


def _key_items(ls, path: str, existing: set[str]) -> list[types.CompletionItem]:
    agent = agent_of(ls, path)
    items = []
    if agent is not None or ls.state_for(path).is_agent_file(path):
        family = AGENT_FAMILIES[agent.family if agent else DEFAULT_AGENT_FAMILY]
        for key, spec in family.documented_fields().items():
            if key not in existing:
                items.append(types.CompletionItem(key, kind=types.CompletionItemKind.Property,
                                                  detail=f"{family.id} agent", documentation=spec.doc,
                                                  insert_text=f"{key}: "))
        return items
    rids = ls.state_for(path).runtimes_for(path)
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
        items.append(types.CompletionItem(key, kind=types.CompletionItemKind.Property, detail=", ".join(owners),
                                          documentation=doc, insert_text=f"{key}: "))
    return items


def _enum_items(ls, path: str, key: str) -> list[types.CompletionItem]:
    agent = agent_of(ls, path)
    values: set[str] = set()
    if agent is not None or ls.state_for(path).is_agent_file(path):
        family = AGENT_FAMILIES[agent.family if agent else DEFAULT_AGENT_FAMILY]
        spec = family.documented_fields().get(key)
        values.update(spec.enum if spec else ())
        rid = runtime_for_family(family.id)
        if spec is not None and spec.suggest and rid in RUNTIMES:
            values.update(getattr(RUNTIMES[rid].vocabulary, spec.suggest, ()))
    else:
        for rid in ls.state_for(path).runtimes_for(path) or list(RUNTIMES):
            spec = RUNTIMES[rid].fields.get(key)
            if spec is not None:
                values.update(spec.enum)
                if spec.suggest:
                    values.update(getattr(RUNTIMES[rid].vocabulary, spec.suggest, ()))
                if spec.kind == "bool":
                    values.update(("true", "false"))
    return [types.CompletionItem(v, kind=types.CompletionItemKind.EnumMember) for v in sorted(values)]


def _name_items(ls, path: str) -> list[types.CompletionItem]:
    rids, agent = context_of(ls, path)
    if not rids:
        return []
    items = []
    for res in effective_names(ls.state_for(path).index, rids[0], agent):
        w = res.winner
        if w is None or w.builtin:
            continue
        items.append(types.CompletionItem(res.name, kind=types.CompletionItemKind.Module,
                                          detail=f"{rids[0]} · {w.tier}", documentation=w.path))
    return items


def _tool_items(ls, path: str) -> list[types.CompletionItem]:
    ids = list(BUILTIN_TOOL_IDS)
    doc = ls.document(path)
    servers = doc.fm.value("mcp_servers") if doc is not None and doc.fm is not None and doc.fm.ok else None
    if isinstance(servers, list):
        for s in servers:
            if isinstance(s, dict) and isinstance(s.get("name"), str):
                ids.append(f"mcp__{s['name']}__*")
    return [types.CompletionItem(t, kind=types.CompletionItemKind.Value, detail="ToolID") for t in ids]


def _written_keys(doc, skip_line: int) -> set[str]:
    # From the text, not the parse: the line being typed usually makes the YAML invalid.
    fm = doc.fm
    end = fm.close_line if fm.close_line is not None else doc.src.line_count
    keys = set()
    for ln in range((fm.open_line or 0) + 1, end):
        m = re.match(r"^([A-Za-z0-9_.-]+)\s*:", doc.src.line_text(ln))
        if m and ln != skip_line:
            keys.add(m.group(1))
    return keys


def _word_span(line: str, col: int) -> tuple[int, int]:
    """The code point columns of the word around the cursor that an item replaces (`_WORD_CHAR`,
    never `:` nor the space of `- item`)."""
    start = col
    while start > 0 and _WORD_CHAR.match(line[start - 1]):
        start -= 1
    end = col
    while end < len(line) and _WORD_CHAR.match(line[end]):
        end += 1
    return start, end


def with_ranges(ls, cur, items: list[types.CompletionItem]) -> list[types.CompletionItem]:
    """Give every item a `textEdit` over the word being typed (see `_WORD_CHAR`)."""
    if not items:
        return items
    line = cur.doc.src.line_text(cur.line)
    start, end = _word_span(line, cur.col)
    conv = ls.converter
    rng = types.Range(types.Position(cur.line, conv.to_client_col(cur.doc.src, cur.line, start)),
                      types.Position(cur.line, conv.to_client_col(cur.doc.src, cur.line, end)))
    for item in items:
        item.text_edit = types.TextEdit(rng, item.insert_text or item.label)
        item.insert_text = None
        item.filter_text = item.filter_text or item.label
    return items


def complete(ls, cur) -> list[types.CompletionItem]:
    doc = cur.doc
    if not in_frontmatter(doc, cur.line):
        return []
    line = doc.src.line_text(cur.line)
    prefix = line[:cur.col]
    existing = _written_keys(doc, cur.line)
    if _KEY_PREFIX.match(prefix) and ":" not in line[cur.col:]:
        return _key_items(ls, cur.path, existing)
    kv = _KEY_VALUE.match(prefix)
    is_agent = agent_of(ls, cur.path) is not None or ls.state_for(cur.path).is_agent_file(cur.path)
    if kv and not kv.group(1):  # top-level `key: |`
        key = kv.group(2)
        if is_agent and key in NAME_LISTS:
            return _name_items(ls, cur.path)
        if is_agent and key in TOOL_LISTS:
            return _tool_items(ls, cur.path)
        return _enum_items(ls, cur.path, key)
    top = enclosing_key(doc, cur.line)
    if not is_agent or top is None:
        return []
    if top in NAME_LISTS:
        return _name_items(ls, cur.path)
    if top in TOOL_LISTS:
        return _tool_items(ls, cur.path)
    return []


def register(server) -> None:
    @feature_about(server, types.TEXT_DOCUMENT_COMPLETION, cursor_at,
                   types.CompletionOptions(trigger_characters=[":", " ", "-", "[", ","]))
    def completion(ls, params: types.CompletionParams, cur: Cursor):
        return types.CompletionList(is_incomplete=False, items=with_ranges(ls, cur, complete(ls, cur)))
