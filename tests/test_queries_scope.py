"""The runtime choice (`analysis.queries.scope`), in process: which runtimes and agent the names of a
file resolve under, and which runtime a question about a name or an agent answers for (the CLI's
`where`/`list`/`catalog`/`preview` and the server's commands alike)."""
from __future__ import annotations

from skill_ls.analysis.queries.scope import choose_runtime, name_scope, ref_under
from tests.conftest import position, skill, workspace_state, write
from tests.lsp.conftest import Tree


def test_an_agent_resolves_under_its_family_runtime_for_itself(tmp_path):
    tree = Tree(tmp_path).standard()
    local = skill(tree.ws / ".agh" / "agents" / "reviewer" / "skills", "demo", description="Reviewer's demo.")
    state = workspace_state(tree.ws, tree.env())
    scope = name_scope(state, str(tree.agent))
    assert scope.runtimes[0] == "agh" and scope.agent == "reviewer"
    assert name_scope(state, str(local)).agent == "reviewer"  # an agent-local copy: that agent's names
    assert name_scope(state, str(tree.ws_demo)).agent is None


def test_a_skill_read_by_one_runtime_resolves_there_first(tmp_path):
    tree = Tree(tmp_path).standard()
    write(tree.ws / ".skill-ls.toml", 'runtimes = ["agh", "claude-code"]\n', dedent=False)
    pdf = skill(tree.ws / ".claude" / "skills", "pdf", description="PDFs. Use when reading PDFs.")
    state = workspace_state(tree.ws, tree.env())
    assert name_scope(state, str(pdf)).runtimes[0] == "claude-code"
    assert name_scope(state, str(tree.ws_demo)).runtimes[0] == "agh"
    ref = ref_under(state, str(pdf), *position(pdf, "name: pdf", 7))
    assert ref is not None and (ref.name, ref.kind) == ("pdf", "declaration")


def test_choose_runtime_for_a_named_agent(tmp_path):
    tree = Tree(tmp_path).standard()
    write(tree.ws / ".skill-ls.toml", 'runtimes = ["agh", "claude-code"]\n', dedent=False)
    write(tree.ws / ".claude" / "agents" / "helper.md", "---\nname: helper\ndescription: Helps.\n---\nBody\n",
          dedent=False)
    index = workspace_state(tree.ws, tree.env()).index
    assert choose_runtime(index, None, None) == "agh"  # the default runtime of the active ones
    assert choose_runtime(index, "auto", None) == "agh"
    assert choose_runtime(index, None, "helper") == "claude-code"  # the agent's own runtime
    assert choose_runtime(index, None, "reviewer") == "agh"
    assert choose_runtime(index, "agh", "helper") == "agh"  # asked for: kept
