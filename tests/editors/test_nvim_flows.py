"""Neovim 0.11 end to end over the demo workspace (issue 10): what a person sees, headless.

Each test copies `examples/demo` into tmp_path (a private HOME/AGH_HOME from conftest), starts a real
`nvim --headless` with editors/nvim on 'runtimepath' and compares what Neovim holds with what
`skill-ls check` says for the same tree: diagnostics for files never opened, a file in an additional
root joining the same client, a change on disk reaching an open buffer without typing, a multi-root
session, a paste that Neovim splits inside a multi-byte character, the code lens, :SkillWhere's
default name and a server that is not installed. tests/editors/test_nvim_tmux.py drives the same
client through a real terminal.
"""
from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.editors.test_nvim import NVIM, NVIM_SKIP_REASON, Fixture, _lua_str, _same, run_nvim

pytestmark = pytest.mark.editor_requires(NVIM_SKIP_REASON if NVIM is None else None)

REPO = Path(__file__).resolve().parents[2]
DEMO = REPO / "examples" / "demo"


class Demo(Fixture):
    """The demo workspace (three AGH tiers, an agent-local override) plus the base fixture's files."""

    def __init__(self, tmp_path: Path):
        super().__init__(tmp_path)
        self.demo = tmp_path / "demo"
        shutil.copytree(DEMO, self.demo)
        self.ws_review = self.demo / ".agh" / "skills" / "code-review" / "SKILL.md"
        self.shared_review = self.demo / "shared" / ".agh" / "skills" / "code-review" / "SKILL.md"
        self.release_notes = self.demo / ".agh" / "skills" / "release-notes" / "SKILL.md"
        self.user_review = self.agh_home / "skills" / "code-review" / "SKILL.md"


@pytest.fixture
def demo(tmp_path: Path) -> Demo:
    return Demo(tmp_path)


def check(workspace: Path, *paths: Path) -> list[tuple[str, str, int]]:
    """(path, code, line) from `skill-ls check --format json` over the same HOME/AGH_HOME: the command
    line's own `main`, in process, in `workspace` (its output as a process's would be)."""
    from skill_ls.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.chdir(workspace), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["check", "--format", "json", *map(str, paths)])
    assert code in (0, 1), err.getvalue()
    rows = []
    for d in json.loads(out.getvalue())["diagnostics"]:
        p = Path(d["path"])
        rows.append((os.path.realpath(p if p.is_absolute() else workspace / p), d["code"], d["range"]["start"]["line"]))
    return sorted(rows)


ALL_DIAGNOSTICS_LUA = r"""
function all_diagnostics()
  local out = {}
  for _, d in ipairs(vim.diagnostic.get()) do
    local name = vim.api.nvim_buf_get_name(d.bufnr)
    out[#out + 1] = { path = vim.uv.fs_realpath(name) or name, code = tostring(d.code), line = d.lnum, message = d.message }
  end
  table.sort(out, function(a, b)
    if a.path ~= b.path then return a.path < b.path end
    if a.code ~= b.code then return a.code < b.code end
    return a.line < b.line
  end)
  return out
end

function key(ds)
  local parts = {}
  for _, d in ipairs(ds) do parts[#parts + 1] = d.path .. ':' .. d.code .. ':' .. d.line end
  return table.concat(parts, '\n')
end

--- Every diagnostic Neovim holds once the servers are idle (`after`: see idle()): nothing more
--- arrives that what happened so far could have caused.
function settle(after)
  idle(after)
  return all_diagnostics()
end

function write_file(path, text)
  vim.fn.mkdir(vim.fs.dirname(path), 'p')
  local f = assert(io.open(path, 'w'))
  f:write(text)
  f:close()
end
"""


def triples(ds: list[dict[str, Any]]) -> list[tuple[str, str, int]]:
    return sorted((os.path.realpath(d["path"]), d["code"], d["line"]) for d in ds)


def test_diagnostics_for_files_never_opened_equal_check(demo: Demo) -> None:
    r = run_nvim(
        demo,
        ALL_DIAGNOSTICS_LUA
        + f"""
        local b = open({_lua_str(demo.ws_review)})
        R.attached = wait_client(b) ~= nil
        R.diagnostics = settle()
        R.loaded = #vim.tbl_filter(function(x) return vim.api.nvim_buf_is_loaded(x) end, vim.api.nvim_list_bufs())
        """,
    )
    assert r["attached"]
    assert r["loaded"] == 1  # one file opened; every other row comes from the server's index
    assert triples(r["diagnostics"]) == check(demo.demo), r["_logs"]()


