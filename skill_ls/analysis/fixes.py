"""Applying the fixes rules attach to their findings, in memory, to a fixpoint (`skill-ls check --fix`).

Nothing here writes a file: `fix_in_memory` returns, per file, the bytes as read and the bytes after
fixing; `skill_ls.apply` (the only module that writes) puts them on disk. How a run works:

1. Every Markdown file in scope is read once; its bytes are the *original*. Files that are not valid
   UTF-8, were truncated or could not be read are never fixed (their text is not what is on disk).
2. A round indexes the workspace with the current texts as overlays, checks the files in scope, and
   picks, per file, the fixes of its findings that are allowed (safe, or unsafe with `unsafe=True`)
   and whose edits do not overlap an edit already picked this round (the rest wait for the next round).
3. The next round re-checks. A file that got *worse* (an error code it did not have, or more errors)
   is put back as it was before the round and the fixes that made it worse are not tried again.
   Findings that were hidden because the file did not parse (field rules on a YAML error) are
   revealed, not introduced: they do not count as worse for a file that did not parse.
4. Rounds stop when nothing changes, or after `max_rounds`.

Text edits are code point spans of the text after the BOM; the new text's `\\n` become the file's own
line ending. `remove_bom` and `to_lf` change the file as a whole; `rename_dir` is applied by the
writer after the files (a directory rename ends the fixpoint for that file).
"""
from __future__ import annotations

import os
from collections import Counter

from skill_ls.core.config import Config
from skill_ls.core.discovery import Environment
from skill_ls.core.index import MAX_READ_BYTES, DocumentStore, Index, read_bytes
from skill_ls.core.model import Diagnostic, Fix, Severity, TextEdit
from skill_ls.core.parse.text import BOM, SourceText
from skill_ls.core.records import dataclass, field

# A parse-level error hides the field rules (they do not run on a file that does not parse).
PARSE_CODES = frozenset({"SK001", "SK002", "SK003", "SK004"})
MAX_ROUNDS = 10


@dataclass
class FileState:
    path: str
    original: bytes
    text: str  # after the BOM, with the file's own line endings
    had_bom: bool
    bom: bool  # whether the fixed file keeps a BOM
    eol: str  # the line ending new text gets

    @classmethod
    def load(cls, path: str) -> "FileState | None":
        data, error, truncated = read_bytes(path)
        if error is not None or truncated or len(data) >= MAX_READ_BYTES:
            return None
        try:
            decoded = data.decode("utf-8")
        except UnicodeDecodeError:
            return None  # writing back the decoded text would replace the bad bytes
        had_bom = decoded.startswith(BOM)
        text = decoded[1:] if had_bom else decoded
        crlf = text.count("\r\n")
        eol = "\r\n" if crlf and crlf >= text.count("\n") - crlf else "\n"
        return cls(path, data, text, had_bom, had_bom, eol)

    def full_text(self) -> str:
        return (BOM if self.bom else "") + self.text

    def data(self) -> bytes:
        return self.full_text().encode("utf-8")

    @property
    def changed(self) -> bool:
        return self.data() != self.original


@dataclass
class FixOutcome:
    files: dict[str, FileState]  # every file that would change
    fixed: dict[str, Counter[str]]  # path -> code -> findings fixed
    renames: list[tuple[str, str, str]]  # (code, old directory, new directory)
    unsafe_available: Counter[str]  # code -> findings with an unsafe fix not applied
    reverted: list[tuple[str, str]]  # (path, why): fixes not applied because they made the file worse
    rounds: int
    diagnostics: list[Diagnostic] = field(default_factory=list)  # the last round's findings


def offsets(src: SourceText, edit: TextEdit) -> tuple[int, int]:
    sp = edit.span
    start = src.line_start(sp.start_line) + sp.start_col
    end = src.line_start(sp.end_line) + sp.end_col
    return start, max(start, end)


