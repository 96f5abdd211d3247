#!/usr/bin/env python3
"""Regenerate docs/agnix-comparison.md: skill-ls and agnix side by side on a corpus of real skills.

Usage: python3 docs/compare_agnix.py [CORPUS] (default: $SKILL_LS_CORPUS, else ./corpus).
Needs `agnix` on PATH (`pip install agnix`). Both tools run on the same tree; findings are grouped
into *concerns* (what the finding is about) so that each tool's codes can be compared per file. The
verdicts ("who is right") are this project's reading of each concern, written in VERDICTS below and
reviewed by hand against the files (docs/corpus-review.md).
"""
from __future__ import annotations

import collections
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = Path(sys.argv[1] if len(sys.argv) > 1 else os.environ.get("SKILL_LS_CORPUS", "corpus"))
OUT = ROOT / "docs" / "agnix-comparison.md"

# concern -> (skill-ls codes, agnix rules)
CONCERNS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "name format": (("SK008",), ("AS-004", "AS-005")),
    "name differs from directory": (("SK009",), ("AS-017",)),
    "unknown or client-specific field": (("SK007", "PT001"), ("XP-SK-001",)),
    "field type / metadata shape": (("SK006",), ("AS-016",)),
    "length limits (description, compatibility)": (("SK010",), ()),
    "body too long": (("SK012",), ("AS-012", "AS-021")),
    "missing reference": (("RF001",), ("REF-001", "REF-002")),
    "reference escapes the skill": (("RF002",), ()),
    "nested references": (("RF004",), ("AS-013",)),
    "$N substituted in code": (("CC007",), ("CC-SK-023",)),
    "$ARGUMENTS[N] without a hint": (("CC008",), ("CC-SK-016",)),
    "reserved word in name (upload)": (("PT002",), ("CC-SK-030",)),
    "XML tag in description (upload)": (("PT003",), ("CC-SK-031",)),
    "unknown tool name": (("CC003", "SA003"), ("CC-SK-008", "CC-AG-009")),
    "model value": (("CC001", "SA001"), ("CC-SK-001", "CC-AG-003")),
    "MCP server definitions": (("MS001", "MS002", "MS003", "MS004", "MS005", "MS006"), ("MCP-027",)),
    "literal credentials": (("MS003",), ("XP-SK-003",)),
}