def test_file_in_additional_root_joins_the_same_client(demo: Demo) -> None:
    r = run_nvim(
        demo,
        f"""
        local ws = open({_lua_str(demo.ws_review)})
        local c = wait_client(ws)
        local shared = open({_lua_str(demo.shared_review)})
        local sc = wait_client(shared)
        R.root = c and c.root_dir
        R.same = c ~= nil and sc ~= nil and c.id == sc.id
        R.clients = #vim.lsp.get_clients({{ name = 'skill_ls' }})
        R.codes = wait_diag(shared, 'SH001')
        R.messages_sh = {{}}
        for _, d in ipairs(vim.diagnostic.get(shared)) do R.messages_sh[#R.messages_sh + 1] = d.message end
        vim.cmd('SkillCatalog reviewer')
        local cat
        vim.wait(WAIT_MS, function()
          cat = vim.fn.bufnr('skill-ls://catalog/reviewer')
          return cat ~= -1 and buf_text(cat):find('code-review', 1, true) ~= nil
        end, 50)
        R.catalog = cat ~= -1 and buf_text(cat) or ''
        """,
    )
    assert _same(r["root"], demo.demo), r["root"]
    assert r["same"] and r["clients"] == 1, r
    assert "SH001" in r["codes"], r["codes"]
    assert any("shadowed by the workspace copy" in m for m in r["messages_sh"]), r["messages_sh"]
    assert "The reviewer agent's own code review procedure" in r["catalog"]
    assert [c for c in check(demo.demo) if c[0] == os.path.realpath(demo.shared_review)][0][1] == "SH001"


def test_disk_change_reaches_an_open_buffer_without_typing(demo: Demo) -> None:
    user_copy = "---\nname: code-review\ndescription: My own review notes. Use when reviewing anything.\n---\nMine.\n"
    r = run_nvim(
        demo,
        ALL_DIAGNOSTICS_LUA
        + f"""
        local b = open({_lua_str(demo.ws_review)})
        R.attached = wait_client(b) ~= nil
        local function sh002()
          for _, d in ipairs(vim.diagnostic.get(b)) do
            if d.code == 'SH002' and d.message:find('shadows') then return d.message end
          end
        end
        vim.wait(WAIT_MS, function() return sh002() ~= nil end, 50)
        R.before = sh002()
        R.tick = vim.b[b].changedtick
        write_file({_lua_str(demo.user_review)}, {_lua_str(user_copy)})
        vim.wait(WAIT_MS, function() return (sh002() or ''):find('3 other') ~= nil end, 100)
        R.after_add = sh002()
        R.user_copy = {{}}
        for _, d in ipairs(all_diagnostics()) do
          if d.path:find('/home/.agh/skills/code-review/', 1, true) then R.user_copy[#R.user_copy + 1] = d.code end
        end
        os.remove({_lua_str(demo.user_review)})
        vim.wait(WAIT_MS, function() return (sh002() or ''):find('2 other') ~= nil end, 100)
        R.after_delete = sh002()
        R.typed = vim.b[b].changedtick ~= R.tick
        """,
    )
    assert r["attached"]
    assert "2 other copies" in r["before"], r["before"]
    assert not r["typed"]
    assert "3 other copies" in (r["after_add"] or ""), r["after_add"]
    # The new user copy is outside the workspace: as in `skill-ls check`, no diagnostics while not open.
    assert r["user_copy"] == [], r["user_copy"]
    assert "2 other copies" in (r["after_delete"] or ""), r["after_delete"]


