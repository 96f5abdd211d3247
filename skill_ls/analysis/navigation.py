"""Where skill names are written, and what lies under a position: the queries behind hover,
definition, references, completion, document links and symbols.

Plain values only (no LSP): positions are 0-based lines and code point columns, like `Span`.
A reference is any place a skill is named: the `name` of a SKILL.md, an agent's `skills:` list,
the tombstones in `skills.disabled`, the first argument of `skill_read_file` / `skill_run_script`
/ `skill_use`, and the `"name"` given to `agh__skill_view`.
"""
from __future__ import annotations

import os
import re
from typing import Any

from skill_ls.core.index import Document, Index
from skill_ls.core.model import Span
from skill_ls.core.parse.frontmatter import FieldEntry
from skill_ls.core.body import body_references, fence_step, local_target
from skill_ls.core.records import dataclass
from skill_ls.core.references import resolve_reference
from skill_ls.core.spans import mapping_child, node_span

_SKILL_CALL = re.compile(r"\b(skill_read_file|skill_run_script|skill_use)\(\s*[\"']([^\"'\n]+)[\"']")
# The name argument follows the tool name closely; a bounded gap keeps hostile lines linear (issue 7).
_SKILL_VIEW = re.compile(r"agh__skill_view\b[^\n]{0,200}?[\"']name[\"']\s*:\s*[\"']([^\"'\n]+)[\"']")


@dataclass(frozen=True)
class SkillRef:
    name: str
    span: Span
    kind: str  # declaration | skills_list | tombstone | call | skill_view


BUILTIN_TOOL_IDS = ("agh__skill_view", "agh__skill_*", "agh__*")


def entry_offset(entry: FieldEntry) -> int:
    """The line offset between the YAML node marks and the file (the frontmatter's first line)."""
    node = entry.node
    if node is None or not hasattr(node, "start_mark"):
        return 0
    mark_line: int = node.start_mark.line
    return entry.value_span.start_line - mark_line


def _scalar_items(node: Any, offset: int) -> list[tuple[str, Span]]:
    """(text, span) of each scalar in a YAML sequence node (or the scalar itself)."""
    import yaml

    out = []
    if isinstance(node, yaml.SequenceNode):
        for item in node.value:
            if isinstance(item, yaml.ScalarNode) and isinstance(item.value, str) and item.value:
                span = node_span(item, offset)
                if item.style in ('"', "'"):
                    span = Span(span.start_line, span.start_col + 1, span.end_line, max(span.end_col - 1, 0))
                out.append((item.value, span))
    elif isinstance(node, yaml.ScalarNode) and isinstance(node.value, str) and node.value:
        # A comma/space separated string: locate each word inside the scalar's first line.
        span = node_span(node, offset)
        for m in re.finditer(r"[^\s,\"']+", node.value):
            if span.start_line == span.end_line or "\n" not in node.value:
                quote = 1 if node.style in ('"', "'") else 0
                start = span.start_col + quote + m.start()
                out.append((m.group(0), Span(span.start_line, start, span.start_line, start + len(m.group(0)))))
    return out


def skill_refs(doc: Document, *, is_skill: bool, declared_name: str | None = None) -> list[SkillRef]:
    """Every place this document names a skill."""
    out: list[SkillRef] = []
    fm = doc.fm
    if fm is not None and fm.ok:
        name_entry = fm.fields.get("name")
        if is_skill and name_entry is not None and isinstance(name_entry.value, (str, int, float)):
            out.append(SkillRef(declared_name or str(name_entry.value).strip(), name_entry.value_span, "declaration"))
        if not is_skill:
            skills = fm.fields.get("skills")
            if skills is not None and isinstance(skills.value, str):  # `skills: a, b` (Claude Code subagents)
                from skill_ls.core.agents import comma_refs

                out.extend(SkillRef(r.name, r.span, "skills_list") for r in comma_refs(doc, skills.value,
                                                                                        skills.value_span))
            elif skills is not None and skills.node is not None:
                off = entry_offset(skills)
                disabled = mapping_child(skills.node, "disabled")[1]
                if disabled is not None:
                    out.extend(SkillRef(n, s, "tombstone") for n, s in _scalar_items(disabled, off))
                else:
                    out.extend(SkillRef(n, s, "skills_list") for n, s in _scalar_items(skills.node, off))
            dotted = fm.fields.get("skills.disabled")
            if dotted is not None and dotted.node is not None:
                out.extend(SkillRef(n, s, "tombstone") for n, s in _scalar_items(dotted.node, entry_offset(dotted)))
    start = fm.body_start_line if fm is not None and fm.ok else 0
    fence: str | None = None
    src = doc.src
    for line_no in range(start, src.line_count):
        line = src.line_text(line_no)
        is_fence, fence = fence_step(line, fence)
        if is_fence:
            continue
        if "skill_" in line:
            for cm in _SKILL_CALL.finditer(line):
                out.append(SkillRef(cm.group(2), Span(line_no, cm.start(2), line_no, cm.end(2)), "call"))
        if "agh__skill_view" in line:
            for vm in _SKILL_VIEW.finditer(line):
                out.append(SkillRef(vm.group(1), Span(line_no, vm.start(1), line_no, vm.end(1)), "skill_view"))
    return out


def ref_at(refs: list[SkillRef], line: int, col: int) -> SkillRef | None:
    for r in refs:
        if r.span.contains(line, col):
            return r
    return None


