"""Document links and the path under a position (`analysis.queries.links`): a skill body's file links,
the paths a plugin.json names, and the scripts hooks run where their path is certain (HK003's
resolution): in hooks.json, settings and a skill's or subagent's frontmatter, existing scripts only."""
from __future__ import annotations

import json

from conftest import workspace_state, write

from skill_ls.analysis.queries.links import document_links, link_under


def test_hook_scripts_are_links_and_definitions(workspace):
    root = workspace / "p"
    write(root / ".claude-plugin" / "plugin.json", '{"name": "p"}\n')
    script = write(root / "scripts" / "fmt.sh", "#!/bin/sh\n")
    hooks = write(root / "hooks" / "hooks.json", json.dumps({"hooks": {"PostToolUse": [{"hooks": [
        {"type": "command", "command": "bash ${CLAUDE_PLUGIN_ROOT}/scripts/fmt.sh"},
        {"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/scripts/missing.sh"}]}]}}, indent=1))
    guard = write(workspace / ".claude" / "hooks" / "guard.sh", "#!/bin/sh\n")
    skill_md = write(workspace / ".claude" / "skills" / "deploy" / "SKILL.md",
                     "---\nname: deploy\ndescription: Deploys. Use when deploying.\nhooks:\n  PreToolUse:\n"
                     "    - hooks:\n        - type: command\n          command: $CLAUDE_PROJECT_DIR/.claude/hooks/guard.sh\n"
                     "---\nSee [the guide](guide.md).\n", dedent=False)
    write(skill_md.parent / "guide.md", "# Guide\n")
    state = workspace_state(workspace)
    doc = state.index.store.get(str(hooks))
    [link] = document_links(state, str(hooks), doc)
    assert link.target == str(script)
    line = hooks.read_text().splitlines()[link.span.start_line]
    assert line[link.span.start_col:link.span.end_col] == "bash ${CLAUDE_PLUGIN_ROOT}/scripts/fmt.sh"
    assert link_under(state, str(hooks), doc, link.span.start_line, link.span.start_col + 3) == link
    assert link_under(state, str(hooks), doc, link.span.start_line + 3, link.span.start_col) is None  # missing.sh
    sdoc = state.index.store.get(str(skill_md))
    links = document_links(state, str(skill_md), sdoc)
    assert [(l.span.start_line, l.target) for l in links] == [(7, str(guard)), (9, str(skill_md.parent / "guide.md"))]
    assert link_under(state, str(skill_md), sdoc, 7, 20).target == str(guard)
    assert link_under(state, str(skill_md), sdoc, 9, 8) is None  # a body link is a document link only