def test_referenced_file_deleted_on_disk_reaches_open_and_unopened_skills(demo: Demo) -> None:
    """`shared/.agh/skills/code-review` links references/checklist.md; `release-notes` (never opened)
    is given a link to its template. Both files deleted on disk, no SKILL.md touched and nothing
    typed: RF001 reaches the open buffer and the never-opened file, and everything Neovim holds
    equals `skill-ls check`; restored, RF001 goes."""
    checklist = demo.shared_review.parent / "references" / "checklist.md"
    template = demo.release_notes.parent / "references" / "template.md"
    template.parent.mkdir(parents=True)
    template.write_text("# Template\n")
    with demo.release_notes.open("a") as f:
        f.write("\nStart from [the template](references/template.md).\n")
    r = run_nvim(
        demo,
        ALL_DIAGNOSTICS_LUA
        + f"""
        local b = open({_lua_str(demo.shared_review)})
        R.attached = wait_client(b) ~= nil
        local function has(code, path)
          for _, d in ipairs(all_diagnostics()) do
            if d.code == code and d.path == path then return true end
          end
          return false
        end
        local shared = vim.uv.fs_realpath({_lua_str(demo.shared_review)})
        local notes = vim.uv.fs_realpath({_lua_str(demo.release_notes)})
        R.before = settle()
        R.tick = vim.b[b].changedtick
        os.remove({_lua_str(checklist)})
        os.remove({_lua_str(template)})
        vim.wait(WAIT_MS, function() return has('RF001', shared) and has('RF001', notes) end, 100)
        R.open_rf001 = has('RF001', shared)
        R.unopened_rf001 = has('RF001', notes)
        R.deleted = settle()
        R.typed = vim.b[b].changedtick ~= R.tick
        write_file({_lua_str(checklist)}, '# Checklist\\n')
        vim.wait(WAIT_MS, function() return not has('RF001', shared) end, 100)
        R.restored_open = not has('RF001', shared)
        """,
    )
    assert r["attached"]
    assert not any(d["code"] == "RF001" for d in r["before"]), r["before"]
    assert r["open_rf001"] and r["unopened_rf001"], r["_logs"]()
    assert not r["typed"]
    checklist.unlink()  # (Neovim restored it last) `check` compares the state with both files deleted
    assert triples(r["deleted"]) == check(demo.demo), r["_logs"]()
    assert r["restored_open"]


def test_multi_root_session(demo: Demo, tmp_path: Path) -> None:
    other = tmp_path / "other"
    (other / ".agh" / "skills" / "deploy").mkdir(parents=True)
    (other / ".skill-ls.toml").write_text('runtimes = ["agh"]\n[rules]\nignore = ["SK007"]\n')
    other_skill = other / ".agh" / "skills" / "deploy" / "SKILL.md"
    other_skill.write_text("---\nname: deploy\ndescription: Deploys the other service. Use when shipping.\nalowed-tools: Read\n---\nShip.\n")
    r = run_nvim(
        demo,
        f"""
        local a = open({_lua_str(demo.release_notes)})
        local c = wait_client(a)
        R.a_codes = wait_diag(a, 'SK007')
        vim.lsp.buf.add_workspace_folder({_lua_str(other)})
        local b = open({_lua_str(other_skill)})
        local cb = wait_client(b)
        R.same = c ~= nil and cb ~= nil and c.id == cb.id
        R.clients = #vim.lsp.get_clients({{ name = 'skill_ls' }})
        R.folders = vim.tbl_map(function(f) return f.name end, (c and c.workspace_folders) or {{}})
        idle()
        R.b_codes = {{}}
        for _, d in ipairs(vim.diagnostic.get(b)) do R.b_codes[#R.b_codes + 1] = tostring(d.code) end
        vim.cmd('SkillCatalog')
        local cat
        vim.wait(WAIT_MS, function()
          cat = vim.fn.bufnr('skill-ls://catalog')
          return cat ~= -1 and buf_text(cat) ~= ''
        end, 50)
        R.catalog = cat ~= -1 and buf_text(cat) or ''
        """,
    )
    assert "SK007" in r["a_codes"]
    assert r["same"] and r["clients"] == 1, r
    assert len(r["folders"]) == 2, r["folders"]
    # The other folder's own configuration ignores SK007, exactly as `skill-ls check` there does.
    assert "SK007" not in r["b_codes"], r["b_codes"]
    assert [c for c in check(other) if c[1] == "SK007"] == []
    # :SkillCatalog from the other folder's buffer renders that folder's catalog.
    assert "deploy" in r["catalog"] and "release-notes" not in r["catalog"], r["catalog"]


