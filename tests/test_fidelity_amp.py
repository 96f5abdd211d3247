"""Amp as its own documentation describes it (sources/amp-skills.txt): what `parseSkillFile` accepts,
YAML 1.2 values, the exact `formatAvailableSkills` text."""
from __future__ import annotations

import pytest

from skill_ls.core.model import Severity
from tests.conftest import check_tree, write

# The page's own minimal example ("Required Structure"), which Amp loads.
SOURCE_EXAMPLE = """---
name: my-skill-name
description: Does X when Y happens. Use for Z tasks.
---

# Instructions

The content here is injected into the conversation when loaded.
"""


def _amp(workspace, raw: bytes):
    f = workspace / ".agents" / "skills" / "my-skill-name" / "SKILL.md"
    f.parent.mkdir(parents=True, exist_ok=True)
    f.write_bytes(raw)
    res = check_tree(workspace, runtimes=["amp"])
    return f, [d for d in res.diagnostics if d.path == str(f)]



def test_source_example_loads_in_amp(workspace):
    _, diags = _amp(workspace, SOURCE_EXAMPLE.encode())
    assert not [d for d in diags if d.code == "SK013"]


@pytest.mark.parametrize("raw, reason", [
    ("\ufeff" + SOURCE_EXAMPLE, "BOM"),
    (SOURCE_EXAMPLE.replace("\n", "\r\n"), "CRLF"),
    (SOURCE_EXAMPLE.replace("Z tasks.\n---\n", "Z tasks.\n...\n"), "'...'"),
    (SOURCE_EXAMPLE.replace("Z tasks.\n---\n", "Z tasks.\n---  \n"), "trailing spaces"),
    ("---\nname: my-skill-name\ndescription: Does X.\n---\n", "body after the frontmatter is empty"),
    ("---\nname: my-skill-name\ndescription: Does X.\n---", "no line break after the closing"),
])
def test_amp_refuses_what_parse_skill_file_refuses(workspace, raw, reason):
    f, diags = _amp(workspace, raw.encode())
    [d] = [d for d in diags if d.code == "SK013" and d.severity == Severity.WARNING]
    assert "Amp will not load this skill" in d.message and reason in d.message
    res = check_tree(workspace, runtimes=["amp"])
    decl = next(x for x in res.index.decls_for_path(str(f)) if x.runtime == "amp")
    assert decl.blocked and "refuses" in decl.blocked


@pytest.mark.parametrize("written, hidden", [("no", True), ("off", True), ("yes", True), ("false", False),
                                             ("true", True), ('"false"', True), ("0", False), ('""', False)])
def test_disable_model_invocation_read_as_yaml_1_2_and_tested_for_js_truthiness(workspace, written, hidden):
    """`!s.frontmatter["disable-model-invocation"]` after `yaml.parse` (YAML 1.2): 'no' is a string,
    and any non-empty string is truthy, so the skill is hidden."""
    from skill_ls.analysis.catalog import render_catalog
    from skill_ls.analysis.check import build_index
    from skill_ls.core.config import Config

    write(workspace / ".agents" / "skills" / "s" / "SKILL.md",
          f"---\nname: s\ndescription: d\ndisable-model-invocation: {written}\n---\nbody\n", dedent=False)
    index = build_index(str(workspace), Config(runtimes=("amp",)))
    assert ("<name>s</name>" not in render_catalog(index, "amp")) is hidden


def test_sk015_where_yaml_1_1_and_1_2_readings_differ(workspace):
    f = write(workspace / ".agents" / "skills" / "s" / "SKILL.md",
              "---\nname: s\ndescription: d\ndisable-model-invocation: no\n---\nbody\n", dedent=False)
    res = check_tree(workspace, runtimes=["amp", "agentskills"])
    [d] = [d for d in res.diagnostics if d.code == "SK015"]
    assert d.runtime == "amp" and d.span.start_line == 3 and d.span.start_col == 26
    assert 'the string "no"' in d.message and "the boolean false" in d.message
    write(f, "---\nname: s\ndescription: d\ndisable-model-invocation: false\n---\nbody\n", dedent=False)
    assert not [d for d in check_tree(workspace, runtimes=["amp"]).diagnostics if d.code == "SK015"]


def test_amp_catalog_has_no_final_newline(workspace):
    from skill_ls.analysis.catalog import render_catalog
    from skill_ls.analysis.check import build_index
    from skill_ls.core.config import Config

    write(workspace / ".agents" / "skills" / "s" / "SKILL.md", SOURCE_EXAMPLE.replace("my-skill-name", "s"),
          dedent=False)
    text = render_catalog(build_index(str(workspace), Config(runtimes=("amp",))), "amp")
    assert text.endswith("</available_skills>")