def _conflicts(a: tuple[int, int], b: tuple[int, int]) -> bool:
    if a[0] == b[0]:
        return True  # two edits starting at one place: their order would be a guess
    if max(a[0], b[0]) < min(a[1], b[1]):
        return True  # overlapping ranges
    return (a[0] == a[1] and b[0] < a[0] < b[1]) or (b[0] == b[1] and a[0] < b[0] < a[1])


def apply_edits(text: str, edits: list[TextEdit], eol: str = "\n") -> str:
    """Apply non-overlapping edits (code point spans of `text`); raises ValueError on overlap."""
    src = SourceText(text, has_crlf="\r" in text)
    spans = sorted(((offsets(src, e), e.new_text) for e in edits), key=lambda x: x[0], reverse=True)
    for i in range(1, len(spans)):
        if _conflicts(spans[i][0], spans[i - 1][0]):
            raise ValueError("overlapping edits")
    for (start, end), new in spans:
        if eol != "\n":
            new = new.replace("\r\n", "\n").replace("\n", eol)
        text = text[:start] + new + text[end:]
    return text


FixKey = tuple[str, str, tuple[TextEdit, ...]]


def fix_key(d: Diagnostic) -> FixKey:
    assert d.fix is not None
    return (d.code, d.fix.title, d.fix.edits)


def allowed(fix: Fix | None, unsafe: bool) -> bool:
    return fix is not None and (fix.safe or unsafe)


def _errors(diags: list[Diagnostic]) -> list[Diagnostic]:
    return [d for d in diags if d.severity == Severity.ERROR]


def worse(before: list[Diagnostic], after: list[Diagnostic]) -> str | None:
    """Why `after` (one file's findings) is worse than `before`, or None."""
    b, a = _errors(before), _errors(after)
    b_codes = {d.code for d in b}
    revealed = bool(b_codes & PARSE_CODES)
    new = sorted({d.code for d in a} - b_codes)
    if revealed:
        new = [c for c in new if c in PARSE_CODES or c.startswith(("RF", "SH"))]
        # Field rules did not run before; compare only what both runs could see.
        a = [d for d in a if d.code in b_codes or d.code in new]
    if new:
        return f"it would introduce {', '.join(new)}"
    if len(a) > len(b):
        return f"it would raise the errors from {len(b)} to {len(a)}"
    return None


def plan_round(diags: list[Diagnostic], states: dict[str, FileState], unsafe: bool,
               banned: set[FixKey]) -> dict[str, list[Diagnostic]]:
    """Per file, the findings whose fixes this round applies (non-overlapping, first come first served)."""
    chosen: dict[str, list[Diagnostic]] = {}
    taken: dict[str, list[tuple[int, int]]] = {}
    whole_file: dict[str, set[str]] = {}
    seen: set[FixKey] = set()
    srcs: dict[str, SourceText] = {}
    for d in diags:
        fix = d.fix
        if not allowed(fix, unsafe) or d.path not in states:
            continue
        assert fix is not None
        key = fix_key(d)
        if key in banned:
            continue
        if key in seen:  # the same fix offered by several findings (or runtimes): counted, applied once
            chosen.setdefault(d.path, []).append(d)
            continue
        if fix.rename_dir is not None or any(e.path != d.path for e in fix.edits):
            continue  # directory renames are applied by the writer; edits never cross files
        if fix.edits:
            src = srcs.get(d.path)
            if src is None:
                text = states[d.path].text
                src = srcs[d.path] = SourceText(text, has_crlf="\r" in text)
            spans = [offsets(src, e) for e in fix.edits]
            mine = taken.setdefault(d.path, [])
            if any(_conflicts(s, t) for s in spans for t in mine) or any(
                    _conflicts(s, t) for i, s in enumerate(spans) for t in spans[i + 1:]):
                continue
            mine.extend(spans)
        ops = whole_file.setdefault(d.path, set())
        if fix.remove_bom:
            ops.add("bom")
        if fix.to_lf:
            ops.add("lf")
        seen.add(key)
        chosen.setdefault(d.path, []).append(d)
    return chosen