# Concerns one tool raises that the other does not model, with this project's verdict.
VERDICTS: dict[str, str] = {
    "name format": "Agree file for file: spaces, capitals, underscores, a leading hyphen (agnix's AS-005 is the "
                   "hyphen case of AS-004).",
    "length limits (description, compatibility)": "skill-ls only: the claude-api description is 1,068 characters, "
                                                  "over the standard's 1,024 (true).",
    "name differs from directory": "Both right; skill-ls reports it once per root cause (SK008 suppresses SK009 on an "
                                   "invalid name), agnix twice.",
    "unknown or client-specific field": "skill-ls warns only when no runtime that reads the file knows the key "
                                        "(`requires` in 832 Composio skills: ignored by every runtime) and gives a "
                                        "note naming the runtimes for keys some runtime knows (`argument-hint`, "
                                        "`version`); agnix gives every non-standard key the same note. skill-ls is "
                                        "more precise here: `requires` really does nothing anywhere. The 14 "
                                        "files only agnix flags set `version` in plugin skills, which Claude Code "
                                        "reads (its skill loader keeps `version`), so skill-ls says nothing there.",
    "field type / metadata shape": "Agree (2): the standard's `metadata` maps strings to strings.",
    "body too long": "Same 500-line/5,000-token guidance; agnix splits lines and tokens into two codes.",
    "missing reference": "Agree on the 3 skills with missing files. agnix's extra findings are `@john.doe` and "
                         "`@pytest.mark.asyncio` read as imports (false positives), links in AGENTS.md (not skills), "
                         "and links to sibling skills, which skill-ls reports as RF002 (escaping the skill) instead.",
    "reference escapes the skill": "skill-ls only: links out of the skill directory break once the skill is "
                                   "installed alone (true in every sampled case).",
    "nested references": "agnix counts any file a reference links (scripts, requirements.txt, other skills' "
                         "SKILL.md); skill-ls leaves out nested skills (`qdrant-scaling/*/SKILL.md` are skills of "
                         "their own). Both right on the two files they share.",
    "$N substituted in code": "On the plugin skills Claude Code reads, both flag the same shell/awk/SQL positionals. "
                              "agnix also checks skills no runtime reads as Claude Code and flags amounts of money "
                              "(`$2,500`, `$0.0276`, `$8.2M`): skill-ls shows those skills' Claude Code verdict in "
                              "`skill-ls portability` instead and treats money as prose (obra's `awk '{print $1}'` "
                              "and a regex `$1` are the true ones among agnix's extra findings).",
    "$ARGUMENTS[N] without a hint": "agnix raises it on a skill no runtime reads as Claude Code (anthropics/skills "
                                    "claude-api is a plain repository skill); skill-ls checks it where Claude Code "
                                    "substitutes.",
    "reserved word in name (upload)": "Agree (3).",
    "XML tag in description (upload)": "Agree (2).",
    "unknown tool name": "agnix applies Claude Code's tool list to Copilot skills (`Azure`, `MCP/...`, `sql`) and "
                         "to TeamCreate/TeamDelete, which Claude Code's agent teams provide: false positives. "
                         "skill-ls checks tool names only where Claude Code reads the file.",
    "model value": "Both accept `fable` (Claude Fable); neither finds an invalid model in the corpus's Claude Code "
                   "files.",
    "MCP server definitions": "agnix's MCP-027 findings are in Copilot `*.agent.md` files (`mcp-servers:`), which "
                              "no runtime skill-ls models reads; the corpus has no skill `mcp.json`. skill-ls reads "
                              "MCP definitions in skill `mcp.json`, `metadata.agh.mcp_servers`, AGENT.md "
                              "`mcp_servers`, subagent `mcpServers`, plugin and project `.mcp.json` (MS008 for "
                              "Claude Code's shapes).",
    "literal credentials": "agnix scans every file (XP-SK-003: a secret-pattern catalogue in a security-review "
                           "skill is documentation, a false positive); skill-ls looks for secrets only where a "
                           "runtime passes them to a server (MCP definitions).",
}

AGNIX_ONLY_NOTES: dict[str, str] = {
    "AS-008": "a description under agnix's minimum length: style advice, not a limit of any runtime.",
    "AS-020": "style advice (a description without 'when to use'); not a loading problem: out of scope.",
    "AS-023": "bundled file never mentioned: advisory; many are data files used by scripts.",
    "AS-024": "unpinned package in a body command: advice about prose, not a definition a runtime starts.",
    "CC-AG-022": "a subagent without `tools` inherits every tool: documented default behaviour, advisory.",
    "CC-SK-006": "heuristic ('looks like a workflow with side effects'): advisory.",
    "CC-SK-007": "unrestricted `Bash` in allowed-tools: advisory.",
    "CC-SK-021": "a hard-coded user path in a reference file: advisory.",
    "CC-SK-034": "a long reference file without a table of contents: advisory.",
    "CDX-AG-005": "AGENTS.md (Codex instructions, not skills): out of scope.",
    "CDX-AG-009": "AGENTS.md size: out of scope.",
    "CDX-AG-010": "AGENTS.md chain: out of scope.",
    "COP-007": "GitHub Copilot files: out of scope.",
    "COP-008": "GitHub Copilot files: out of scope.",
    "COP-011": "GitHub Copilot files: out of scope.",
    "COP-012": "GitHub Copilot files: out of scope.",
    "COP-028": "GitHub Copilot files: out of scope.",
    "COP-034": "GitHub Copilot files: out of scope.",
    "VER-001": "tool version pinning in .agnix.toml: not about the files.",
    "XML-001": "unclosed XML-like tags in bodies: advisory.",
    "XML-002": "XML-like tags in bodies: advisory.",
    "XML-003": "XML-like tags in bodies: advisory.",
}

