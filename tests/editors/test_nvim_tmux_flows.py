"""Neovim 0.11's TUI under tmux (issue 10), the flows tests/editors/test_nvim_tmux.py does not cover:
diagnostics of files never opened (on screen in the quickfix list, and equal to `skill-ls check`),
a multi-root session (a second folder added with `vim.lsp.buf.add_workspace_folder()`: one client,
that folder's own configuration, `:SkillCatalog` for the buffer's folder), and completion with the
keys the README names (`<C-x><C-o>`), seen in the buffer. Keys go in with `tmux send-keys`, the
screen comes back with `capture-pane`.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.editors.test_nvim_flows import check
from tests.editors.test_nvim_tmux import TMUX, _reason, demo_ws, session_factory  # noqa: F401

pytestmark = pytest.mark.editor_requires(_reason)
assert TMUX is not None or _reason


def _triples(diags: list[dict]) -> list[tuple[str, str, int]]:
    return sorted((os.path.realpath(d["path"]), d["code"], d["line"]) for d in diags)


def test_files_never_opened_on_screen_equal_check(demo_ws: Path, session_factory) -> None:
    ws_copy = demo_ws / ".agh" / "skills" / "code-review" / "SKILL.md"
    s = session_factory(demo_ws, [ws_copy])
    s.wait_screen(lambda t: "shadows 2 other copies" in t, "the open file's SH002")
    expected = check(demo_ws)
    # Every file `check` reports, none of them opened, listed on screen by Neovim's own quickfix list.
    s.command("lua vim.diagnostic.setqflist({ open = true })")
    s.command("resize 30")
    screen = s.wait_screen(lambda t: "triage/SKILL.md" in t and "release-notes/SKILL.md" in t
                           and "vendor/skills/code-review/SKILL.md" in t, "diagnostics of unopened files in the quickfix list")
    assert "alowed-tools" in screen and "YAML syntax error" in screen, screen
    r = s.dump()  # once the server is idle: Neovim holds every push
    assert _triples(r["diagnostics"]) == expected
    assert len(r["clients"]) == 1


def test_multi_root_session_on_screen(demo_ws: Path, tmp_path: Path, session_factory) -> None:
    other = tmp_path / "other"
    deploy = other / ".agh" / "skills" / "deploy" / "SKILL.md"
    deploy.parent.mkdir(parents=True)
    (other / ".skill-ls.toml").write_text('runtimes = ["agh"]\n[rules]\nignore = ["SK007"]\n')
    # SK009 (name differs from the directory) is reported there, SK007 (the typo'd key) is ignored there.
    deploy.write_text("---\nname: deploy-x\ndescription: Deploys the other service. Use when shipping.\n"
                      "alowed-tools: Read\n---\n# Deploy\n")
    notes = demo_ws / ".agh" / "skills" / "release-notes" / "SKILL.md"
    s = session_factory(demo_ws, [notes])
    s.wait_screen(lambda t: "unknown field 'alowed-tools'" in t, "SK007 in the demo folder")
    s.command(f"lua vim.lsp.buf.add_workspace_folder('{other}')")
    s.command(f"edit {deploy}")
    screen = s.wait_screen(lambda t: "differs from its directory" in t, "the other folder's SK009 on screen")
    assert "unknown field" not in screen, screen  # the other folder ignores SK007, as `skill-ls check` there does
    r = s.dump("lua DUMP({ folders = #vim.lsp.get_clients({ name = 'skill_ls' })[1].workspace_folders })")
    assert len(r["clients"]) == 1 and r["extra"]["folders"] == 2, r
    mine = sorted(d["code"] for d in r["diagnostics"] if os.path.realpath(d["path"]) == os.path.realpath(deploy))
    assert mine == sorted(c[1] for c in check(other)) == ["SK009"], mine
    s.command("SkillCatalog")
    screen = s.wait_screen(lambda t: '<skill name="deploy-x">' in t, "the other folder's catalog")
    assert "release-notes" not in screen, screen


def test_omni_completion_keys_show_frontmatter_keys(demo_ws: Path, session_factory) -> None:
    notes = demo_ws / ".agh" / "skills" / "release-notes" / "SKILL.md"
    s = session_factory(demo_ws, [notes])
    s.wait_screen(lambda t: "unknown field 'alowed-tools'" in t, "the server attached")
    s.keys("Escape")
    s.command("3")  # the description line: open a new frontmatter line below it
    s.keys("o")
    s.keys("-l", "ver")
    s.keys("C-x", "C-o")
    # `ver` has one completion among AGH's keys: Neovim inserts it without a menu.
    s.wait_screen(lambda t: any(line.strip().startswith("version:") for line in t.splitlines()),
                  "`ver` completed to `version:`")
    s.keys("Escape")