def test_rf005_toolbox_file_must_be_executable(workspace):
    f = write(workspace / ".agents" / "skills" / "s" / "SKILL.md", SOURCE_EXAMPLE.replace("my-skill-name", "s"),
              dedent=False)
    tool = write(f.parent / "toolbox" / "my-tool", "#!/bin/sh\necho hi\n")
    tool.chmod(0o644)
    res = check_tree(workspace, runtimes=["amp"])
    [d] = [d for d in res.diagnostics if d.code == "RF005"]
    assert "'toolbox/my-tool' is not executable" in d.message and d.runtime == "amp"
    tool.chmod(0o755)
    assert not [d for d in check_tree(workspace, runtimes=["amp"]).diagnostics if d.code == "RF005"]
    tool.chmod(0o644)  # AGH has no toolbox: nothing to say there
    g = write(workspace / ".agh" / "skills" / "t" / "SKILL.md", SOURCE_EXAMPLE.replace("my-skill-name", "t"),
              dedent=False)
    write(g.parent / "toolbox" / "x", "x").chmod(0o644)
    assert not [d for d in check_tree(workspace, runtimes=["agh"]).diagnostics if d.code == "RF005"]


def test_skills_path_from_amps_own_settings_file(workspace, private_home):
    """`...(settings["skills.path"] || [])` — Amp's settings file, then skill-ls's [amp] skills_path."""
    custom, extra = private_home / "my-skills", workspace / "more"
    write(private_home / ".config" / "amp" / "settings.json", '{"amp.skills.path": ["%s"]}' % custom)
    write(workspace / ".skill-ls.toml", f"runtimes = [\"amp\"]\n[amp]\nskills_path = ['{extra}']\n")
    a = write(custom / "dup" / "SKILL.md", SOURCE_EXAMPLE.replace("my-skill-name", "dup"), dedent=False)
    b = write(extra / "dup" / "SKILL.md", SOURCE_EXAMPLE.replace("my-skill-name", "dup"), dedent=False)
    res = check_tree(workspace, paths=[workspace, custom])
    winner = [d for d in res.diagnostics if d.code == "SH002" and d.path == str(a)]
    loser = [d for d in res.diagnostics if d.code == "SH001" and d.path == str(b)]
    assert winner and loser and not [d for d in res.diagnostics if d.code == "SH003"]


def test_file_shape_split_answers_as_amps_regular_expression():
    """`FileShape.split` (string search) and the descriptor's pattern (Amp's regex) agree."""
    import random

    from conftest import CORPUS
    from skill_ls.core.runtimes.amp import AMP_FILE_SHAPE as shape

    texts = ["", "---\n", "---\n\n---\n", "---\n---\n", "---\nname: a\n---\n", "---\nname: a\n---\nbody",
             "---\na\n---\nb\n---\nc", "\ufeff---\na\n---\nb", "---\r\na\r\n---\r\nb", "--- \na\n---\nb",
             "---\na\n--- \nb\n---\nc", "---\n\n---\n\n"]
    rnd = random.Random(7)
    for _ in range(3000):
        texts.append("".join(rnd.choice(["---", "\n", "a", " ", "-", "\r"]) for _ in range(rnd.randint(0, 12))))
    if CORPUS.is_dir():
        texts += [p.read_text(encoding="utf-8", errors="replace") for p in sorted(CORPUS.rglob("SKILL.md"))[:400]]
    for text in texts:
        m = shape.pattern.match(text)
        assert shape.split(text) == ((m.group(1), m.group(2)) if m else None), repr(text[:80])


def _amp_catalog(workspace, description: str, name: str = "s") -> str:
    from skill_ls.analysis.catalog import render_catalog
    from skill_ls.analysis.check import build_index
    from skill_ls.core.config import Config

    write(workspace / ".agents" / "skills" / "s" / "SKILL.md",
          f"---\nname: {name}\ndescription: {description}\n---\nbody\n", dedent=False)
    return render_catalog(build_index(str(workspace), Config(runtimes=("amp",))), "amp")


@pytest.mark.parametrize("written, printed", [("on", "on"), ("Yes", "Yes"), ("0o17", "15"), ("1.0", "1"),
                                              ("0x1F", "31"), ("true", "true")])
def test_amp_catalog_prints_the_yaml_1_2_value_as_a_template_literal(workspace, written, printed):
    """`yaml.parse` (YAML 1.2) then `<description>${s.description}</description>`: `on` stays the
    string "on", `0o17` is the number 15, printed as JavaScript prints it."""
    assert f"<description>{printed}</description>" in _amp_catalog(workspace, written)


def test_amp_type_checks_read_yaml_1_2(workspace):
    """`name: off` is the string "off" for Amp's reader: no SK006 beside SK015, and the skill is listed."""
    write(workspace / ".agents" / "skills" / "off" / "SKILL.md", "---\nname: off\ndescription: d\n---\nbody\n",
          dedent=False)
    res = check_tree(workspace, runtimes=["amp"])
    got = {d.code for d in res.diagnostics}
    assert "SK015" in got and "SK006" not in got
    assert "<name>off</name>" in _amp_catalog(workspace, "d", name="off")