def test_paste_split_inside_a_multibyte_character_keeps_the_server_in_sync(demo: Demo) -> None:
    """vim.paste in phases, as the TUI delivers a large paste: the chunks split 'é', '—' (after two of
    its three bytes) and 'à' in the middle of their bytes. Afterwards the server's copy must equal the
    buffer: its `description` (the document symbol's detail) is the buffer's, byte for byte; same
    diagnostics as `skill-ls check` of the written file; a later edit lands where the buffer has it."""
    target = demo.demo / ".agh" / "skills" / "notes" / "SKILL.md"
    target.parent.mkdir(parents=True)
    target.write_text("---\nname: notes\n---\n# Notes\n")
    description = "Résumé des notes — à lire. Use when summarising café meetings."
    raw = f"\ndescription: {description}".encode()
    cuts = [raw.index("é".encode()) + 1, raw.index("—".encode()) + 2, raw.index("à".encode()) + 1]
    chunks = [raw[i:j] for i, j in zip([0, *cuts], [*cuts, len(raw)])]
    assert all(c for c in chunks)
    missing = sorted(code for _, code, _ in check(demo.demo, target))  # no description yet
    assert missing
    lua_chunks = "{" + ", ".join('"' + "".join(f"\\{b}" for b in c) + '"' for c in chunks) + "}"
    r = run_nvim(
        demo,
        f"""
        local b = open({_lua_str(target)})
        R.attached = wait_client(b) ~= nil
        wait_diag(b, {_lua_str(missing[0])})
        R.before = diag_codes(b)
        vim.api.nvim_win_set_cursor(0, {{ 2, 10 }})  -- the last character of 'name: notes': paste after it
        local chunks = {lua_chunks}
        for i, chunk in ipairs(chunks) do
          local phase = i == 1 and 1 or (i == #chunks and 3 or 2)
          vim.api.nvim_paste(chunk, false, phase)
        end
        R.buffer = buf_text(b)
        vim.wait(WAIT_MS, function() return not vim.tbl_contains(diag_codes(b), {_lua_str(missing[0])}) end, 50)
        R.after_paste = diag_codes(b)
        R.pasted_symbols = request(b, 'textDocument/documentSymbol', {{ textDocument = vim.lsp.util.make_text_document_params(b) }})
        -- a later incremental edit after the multi-byte text: append to the heading
        vim.api.nvim_buf_set_text(b, 4, 7, 4, 7, {{ ' — été' }})
        idle()
        vim.cmd('write')
        idle()
        R.final = diag_codes(b)
        R.final_text = buf_text(b)
        R.symbols = request(b, 'textDocument/documentSymbol', {{ textDocument = vim.lsp.util.make_text_document_params(b) }})
        """,
    )
    assert r["attached"]
    assert sorted(r["before"]) == missing, r["before"]
    assert r["buffer"] == f"---\nname: notes\ndescription: {description}\n---\n# Notes", r["buffer"]
    assert missing[0] not in r["after_paste"], (r["after_paste"], r["_logs"]())
    details = [s.get("detail") for s in _walk(r["pasted_symbols"]) if s.get("name") == "description"]
    assert details == [description], details  # the server holds the description the buffer holds
    assert r["final_text"] == target.read_text().rstrip("\n")
    expected = sorted(code for _, code, _ in check(demo.demo, target))
    assert sorted(r["final"]) == expected, (r["final"], expected, r["_logs"]())
    names = json.dumps(r["symbols"], ensure_ascii=False)
    assert "Notes — été" in names, names


def _walk(responses: list[dict]) -> list[dict]:
    """Every document symbol (children included) of `request(...)`'s answers."""
    out: list[dict] = []
    stack = [s for resp in responses for s in (resp.get("result") or [])]
    while stack:
        sym = stack.pop(0)
        out.append(sym)
        stack.extend(sym.get("children") or [])
    return out


def test_code_lens_refreshes_by_itself_and_running_it_shows_the_declarations(demo: Demo) -> None:
    user_copy = "---\nname: code-review\ndescription: My own review notes. Use when reviewing anything.\n---\nMine.\n"
    r = run_nvim(
        demo,
        ALL_DIAGNOSTICS_LUA
        + f"""
        local b = open({_lua_str(demo.ws_review)})
        R.attached = wait_client(b) ~= nil
        local function titles()
          local out = {{}}
          for _, l in ipairs(vim.lsp.codelens.get(b)) do
            if l.command and l.command.title then out[#out + 1] = l.command.title end
          end
          return out
        end
        vim.wait(WAIT_MS, function() return #titles() > 0 end, 50)
        R.before = titles()
        write_file({_lua_str(demo.user_review)}, {_lua_str(user_copy)})
        vim.wait(WAIT_MS, function() return table.concat(titles(), ' '):find('3') ~= nil end, 100)
        R.after = titles()
        local lens = vim.lsp.codelens.get(b)[1]
        vim.api.nvim_win_set_cursor(0, {{ (lens and lens.range.start.line or 0) + 1, 0 }})
        vim.lsp.codelens.run()
        vim.wait(WAIT_MS, function() return #vim.fn.getqflist() > 0 end, 50)
        R.qf = vim.tbl_map(function(i) return {{ text = i.text, path = vim.api.nvim_buf_get_name(i.bufnr) }} end, vim.fn.getqflist())
        R.qf_open = vim.fn.getqflist({{ winid = 0 }}).winid ~= 0
        """,
    )
    assert r["attached"]
    assert r["before"], "no code lens without a manual refresh"
    assert r["after"] != r["before"] and "3" in " ".join(r["after"]), (r["before"], r["after"])
    assert len(r["qf"]) == 4 and "winner" in r["qf"][0]["text"], r["qf"]
    assert r["qf_open"], "running the lens shows nothing"


