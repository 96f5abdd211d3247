"""The README's rule table is generated from the rules' docstrings; keep it in sync."""
from __future__ import annotations

import re
from pathlib import Path

from skill_ls.analysis.rules import all_rules

ROOT = Path(__file__).resolve().parents[1]


def test_readme_rule_table_matches_rule_docs():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    table = re.search(r"<!-- rules:start -->\n(.*?)\n<!-- rules:end -->", text, re.S).group(1)
    rows = {line.split("|")[1].strip(): line for line in table.splitlines()[2:]}
    rules = all_rules()
    assert set(rows) == set(rules)
    for code, rule in rules.items():
        assert f"| {code} | {rule.severity.label} | {rule.name} | {rule.summary} |" == rows[code]


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