# agnix's rule list as a checklist (issue 11): agnix rule -> (skill-ls status, codes, decision). Status:
# "full" (the same concern, decided on the runtime's documentation), "partial", "no" (not checked, with
# the reason), "n/a" (a file kind skill-ls does not model: AGENTS.md, MCP servers' runtime protocol).
COVERAGE: dict[str, tuple[str, str, str]] = {
    "AS-001": ("full", "SK001", ""), "AS-002": ("full", "SK005", ""), "AS-003": ("full", "SK005", ""),
    "AS-004": ("full", "SK008", ""), "AS-005": ("full", "SK008", ""), "AS-006": ("full", "SK008", ""),
    "AS-008": ("no", "", "style: no runtime sets a minimum beyond non-empty (SK005)"),
    "AS-009": ("partial", "SK014, PT003", "angle brackets: Amp's unescaped catalog and the upload check"),
    "AS-011": ("full", "SK010", "1-500, an empty string included"), "AS-012": ("full", "SK012", ""),
    "AS-013": ("full", "RF004", "nested skills are not references"),
    "AS-015": ("no", "", "upload size: needs the zipped size; not checked"),
    "AS-016": ("full", "SK003, SK004, SK006", ""), "AS-017": ("full", "SK009", ""),
    "AS-020": ("no", "", "style advice"), "AS-021": ("full", "SK012", ""),
    "AS-022": ("no", "", "skill-ls never reads scripts' code"), "AS-023": ("no", "", "advisory"),
    "AS-024": ("partial", "MS004", "pinning checked where a runtime starts the server, not in prose"),
    "AS-025": ("full", "SH001-SH003", "per runtime, with the winner"), "AS-026": ("no", "", "style"),
    "AS-027": ("no", "", "style"),
    "CC-SK-001": ("full", "CC001", ""), "CC-SK-002": ("full", "SK006", "enum"), "CC-SK-004": ("full", "CC002", ""),
    "CC-SK-005": ("full", "CC002", "built-ins, project/user subagents, plugin:name"),
    "CC-SK-006": ("no", "", "heuristic"), "CC-SK-007": ("no", "", "advisory"), "CC-SK-008": ("full", "CC003", ""),
    "CC-SK-010": ("full", "CC004", ""), "CC-SK-013": ("no", "", "heuristic"),
    "CC-SK-014": ("full", "SK006", ""), "CC-SK-015": ("full", "SK006", ""), "CC-SK-016": ("full", "CC008", ""),
    "CC-SK-017": ("full", "SK007, PT001", "only when no reading runtime knows the key"),
    "CC-SK-018": ("full", "SK006", ""), "CC-SK-019": ("full", "CC005", ""), "CC-SK-020": ("full", "SK006", ""),
    "CC-SK-021": ("no", "", "advisory"), "CC-SK-022": ("no", "", "built-in command names change often"),
    "CC-SK-023": ("full", "CC007", "money is prose; named arguments shadowing shell variables too"),
    "CC-SK-024": ("partial", "SK005", "required where the runtime requires it"),
    "CC-SK-025": ("full", "BG002", "and Codex's budget"), "CC-SK-027": ("full", "PL003", ""),
    "CC-SK-028": ("partial", "RF003", "names the runtime that runs the line"),
    "CC-SK-030": ("full", "PT002", ""), "CC-SK-031": ("full", "PT003", ""),
    "CC-SK-032": ("no", "", "style"), "CC-SK-033": ("no", "", "style"), "CC-SK-034": ("no", "", "advisory"),
    "CC-AG-001": ("full", "AG004", ""), "CC-AG-002": ("full", "AG004", ""), "CC-AG-003": ("full", "SA001", ""),
    "CC-AG-004": ("full", "SA002", ""), "CC-AG-005": ("full", "AG005", "against the effective set"),
    "CC-AG-006": ("full", "SA004", ""), "CC-AG-007": ("full", "AG001", ""), "CC-AG-008": ("full", "AG004", ""),
    "CC-AG-009": ("full", "SA003", ""), "CC-AG-010": ("full", "SA003", ""), "CC-AG-011": ("full", "SA005", ""),
    "CC-AG-012": ("full", "SA002", ""), "CC-AG-014": ("full", "AG004", ""), "CC-AG-015": ("full", "SA002", ""),
    "CC-AG-017": ("full", "AG004, SA002", ""), "CC-AG-019": ("full", "AG002", ""),
    "CC-AG-020": ("full", "AG004", ""), "CC-AG-021": ("no", "", "not documented as a hard limit"),
    "CC-AG-022": ("no", "", "documented default behaviour"), "CC-AG-023": ("full", "SA006", "project beats user"),
    "CC-AG-024": ("full", "SA004", ""),
    "CC-HK-001": ("full", "CC004, SA005", ""), "CC-HK-005": ("full", "CC004, SA005", ""),
    "CC-HK-006": ("full", "CC004, SA005", ""), "CC-HK-007": ("full", "CC004, SA005", ""),
    "CC-HK-011": ("full", "CC004, SA005", ""), "CC-HK-016": ("full", "CC004, SA005", ""),
    "CC-HK-020": ("full", "CC004, SA005", ""), "CC-HK-025": ("full", "CC004, SA005", "invalid regex"),
    "CC-HK-026": ("full", "CC004, SA005", ""), "CC-HK-027": ("full", "CC004, SA005", ""),
    "CC-PL-001": ("full", "PL002", "components inside .claude-plugin/"), "CC-PL-002": ("full", "PL002", ""),
    "CC-PL-003": ("full", "PL001", ""), "CC-PL-004": ("full", "PL001", "name"), "CC-PL-005": ("full", "PL001", ""),
    "CC-PL-006": ("full", "PL001", ""), "CC-PL-007": ("full", "PL002", ""), "CC-PL-008": ("full", "PL002", ""),
    "CC-PL-016": ("full", "PL001", ""),
    "MCP-007": ("full", "MC001", ""), "MCP-009": ("full", "MS001", ""), "MCP-010": ("full", "MS001", ""),
    "MCP-011": ("full", "MS001", ""), "MCP-017": ("full", "MS002", ""), "MCP-018": ("full", "MS003", ""),
    "MCP-021": ("full", "MS005", ""), "MCP-022": ("full", "AG004", "AGH; other shapes: MS001"),
    "MCP-023": ("full", "MS006", ""), "MCP-024": ("full", "MS006", ""), "MCP-027": ("full", "MS004", ""),
    "MCP-028": ("full", "MS003", "headers"),
    "XP-SK-001": ("full", "PT001", ""), "XP-SK-002": ("no", "", "advisory"),
    "XP-SK-003": ("partial", "MS003", "only where a runtime passes the value to a server"),
}

