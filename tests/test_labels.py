"""One label per declaration (skill_ls/core/labels.py): what `where`, hover, code lens, the CLI and the
editors say about each copy of a name."""
from __future__ import annotations

import json
import subprocess
import sys

from conftest import check_tree, skill, write

from skill_ls.core.labels import label_decl, label_resolution, where
from skill_ls.core.resolve import resolve_name


def _states(index, runtime, name, agent=None):
    return [(lab.state, lab.decl.tier) for lab in label_resolution(resolve_name(index, runtime, name, agent))]


def test_winner_shadowed_blocked_not_discovered(workspace, private_home, tmp_path):
    extra = tmp_path / "extra"
    write(workspace / ".skill-ls.toml", f"[agh]\nadditional_roots = ['{extra}']\n")
    skill(workspace / ".agh" / "skills", "tool")
    skill(private_home / ".agh" / "skills", "tool")
    write(extra / ".agh" / "skills" / "tool" / "SKILL.md", "---\nname: tool\n---\n")  # blocked: no description
    skill(extra / ".agh" / "skills" / "a" / "b" / "c" / "d", "tool")  # deeper than AGH's scan depth
    index = check_tree(workspace, runtimes=["agh"], paths=[workspace]).index
    assert _states(index, "agh", "tool") == [("winner", "workspace"), ("shadowed", "user"),
                                               ("blocked", "additional"), ("not discovered", "additional")]
    labels = label_resolution(resolve_name(index, "agh", "tool"))
    assert [lab.summary for lab in labels[:3]] == [
        "winner · workspace — shadows 1", "shadowed · user — by workspace",
        "blocked · additional — required field 'description' is missing or empty"]
    assert labels[3].summary == "not discovered · additional" and "scan depth of 4" in (labels[3].detail or "")


def test_codex_copies_are_all_loaded_not_shadowed(workspace, private_home):
    skill(workspace / ".agents" / "skills", "fmt")
    skill(private_home / ".agents" / "skills", "fmt")
    index = check_tree(workspace, runtimes=["codex"]).index
    assert [s for s, _ in _states(index, "codex", "fmt")] == ["winner", "also loaded"]


def test_agent_local_copy_overrides_the_base_winner_for_its_agent(workspace):
    ws_copy = skill(workspace / ".agh" / "skills", "lint")
    agent_dir = workspace / ".agh" / "agents" / "reviewer"
    write(agent_dir / "AGENT.md", "---\nname: reviewer\nprovider: claude\n---\nReview code.\n")
    skill(agent_dir / "skills", "lint")
    index = check_tree(workspace, runtimes=["agh"]).index
    assert _states(index, "agh", "lint") == [("winner", "workspace")]
    assert _states(index, "agh", "lint", "reviewer") == [("winner", "agent_local"), ("overridden", "workspace")]
    res = resolve_name(index, "agh", "lint", "reviewer")
    lab = label_decl(res, res.entries[1])
    assert lab.decl.path == str(ws_copy) and lab.summary == "overridden · workspace — for agent 'reviewer'"


def test_where_carries_label_summary_and_name_range(workspace, private_home):
    ws_copy = write(workspace / ".agh" / "skills" / "tool" / "SKILL.md",
                    "---\ndescription: d\nname: tööl\n---\n", dedent=False)
    skill(private_home / ".agh" / "skills", "tool", name="tööl")
    index = check_tree(workspace, runtimes=["agh"]).index
    obj = where(index, "agh", "tööl")
    assert [(e["label"], e["summary"]) for e in obj["entries"]] == [
        ("winner", "winner · workspace — shadows 1"), ("shadowed", "shadowed · user — by workspace")]
    assert obj["entries"][0]["path"] == str(ws_copy)
    assert obj["entries"][0]["range"] == {"start": {"line": 2, "character": 6}, "end": {"line": 2, "character": 10}}


def test_cli_where_text_and_json_say_the_same(workspace):
    skill(workspace / ".agh" / "skills", "lint")
    agent_dir = workspace / ".agh" / "agents" / "reviewer"
    write(agent_dir / "AGENT.md", "---\nname: reviewer\nprovider: claude\n---\nReview code.\n")
    skill(agent_dir / "skills", "lint")
    args = [sys.executable, "-m", "skill_ls", "where", "lint", "--workspace", str(workspace), "--runtime", "agh",
            "--agent", "reviewer"]
    text = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    obj = json.loads(subprocess.run(args + ["--format", "json"], capture_output=True, text=True, check=True).stdout)
    assert [line.split()[0] for line in text.splitlines()] == ["winner", "overridden"]
    assert [e["label"] for e in obj["entries"]] == ["winner", "overridden"]


def test_cli_where_prints_the_labels(workspace, private_home):
    skill(workspace / ".agh" / "skills", "tool")
    skill(private_home / ".agh" / "skills", "tool")
    skill(workspace / ".agh" / "skills" / "a" / "b" / "c" / "d", "tool")
    run = subprocess.run([sys.executable, "-m", "skill_ls", "where", "tool", "--workspace", str(workspace),
                          "--runtime", "agh"], capture_output=True, text=True, check=True)
    states = [line.split()[0:2] for line in run.stdout.splitlines()]
    assert states == [["winner", "workspace"], ["shadowed", "user"], ["not", "discovered"]]
    run = subprocess.run([sys.executable, "-m", "skill_ls", "where", "tool", "--workspace", str(workspace),
                          "--runtime", "agh", "--format", "json"], capture_output=True, text=True, check=True)
    assert [e["label"] for e in json.loads(run.stdout)["entries"]] == ["winner", "shadowed", "not discovered"]
