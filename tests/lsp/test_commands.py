"""Commands: renderCatalog equals `skill-ls catalog`, where, reindex, status, listAgents, errors."""
from __future__ import annotations

import contextlib
import io
import json
import subprocess

import pytest
from pygls.exceptions import JsonRpcException

# A command's answer is a JSON object computed from the index: no client capability changes it (the
# position encoding, the diagnostics channel and the watchers do not enter), so one profile suffices.
PROFILES = ("visual-studio-code",)


def _cli(tree, *args) -> subprocess.CompletedProcess:
    """`skill-ls *args` in the workspace: the command line's own `main`, in process (the private HOME of
    tests/conftest.py is the tree's), its output captured as a process's would be."""
    from skill_ls.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.chdir(tree.ws), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([str(a) for a in args])
    return subprocess.CompletedProcess(["skill-ls", *args], code, out.getvalue(), err.getvalue())


async def test_render_catalog_equals_cli(start, tree, profile):
    tree.standard()
    s = await start(profile)
    result = await s.command("skillLs.renderCatalog", {})
    cli = _cli(tree, "catalog", "--workspace", str(tree.ws), "--format", "text")
    assert cli.returncode == 0, cli.stderr
    assert result["text"] == cli.stdout
    cli_json = json.loads(_cli(tree, "catalog", "--workspace", str(tree.ws), "--format", "json").stdout)
    assert result["runtime"] == cli_json["runtime"] == "agh"
    assert [x["name"] for x in result["skills"]] == [x["name"] for x in cli_json["skills"]] == ["agh", "demo", "other"]
    # with the agent: its tombstone removes `other`
    agent = await s.command("skillLs.renderCatalog", {"agent": "reviewer"})
    cli = _cli(tree, "catalog", "--workspace", str(tree.ws), "--agent", "reviewer", "--format", "text")
    assert agent["text"] == cli.stdout
    assert [x["name"] for x in agent["skills"]] == ["agh", "demo"]


async def test_render_catalog_errors_are_jsonrpc_errors(start, tree, profile):
    tree.standard()
    s = await start(profile)
    with pytest.raises(JsonRpcException) as err:
        await s.command("skillLs.renderCatalog", {"agent": "nobody"})
    assert "nobody" in str(err.value)
    with pytest.raises(JsonRpcException) as err:
        await s.command("skillLs.renderCatalog", {"runtime": "bogus"})
    assert "unknown runtime 'bogus'" in str(err.value)
    # the server is still alive
    assert (await s.command("skillLs.status", {}))["skills"] == 4


async def test_where_matches_cli(start, tree, profile):
    tree.standard()
    s = await start(profile)
    result = await s.command("skillLs.where", {"name": "demo"})
    cli = json.loads(_cli(tree, "where", "demo", "--workspace", str(tree.ws), "--format", "json").stdout)
    assert [e["tier"] for e in result["entries"]] == [e["tier"] for e in cli["entries"]] == ["workspace", "user", "bundled"]
    assert [e["resolved_to_winner"] for e in result["entries"]] == [True, False, False]
    with pytest.raises(JsonRpcException):
        await s.command("skillLs.where", {})


async def test_reindex_status_list_agents(start, tree, profile):
    tree.standard()
    s = await start(profile)
    status = await s.command("skillLs.status", {})
    assert status["skills"] == 4 and status["agents"] == 1 and status["runtimes"] == ["agh"]
    assert status["workspace"] == str(tree.ws)
    before = len(s.index_changes)
    result = await s.command("skillLs.reindex", {})
    assert result["skills"] == 4 and result["agents"] == 1
    await s.wait_index_changes(before + 1)
    agents = await s.command("skillLs.listAgents", {})
    assert agents["default_runtime"] == "agh"
    assert [(a["name"], a["runtime"]) for a in agents["agents"]] == [("reviewer", "agh")]


async def test_unknown_agent_is_a_clean_error_without_traceback(start, tree, capfd):
    """Issue 10: an unknown agent printed a full traceback into the LSP log (the server's stderr)."""
    tree.standard()
    s = await start("neovim")
    for command, arg in (("skillLs.renderCatalog", {"agent": "nobody"}),
                         ("skillLs.where", {"name": "demo", "agent": "nobody"})):
        with pytest.raises(JsonRpcException) as err:
            await s.command(command, arg)
        assert "no agent named 'nobody'" in str(err.value) or "nobody" in str(err.value)
    assert (await s.command("skillLs.status", {}))["skills"] == 4  # stderr is forwarded in order
    err_text = capfd.readouterr().err
    assert "Traceback" not in err_text, err_text[-2000:]


async def test_preview_equals_cli(start, tree, profile):
    tree.standard()
    s = await start(profile)
    result = await s.command("skillLs.preview", {"name": "demo", "arguments": "x y"})
    cli = _cli(tree, "preview", "demo", "--workspace", str(tree.ws), "--arguments", "x y", "--format", "json")
    assert cli.returncode == 0, cli.stderr
    assert result == json.loads(cli.stdout) and result["tool"] == "agh__skill_view"
    with pytest.raises(JsonRpcException) as err:
        await s.command("skillLs.preview", {"name": "nobody"})
    assert "nobody" in str(err.value)