# Issue 25: Claude Code's plugin and project files (hooks.json and settings hooks, plugin.json's full schema,
# marketplace.json, plugin agents, project and plugin .mcp.json), as Claude Code 2.1.332 reads them.
HOOK_FILES = ("skill frontmatter `hooks` (CC004), subagent `hooks` (SA005), a plugin's `hooks/hooks.json` and the "
              "hook files its plugin.json names, `.claude/settings.json` and `.claude/settings.local.json` (HK001)")
MCP_FILES = ("skill `mcp.json`, `metadata.agh.mcp_servers`, AGENT.md `mcp_servers`, subagent `mcpServers`, a "
             "plugin's `.mcp.json` (both shapes) and the files its plugin.json names, the project's `.mcp.json`")
_ISSUE_25: dict[str, tuple[str, str, str]] = {
    **{rid: ("full", "CC004, SA005, HK001", "in " + HOOK_FILES) for rid in (
        "CC-HK-001", "CC-HK-005", "CC-HK-006", "CC-HK-007", "CC-HK-011", "CC-HK-016", "CC-HK-020", "CC-HK-025",
        "CC-HK-026", "CC-HK-027")},
    "CC-HK-012": ("full", "HK001", "hooks.json / settings.json that is not JSON, `hooks` not a map of events"),
    "CC-HK-002": ("no", "", "`claude plugin validate` accepts it; the hook runs"),
    "CC-HK-003": ("no", "", "advisory"), "CC-HK-008": ("no", "", "the script is resolved when the hook runs"),
    "CC-HK-009": ("no", "", "heuristic on the command text"), "CC-HK-010": ("no", "", "advisory"),
    "CC-HK-013": ("no", "", "the validator accepts it; the key is ignored"),
    "CC-HK-014": ("no", "", "the validator accepts it"), "CC-HK-015": ("no", "", "the validator accepts it"),
    "CC-HK-018": ("no", "", "the matcher is ignored; the hook runs"),
    "CC-PL-009": ("full", "PL001", "an object with a non-empty `name`"), "CC-PL-010": ("full", "PL001", "a URL"),
    "CC-PL-014": ("full", "PL005", "permissionMode, hooks, mcpServers"),
    "CC-PL-015": ("no", "", "a declared path replaces the folder: skill-ls reads the declared files (followed)"),
    "CC-PL-017": ("full", "PL001", "a warning, as the validator's"),
    "CC-PL-018": ("full", "PL001, PL004", "as `claude plugin validate` reserves them"),
    "CC-PL-023": ("partial", "PL001", "field types of the manifest"),
    "CC-MP-001": ("full", "PL004", ""), "CC-MP-002": ("full", "PL004", "spaces, plugin-id characters, reserved"),
    "CC-MP-003": ("full", "PL004", "sources (./, .., object kinds), duplicates"),
    "CC-MP-004": ("partial", "PL004", "a local source that does not exist"),
    "CC-MP-005": ("no", "", "metadata advice"),
    "MCP-022": ("full", "MS008, AG004", "in " + MCP_FILES),
    "MCP-012": ("no", "", "Claude Code still starts `sse` servers"),
    "MCP-019": ("no", "", "heuristic on the command text"),
    **{rid: ("full", COVERAGE[rid][1], "in " + MCP_FILES) for rid in (
        "MCP-009", "MCP-010", "MCP-011", "MCP-017", "MCP-018", "MCP-021", "MCP-023", "MCP-024", "MCP-027", "MCP-028")},
    "MCP-007": ("full", "MC001, MS008", "a skill `mcp.json` (MC001); a Claude Code `.mcp.json` (MS008)"),
    **{rid: ("n/a", "", "MCP protocol messages (tool definitions, JSON-RPC), not configuration files") for rid in (
        "MCP-001", "MCP-002", "MCP-003", "MCP-004", "MCP-006", "MCP-008", "MCP-013", "MCP-014", "MCP-015",
        "MCP-016", "MCP-020", "MCP-030", "MCP-031", "MCP-032", "MCP-033")},
    "CC-SK-025": ("full", "BG002", "Claude Code's budget as 2.1.332 computes it (context x 4 x fraction, "
                                  "SLASH_COMMAND_TOOL_CHAR_BUDGET), grouped; and Codex's"),
    "CC-SK-014": ("full", "SK006", "flag words as Claude Code reads them (\"true\", yes/no, on/off, 1/0 accepted)"),
    "CC-SK-015": ("full", "SK006", "flag words as Claude Code reads them"),
    "CC-AG-024": ("full", "SA004", "a scoped disallowedTools entry removes the whole tool"),
    "AMP-SK-001": ("full", "SK007, PT001", ""), "AMP-SK-002": ("full", "SH001, SH002", "Amp's precedence"),
    "AMP-SK-003": ("no", "", "Amp's source walks its roots fully"),
    "CX-SK-001": ("full", "SK007, PT001", ""), "CX-SK-004": ("full", "BG002", ""),
    "CX-SK-006": ("full", "CX001", ""), "CX-SK-007": ("no", "", "advisory"),
    "REF-001": ("partial", "RF001", "references in skills"), "REF-002": ("full", "RF001, RF002", "in skills"),
    "REF-003": ("no", "", "imports (CLAUDE.md): not skill files"),
}
COVERAGE.update(_ISSUE_25)
COVERAGE.setdefault("XP-SK-004", ("no", "", "a backslash path in prose is not read as a reference by any runtime"))
for _rid in ("CC-MCP-001", "CC-MCP-002", "CC-MCP-003", "CC-MCP-004", "CC-MCP-005"):
    COVERAGE.setdefault(_rid, ("no", "", "not reviewed against Claude Code 2.1.332 yet"))