def key_at(doc: Document, line: int, col: int) -> FieldEntry | None:
    fm = doc.fm
    if fm is None or not fm.ok:
        return None
    for entry in fm.fields.values():
        if entry.key_span.contains(line, col):
            return entry
    return None


def in_frontmatter(doc: Document, line: int) -> bool:
    fm = doc.fm
    if fm is None or fm.open_line is None:
        return False
    end = fm.close_line if fm.close_line is not None else doc.src.line_count
    return fm.open_line < line < end


def enclosing_key(doc: Document, line: int) -> str | None:
    """The top-level frontmatter key whose block contains `line` (for list items below a key)."""
    fm = doc.fm
    if fm is None or fm.open_line is None or not in_frontmatter(doc, line):
        return None
    for ln in range(line, fm.open_line, -1):
        text = doc.src.line_text(ln)
        if text and not text[0].isspace() and not text.startswith("#"):
            m = re.match(r"([^:\s][^:]*?)\s*:", text)
            return m.group(1).strip() if m else None
    return None


@dataclass(frozen=True)
class FileLink:
    span: Span
    target: str  # absolute path of an existing file


def file_links(doc: Document, index: Index | None = None) -> list[FileLink]:
    """Relative file references in the body that resolve to existing files inside the skill
    (through `index`'s reference cache when given)."""
    if doc.read_error or doc.fm is None:
        return []
    refs, _ = body_references(doc)
    out = []
    for ref in refs:
        if ref.kind == "link":
            local = local_target(ref.target)
            if local is None:
                continue
            target = local
        elif ref.kind in ("read_file", "run_script"):
            continue  # these name another skill's files: resolved by the index, not here
        else:
            target = ref.target[2:] if ref.target.startswith("./") else ref.target
        resolve = index.references.resolve if index is not None else resolve_reference
        path, escape = resolve(doc.directory, target)
        if escape is None and path is not None and os.path.isfile(path):
            out.append(FileLink(ref.span, path))
    return out


def plugin_links(doc: Document) -> list[FileLink]:
    """The paths a Claude Code `plugin.json` (component paths: agents, commands, skills, hooks,
    mcpServers, ...) or `marketplace.json` (local plugin sources) names, to the files or directories
    they resolve to, never leaving the plugin (marketplace) root; each link spans the string's text."""
    from skill_ls.core.jsonpos import parse_json
    from skill_ls.core.plugins import plugin_file_for
    from skill_ls.core.runtimes.claude_code import PLUGIN_MANIFEST_FIELDS

    pf = plugin_file_for(doc.path)
    if pf is None or pf.kind not in ("manifest", "marketplace"):
        return []
    parsed = parse_json(doc.src.text)
    if not parsed.ok or not isinstance(parsed.value, dict):
        return []
    root = os.path.dirname(os.path.dirname(doc.path))
    candidates: list[tuple[tuple[Any, ...], str]] = []
    if pf.kind == "manifest":
        for key, kind in PLUGIN_MANIFEST_FIELDS.items():
            value = parsed.value.get(key)
            if kind != "path":
                continue
            if isinstance(value, str):
                candidates.append(((key,), value))
            elif isinstance(value, list):
                candidates += [((key, i), v) for i, v in enumerate(value) if isinstance(v, str)]
    else:
        plugins = parsed.value.get("plugins")
        for i, entry in enumerate(plugins if isinstance(plugins, list) else []):
            if isinstance(entry, dict) and isinstance(entry.get("source"), str):
                candidates.append((("plugins", i, "source"), entry["source"]))
    out: list[FileLink] = []
    for at, rel in candidates:
        if not (rel.startswith("./") or rel == "."):
            continue
        target = os.path.normpath(os.path.join(root, rel))
        if not (target == root or target.startswith(root + os.sep)) or not os.path.exists(target):
            continue
        if pf.kind == "marketplace" and os.path.isfile(os.path.join(target, ".claude-plugin", "plugin.json")):
            target = os.path.join(target, ".claude-plugin", "plugin.json")  # the plugin's manifest
        span = parsed.at(*at)
        if span.start_line == span.end_line and span.end_col - span.start_col >= 2:
            span = Span(span.start_line, span.start_col + 1, span.end_line, span.end_col - 1)  # inside the quotes
        out.append(FileLink(span, target))
    return sorted(out, key=lambda link: (link.span.start_line, link.span.start_col))


def link_at(doc: Document, line: int, col: int) -> FileLink | None:
    """The plugin.json / marketplace.json path under a position (go-to-definition on a path)."""
    for link in plugin_links(doc):
        s = link.span
        if s.start_line == line and s.start_col <= col <= s.end_col:
            return link
    return None


def references_to(index: Index, name: str) -> list[tuple[str, Span]]:
    """Every agent and skill that names `name` (declarations excluded)."""
    out: list[tuple[str, Span]] = []
    seen: set[str] = set()
    for agent in index.agents:
        if agent.path in seen:
            continue
        seen.add(agent.path)
        doc = index.store.get(agent.path, agent=True)
        out.extend((agent.path, r.span) for r in skill_refs(doc, is_skill=False) if r.name == name)
    for decls in index.decls.values():
        for d in decls:
            if not d.path or d.path in seen:
                continue
            seen.add(d.path)
            doc = index.store.get(d.path)
            if name not in doc.src.text:
                continue
            out.extend((d.path, r.span) for r in skill_refs(doc, is_skill=True)
                       if r.name == name and r.kind != "declaration")
    return out
