"""The README's rule table is generated from the rules' docstrings; keep it in sync."""
from __future__ import annotations

import re
from pathlib import Path

from skill_ls.analysis.rules import all_rules

ROOT = Path(__file__).resolve().parents[1]


def test_readme_rule_table_matches_rule_docs():
    """The table is `skill-ls rules --format markdown`, generated from the registry (codes, severities,
    fix safety, the runtimes each rule applies to, summaries): regenerate it, never edit it."""
    from skill_ls.cli import rules_markdown

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    table = re.search(r"<!-- rules:start -->\n(.*?)\n<!-- rules:end -->", text, re.S).group(1)
    assert table + "\n" == rules_markdown(), "README rules table is stale: paste `skill-ls rules --format markdown`"
    rows = {line.split("|")[1].strip() for line in table.splitlines()[2:]}
    assert rows == set(all_rules())


def test_rules_page_is_generated_from_the_rule_docs():
    """docs/rules.md, where editors link each finding's code (LSP codeDescription), is the rules'
    documentation as `python -m skill_ls.analysis.rule_docs --write` writes it, one section per code."""
    from skill_ls.analysis.rule_docs import doc_url, rules_document

    assert (ROOT / "docs" / "rules.md").read_text(encoding="utf-8") == rules_document()
    text = rules_document()
    for code in all_rules():
        assert f"\n## {code}\n" in text and doc_url(code).endswith(f"docs/rules.md#{code.lower()}")


def test_rules_declare_their_fix_safety_in_code_and_docs():
    """ruff's model: a rule that offers fixes says whether they are safe, in code and in its docs."""
    for code, rule in all_rules().items():
        documented = "## Fix safety" in rule.doc
        assert documented == (rule.fix is not None), code
        if rule.fix is not None:
            section = rule.doc.split("## Fix safety", 1)[1].lower()
            if rule.fix == "safe":
                assert "safe" in section and "unsafe" not in section.replace("unsafe-fixes", ""), code
            elif rule.fix == "unsafe":
                assert "unsafe" in section, code
            else:
                assert "unsafe" in section and "safe" in section.replace("unsafe", ""), code


def test_fixes_offered_match_the_declaration(workspace):
    """Every fix a rule attaches has the safety its rule declares (mixed: either)."""
    from conftest import check_tree, skill, write

    write(workspace / "a" / "SKILL.md", "\ufeff---\nname: a\ndescription: Use when: asked\n---\n")
    write(workspace / "b" / "SKILL.md", "---\nname: b\ndescription: x.license: MIT\n---\n")
    write(workspace / "c" / "SKILL.md", "---\nname: c\n---\n")
    write(workspace / "d_d" / "SKILL.md", "---\nname: d-d\ndescription: x\ncategory: y\nmetadata:\n  n: 2\n---\n")
    write(workspace / "e" / "SKILL.md", "# no frontmatter\n")
    skill(workspace, "f", name="g", extra="origin: red\n")  # (moved under metadata: SK007's fix)
    rules = all_rules()
    seen = set()
    for d in check_tree(workspace).diagnostics:
        if d.fix is None:
            continue
        seen.add(d.code)
        declared = rules[d.code].fix
        assert declared is not None, d
        assert declared == "mixed" or declared == ("safe" if d.fix.safe else "unsafe"), d
    assert seen >= {"SK001", "SK003", "SK005", "SK006", "SK007", "SK009", "SK013"}


def test_every_rule_is_documented():
    for code, rule in all_rules().items():
        assert rule.doc.strip(), code
        assert "## What it does" in rule.doc, code


def test_ci_runs_the_readme_test_command_verbatim():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("## Run the tests", 1)[1].split("```sh\n", 1)[1].split("\n```", 1)[0]
    command = block.strip()
    assert command == "pip install -e '.[test]' && pytest"
    ci_lines = [line.strip() for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()]
    assert command in ci_lines