for _rid in ("CC-HK-021", "CC-HK-022", "CC-HK-023", "CC-HK-024", "CC-HK-028", "CC-HK-029", "CC-HK-030", "CC-HK-031",
             "CC-HK-032", "CC-HK-033", "CC-HK-034", "CC-HK-035"):
    COVERAGE.setdefault(_rid, ("no", "", "finer hook fields: `claude plugin validate` does not refuse them; not checked"))
for _rid in ("CC-PL-011", "CC-PL-012", "CC-PL-013", "CC-PL-019", "CC-PL-020", "CC-PL-021", "CC-PL-022"):
    COVERAGE.setdefault(_rid, ("no", "", "plugin fields outside skills, commands, agents, hooks and MCP: not checked"))

# Categories skill-ls does not model, with the reason (every rule of such a category is "n/a").
CATEGORY_READING: dict[str, str] = {
    "claude-settings": "settings.json keys other than `hooks` (HK001) and the listing budget's "
                       "`skillListingBudgetFraction`/`skillListingMaxDescChars` (BG002): not skill or agent files",
    "claude-memory": "CLAUDE.md memory files: not skills", "claude-output-styles": "output styles: not skills",
    "agents-md": "AGENTS.md instructions: not skills", "prompt-engineering": "prompt style advice",
    "xml": "XML-like tags in bodies: advisory", "cross-platform": "instruction files (AGENTS.md, CLAUDE.md)",
    "version-awareness": "tool version pinning in .agnix.toml",
    "amp-checks": "Amp's check files, settings and MCP permission rules: Amp configuration, not skill files",
    "codex": "Codex's config.toml, AGENTS.md, plugins and hooks: not skill files",
    "opencode": "opencode's configuration: a runtime skill-ls does not model",
    "cursor": "Cursor rules and configuration", "copilot": "GitHub Copilot instructions and agents",
    "gemini-cli": "Gemini CLI configuration", "gemini-agents": "Gemini CLI agents", "windsurf": "Windsurf rules",
    "cline": "Cline rules", "roo-code": "Roo Code rules",
    **{k: "Kiro's configuration" for k in ("kiro-agents", "kiro-hooks", "kiro-powers", "kiro-steering", "kiro-mcp",
                                          "kiro-permissions", "kiro-settings", "kiro-workflows", "kiro-ignore",
                                          "kiro-skills")},
    **{k: "skills placed for a runtime skill-ls does not model" for k in (
        "cline-skills", "copilot-skills", "cursor-skills", "opencode-skills", "windsurf-skills")},
}


