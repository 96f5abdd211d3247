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
                                        "more precise here: `requires` really does nothing anywhere.",
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


def agnix_titles() -> dict[str, str]:
    """Every agnix rule id with its title (`agnix explain`), for the checklist."""
    out: dict[str, str] = {}
    for prefix in ("AS", "CC-SK", "CC-AG", "CC-HK", "CC-PL", "MCP", "CDX", "XP-SK"):
        for n in range(1, 61):
            rid = f"{prefix}-{n:03d}"
            text = subprocess.run(["agnix", "explain", rid], capture_output=True, text=True).stdout
            if text.startswith(rid):
                out[rid] = text.splitlines()[0].split(" - ", 1)[-1]
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
    titles = agnix_titles()
    counts = collections.Counter(COVERAGE.get(r, ("n/a", "", ""))[0] for r in titles)
    lines += ["", "## agnix's rule list as a checklist", "",
              f"{len(titles)} agnix rules; skill-ls: {counts['full']} covered, {counts['partial']} partly, "
              f"{counts['no']} decided against (each with the reason); the other {counts['n/a']} concern files "
              "skill-ls does not model (hooks in settings files, MCP servers' own protocol, AGENTS.md, Codex "
              "config) or finer hook/plugin fields not reviewed yet.", "",
              "| agnix rule | title | skill-ls | codes | decision |", "|---|---|---|---|---|"]
    for rid, title in titles.items():
        if rid in COVERAGE:
            status, codes, note = COVERAGE[rid]
            lines.append(f"| {rid} | {title} | {status} | {codes} | {note} |")
    OUT.write_text("\n".join(lines).rstrip() + "\n", encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
