#!/usr/bin/env python3
"""Regenerate docs/agnix-comparison.md: skill-ls and agnix side by side on a corpus of real skills.

Usage: python3 docs/compare_agnix.py [CORPUS] (default: $SKILL_LS_CORPUS, else ./corpus).
       python3 docs/compare_agnix.py --checklist (rewrite only the rule checklist at the end of the doc).
Needs `agnix` 0.59.3 on PATH (`pip install agnix==0.59.3`). Both tools run on the same tree; findings are grouped
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
CORPUS = Path(os.environ.get("SKILL_LS_CORPUS", "corpus"))
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
    "MCP server definitions": (("MS001", "MS002", "MS003", "MS004", "MS005", "MS006", "MS008"), ("MCP-027",)),
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
                                        "more precise here: `requires` really does nothing anywhere. The 14 files only agnix flags are "
                                        "plugin skills only Claude Code reads, whose `version` Claude Code 2.1.332 "
                                        "reads: nothing to report.",
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
                              "no runtime skill-ls models reads; the corpus has no skill `mcp.json`.",
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

# agnix 0.59.3's rule list (all of it: tests/data/agnix/rules-0.59.3.tsv, from `agnix --format sarif`).
RULES_TSV = ROOT / "tests" / "data" / "agnix" / "rules-0.59.3.tsv"

# Exactly which files skill-ls reads for the concerns of agnix's hook and MCP rules (issue 25).
HOOK_FILES = ("the hooks of a project's `.claude/settings.json` and `.claude/settings.local.json`, the user's "
              "`~/.claude/settings.json`, managed settings (`managed-settings.json`, `managed-settings.d/*.json`), a "
              "plugin's `hooks/hooks.json`, the hook files its `plugin.json` names and the `hooks` object written "
              "inside `plugin.json` (HK001-HK003), and `hooks` in the frontmatter of a Claude Code skill or command "
              "(CC004, HK002, HK003) and a subagent (SA005, HK002, HK003)")
MCP_FILES = ("the project's root `.mcp.json`, a Claude Code plugin's `.mcp.json`, the MCP configs its `plugin.json` "
             "names and the `mcpServers` written inside `plugin.json` (MS008, MS001-MS006), a subagent's "
             "`mcpServers`, a skill's `mcp.json` (AGH, Amp), `metadata.agh.mcp_servers` and AGH `AGENT.md` "
             "`mcp_servers`; not `~/.claude.json` (local and user scope) or managed MCP settings")
HK = ("files: project, user and managed settings hooks, plugin hooks.json and plugin.json hooks (HK001); skill "
      "and subagent frontmatter (CC004, SA005)")
MS = "files: project and plugin `.mcp.json`, plugin.json `mcpServers`, subagent `mcpServers`, skill `mcp.json`"

# agnix rule -> (skill-ls status, codes, decision). Status: "full" (the same concern, decided on the
# runtime's documentation), "partial", "no" (not checked, with the reason), "n/a" (a file kind or runtime
# skill-ls does not model). Rules not listed take their category's reading (CATEGORY_DEFAULT).
COVERAGE: dict[str, tuple[str, str, str]] = {
    # ---- Agent Skills standard
    "AS-001": ("full", "SK001", ""), "AS-002": ("full", "SK005", ""), "AS-003": ("full", "SK005", ""),
    "AS-004": ("full", "SK008", ""), "AS-005": ("full", "SK008", ""), "AS-006": ("full", "SK008", ""),
    "AS-008": ("no", "", "style: no runtime sets a minimum beyond non-empty (SK005)"),
    "AS-009": ("partial", "SK014, PT003", "angle brackets: Amp's unescaped catalog and the upload check"),
    "AS-011": ("full", "SK010", "1-500, an empty string included"), "AS-012": ("full", "SK012", ""),
    "AS-013": ("full", "RF004", "links only; nested skills are not references"),
    "AS-015": ("no", "", "upload size: needs the zipped size; not checked"),
    "AS-016": ("full", "SK003, SK004, SK006", ""), "AS-017": ("full", "SK009", ""),
    "AS-020": ("no", "", "style advice"), "AS-021": ("full", "SK012", ""),
    "AS-022": ("no", "", "skill-ls never reads scripts' code"), "AS-023": ("no", "", "advisory"),
    "AS-024": ("partial", "MS004", "pinning checked where a runtime starts the server, not in prose"),
    "AS-025": ("full", "SH001-SH003", "per runtime, with the winner"), "AS-026": ("no", "", "style"),
    "AS-027": ("no", "", "style"),
    # ---- Claude Code skills
    "CC-SK-001": ("full", "CC001", ""), "CC-SK-002": ("full", "SK006", "enum"), "CC-SK-004": ("full", "CC002", ""),
    "CC-SK-005": ("full", "CC002", "built-ins, project/user subagents, plugin:name"),
    "CC-SK-006": ("no", "", "heuristic on the name"), "CC-SK-007": ("no", "", "advisory"),
    "CC-SK-008": ("full", "CC003", ""), "CC-SK-010": ("full", "CC004", HK),
    "CC-SK-013": ("no", "", "heuristic about prose"),
    "CC-SK-014": ("full", "SK006", "flag words as Claude Code reads them (\"true\", yes, on, 1 accepted)"),
    "CC-SK-015": ("full", "SK006", "flag words as Claude Code reads them"), "CC-SK-016": ("full", "CC008", ""),
    "CC-SK-017": ("full", "SK007, PT001", "only when no reading runtime knows the key"),
    "CC-SK-018": ("full", "SK006", ""), "CC-SK-019": ("full", "CC005", ""), "CC-SK-020": ("full", "SK006", ""),
    "CC-SK-021": ("no", "", "advisory"), "CC-SK-022": ("no", "", "built-in command names change often"),
    "CC-SK-023": ("full", "CC007", "money is prose; named arguments shadowing shell variables too"),
    "CC-SK-024": ("partial", "SK005", "required where the runtime requires it"),
    "CC-SK-025": ("full", "BG002", "and Codex's budget"), "CC-SK-027": ("full", "PL003", ""),
    "CC-SK-028": ("partial", "RF003", "names the runtime that runs the line"),
    "CC-SK-030": ("full", "PT002", ""), "CC-SK-031": ("full", "PT003", ""),
    "CC-SK-032": ("no", "", "style"), "CC-SK-033": ("no", "", "style"), "CC-SK-034": ("no", "", "advisory"),
    # ---- Claude Code subagents
    "CC-AG-001": ("full", "AG004", ""), "CC-AG-002": ("full", "AG004", ""), "CC-AG-003": ("full", "SA001", ""),
    "CC-AG-004": ("full", "SA002", ""), "CC-AG-005": ("full", "AG005", "against the effective set"),
    "CC-AG-006": ("full", "SA004", ""), "CC-AG-007": ("full", "AG001", ""), "CC-AG-008": ("full", "AG004", ""),
    "CC-AG-009": ("full", "SA003", ""), "CC-AG-010": ("full", "SA003", ""), "CC-AG-011": ("full", "SA005", HK),
    "CC-AG-012": ("full", "SA002", ""), "CC-AG-014": ("full", "AG004", ""), "CC-AG-015": ("full", "SA002", ""),
    "CC-AG-017": ("full", "AG004, SA002", ""), "CC-AG-019": ("full", "AG002", ""),
    "CC-AG-020": ("full", "AG004", ""), "CC-AG-021": ("no", "", "not documented as a hard limit"),
    "CC-AG-022": ("no", "", "documented default behaviour"), "CC-AG-023": ("full", "SA006", "project beats user"),
    "CC-AG-024": ("full", "SA004", ""),
    # ---- Claude Code hooks (HOOK_FILES)
    "CC-HK-001": ("full", "HK001, CC004, SA005", HK),
    "CC-HK-002": ("full", "HK002", "as Claude Code 2.1.332 runs them: it also runs prompt and agent hooks on "
                  "PermissionDenied and TeammateIdle, which the page excludes (not reported); settings and plugin "
                  "hook files, and skill, command and subagent frontmatter (a subagent's Stop runs as SubagentStop)"),
    "CC-HK-003": ("no", "", "no matcher matches every tool (documented)"),
    "CC-HK-005": ("full", "HK001, CC004, SA005", HK), "CC-HK-006": ("full", "HK001, CC004, SA005", HK),
    "CC-HK-007": ("full", "HK001, CC004, SA005", HK),
    "CC-HK-008": ("partial", "HK003", "only where the script's directory is certain (`${CLAUDE_PLUGIN_ROOT}`, "
                  "`$CLAUDE_PROJECT_DIR`, the user's `~`), in hook files and in skill, command and subagent frontmatter; "
                  "`${CLAUDE_SKILL_DIR}`, relative paths and shell pipelines are never guessed"),
    "CC-HK-009": ("no", "", "advice about what a command does"),
    "CC-HK-010": ("no", "", "not checked"), "CC-HK-011": ("full", "HK001, CC004, SA005", "a positive number; " + HK),
    "CC-HK-012": ("full", "HK001, SK003, AG001", "JSON of hooks files, YAML of frontmatter; " + HK),
    "CC-HK-013": ("no", "", "finer handler fields not checked"), "CC-HK-014": ("no", "", "finer handler fields not checked"),
    "CC-HK-015": ("no", "", "finer handler fields not checked"), "CC-HK-016": ("full", "HK001, CC004, SA005", HK),
    "CC-HK-018": ("no", "", "Claude Code ignores such a matcher silently: advisory"),
    "CC-HK-020": ("full", "HK001, CC004, SA005", HK),
    "CC-HK-021": ("partial", "HK001, CC004, SA005", "`if` that is not a string (the schema refuses it); its permission "
                  "rule syntax is not checked; " + HK),
    "CC-HK-022": ("full", "HK001, CC004, SA005", "`bash` or `powershell`, as the schema; " + HK),
    "CC-HK-023": ("full", "HK001, CC004, SA005", "true or false, as the schema; " + HK),
    "CC-HK-024": ("no", "", "finer handler fields not checked"),
    "CC-HK-025": ("full", "HK001, CC004, SA005", "not a string, or not a regular expression; " + HK),
    "CC-HK-026": ("full", "HK001, CC004, SA005", HK), "CC-HK-027": ("full", "HK001, CC004, SA005", HK),
    **{f"CC-HK-{n:03d}": ("no", "", "finer hook semantics not checked") for n in range(28, 36)},
    "CC-HK-029": ("partial", "HK001, CC004, SA005", "a value other than `continue`/`block` on a command or http hook "
                  "(the schema refuses it; an mcp_tool hook reads any value as `block`); where it is ineffective is "
                  "not checked; " + HK),
    # ---- Claude Code plugins and marketplaces
    "CC-PL-001": ("no", "", "skill-ls reads the manifest where Claude Code does; a plugin.json elsewhere is no manifest"),
    "CC-PL-002": ("partial", "PL002", "a component path that points inside .claude-plugin/"),
    "CC-PL-003": ("full", "PL001", "a warning"), "CC-PL-004": ("full", "PL001", "name"),
    "CC-PL-005": ("full", "PL001", ""), "CC-PL-006": ("full", "PL001", ""), "CC-PL-007": ("full", "PL002", ""),
    "CC-PL-008": ("full", "PL002", ""), "CC-PL-009": ("full", "PL001", "as `claude plugin validate`"),
    "CC-PL-010": ("full", "PL001", "as `claude plugin validate`"),
    "CC-PL-011": ("no", "", "LSP servers of plugins not read"), "CC-PL-012": ("no", "", "userConfig not read"),
    "CC-PL-013": ("no", "", "channels not read"), "CC-PL-014": ("full", "PL005", "permissionMode, hooks, mcpServers"),
    "CC-PL-015": ("no", "", "not checked"), "CC-PL-016": ("full", "PL001", ""),
    "CC-PL-017": ("full", "PL001", "a warning: Claude Code ignores the field"),
    "CC-PL-018": ("full", "PL001, PL004", "claude-*, anthropic-*, cc-plugin-*"),
    "CC-PL-019": ("no", "", "dependencies not read"), "CC-PL-020": ("no", "", "not checked"),
    "CC-PL-021": ("no", "", "plugin settings not read"), "CC-PL-022": ("no", "", "monitors not read"),
    "CC-PL-023": ("partial", "PL001", "field types of the manifest"),
    "CC-MP-001": ("full", "PL004", ""), "CC-MP-002": ("full", "PL004", "names usable in plugin ids, reserved names"),
    "CC-MP-003": ("full", "PL004", "sources; a plugin listed twice"),
    "CC-MP-004": ("partial", "PL004", "a local source that does not exist"),
    "CC-MP-005": ("no", "", "metadata advice"),
    # ---- MCP configurations (MCP_FILES); the other MCP-* rules are about protocol data
    "MCP-007": ("full", "MC001", MS), "MCP-009": ("full", "MS001", MS), "MCP-010": ("full", "MS001", MS),
    "MCP-011": ("full", "MS001", MS), "MCP-012": ("no", "", "Claude Code still connects to SSE servers: advisory"),
    "MCP-017": ("full", "MS002", MS), "MCP-018": ("full", "MS003", "known token formats, and literal values under secret-named keys; " + MS),
    "MCP-019": ("no", "", "advice about what a command does"), "MCP-021": ("full", "MS005", MS),
    "MCP-022": ("full", "MS008, AG004", "Claude Code drops the server; AGH `mcp_servers`; " + MS),
    "MCP-023": ("full", "MS006", MS), "MCP-024": ("full", "MS001, MS006", "MS001 where Claude Code drops it; " + MS), "MCP-027": ("full", "MS004", MS),
    "MCP-028": ("full", "MS003", "headers; " + MS), "MCP-029": ("no", "", "advice about a server's arguments"),
    "CC-MCP-001": ("no", "", "not checked"), "CC-MCP-002": ("no", "", "not checked (`${VAR:-default}` defaults are read)"),
    "CC-MCP-003": ("n/a", "", "what a server sends (protocol data)"), "CC-MCP-004": ("no", "", "not checked"),
    "CC-MCP-005": ("no", "", "not checked"),
    # ---- skills of runtimes skill-ls models (Amp, Codex)
    "AMP-SK-001": ("full", "SK007, PT001", ""), "AMP-SK-002": ("full", "SH001", "per runtime, with the winner"),
    "AMP-SK-003": ("full", "SH004", ""), "AMP-005": ("no", "", "not checked"), "AMP-008": ("no", "", "advisory"),
    "AMP-010": ("full", "MC001, MS001", "a skill's `mcp.json`"),
    "CX-SK-001": ("full", "SK007, PT001", ""), "CX-SK-004": ("full", "BG002", ""),
    "CX-SK-006": ("full", "CX001", ""), "CX-SK-007": ("no", "", "advisory"),
    # ---- cross-platform and references
    "XP-SK-001": ("full", "PT001", ""), "XP-SK-002": ("no", "", "advisory"),
    "XP-SK-003": ("partial", "MS003", "only where a runtime passes the value to a server"),
    "XP-SK-004": ("no", "", "paths in prose: advisory"),
    "REF-001": ("partial", "RF001", "in skills; CLAUDE.md imports are not read"),
    "REF-002": ("partial", "RF001", "in skills; CLAUDE.md and AGENTS.md are not read"),
    "REF-003": ("no", "", "CLAUDE.md imports are not read"),
}

_NOT_MODELLED = "files: a runtime skill-ls does not model"
RUNTIME_NAMES = {"cline": "Cline", "copilot": "GitHub Copilot", "cursor": "Cursor", "gemini": "Gemini CLI",
                 "kiro": "Kiro", "opencode": "OpenCode", "windsurf": "Windsurf"}
CATEGORY_DEFAULT: dict[str, tuple[str, str]] = {
    "agents-md": ("n/a", "AGENTS.md instruction files: not skill or agent definitions"),
    "amp-checks": ("n/a", "Amp checks and Amp settings: not skills"),
    "claude-memory": ("n/a", "CLAUDE.md memory and `.claude/rules`: not skill or agent definitions"),
    "claude-output-styles": ("n/a", "output styles: not skill or agent definitions"),
    "claude-settings": ("n/a", "Claude Code settings other than hooks: not about skills, agents, hooks or MCP servers"),
    "codex": ("n/a", "Codex's config.toml, AGENTS.md, plugins, hooks and custom agents: skill-ls reads Codex's skills only"),
    "cross-platform": ("n/a", "AGENTS.md and CLAUDE.md instruction files"),
    "mcp": ("n/a", "MCP protocol data (JSON-RPC messages, tool, resource and prompt definitions a server sends), "
                   "not a configuration a runtime reads"),
    "prompt-engineering": ("no", "prompt style: advisory"),
    "version-awareness": ("n/a", "agnix's own configuration (.agnix.toml)"),
    "xml": ("no", "XML-like tags in bodies: advisory"),
}


def agnix_rules() -> list[tuple[str, str, str, str]]:
    """Every rule of agnix 0.59.3: (id, severity, category, title), from the vendored list."""
    rows = []
    for line in RULES_TSV.read_text(encoding="utf-8").splitlines()[2:]:
        rid, severity, category, title = line.split("\t")
        rows.append((rid, severity, category, title))
    return rows


def coverage(rid: str, category: str) -> tuple[str, str, str]:
    """skill-ls's status for one agnix rule: its own entry, else its category's reading."""
    if rid in COVERAGE:
        return COVERAGE[rid]
    if category in CATEGORY_DEFAULT:
        status, note = CATEGORY_DEFAULT[category]
        return status, "", note
    runtime = RUNTIME_NAMES.get(category.split("-")[0], category)
    return "n/a", "", f"{runtime} {_NOT_MODELLED}"


def checklist() -> list[str]:
    """The '## agnix's rule list as a checklist' section: every agnix 0.59.3 rule, one row each."""
    rules = agnix_rules()
    counts = collections.Counter(coverage(rid, cat)[0] for rid, _, cat, _ in rules)
    lines = ["", CHECKLIST_HEADING, "",
             f"All {len(rules)} rules of agnix 0.59.3 (its SARIF rule list, vendored in "
             "`tests/data/agnix/rules-0.59.3.tsv`; `tests/test_agnix_comparison.py` checks that every one is "
             f"here). skill-ls: {counts['full']} covered, {counts['partial']} partly, {counts['no']} decided "
             f"against or not checked (each with the reason), {counts['n/a']} about files or runtimes skill-ls "
             "does not model.", "",
             f"- **Hooks** (`CC-HK-*`, `CC-SK-010`, `CC-AG-011`): skill-ls reads {HOOK_FILES}.",
             f"- **MCP servers** (`MCP-*`, `CC-MCP-*`): skill-ls reads {MCP_FILES}. agnix's other MCP rules "
             "check MCP protocol data (JSON-RPC messages, tool definitions), which no runtime reads from a file.",
             "- How agnix's own fixtures for these families fare when placed where Claude Code reads them: "
             "docs/agnix-fixtures.md.", ""]
    by_cat: dict[str, list[tuple[str, str, str, str]]] = collections.defaultdict(list)
    for row in rules:
        by_cat[row[2]].append(row)
    for category in sorted(by_cat):
        rows = by_cat[category]
        cat_counts = collections.Counter(coverage(rid, category)[0] for rid, _, _, _ in rows)
        summary = ", ".join(f"{n} {s}" for s, n in sorted(cat_counts.items()))
        lines += [f"### {category} ({len(rows)} rules: {summary})", "",
                  "| agnix rule | title | skill-ls | codes | decision |", "|---|---|---|---|---|"]
        for rid, _, _, title in rows:
            status, codes, note = coverage(rid, category)
            lines.append(f"| {rid} | {title} | {status} | {codes} | {note} |")
        lines.append("")
    return lines


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


CHECKLIST_HEADING = "## agnix's rule list as a checklist"


def write_checklist_only() -> None:
    """Replace the checklist section of the existing doc (the corpus part stays as generated)."""
    text = OUT.read_text(encoding="utf-8")
    head = text.split("\n" + CHECKLIST_HEADING, 1)[0].rstrip("\n").split("\n")
    OUT.write_text("\n".join(head + checklist()).rstrip() + "\n", encoding="utf-8")


def main() -> None:
    global CORPUS
    args = sys.argv[1:]
    if args == ["--checklist"]:
        write_checklist_only()
        print(f"wrote {OUT.relative_to(ROOT)} (checklist)")
        return
    if args:
        CORPUS = Path(args[0])
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
    lines += checklist()
    OUT.write_text("\n".join(lines).rstrip() + "\n", encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