def agnix_rules() -> dict[str, tuple[str, str]]:
    """Every rule of the installed agnix, id -> (title, category): the ids its binary holds, each confirmed
    by `agnix explain ID --format json` (agnix 0.59.3: 701 rules, not a subset)."""
    import re
    import shutil

    binary = shutil.which("agnix")
    exe = Path(sys.executable).parent / "agnix"
    data = (exe if exe.is_file() else Path(binary or "agnix")).read_bytes()
    ids = sorted({m.decode() for m in re.findall(rb"\b[A-Z]{2,5}(?:-[A-Z]{2,5})?-[0-9]{3}\b", data)})
    out: dict[str, tuple[str, str]] = {}
    for rid in ids:
        proc = subprocess.run(["agnix", "explain", rid, "--format", "json"], capture_output=True, text=True)
        if proc.returncode == 0 and proc.stdout.strip().startswith("{"):
            info = json.loads(proc.stdout)
            if info.get("id") == rid:
                out[rid] = (str(info.get("name", "")), str(info.get("category", "")))
    return out


def run_skill_ls() -> list[dict]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-m", "skill_ls", "check", str(CORPUS), "--no-user-roots", "--format",
                          "json"], capture_output=True, text=True, env=env, cwd=ROOT)
    return [{"path": d["path"], "code": d["code"], "line": d["range"]["start"]["line"] + 1, "message": d["message"]}
            for d in json.loads(out.stdout)["diagnostics"]]


def run_agnix() -> tuple[list[dict], str]:
    version = subprocess.run(["agnix", "--version"], capture_output=True, text=True).stdout.strip()
    out = subprocess.run(["agnix", str(CORPUS), "--format", "json"], capture_output=True, text=True)
    return [{"path": d["file"], "code": d["rule"], "line": d["line"], "message": d["message"]}
            for d in json.loads(out.stdout)["diagnostics"]], version


def concern_of(code: str, tool: int) -> str | None:
    for concern, codes in CONCERNS.items():
        if code in codes[tool]:
            return concern
    return None


def rel(path: str) -> str:
    if not os.path.isabs(path):
        path = os.path.join(CORPUS, path)
    try:
        return os.path.relpath(os.path.realpath(path), os.path.realpath(CORPUS))
    except ValueError:
        return path


