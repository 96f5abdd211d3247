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


async def test_palette_commands_list_skills_portability_explain_equal_the_cli(start, tree, profile):
    """Issue 22: the palette commands List Skills, Show Portability and Explain Rule run on the server:
    skillLs.listSkills is `skill-ls list --format json`, skillLs.portability is `skill-ls portability`
    (JSON and text), skillLs.explain is the rule's documentation (`skill-ls explain`) with its link."""
    tree.standard()
    s = await start(profile)
    listed = await s.command("skillLs.listSkills", {})
    cli = json.loads(_cli(tree, "list", "--workspace", str(tree.ws), "--format", "json").stdout)
    assert [(x["name"], x["tier"], x["path"] or f"(built-in {x['name']})") for x in listed["skills"]] == \
        [(x["name"], x["tier"], x["path"]) for x in cli["skills"]]
    assert listed["runtime"] == cli["runtime"]
    assert next(x for x in listed["skills"] if x["name"] == "demo")["description"] == "Workspace demo. Use when testing."
    for_agent = await s.command("skillLs.listSkills", {"agent": "reviewer"})
    assert "other" not in [x["name"] for x in for_agent["skills"]]
    port = await s.command("skillLs.portability", {"path": str(tree.ws_demo)})
    cli = _cli(tree, "portability", str(tree.ws_demo), "--workspace", str(tree.ws), "--format", "json")
    assert {k: v for k, v in port.items() if k != "text"} == json.loads(cli.stdout)
    assert port["text"] == _cli(tree, "portability", str(tree.ws_demo), "--workspace", str(tree.ws)).stdout
    rule = await s.command("skillLs.explain", {"code": "sk007"})
    assert rule["code"] == "SK007" and rule["url"].endswith("docs/rules.md#sk007")
    assert rule["markdown"].startswith("# SK007\n") and "## What it does" in rule["markdown"]
    listing = await s.command("skillLs.explain", {})
    assert "SK007" in [r["code"] for r in listing["rules"]]
    with pytest.raises(JsonRpcException) as err:
        await s.command("skillLs.explain", {"code": "XX999"})
    assert "XX999" in str(err.value)


async def test_where_for_a_file_answers_under_that_files_runtime(start, tree, profile):
    """Issue 22: Show Skill Shadows on a `.claude/skills` file listed only the AGH declarations (the
    folder's default runtime). Given the file (`path`), skillLs.where answers under the runtime that
    reads it, as the file's code lens does; a built-in copy is marked `builtin` (no file to open)."""
    from tests.conftest import skill

    tree.standard()
    (tree.ws / ".skill-ls.toml").write_text(f'runtimes = ["agh", "claude-code"]\n\n[agh]\nbundled_roots = ["{tree.bundled}"]\n')
    project = skill(tree.ws / ".claude" / "skills", "demo", description="Claude demo. Use when testing.")
    personal = skill(tree.home / ".claude" / "skills", "demo", description="Personal demo. Use when testing.")
    s = await start(profile)
    default = await s.command("skillLs.where", {"name": "demo"})
    assert default["runtime"] == "agh"
    result = await s.command("skillLs.where", {"name": "demo", "path": str(project)})
    assert result["runtime"] != "agh", result
    paths = [e["path"] for e in result["entries"]]
    assert str(project) in paths and str(personal) in paths and str(tree.ws_demo) not in paths, paths
    lens = await s.command("skillLs.where", {"name": "demo", "runtime": result["runtime"]})
    assert [e["path"] for e in lens["entries"]] == paths
    from skill_ls.core.runtimes import RUNTIMES

    builtin = next(((rid, n) for rid, rt in RUNTIMES.items() for n in getattr(rt, "builtin_skills", ()) or ()), None)
    if builtin is not None:
        rid, name = builtin
        name = getattr(name, "name", name)
        entries = (await s.command("skillLs.where", {"name": name, "runtime": rid}))["entries"]
        assert all(e.get("builtin") is True for e in entries if e["path"].startswith("(built-in")), entries
