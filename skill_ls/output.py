"""Formatting check results: text, JSON (0-based LSP ranges), SARIF 2.1.0, GitHub annotations."""
from __future__ import annotations

import os
from typing import Any

from skill_ls import __version__
from skill_ls.core.escape import (json_escape, json_escape_needed, json_escape_some, json_layout, json_string,
                                  json_text, safe_text)
from skill_ls.core.index import DocumentStore
from skill_ls.core.model import Diagnostic, Related, Severity, Span
from skill_ls.core.parse.text import SourceText
from skill_ls.analysis.rules import all_rules

_SARIF_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFORMATION: "note",
                Severity.HINT: "note"}
_GITHUB = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFORMATION: "notice",
           Severity.HINT: "notice"}


def relative_path(path: str, cwd: str | None = None) -> str:
    """The path relative to the working directory when under it (JSON output: exact, its bytes that
    are not UTF-8 become `\\udcXX` escapes in `json_text`, which `os.fsencode` turns back into them)."""
    cwd = cwd or os.getcwd()
    prefix = cwd.rstrip(os.sep) + os.sep
    if path.startswith(prefix):
        rest = path[len(prefix):]
        if os.sep == "/" and rest and _normal(rest):  # what relpath returns, without its work
            return rest
        return os.path.relpath(path, cwd)
    return path


def _normal(rest: str) -> bool:
    """Whether relpath leaves this relative path as it is: no empty, `.` or `..` component, no
    trailing separator."""
    framed = f"/{rest}/"
    return "//" not in framed and "/./" not in framed and "/../" not in framed


def display_path(path: str, cwd: str | None = None) -> str:
    """A path as shown to people (text and GitHub output): relative when under the working directory,
    undecodable bytes and control characters escaped (`t/\\xff/SKILL.md`, `a\\nb`)."""
    return safe_text(relative_path(path, cwd))


class Positions:
    """Converts code point spans to UTF-16 (LSP/JSON/SARIF) using each file's text."""

    def __init__(self, store: DocumentStore):
        self.store = store
        self._sources: dict[str, SourceText | None] = {}  # a report's files, each read once

    def cols(self, path: str, span: Span) -> tuple[int, int, int, int]:
        """(start line, start character, end line, end character) in UTF-16 code units."""
        sl, el = span.start_line, span.end_line
        src = self._sources.get(path, _UNREAD)
        if src is _UNREAD:
            src = self._sources[path] = self.store.source(path) if path.endswith(".md") else None
        if src is None:
            return sl, span.start_col, el, span.end_col
        if sl == el:
            sc, ec = src.utf16_cols(sl, span.start_col, span.end_col)
            return sl, sc, el, ec
        return sl, src.utf16_col(sl, span.start_col), el, src.utf16_col(el, span.end_col)

    def lsp_range(self, path: str, span: Span) -> dict[str, dict[str, int]]:
        return _range(*self.cols(path, span))


_UNREAD = SourceText.from_str("")  # a marker: not looked up yet


def _range(sl: int, sc: int, el: int, ec: int) -> dict[str, dict[str, int]]:
    return {"start": {"line": sl, "character": sc}, "end": {"line": el, "character": ec}}


def summary(diags: list[Diagnostic]) -> dict[str, int]:
    counts = {"error": 0, "warning": 0, "information": 0, "hint": 0}
    for d in diags:
        counts[_LABEL[d.severity]] += 1
    return counts


_LABEL = {s: s.label for s in Severity}  # (a dict, not the property: read for every finding)


# Text output shows at most this many findings of one code per file, then one summary line for the
# rest (JSON, SARIF and GitHub output list every finding).
TEXT_PER_FILE_AND_CODE = 5


