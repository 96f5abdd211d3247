"""Acceptance of SPEC §6.3 and §8 (issue 10) for every kind of client, with one workspace folder and
with two: push only (VS Code 1.65), mixed (Neovim 0.11: pulls, but cannot be refreshed, so the server
pushes), pull with `workspace/diagnostic/refresh`.

Each folder is an AGH project of its own: a skill `tool` in three tiers of the folder (workspace,
bundled under `vendor/`, an agent-local override for agent `rev`) plus a user copy in the shared
`$AGH_HOME`, and a skill `helper`. The two folders differ in configuration (folder `b` raises SH001
to an error and ignores SK), so an answer computed with the wrong folder's state shows. For every
folder of every session: the diagnostics of every file (none opened) equal `skill-ls check` run in
that folder, code and severity; hover names the winning tier and the shadowed ones in order;
definition lists every copy, the agent-local one included, winner first; the code lens says winner
or shadowed and its command, run as given, answers for the lens's folder; `skillLs.renderCatalog`
and `skillLs.where` (with and without the agent) equal the CLI's JSON; and after a copy appears in
the user root every folder's files equal `check` again.
"""
from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types

from skill_ls.cli import main
from tests.conftest import check_tree, skill, write
from tests.lsp.conftest import DIAGNOSTIC_PROFILES, TIMEOUT, uri
from tests.lsp.test_hover import _pos
from tests.lsp.test_truth import settle_async, types_path

PROFILES = DIAGNOSTIC_PROFILES
SEVERITY = {1: "error", 2: "warning", 3: "information", 4: "hint"}


class Folder:
    def __init__(self, tree, name: str, config_extra: str = ""):
        self.root = tree.tmp / name
        self.name = name
        skills = self.root / ".agh" / "skills"
        self.ws_tool = skill(skills, "tool", description=f"The {name} workspace tool. Use when building {name}.")
        self.helper = skill(skills, "helper", description=f"Helps {name}. Use when stuck in {name}.")
        self.bundled_tool = skill(self.root / "vendor" / "skills", "tool", description=f"Bundled tool of {name}.")
        agent = self.root / ".agh" / "agents" / "rev"
        self.agent = write(agent / "AGENT.md", "---\nname: rev\nprovider: openai\n---\nYou review.\n", dedent=False)
        self.local_tool = skill(agent / "skills", "tool", description=f"The rev agent's tool in {name}.")
        self.typo = skill(skills, "typo", description="Has a typo. Use when testing.", extra="alowed-tools: Read\n")
        write(self.root / ".skill-ls.toml",
              f'runtimes = ["agh"]\n\n[agh]\nbundled_roots = ["{self.root / "vendor"}"]\n{config_extra}', dedent=False)

    def cli(self, tree, *args: str) -> Any:
        """The JSON `skill-ls *args` prints: the command line's own `main`, in process (the private
        HOME of tests/conftest.py is the tree's)."""
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            code = main(list(args))
        assert code == 0, (args, code)
        return json.loads(out.getvalue())

    def check(self, tree) -> list[tuple[str, str, str, int]]:
        """`skill-ls check` over the folder (its checker in process): (path, code, severity, line)."""
        return sorted((str(Path(d.path).resolve()), d.code, SEVERITY[int(d.severity)], d.span.start_line)
                      for d in check_tree(self.root).diagnostics)


def _folders(tree, count: int) -> list[Folder]:
    skill(tree.agh_home / "skills", "tool", description="The user's tool. Use when anywhere.")
    folders = [Folder(tree, "a")]
    if count > 1:
        folders.append(Folder(tree, "b", '\n[rules]\nignore = ["SK"]\n\n[rules.severity]\nSH001 = "error"\n'))
    return folders


async def _editor(s) -> list[tuple[str, str, str, int]]:
    """Every diagnostic the editor holds: pushed ones, or one workspace pull (a pull client)."""
    if s.pull:
        report = await s.request(s.client.workspace_diagnostic_async(
            types.WorkspaceDiagnosticParams(previous_result_ids=[])))
        items = {r.uri: r.items for r in report.items}
    else:
        items = dict(s.client.diagnostics)
    return sorted((types_path(u), str(d.code), SEVERITY[d.severity], d.range.start.line)
                  for u, diags in items.items() for d in diags)