def apply_fixes(state: FileState, findings: list[Diagnostic]) -> None:
    edits: list[TextEdit] = []
    seen: set[FixKey] = set()
    for d in findings:
        key = fix_key(d)
        if key in seen:
            continue
        seen.add(key)
        fix = d.fix
        assert fix is not None
        edits.extend(fix.edits)
        if fix.remove_bom:
            state.bom = False
        if fix.to_lf:
            state.eol = "\n"
    state.text = apply_edits(state.text, edits, state.eol)
    if any(d.fix is not None and d.fix.to_lf for d in findings):
        state.text = state.text.replace("\r\n", "\n").replace("\r", "\n")


def fix_in_memory(workspace: str, env: Environment, config: Config, files: list[str], *, unsafe: bool, jobs: int = 1,
                  max_rounds: int = MAX_ROUNDS) -> FixOutcome:
    """Fix `files` (the checked files; only Markdown documents are edited) to a fixpoint."""
    from skill_ls.analysis.check import Checker

    states: dict[str, FileState] = {}
    for path in files:
        if path.endswith((".md", ".MD")):
            st = FileState.load(path)
            if st is not None:
                states[path] = st
    fixed: dict[str, Counter[str]] = {}
    banned: set[FixKey] = set()
    reverted: list[tuple[str, str]] = []
    renames: list[tuple[str, str, str]] = []
    last_round: dict[str, tuple[str, bool, str, list[Diagnostic], list[Diagnostic]]] = {}
    diags: list[Diagnostic] = []
    rounds = 0
    for rounds in range(1, max_rounds + 2):
        store = DocumentStore()
        for path, st in states.items():
            store.set_overlay(path, st.full_text(), None)
        index = Index(workspace, env, config, store=store).build()
        diags = Checker(index).check_files(files, jobs=jobs)
        by_path: dict[str, list[Diagnostic]] = {}
        for d in diags:
            by_path.setdefault(d.path, []).append(d)
        # Undo what made a file worse in the previous round.
        undone = False
        for path, (text, bom, eol, before, applied) in last_round.items():
            why = worse(before, by_path.get(path, []))
            if why is None:
                counter = fixed.setdefault(path, Counter[str]())
                for d in applied:
                    counter[d.code] += 1
                continue
            st = states[path]
            st.text, st.bom, st.eol = text, bom, eol
            for d in applied:
                banned.add(fix_key(d))
            reverted.append((path, f"{', '.join(sorted({d.code for d in applied}))} fix not applied: {why}"))
            undone = True
        last_round = {}
        if undone:
            continue  # re-check the files put back before planning more
        if rounds > max_rounds:
            break
        plan = plan_round(diags, states, unsafe, banned)
        if not plan:
            break
        for path, findings in plan.items():
            st = states[path]
            snapshot = (st.text, st.bom, st.eol)
            apply_fixes(st, findings)
            if (st.text, st.bom, st.eol) == snapshot:
                for d in findings:
                    banned.add(fix_key(d))  # a fix that changes nothing is not a fix
                continue
            last_round[path] = (*snapshot, by_path.get(path, []), findings)
        if not last_round:
            break
    # Directory renames (unsafe): only when nothing else remains to fix in that file.
    if unsafe:
        seen_dirs: set[str] = set()
        for d in diags:
            if d.fix is None or d.fix.rename_dir is None or fix_key(d) in banned:
                continue
            old, new = d.fix.rename_dir
            if old in seen_dirs or new in seen_dirs or os.path.lexists(new):
                continue  # one rename per directory, and never two onto one name
            seen_dirs.update((old, new))
            renames.append((d.code, old, new))
    unsafe_available: Counter[str] = Counter()
    if not unsafe:
        for d in diags:
            if d.fix is not None and not d.fix.safe and d.path in states:
                unsafe_available[d.code] += 1
    changed = {p: st for p, st in states.items() if st.changed}
    fixed = {p: c for p, c in fixed.items() if p in changed}
    return FixOutcome(changed, fixed, renames, unsafe_available, reverted, rounds, diags)
