"""docs/agnix-comparison.md lists every rule of agnix 0.59.3 (issue 25), from the vendored rule list, with a
status and a reason; the skill-ls codes it names exist."""
from __future__ import annotations

import importlib.util
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "agnix-comparison.md"


def _compare():
    spec = importlib.util.spec_from_file_location("compare_agnix", ROOT / "docs" / "compare_agnix.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _checklist_rows() -> list[list[str]]:
    text = DOC.read_text(encoding="utf-8").split("## agnix's rule list as a checklist", 1)[1]
    return [[c.strip() for c in line.strip("|").split("|")] for line in text.splitlines()
            if re.match(r"\| [A-Z][A-Z0-9-]*-\d{3} \|", line)]


def test_every_agnix_rule_is_listed_once():
    rules = [rid for rid, *_ in _compare().agnix_rules()]
    assert len(rules) == len(set(rules)) > 700, "the vendored list is agnix 0.59.3's (702 rules)"
    listed = [row[0] for row in _checklist_rows()]
    assert sorted(listed) == sorted(rules), (
        f"missing: {sorted(set(rules) - set(listed))[:10]}, extra or twice: "
        f"{sorted(r for r in set(listed) if listed.count(r) > 1 or r not in rules)[:10]}")
    assert all(row[2] in ("full", "partial", "no", "n/a") and (row[2] == "full" or row[4]) for row in _checklist_rows()), \
        "every rule has a status, and every rule not fully covered has a reason"


def test_checklist_is_current():
    expected = "\n".join(_compare().checklist()).strip()
    actual = DOC.read_text(encoding="utf-8").split("\n## agnix's rule list as a checklist", 1)[1]
    assert ("## agnix's rule list as a checklist" + actual).strip() == expected, (
        "run `python3 docs/compare_agnix.py --checklist`")


def test_named_codes_exist():
    from skill_ls.analysis.rules import all_rules

    known = set(all_rules())
    named: set[str] = set()
    for status, codes, _ in _compare().COVERAGE.values():
        for part in filter(None, (c.strip() for c in codes.split(","))):
            lo, _, hi = part.partition("-")
            if hi:
                named |= {f"{lo[:2]}{n:03d}" for n in range(int(lo[2:]), int(hi[2:]) + 1)}
            else:
                named.add(part)
    assert named <= known, f"codes that skill-ls does not have: {sorted(named - known)}"