@pytest.mark.parametrize("written, loads", [("0", False), ("false", False), ('""', False), ('"   "', True),
                                            ("[]", True), ("x", True)])
def test_amp_required_fields_are_tested_for_javascript_truthiness(workspace, written, loads):
    """`if (!frontmatter.name || !frontmatter.description) throw`: `0` and `false` throw; a blank
    string and an array are truthy and load."""
    f, diags = _amp(workspace, f"---\nname: my-skill-name\ndescription: {written}\n---\nbody\n".encode())
    sk005 = [d for d in diags if d.code == "SK005" and "will not load" in d.message]
    assert bool(sk005) is not loads
    res = check_tree(workspace, runtimes=["amp"])
    decl = next(x for x in res.index.decls_for_path(str(f)) if x.runtime == "amp")
    assert (decl.blocked is None) is loads
    assert ("<name>my-skill-name</name>" in _amp_catalog_of(workspace)) is loads


def _amp_catalog_of(workspace) -> str:
    from skill_ls.analysis.catalog import render_catalog
    from skill_ls.analysis.check import build_index
    from skill_ls.core.config import Config

    return render_catalog(build_index(str(workspace), Config(runtimes=("amp",))), "amp")


def test_a_skill_tag_in_a_description_is_rendered_as_amp_renders_it_and_warned(workspace):
    """`formatAvailableSkills` filters only on `disable-model-invocation` and escapes nothing: the
    skill is in the catalog, unescaped, and SK014 says why that is a problem."""
    text = _amp_catalog(workspace, "closes </description> early <skill>")
    assert "<description>closes </description> early <skill></description>" in text
    res = check_tree(workspace, runtimes=["amp"])
    assert {d.code for d in res.diagnostics} >= {"SK014"} and "CT001" not in {d.code for d in res.diagnostics}


@pytest.mark.parametrize("text", ['{"chrome": {"command": "npx", "args": ["-y", "chrome-devtools-mcp"]}}',
                                  '{"mcpServers": {"chrome": {"command": "npx", "args": ["-y", "chrome-devtools-mcp"]}}}'])
def test_a_skill_mcp_json_in_either_shape_is_started_by_amp(workspace, text):
    """The source bundles `{"mcpServers": {...}}`; Amp's own announcement (ampcode.com, "lazy-load MCP
    with skills") writes the servers flat. Both are loaded, and MC001's note on a flat file says so."""
    from skill_ls.analysis.catalog import catalog_object
    from skill_ls.analysis.check import build_index
    from skill_ls.core.config import Config

    f = write(workspace / ".agents" / "skills" / "s" / "SKILL.md", SOURCE_EXAMPLE.replace("my-skill-name", "s"),
              dedent=False)
    write(f.parent / "mcp.json", text, dedent=False)
    obj = catalog_object(build_index(str(workspace), Config(runtimes=("amp",))), "amp")
    assert [(m["name"], m["command"], m["skill"]) for m in obj["mcp_servers"]] == [("chrome", "npx", "s")]
    notes = [d for d in check_tree(workspace, runtimes=["amp"]).diagnostics if d.code == "MC001"]
    assert all("Amp loads it" in d.message for d in notes)


def test_amps_five_built_in_skills_are_listed_last_marked_and_overridable(workspace):
    """"Five skills are always available" with "lowest priority": `discoverSkills` appends them after
    every location, and `formatAvailableSkills` lists them like any other skill."""
    from skill_ls.analysis.catalog import catalog_object
    from skill_ls.analysis.check import build_index
    from skill_ls.core.config import Config

    write(workspace / ".agents" / "skills" / "code-review" / "SKILL.md",
          "---\nname: code-review\ndescription: Ours.\n---\nbody\n", dedent=False)
    obj = catalog_object(build_index(str(workspace), Config(runtimes=("amp",))), "amp")
    names = [(s["name"], s.get("builtin", False)) for s in obj["skills"]]
    assert names == [("code-review", False), ("building-skills", True), ("bookkeeper", True), ("painter", True),
                     ("migrating-to-skills", True)]
    painter = next(s for s in obj["skills"] if s["name"] == "painter")
    assert painter["description"] == "Image generation guidance" and "Built-in Skills" in painter["description_source"]
    assert "<description>Ours.</description>" in obj["text"]


def test_rf005_leaves_documentation_in_toolbox_alone(workspace):
    """Reading: "toolbox/ # Optional: auto-registered tools" — a README.md beside the tools is not a
    tool, so it is not asked to be `chmod +x`."""
    f = write(workspace / ".agents" / "skills" / "s" / "SKILL.md", SOURCE_EXAMPLE.replace("my-skill-name", "s"),
              dedent=False)
    write(f.parent / "toolbox" / "README.md", "# Tools\n").chmod(0o644)
    write(f.parent / "toolbox" / "notes.txt", "notes\n").chmod(0o644)
    assert not [d for d in check_tree(workspace, runtimes=["amp"]).diagnostics if d.code == "RF005"]
