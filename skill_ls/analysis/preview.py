"""What a runtime's skill tool returns when the model loads a skill: Amp's `skill` tool
(`<loaded_skill>`), AGH's `agh__skill_view`, workspace agents' `skill_use` (`<skill-context>`).

Byte for byte where the source shows the code (Amp's `loadSkill`); elsewhere a documented reading,
said in the result (`exact: false`, `reading`). skill-ls never runs `` !`command` `` lines: where a
runtime would, the preview keeps the line as written and says so in `notes`.
"""
from __future__ import annotations

import os
import re
from typing import Any, Callable

from skill_ls.core.body import body_references
from skill_ls.core.escape import safe_text
from skill_ls.core.index import Document, read_bytes
from skill_ls.core.records import dataclass, field
from skill_ls.core.references import resolve_reference


class PreviewError(Exception):
    """The preview cannot be produced (unknown skill, a runtime without a skill tool, a file that
    escapes the skill); `str()` is one line, whatever the names it quotes hold (a skill named
    "line\\nbreak" is listed with its newline escaped)."""

    def __init__(self, message: str) -> None:
        super().__init__(safe_text(message))


@dataclass
class Preview:
    runtime: str
    name: str
    tool: str
    arguments: str
    text: str
    exact: bool
    reading: str | None = None
    notes: list[str] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {"runtime": self.runtime, "name": self.name, "tool": self.tool, "arguments": self.arguments,
                "text": self.text, "exact": self.exact, "reading": self.reading, "notes": self.notes}


def skill_body(doc: Document) -> str:
    """The text after the frontmatter's closing line (Amp's `match[2]`, the body AGH stores)."""
    start = doc.fm.body_start_line if doc.fm is not None else 0
    return doc.src.text[doc.src.line_start(start):] if start < doc.src.line_count else ""


def _shell_notes(doc: Document, runs: bool) -> list[str]:
    _, shells = body_references(doc)
    verb = "would run" if runs else "is shown as written (this runtime does not run it)"
    return [f"!`{command}` {verb}; skill-ls never runs commands" for command, _ in shells]


# -- `loaded_skill` (Amp): `loadSkill` in https://decodeclaude.com/amp-code-spec/enhancements/16-skills/, exactly ---------------------------------------------
def amp_loaded_skill(name: str, doc: Document, arguments: str) -> Preview:
    text = "\n".join([f'<loaded_skill name="{name}">', skill_body(doc),
                      f"\nArguments: {arguments}" if arguments else "", "</loaded_skill>"])
    return Preview("", name, "skill", arguments, text, True, None, _shell_notes(doc, False))


# -- `skill_view` (AGH): agh__skill_view { name, file? } ---------------------------------------------------------
AGH_READING = ("AGH documents what agh__skill_view reads (the full instructions, or one resource file "
               "with `file`) but not its envelope: the preview is the SKILL.md body, or the file, as stored")


def agh_skill_view(name: str, doc: Document, file: str | None) -> Preview:
    if file:
        target, escape = resolve_reference(os.path.dirname(doc.path), file)
        if escape or target is None:
            raise PreviewError(f"'{file}' is not inside the skill directory ({escape})")
        data, error, _ = read_bytes(target)  # never blocks on a FIFO or a device, bounded
        if error is not None:
            raise PreviewError(f"cannot read '{file}': {error}")
        text = data[:1024 * 1024].decode("utf-8", errors="replace")
        return Preview("", name, "agh__skill_view", "", text, False, AGH_READING)
    return Preview("", name, "agh__skill_view", "", skill_body(doc), False, AGH_READING, _shell_notes(doc, False))


# -- `skill_context` (workspace agents): skill_use(skill_name, arguments) -------------------------------------------
_INDEXED = re.compile(r"\$ARGUMENTS\[(\d+)\]|\$(\d+)")
WA_READING = ("the page documents the substitutions and that the instructions arrive in <skill-context> "
              "tags with scripts and references listed, not the exact envelope: the tag attributes and "
              "the two list lines are a reading")


def substitute(body: str, arguments: str, skill_dir: str) -> str:
    """workspace agents' variable substitution: `$ARGUMENTS[N]`/`$N` (0-based, whitespace-split; past
    the end: empty), `$ARGUMENTS` (the whole string), `${SKILL_DIR}` (the absolute skill directory)."""
    parts = arguments.split()

    def indexed(match: re.Match[str]) -> str:
        n = int(match.group(1) or match.group(2))
        return parts[n] if n < len(parts) else ""

    body = _INDEXED.sub(indexed, body)
    return body.replace("$ARGUMENTS", arguments).replace("${SKILL_DIR}", os.path.abspath(skill_dir))


def _listing(skill_dir: str, sub: str) -> list[str]:
    base = os.path.join(skill_dir, sub)
    try:
        names = sorted(n for n in os.listdir(base) if os.path.isfile(os.path.join(base, n)))
    except OSError:
        return []
    return [f"{sub}/{n}" for n in names]