def test_skill_where_without_argument_takes_the_hyphenated_name_under_the_cursor(demo: Demo) -> None:
    r = run_nvim(
        demo,
        f"""
        local b = open({_lua_str(demo.ws_review)})
        R.attached = wait_client(b) ~= nil
        local pos = pos_of(b, 'code-review')
        vim.api.nvim_win_set_cursor(0, {{ pos.line + 1, pos.character + 6 }})  -- on 'review'
        R.arg = require('skill_ls').parse_where_args({{}})
        vim.cmd('SkillWhere')
        vim.wait(WAIT_MS, function() return #vim.fn.getqflist() > 0 end, 50)
        R.qf = #vim.fn.getqflist()
        R.title = vim.fn.getqflist({{ title = 0 }}).title
        local agent = open({_lua_str(demo.demo / '.agh' / 'agents' / 'reviewer' / 'AGENT.md')})
        local p2 = pos_of(agent, 'release-notes')
        vim.api.nvim_win_set_cursor(0, {{ p2.line + 1, p2.character + 9 }})  -- on 'notes'
        R.arg2 = require('skill_ls').parse_where_args({{}})
        """,
    )
    assert r["arg"]["name"] == "code-review", r["arg"]
    assert r["arg2"]["name"] == "release-notes", r["arg2"]
    assert r["qf"] == 3 and "code-review" in r["title"], r


def test_server_not_on_path_fails_loudly(demo: Demo) -> None:
    r = run_nvim(
        demo,
        f"""
        local b = open({_lua_str(demo.ws_review)})
        vim.wait(WAIT_MS, function() return #R.notifications > 0 end, 20)
        drain()
        R.clients = #vim.lsp.get_clients({{ name = 'skill_ls' }})
        """,
        init_extra="vim.lsp.config('skill_ls', { cmd = { 'no-such-skill-language-server' } })\n",
    )
    warnings = [n["msg"] for n in r["notifications"] if n["level"] >= 3]
    assert any("no-such-skill-language-server" in e and ":SkillInstall" in e for e in warnings), r["notifications"]
    assert not any("pip install skill-ls" in n["msg"] for n in r["notifications"]), r["notifications"]  # not on PyPI


def nested_skill(project: Path, marker: str, marker_text: str | None, name: str) -> Path:
    """A project with one marker file (`marker`, written with `marker_text`; a directory when the
    text is None) and a skill in a nested `pkg/.agh/skills/<name>`: its SKILL.md."""
    if marker_text is None:
        (project / marker).mkdir(parents=True)
    else:
        project.mkdir(parents=True)
        (project / marker).write_text(marker_text)
    skill = project / "pkg" / ".agh" / "skills" / name / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text(f"---\nname: {name}\ndescription: {name.title()}. Use when testing roots.\n---\n{name[0].upper()}.\n")
    return skill


def test_project_markers_beat_skill_directories(tmp_path: Path, demo: Demo) -> None:
    """pyproject.toml with [tool.skill-ls] is a project marker; one without it is not."""
    proj, plain = tmp_path / "proj", tmp_path / "plain"
    nested = nested_skill(proj, "pyproject.toml", '[project]\nname = "x"\n\n[tool.skill-ls]\nruntimes = ["agh"]\n', "alpha")
    plain_skill = nested_skill(plain, "pyproject.toml", '[project]\nname = "y"\n', "beta")
    r = run_nvim(
        demo,
        f"""
        local a = open({_lua_str(nested)})
        local ca = wait_client(a)
        R.a_root = ca and ca.root_dir
        vim.lsp.stop_client(vim.lsp.get_clients({{ name = 'skill_ls' }}), true)
        vim.wait(5000, function() return #vim.lsp.get_clients({{ name = 'skill_ls' }}) == 0 end, 50)
        vim.cmd('bwipeout! ' .. a)
        local b = open({_lua_str(plain_skill)})
        local cb = wait_client(b)
        R.b_root = cb and cb.root_dir
        """,
    )
    assert _same(r["a_root"], proj), r["a_root"]
    assert _same(r["b_root"], plain / "pkg"), r["b_root"]
