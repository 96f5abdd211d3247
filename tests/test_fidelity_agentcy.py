"""Agentcy as its own documentation describes it (sources/agentcy-skills.txt): the slug is the
identity, the description only drives ranking, the `<skill name="…">` block carries the display name."""
from __future__ import annotations

from skill_ls.analysis.catalog import catalog_object
from skill_ls.analysis.check import CheckOptions, build_index, prepare_config
from skill_ls.core.model import Severity
from tests.conftest import check_tree, write

# "What a skill looks like", verbatim.
SOURCE_EXAMPLE = """---
name: PostgreSQL Health Triage
slug: postgres.health-triage
description: Diagnose slow queries, lock waits, and replication lag in PostgreSQL.
version: 1.2.0
author: agentcy/community
tags: [database, postgres, sre]
---
# PostgreSQL Health Triage
When investigating a slow Postgres instance, work through these checks in order:
"""


def _tree(workspace, files: dict[str, str]):
    write(workspace / ".skill-ls.toml", 'runtimes = ["agentcy"]\n[agentcy]\nroots = ["team"]\n')
    for rel, text in files.items():
        write(workspace / "team" / rel / "SKILL.md", text, dedent=False)
    return check_tree(workspace)


def test_source_example_is_clean(workspace):
    res = _tree(workspace, {"pg": SOURCE_EXAMPLE})
    assert [d.code for d in res.diagnostics] == []


def test_same_slug_twice_is_a_uniqueness_violation_on_both(workspace):
    other = SOURCE_EXAMPLE.replace("name: PostgreSQL Health Triage", "name: Postgres Triage (copy)")
    res = _tree(workspace, {"pg": SOURCE_EXAMPLE, "pg2": other})
    sh003 = [d for d in res.diagnostics if d.code == "SH003"]
    assert len(sh003) == 2 and all(d.severity == Severity.ERROR for d in sh003)
    assert "slug 'postgres.health-triage'" in sh003[0].message and "unique" in sh003[0].message


def test_same_display_name_with_different_slugs_is_fine(workspace):
    other = SOURCE_EXAMPLE.replace("slug: postgres.health-triage", "slug: sre.postgres-triage")
    res = _tree(workspace, {"pg": SOURCE_EXAMPLE, "pg2": other})
    assert not [d for d in res.diagnostics if d.code == "SH003"]


def test_empty_description_is_a_ranking_warning_not_a_load_failure(workspace):
    text = SOURCE_EXAMPLE.replace("description: Diagnose slow queries, lock waits, and replication lag in PostgreSQL.",
                                  'description: ""')
    res = _tree(workspace, {"pg": text})
    [d] = [d for d in res.diagnostics if d.code == "SK005"]
    assert d.severity == Severity.WARNING and "search_skills" in d.message
    index = build_index(str(workspace), prepare_config(str(workspace), CheckOptions(workspace=str(workspace))))
    obj = catalog_object(index, "agentcy")
    assert obj["text"].startswith('<skill name="PostgreSQL Health Triage">')


def test_every_md_under_a_configured_root_is_a_skill(workspace):
    # "parses every .md file into a skill row"
    write(workspace / ".skill-ls.toml", 'runtimes = ["agentcy"]\n[agentcy]\nroots = ["team"]\n')
    write(workspace / "team" / "postgres-triage.md", SOURCE_EXAMPLE, dedent=False)
    notes = write(workspace / "team" / "sre" / "notes.md", "# Just notes\n", dedent=False)
    res = check_tree(workspace)
    index = res.index
    assert sorted(d.name for d in index.decls["agentcy"]) == ["notes", "postgres.health-triage"]
    assert [d.code for d in res.diagnostics if d.path == str(notes)] == ["SK001"]
    from skill_ls.analysis.catalog import catalog_object
    assert '<skill name="PostgreSQL Health Triage">' in catalog_object(index, "agentcy", enabled=["postgres.health-triage"])["text"]


def test_a_markdown_symlink_out_of_an_agentcy_root_is_never_opened(workspace, tmp_path):
    import os

    write(workspace / ".skill-ls.toml", 'runtimes = ["agentcy"]\n[agentcy]\nroots = ["team"]\n')
    secret = write(tmp_path / "outside" / "secret.md", "TOP SECRET\n", dedent=False)
    (workspace / "team").mkdir()
    os.symlink(secret, workspace / "team" / "link.md")
    res = check_tree(workspace)
    assert res.index.decls["agentcy"] == []
    assert any("link.md" in path and "outside the root" in why for path, why in res.index.skipped)


def test_agentcy_skills_never_execute_so_shell_lines_are_a_note(workspace):
    """Agentcy: "Skills are not connector tools — they don't execute anything." """
    root = workspace / "kb"
    write(workspace / ".skill-ls.toml", f"runtimes = [\"agentcy\"]\n[[roots]]\npath = '{root}'\nruntime = \"agentcy\"\n")
    f = write(root / "triage.md", "---\nname: Triage\nslug: sre.triage\ndescription: d\n---\nNow: !`date`\n",
              dedent=False)
    [d] = [d for d in check_tree(workspace, paths=[workspace, root]).diagnostics if d.code == "RF003" and d.path == str(f)]
    assert d.severity == 3 and "not executed by Agentcy" in d.message


def test_sk012_under_agentcy_advises_trimming_not_references(workspace):
    """"parses every .md file into a skill row" and "Markdown body length matters more than you
    think ... Trim aggressively": a references/ file would be one more skill."""
    root = workspace / "kb"
    write(workspace / ".skill-ls.toml", f"runtimes = [\"agentcy\"]\n[[roots]]\npath = '{root}'\nruntime = \"agentcy\"\n")
    f = write(root / "big.md", "---\nname: Big\nslug: sre.big\ndescription: d\n---\n" + "line\n" * 600, dedent=False)
    [d] = [d for d in check_tree(workspace, paths=[workspace, root]).diagnostics if d.code == "SK012" and d.path == str(f)]
    assert "trim it" in d.message and "every .md file as a skill" in d.message


def test_prompt_blocks_have_no_budget_line_the_json_carries_it(workspace):
    """The source's prompt shows `[system] <skill name="…">…</skill>` blocks and nothing else; the budget
    is in the `skills_state_changed` event (`budget_used_chars`, `budget_max_chars`)."""
    root = workspace / "kb"
    write(workspace / ".skill-ls.toml", f"runtimes = [\"agentcy\"]\n[[roots]]\npath = '{root}'\nruntime = \"agentcy\"\n")
    f = write(root / "triage.md", SOURCE_EXAMPLE, dedent=False)
    config = prepare_config(str(workspace), CheckOptions(workspace=str(workspace)))
    obj = catalog_object(build_index(str(workspace), config), "agentcy")
    assert obj["text"].endswith("</skill>\n") and "budget" not in obj["text"]
    assert obj["budget"] == {"budget_used_chars": len(f.read_text()), "budget_max_chars": 16000}


def test_a_skill_without_a_slug_is_not_called_a_slug(workspace):
    """Reading: a skill without a slug is filed under its name; the message says that, not "slug 'No Slug'"."""
    plain = "---\nname: No Slug\ndescription: d\n---\nBody.\n"
    res = _tree(workspace, {"a": plain, "b": plain})
    sh003 = [d for d in res.diagnostics if d.code == "SH003"]
    assert len(sh003) == 2 and all("slug 'No Slug'" not in d.message for d in sh003)
    assert all("has no slug, so skill-ls files it under its name" in d.message for d in sh003)