def workspace_agents_skill_use(name: str, doc: Document, arguments: str) -> Preview:
    skill_dir = os.path.dirname(doc.path)
    body = substitute(skill_body(doc), arguments, skill_dir).strip("\n")
    lines = [f'<skill-context name="{name}">', body, ""]
    scripts, references = _listing(skill_dir, "scripts"), _listing(skill_dir, "references")
    lines.append("Scripts: " + (", ".join(scripts) if scripts else "(none)"))
    lines.append("References: " + (", ".join(references) if references else "(none)"))
    lines.append("</skill-context>")
    return Preview("", name, "skill_use", arguments, "\n".join(lines) + "\n", False, WA_READING,
                   _shell_notes(doc, True))


# -- `skill` (OpenCode): skill({ name }) ------------------------------------------------------------------------------
OPENCODE_READING = ("OpenCode documents that when the agent calls skill({ name }) \"the SKILL.md content is "
                    "returned as tool output\" with \"no argument substitution\", not the output's exact framing: "
                    "the preview is the SKILL.md body as written")


def opencode_skill(name: str, doc: Document, arguments: str) -> Preview:
    notes = _shell_notes(doc, False)
    if arguments:
        notes.insert(0, "the skill tool substitutes no arguments ($1, $ARGUMENTS stay as written); only /name "
                        "slash commands do")
    return Preview("", name, "skill", "", skill_body(doc), False, OPENCODE_READING, notes)


# -- `activate_skill` (Gemini CLI) --------------------------------------------------------------------------------------
GEMINI_READING = ("Gemini CLI documents that on activation \"the SKILL.md body and folder structure is added to "
                  "the conversation history\", not the exact text: the preview is the body, then the skill "
                  "directory's files, one per line (a reading)")


def gemini_activate_skill(name: str, doc: Document) -> Preview:
    skill_dir = os.path.dirname(doc.path)
    files: list[str] = []
    for base, dirs, names in os.walk(skill_dir):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        files.extend(os.path.relpath(os.path.join(base, n), skill_dir) for n in sorted(names))
        if len(files) > 200:
            break
    text = skill_body(doc).rstrip("\n") + "\n\n" + "\n".join(files[:200]) + "\n"
    return Preview("", name, "activate_skill", "", text, False, GEMINI_READING, _shell_notes(doc, False))


PreviewFunc = Callable[[str, Document, str, "str | None"], Preview]

# Keyed by `Runtime.skill_tool`.
SKILL_TOOLS: dict[str, PreviewFunc] = {
    "loaded_skill": lambda name, doc, args, file: amp_loaded_skill(name, doc, args),
    "skill_view": lambda name, doc, args, file: agh_skill_view(name, doc, file),
    "skill_context": lambda name, doc, args, file: workspace_agents_skill_use(name, doc, args),
    "opencode_skill": lambda name, doc, args, file: opencode_skill(name, doc, args),
    "activate_skill": lambda name, doc, args, file: gemini_activate_skill(name, doc),
}


def preview_skill(index: Any, runtime_id: str, name: str, agent: str | None = None, arguments: str = "",
                  file: str | None = None) -> Preview:
    """The preview for the copy of `name` that `runtime_id` loads for `agent` (its effective set)."""
    from skill_ls.analysis.effective import EffectiveSetError, resolve_effective_set
    from skill_ls.core.runtimes import RUNTIMES

    runtime = RUNTIMES.get(runtime_id)
    if runtime is None:
        raise PreviewError(f"unknown runtime '{runtime_id}'")
    if runtime.skill_tool is None or runtime.skill_tool not in SKILL_TOOLS:
        raise PreviewError(f"{runtime.title} has no documented skill tool to preview")
    try:
        eff = resolve_effective_set(index, runtime_id, agent)
    except EffectiveSetError as exc:
        raise PreviewError(str(exc)) from None
    skill = next((s for s in eff.skills if s.name == name), None)
    if skill is not None and skill.decl.doc is None and skill.decl.builtin:
        # A skill compiled into the runtime (AGH's `agh`, Amp's five): its instructions are not a file
        # and not documented, so there is nothing to show byte for byte.
        raise PreviewError(f"'{name}' is {runtime.title}'s built-in skill: its instructions are compiled into "
                           f"{runtime.title} and not documented, so skill-ls cannot show what the model receives "
                           f"(its catalog entry: {skill.decl.builtin_description!r})")
    if skill is None or skill.decl.doc is None:
        known = ", ".join(s.name for s in eff.enabled) or "none"
        raise PreviewError(f"'{name}' is not in {runtime.title}'s effective set (available: {known})")
    preview = SKILL_TOOLS[runtime.skill_tool](name, skill.decl.doc, arguments, file)
    preview.runtime = runtime.id
    if skill.disabled:
        preview.notes.insert(0, f"'{name}' is disabled by the operator: the model cannot load it")
    return preview