async def _equals_check(s, tree, folders: list[Folder]) -> None:
    expected = {f.name: f.check(tree) for f in folders}

    def by_folder(rows):
        return {f.name: [r for r in rows if r[0].startswith(str(f.root.resolve()) + "/")] for f in folders}

    await settle_async(lambda: _editor(s), lambda rows: by_folder(rows) == expected, timeout=TIMEOUT)


@pytest.mark.parametrize("count", [1, 2], ids=["one-folder", "two-folders"])
async def test_spec_6_3_and_8_for_every_client(start, tree, profile, count):
    folders = _folders(tree, count)
    # Once through the `skill-ls serve` command itself, end to end; else forked from the zygote.
    s = await start(profile, folders=[f.root for f in folders], serve=(profile, count) == ("visual-studio-code", 1))  # the command itself, end to end
    assert s.pull == (profile == "pull-refresh")

    # Diagnostics of files never opened equal `skill-ls check` in each folder (its configuration:
    # b reports SH001 as an error and no SK finding).
    await _equals_check(s, tree, folders)
    editor = await _editor(s)
    if count > 1:
        assert any(r[1] == "SH001" and r[2] == "error" for r in editor if r[0].startswith(str(folders[1].root)))
        assert any(r[1] == "SK007" for r in editor if r[0].startswith(str(folders[0].root)))

    for f in folders:
        # Hover on the bundled copy's name: the winner (workspace), then user and bundled, shadowed.
        hover = await s.request(s.client.text_document_hover_async(types.HoverParams(
            types.TextDocumentIdentifier(uri(f.bundled_tool)), _pos(f.bundled_tool, "name: tool", 7))))
        text = hover.contents.value
        assert "winner: `workspace` `.agh/skills/tool/SKILL.md`" in text, (f.name, text)
        assert text.index("winner") < text.index("shadowed: `user`") < text.index("shadowed: `bundled`"), text

        # Definition: every declaration, winner first, the agent-local override included (SPEC §6.3).
        locs = await s.request(s.client.text_document_definition_async(types.DefinitionParams(
            types.TextDocumentIdentifier(uri(f.bundled_tool)), _pos(f.bundled_tool, "name: tool", 7))))
        user_tool = tree.agh_home / "skills" / "tool" / "SKILL.md"
        assert [loc.uri for loc in locs] == [uri(f.ws_tool), uri(user_tool), uri(f.bundled_tool), uri(f.local_tool)], f.name

        # Code lens over the frontmatter; its command, run as the editor runs it, answers for this folder.
        lenses = await s.request(s.client.text_document_code_lens_async(
            types.CodeLensParams(types.TextDocumentIdentifier(uri(f.ws_tool)))))
        assert [lens.command.title for lens in lenses] == ["winner · workspace — shadows 2"], f.name
        lenses = await s.request(s.client.text_document_code_lens_async(
            types.CodeLensParams(types.TextDocumentIdentifier(uri(f.bundled_tool)))))
        assert lenses[0].command.title == "shadowed · bundled — by workspace"
        lens = lenses[0].command
        where = await s.request(s.client.workspace_execute_command_async(
            types.ExecuteCommandParams(command=lens.command, arguments=lens.arguments)))
        assert [e["path"] for e in where["entries"]][0] == str(f.ws_tool), (f.name, lens.arguments)

        # Catalog commands equal the CLI's JSON, with and without the agent.
        for extra, args in (({}, []), ({"agent": "rev"}, ["--agent", "rev"])):
            got = await s.command("skillLs.renderCatalog", {"workspace": str(f.root), **extra})
            assert got == f.cli(tree, "catalog", "--workspace", str(f.root), "--format", "json", *args), (f.name, extra)
            got = await s.command("skillLs.where", {"name": "tool", "workspace": str(f.root), **extra})
            assert got == f.cli(tree, "where", "tool", "--workspace", str(f.root), "--format", "json", *args), (f.name, extra)
        assert f"Helps {f.name}." in (await s.command("skillLs.renderCatalog", {"workspace": str(f.root)}))["text"]

    # A copy of `helper` appears in the user root (outside every folder, watched by the server):
    # every folder's workspace copy now shadows it (SH002), and every file again equals `check`.
    refreshes = s.refreshes
    skill(tree.agh_home / "skills", "helper", description="The user's helper. Use when anywhere.")
    await _equals_check(s, tree, folders)
    editor = await _editor(s)
    for f in folders:
        assert any(r[0] == str(f.helper.resolve()) and r[1] == "SH002" for r in editor), (f.name, editor)
    if s.pull:
        assert s.refreshes > refreshes