def test_catalog_md_names_every_key_of_the_catalog_and_where_json(workspace, private_home):
    """docs/catalog.md is where the JSON of `catalog`/`where` (and skillLs.renderCatalog/where) is
    described; every key the objects carry is named there."""
    from conftest import skill, write

    from skill_ls.analysis.catalog import catalog_object
    from skill_ls.analysis.check import CheckOptions, build_index, prepare_config
    from skill_ls.core.labels import where

    json_doc = (ROOT / "docs" / "catalog.md").read_text(encoding="utf-8").split("## JSON", 1)[1]
    skill(workspace / ".agh" / "skills", "demo")
    skill(private_home / ".agh" / "skills", "demo")
    write(workspace / ".agh" / "agents" / "rev" / "AGENT.md",
          "---\nname: rev\nprovider: claude\nskills:\n  disabled: [demo]\n---\nReview.\n", dedent=False)
    write(workspace / ".skill-ls.toml", "[agh]\ndisabled = ['demo']\n", dedent=False)

    def index():
        return build_index(str(workspace), prepare_config(str(workspace), CheckOptions(workspace=str(workspace),
                                                                                      runtimes=["agh"])))

    keys: set[str] = set()
    cat = catalog_object(index(), "agh")
    keys |= set(cat) | {k for s in cat["skills"] for k in s}
    write(private_home / ".agh" / "config.toml", "[skills]\nenabled = false\n", dedent=False)
    obj = where(index(), "agh", "demo", "rev")
    keys |= set(obj) | {k for e in obj["entries"] for k in e}
    assert {"builtin", "left_out", "provenance", "tombstoned", "disabled", "skills_disabled"} <= keys
    for key in sorted(keys):
        assert f'"{key}"' in json_doc, key


def test_readme_runtime_table_names_every_root():
    """The README's runtime table is written for people (`<ws>`, `~`, precedence arrows); each row
    must still name every root its descriptor scans."""
    from skill_ls.core.runtimes import RUNTIMES
    from skill_ls.core.runtimes.agent_families import AGENT_FAMILIES

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    table = re.search(r"<!-- runtimes:start -->\n(.*?)\n<!-- runtimes:end -->", text, re.S).group(1)
    rows = {line.split("|")[1].strip().strip("`"): line.split("|")[2] for line in table.splitlines()[2:]}
    assert set(rows) == set(RUNTIMES)
    for rid, runtime in RUNTIMES.items():
        for spec in runtime.roots:
            if spec.json_keys:  # a settings file: the row names the key it reads
                assert any(key in rows[rid] for key in spec.json_keys), (rid, spec.template)
                continue
            path = spec.template
            if path.startswith("{config:"):
                path = path.split("}", 1)[1].lstrip("/")  # the directories come from a setting
            assert _shown(path) in rows[rid], (rid, spec.template)
    # "A runtime is active when ... or a directory of its agent definitions (...)": the ones that activate.
    active = text.split("A runtime is active when", 1)[1].split("). ", 1)[0]
    for family in AGENT_FAMILIES.values():
        for d in family.dirs:
            assert (f"`{_shown(d.template)}`" in active) == d.activates, (family.id, d.template)


def _shown(template: str) -> str:
    """A root template as the README writes it: relative to the workspace, `~`, `$AGH_HOME`, …"""
    for placeholder in ("{workspace}/", "{ancestors}/", "{repo_chain}/"):
        template = template.removeprefix(placeholder)
    for placeholder, text_form in (("{home}", "~"), ("{agh_home}", "$AGH_HOME"), ("{codex_home}", "$CODEX_HOME"),
                                   ("{amp_toolbox}", "$AMP_TOOLBOX")):
        template = template.replace(placeholder, text_form)
    return template


def test_readme_demo_lines_are_printed_by_the_check(tmp_path, capsys, monkeypatch):
    """"Among the lines it prints": each line the README shows is a line of `skill-ls check examples/demo`."""
    import shutil

    from skill_ls.cli import main

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("Among the lines it prints", 1)[1].split("```\n", 1)[1].split("\n```", 1)[0]
    shutil.copytree(ROOT / "examples" / "demo", tmp_path / "examples" / "demo")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("AGH_HOME", raising=False)
    main(["check", "examples/demo"])
    printed = capsys.readouterr().out.splitlines()
    for line in block.splitlines():
        assert line in printed, line