def format_text(diags: list[Diagnostic], files_checked: int, per_file_and_code: int = TEXT_PER_FILE_AND_CODE) -> str:
    lines: list[str] = []
    totals: dict[tuple[str, str], int] = {}
    for d in diags:
        totals[(d.path, d.code)] = totals.get((d.path, d.code), 0) + 1
    shown: dict[tuple[str, str], int] = {}
    pending: list[str] = []  # summary lines of the current file, printed after its findings
    current = None
    for d in diags:
        if d.path != current:
            lines.extend(pending)
            pending, current = [], d.path
        key = (d.path, d.code)
        n = shown[key] = shown.get(key, 0) + 1
        if per_file_and_code and n > per_file_and_code:
            continue
        rt = f" [{d.runtime}]" if d.runtime else ""
        lines.append(f"{display_path(d.path)}:{d.span.start_line + 1}:{d.span.start_col + 1}: {d.code} "
                     f"{safe_text(d.message)}{rt}")
        for r in d.related:
            lines.append(f"    {display_path(r.path)}:{r.span.start_line + 1}:{r.span.start_col + 1}: "
                         f"{safe_text(r.message)}")
        if per_file_and_code and n == per_file_and_code and totals[key] > n:
            more = totals[key] - n
            pending.append(f"{display_path(d.path)}: {d.code} {more} more finding(s) in this file, "
                           f"{totals[key]} in all (--format json lists every one)")
    lines.extend(pending)
    c = summary(diags)
    lines.append(f"{files_checked} file(s) checked: {c['error']} error(s), {c['warning']} warning(s), "
                 f"{c['information']} information, {c['hint']} hint(s)")
    return "\n".join(lines) + "\n"


def diagnostic_json(d: Diagnostic, pos: Positions, cwd: str | None = None) -> dict[str, Any]:
    cwd = cwd or os.getcwd()
    out: dict[str, Any] = {
        "path": relative_path(d.path, cwd),
        "range": pos.lsp_range(d.path, d.span),
        "severity": d.severity.label,
        "code": d.code,
        "message": d.message,
        "runtime": d.runtime,
        "related": [{"path": relative_path(r.path, cwd), "range": pos.lsp_range(r.path, r.span), "message": r.message}
                    for r in d.related],
    }
    if d.fix is not None:
        out["fix"] = {"title": d.fix.title, "edits": [
            {"path": relative_path(e.path, cwd), "range": pos.lsp_range(e.path, e.span), "new_text": e.new_text}
            for e in d.fix.edits]}
    return out


class JsonEntries:
    """Writes the JSON report's entry for a finding (before `json_escape`): one template per finding
    (the generic layout walks ~10 small objects per finding), each file's relative path and text
    looked up once."""

    def __init__(self, store: DocumentStore):
        self.pos = Positions(store)
        self.cwd = os.getcwd()
        self._relative: dict[str, str] = {}
        self._encoded: dict[str, str] = {}

    def _rel(self, path: str) -> str:
        found = self._relative.get(path)
        if found is None:
            found = self._relative[path] = relative_path(path, self.cwd)
        return found

    def _path(self, path: str) -> str:
        """The path as a JSON string (relative when under the working directory)."""
        found = self._encoded.get(path)
        if found is None:
            found = self._encoded[path] = json_string(self._rel(path))
        return found

    def entry(self, d: Diagnostic) -> str:
        enc, string, pos, rel = json_layout, json_string, self.pos, self._rel
        path = self._encoded.get(d.path)
        if path is None:
            path = self._path(d.path)
        sl, sc, el, ec = pos.cols(d.path, d.span)
        related = self._related(d.related) if d.related else "[]"
        fix = "" if d.fix is None else ",\n      \"fix\": " + enc(
            {"title": d.fix.title, "edits": [
                {"path": rel(e.path), "range": pos.lsp_range(e.path, e.span), "new_text": e.new_text}
                for e in d.fix.edits]}, 3)
        return (f'{{\n      "path": {path},\n      "range": {{\n        "start": {{\n          "line": {sl},\n'
                f'          "character": {sc}\n        }},\n        "end": {{\n          "line": {el},\n'
                f'          "character": {ec}\n        }}\n      }},\n      "severity": "{_LABEL[d.severity]}",\n'
                f'      "code": {string(d.code)},\n      "message": {string(d.message)},\n'
                f'      "runtime": {"null" if d.runtime is None else string(d.runtime)},\n'
                f'      "related": {related}{fix}\n    }}')

    def _related(self, related: tuple[Related, ...]) -> str:
        """The finding's `related` list as `json_layout` lays it out three levels deep."""
        items = []
        for r in related:
            sl, sc, el, ec = self.pos.cols(r.path, r.span)
            items.append(f'{{\n          "path": {self._path(r.path)},\n          "range": {{\n'
                         f'            "start": {{\n              "line": {sl},\n              "character": {sc}\n'
                         f'            }},\n            "end": {{\n              "line": {el},\n'
                         f'              "character": {ec}\n            }}\n          }},\n'
                         f'          "message": {json_string(r.message)}\n        }}')
        return "[\n        " + ",\n        ".join(items) + "\n      ]"