def main() -> None:
    ours = run_skill_ls()
    theirs, version = run_agnix()
    per: dict[str, dict[str, list[list[dict]]]] = collections.defaultdict(lambda: collections.defaultdict(
        lambda: [[], []]))
    other: collections.Counter[str] = collections.Counter()
    for tool, found in ((0, ours), (1, theirs)):
        for d in found:
            c = concern_of(d["code"], tool)
            if c is None:
                if tool == 1:
                    other[d["code"]] += 1
                continue
            per[c][rel(d["path"])][tool].append(d)
    lines = ["# skill-ls and agnix on the shared corpus", "",
             f"Generated by `python3 docs/compare_agnix.py` (skill-ls at this commit, {version}) over "
             f"a corpus (1,504 SKILL.md and 441 agent files from 7 public repositories). Findings are "
             "grouped by concern; a file counts once per concern and tool. Verdicts are this project's reading, "
             "checked by hand against the files (see docs/corpus-review.md).", "",
             "| concern | skill-ls codes | agnix rules | files: both | only skill-ls | only agnix | who is right |",
             "|---|---|---|---:|---:|---:|---|"]
    for concern, (sl, ag) in CONCERNS.items():
        files = per.get(concern, {})
        both = sum(1 for v in files.values() if v[0] and v[1])
        only_sl = sum(1 for v in files.values() if v[0] and not v[1])
        only_ag = sum(1 for v in files.values() if v[1] and not v[0])
        lines.append(f"| {concern} | {', '.join(sl)} | {', '.join(ag) or '—'} | {both} | {only_sl} | {only_ag} | "
                     f"{VERDICTS.get(concern, '')} |")
    lines += ["", "## agnix rules with no skill-ls counterpart", "",
              "| agnix rule | findings | reading |", "|---|---:|---|"]
    for code, n in sorted(other.items()):
        lines.append(f"| {code} | {n} | {AGNIX_ONLY_NOTES.get(code, 'not reviewed')} |")
    lines += ["", "## Per file, where the tools disagree", "",
              "For each concern, up to 12 files that only one tool flags (file: line and code of each finding).", ""]
    for concern in CONCERNS:
        files = per.get(concern, {})
        diff = sorted((p, v) for p, v in files.items() if bool(v[0]) != bool(v[1]))
        if not diff:
            continue
        lines += [f"### {concern}", "", "| file | skill-ls | agnix |", "|---|---|---|"]
        for path, (a, b) in diff[:12]:
            fmt = lambda ds: "<br>".join(f"{d['line']}: {d['code']}" for d in ds[:3]) or "—"  # noqa: E731
            lines.append(f"| `{path}` | {fmt(a)} | {fmt(b)} |")
        if len(diff) > 12:
            lines.append(f"| … {len(diff) - 12} more | | |")
        lines.append("")
    rules = agnix_rules()
    status_of = {rid: COVERAGE.get(rid, ("n/a", "", CATEGORY_READING.get(cat, "not reviewed")))
                 for rid, (_, cat) in rules.items()}
    counts = collections.Counter(st for st, _, _ in status_of.values())
    lines += ["", "## agnix's rule list as a checklist", "",
              f"All {len(rules)} rule ids of {version} (every id its binary holds that `agnix explain` answers: its "
              "701 rules and one more id it still explains); "
              f"skill-ls: {counts['full']} covered, {counts['partial']} partly, {counts['no']} decided against "
              f"(each with the reason), {counts['n/a']} about files skill-ls does not model (the reason is their "
              "category's, below). Hook rules are checked in " + HOOK_FILES + "; MCP rules in " + MCP_FILES + ".",
              "", "| agnix category | rules | covered | partly | decided against | not modelled: why |",
              "|---|---:|---:|---:|---:|---|"]
    by_cat: dict[str, list[str]] = collections.defaultdict(list)
    for rid, (_, cat) in rules.items():
        by_cat[cat].append(rid)
    for cat in sorted(by_cat, key=lambda c: (-len(by_cat[c]), c)):
        c = collections.Counter(status_of[r][0] for r in by_cat[cat])
        lines.append(f"| {cat} | {len(by_cat[cat])} | {c['full']} | {c['partial']} | {c['no']} | "
                     f"{CATEGORY_READING.get(cat, '—') if c['n/a'] else '—'} |")
    lines += ["", "Every rule that skill-ls covers, partly covers or decided against:", "",
              "| agnix rule | title | skill-ls | codes | decision |", "|---|---|---|---|---|"]
    for rid, (title, _) in sorted(rules.items()):
        status, codes, note = status_of[rid]
        if status != "n/a":
            lines.append(f"| {rid} | {title} | {status} | {codes} | {note} |")
    OUT.write_text("\n".join(lines).rstrip() + "\n", encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