def format_json(diags: list[Diagnostic], files_checked: int, store: DocumentStore) -> str:
    """The JSON report: exactly `json_text` of {version, files_checked, diagnostics (each
    `diagnostic_json`), summary}, each finding from `JsonEntries`."""
    writer = JsonEntries(store)
    # `json_escape` entry by entry, and only where there may be something to escape (`json_escape_some`).
    items = [json_escape_some(entry) for entry in map(writer.entry, diags)]
    head = (f'{{\n  "version": {json_layout(__version__)},\n  "files_checked": {files_checked},\n'
            f'  "diagnostics": ')
    tail = f',\n  "summary": {json_layout(summary(diags), 1)}\n}}\n'
    # One join for the whole report (a report is megabytes: each intermediate copy is fresh memory)
    pieces = [head, "[\n    ", ",\n    ".join(items), "\n  ]", tail] if items else [head, "[]", tail]
    whole = "".join(pieces)
    return json_escape(whole) if json_escape_needed(head) or json_escape_needed(tail) else whole


def _format_json_generic(diags: list[Diagnostic], files_checked: int, store: DocumentStore) -> str:
    """The same report through the generic layout (what `format_json` must equal; tests compare)."""
    pos = Positions(store)
    cwd = os.getcwd()
    doc = {
        "version": __version__,
        "files_checked": files_checked,
        "diagnostics": [diagnostic_json(d, pos, cwd) for d in diags],
        "summary": summary(diags),
    }
    return json_text(doc) + "\n"


def format_sarif(diags: list[Diagnostic], store: DocumentStore) -> str:
    pos = Positions(store)
    rules = all_rules()
    codes = sorted(rules)
    index = {c: i for i, c in enumerate(codes)}
    driver_rules = []
    for c in codes:
        r = rules[c]
        driver_rules.append({
            "id": c,
            "name": r.name,
            "shortDescription": {"text": r.summary},
            "fullDescription": {"text": r.summary},
            "help": {"text": r.doc, "markdown": r.doc},
            "defaultConfiguration": {"level": _SARIF_LEVEL[r.severity]},
            "properties": {"tags": [r.family]},
        })

    def location(path: str, span: Span, message: str | None = None) -> dict[str, Any]:
        rng = pos.lsp_range(path, span)
        region = {"startLine": rng["start"]["line"] + 1, "startColumn": rng["start"]["character"] + 1,
                  "endLine": rng["end"]["line"] + 1, "endColumn": rng["end"]["character"] + 1}
        loc: dict[str, Any] = {"physicalLocation": {"artifactLocation": {"uri": _uri(path)}, "region": region}}
        if message:
            loc["message"] = {"text": message}
        return loc

    results = []
    for d in diags:
        result = {
            "ruleId": d.code,
            "ruleIndex": index.get(d.code, 0),
            "level": _SARIF_LEVEL[d.severity],
            "message": {"text": d.message + (f" [{d.runtime}]" if d.runtime else "")},
            "locations": [location(d.path, d.span)],
        }
        if d.related:
            result["relatedLocations"] = [dict(location(r.path, r.span, r.message), id=i)
                                          for i, r in enumerate(d.related)]
        results.append(result)
    sarif = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "skill-ls", "version": __version__,
                                "informationUri": "https://github.com/skill-ls/skill-ls",
                                "rules": driver_rules}},
            "columnKind": "utf16CodeUnits",
            "results": results,
        }],
    }
    return json_text(sarif) + "\n"


def _uri(path: str) -> str:
    from urllib.parse import quote

    # Percent-encode the file name's real bytes (`%FF`): exact, and ASCII whatever the name holds.
    cwd = os.getcwd()
    if path.startswith(cwd.rstrip(os.sep) + os.sep):
        return quote(os.fsencode(os.path.relpath(path, cwd).replace(os.sep, "/")))
    return "file://" + quote(os.fsencode(path))


def _gh_escape(text: str, prop: bool = False) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    text = safe_text(text)  # other controls (ESC, C1) would reach the log viewer raw
    if prop:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


def format_github(diags: list[Diagnostic]) -> str:
    lines = []
    for d in diags:
        kind = _GITHUB[d.severity]
        props = (f"file={_gh_escape(display_path(d.path), True)},line={d.span.start_line + 1},"
                 f"col={d.span.start_col + 1},endLine={d.span.end_line + 1},endColumn={d.span.end_col + 1},"
                 f"title={d.code}")
        msg = d.message + (f" [{d.runtime}]" if d.runtime else "")
        lines.append(f"::{kind} {props}::{_gh_escape(msg)}")
    return "\n".join(lines) + ("\n" if lines else "")
