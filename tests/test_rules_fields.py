"""SK005-SK011, SK014, BG001: fields per runtime."""
from __future__ import annotations

from conftest import check_tree, diags_for, skill, write

from skill_ls.core.model import Severity


def test_sk005_required_missing_with_fix(workspace):
    f = write(workspace / "a" / "SKILL.md", "---\nname: a\n---\n")
    [d] = diags_for(check_tree(workspace), f, "SK005")
    assert "description" in d.message
    # The placeholder parses and says what to write; adding text the author did not write is unsafe.
    assert d.fix.edits[0].span.start_line == 2
    assert d.fix.edits[0].new_text == 'description: "TODO: say what this skill does and when to use it"\n'
    assert not d.fix.safe


def test_sk005_empty_value(workspace):
    f = write(workspace / "a" / "SKILL.md", "---\nname: a\ndescription: ''\n---\n")
    [d] = diags_for(check_tree(workspace), f, "SK005")
    assert d.span.start_line == 2 and "empty" in d.message


def test_sk005_codex_name_optional(workspace):
    f = write(workspace / ".agents" / "skills" / "a" / "SKILL.md", "---\ndescription: d\n---\n")
    res = check_tree(workspace, runtimes=["codex"])
    assert not diags_for(res, f, "SK005")
    res = check_tree(workspace, runtimes=["agentskills"])
    assert diags_for(res, f, "SK005")


def test_sk006_types_and_enums(workspace):
    root = workspace / ".claude" / "skills"
    f = skill(root, "a", extra="disable-model-invocation: 'maybe'\neffort: extreme\nmetadata: {v: 2}\n")
    res = check_tree(workspace, runtimes=["claude-code"])
    msgs = [d.message for d in diags_for(res, f, "SK006")]
    assert any("disable-model-invocation" in m and "true or false" in m for m in msgs)
    assert any("effort" in m and "low, medium" in m for m in msgs)
    g = skill(workspace / "plain", "b", extra="metadata:\n  v: 2\n")
    [d] = diags_for(check_tree(workspace / "plain"), g, "SK006")
    assert "strings to strings" in d.message


def test_sk007_unknown_field_did_you_mean_and_fix(workspace):
    f = skill(workspace, "a", extra="allowed_tools: Read\ncolour: red\n")
    ds = diags_for(check_tree(workspace), f, "SK007")
    typo = [d for d in ds if "allowed_tools" in d.message][0]
    assert "did you mean 'allowed-tools'" in typo.message and typo.fix.edits[0].new_text == "allowed-tools"
    assert typo.span.start_line == 3 and typo.severity == Severity.WARNING
    assert any("colour" in d.message for d in ds)


def test_sk007_codex_is_information(workspace):
    f = skill(workspace / ".agents" / "skills", "a", extra="foo: bar\n")
    [d] = [d for d in diags_for(check_tree(workspace, runtimes=["codex"]), f, "SK007")]
    assert d.severity == Severity.INFORMATION


def test_sk008_name_format(workspace):
    f = skill(workspace, "Bad_Name", name="Bad_Name")
    [d] = diags_for(check_tree(workspace), f, "SK008")
    assert d.span.start_line == 1 and d.span.start_col == 6
    good = skill(workspace, "good-name-2")
    double = skill(workspace, "x--y", name="x--y")
    res = check_tree(workspace)
    assert not diags_for(res, good, "SK008")
    assert diags_for(res, double, "SK008")


def test_sk009_name_differs_error_for_standard_warning_for_agh(workspace):
    f = skill(workspace, "dir-name", name="other-name")
    [d] = diags_for(check_tree(workspace), f, "SK009")
    assert d.severity == Severity.ERROR and d.fix.edits[0].new_text == "dir-name" and not d.fix.safe
    g = skill(workspace / ".agh" / "skills", "dir-name", name="other-name")
    [d] = diags_for(check_tree(workspace, runtimes=["agh"]), g, "SK009")
    assert d.severity == Severity.WARNING


def test_sk010_lengths(workspace):
    f = skill(workspace, "a", description="x" * 1025, extra=f"compatibility: {'y' * 501}\n")
    ds = diags_for(check_tree(workspace), f, "SK010")
    assert {d.span.start_line for d in ds} == {2, 3}
    ok = skill(workspace, "b", description="x" * 1024)
    assert not diags_for(check_tree(workspace), ok, "SK010")


def test_sk010_amp_file_limits(workspace):
    root = workspace / ".agents" / "skills"
    f = skill(root, "a")
    for i in range(101):
        (f.parent / f"r{i}.txt").write_text("x")
    ds = diags_for(check_tree(workspace, runtimes=["amp"]), f, "SK010")
    assert any("102 files" in d.message for d in ds)


def test_sk010_skill_tree_is_os_walks(tmp_path):
    """The tree Amp's limits count is os.walk's (top-down, files before subdirectories, symlinked
    directories not entered, `.git` and the like left out, symlinks sized as links), in its order."""
    import os

    from skill_ls.core.disk import Disk
    from skill_ls.core.paths import NEVER_ENTER

    top = tmp_path / "s"
    for rel in ("SKILL.md", "b.txt", "a/x.md", "a/deep/y.md", "z/w.md", ".git/HEAD", "node_modules/m.js"):
        write(top / rel, "x" * len(rel))
    (tmp_path / "outside").mkdir()
    write(tmp_path / "outside" / "big.txt", "y" * 100)
    (top / "link_dir").symlink_to(tmp_path / "outside")
    (top / "link_file").symlink_to(tmp_path / "outside" / "big.txt")
    (top / "dangling").symlink_to(tmp_path / "missing")
    want = []
    for dirpath, dirnames, filenames in os.walk(top):
        dirnames[:] = [d for d in dirnames if d not in NEVER_ENTER]
        want += [(os.path.relpath(os.path.join(dirpath, n), top), os.lstat(os.path.join(dirpath, n)).st_size)
                 for n in filenames]
    tree = Disk().tree(str(top))
    assert list(tree.files) == want and not tree.truncated
    assert ("link_dir", 0) not in tree.files and not any(rel.startswith(".git") for rel, _ in tree.files)


def test_sk011_agh_cut_at_200_code_points(workspace):
    desc = "é" * 190 + " tail words lost here"
    f = skill(workspace / ".agh" / "skills", "a", description=desc)
    [d] = diags_for(check_tree(workspace, runtimes=["agh"]), f, "SK011")
    assert d.severity == Severity.INFORMATION and 'losing: "s lost here"' in d.message
    short = skill(workspace / ".agh" / "skills", "b", description="é" * 200)
    assert not diags_for(check_tree(workspace, runtimes=["agh"]), short, "SK011")


def test_sk011_claude_cut_includes_when_to_use(workspace):
    f = skill(workspace / ".claude" / "skills", "a", description="d" * 1000, extra=f"when_to_use: {'w' * 600}\n")
    assert diags_for(check_tree(workspace, runtimes=["claude-code"]), f, "SK011")


def test_sk014_amp_unescaped_markup(workspace):
    f = skill(workspace / ".agents" / "skills", "a", description="Use for <form> & inputs")
    res = check_tree(workspace, runtimes=["amp", "agentskills"])
    ds = diags_for(res, f, "SK014")
    assert len(ds) == 1 and ds[0].runtime == "amp"


def test_bg001_agentcy_budget(workspace):
    write(workspace / ".skill-ls.toml", "[agentcy]\nroots = ['team']\nmax_prompt_chars = 500\n")
    big = skill(workspace / "team", "big", body="x" * 600)
    small = skill(workspace / "team", "small")
    res = check_tree(workspace)
    [d] = diags_for(res, big, "BG001")
    assert "500" in d.message and d.runtime == "agentcy"
    assert not diags_for(res, small, "BG001")


def test_merged_runtime_label_for_identical_findings(workspace):
    f = skill(workspace / ".agents" / "skills", "a", extra="colour: red\n")
    res = check_tree(workspace, runtimes=["amp", "agentskills"])
    ds = diags_for(res, f, "SK007")
    assert len(ds) == 2  # messages name different runtimes, so they stay apart
    assert {d.runtime for d in ds} == {"amp", "agentskills"}
    g = skill(workspace / ".agents" / "skills", "b", description="d" * 1100)
    res = check_tree(workspace, runtimes=["amp", "agentskills", "codex"])
    assert all(d.runtime for d in diags_for(res, g, "SK010"))


def test_sk011_agrees_with_the_catalog_on_a_block_scalar_of_exactly_the_cut(workspace):
    """Issue 12: a `description: |` block of exactly 1,536 characters ends in a line break that the
    catalog strips; SK011 said "1537 characters… losing '\\n'" while the catalog said `truncated:
    false`. Both read the catalog format's own entry now: nothing is cut."""
    from skill_ls.analysis.catalog import catalog_cost, catalog_object
    from skill_ls.analysis.check import CheckOptions, build_index, prepare_config

    text = "x" * 1536
    f = write(workspace / ".claude" / "skills" / "a" / "SKILL.md",
              f"---\nname: a\ndescription: |\n  {text}\n---\nBody.\n", dedent=False)
    assert not diags_for(check_tree(workspace, runtimes=["claude-code"]), f, "SK011")
    config = prepare_config(str(workspace), CheckOptions(workspace=str(workspace), runtimes=["claude-code"]))
    index = build_index(str(workspace), config)
    [entry] = catalog_object(index, "claude-code")["skills"]
    assert entry["truncated"] is False
    [decl] = index.by_name["claude-code"]["a"]
    assert catalog_cost(decl).truncated is False
    # One more character is cut, and both say so with the same length.
    g = write(workspace / ".claude" / "skills" / "b" / "SKILL.md",
              f"---\nname: b\ndescription: |\n  {text}y\n---\nBody.\n", dedent=False)
    [d] = diags_for(check_tree(workspace, runtimes=["claude-code"]), g, "SK011")
    assert "1537 characters" in d.message and 'losing: "y"' in d.message
    index = build_index(str(workspace), config)
    assert [e["truncated"] for e in catalog_object(index, "claude-code")["skills"]] == [False, True]


def test_catalog_cost_is_the_rendered_entry(workspace):
    """Every format costs an entry with the text it renders: hover and SK011 read the same entry
    the catalog is made of."""
    from skill_ls.analysis.catalog import catalog_cost, render_effective_set
    from skill_ls.analysis.check import CheckOptions, build_index, prepare_config
    from skill_ls.analysis.effective import resolve_effective_set

    for root in (".agh/skills", ".claude/skills", ".agents/skills", "workspace/agents/skills"):
        skill(workspace / root, "alpha", description="Alpha <does> & things. " * 20)
        skill(workspace / root, "beta", description="|\n  Beta line one\n  line two")
    config = prepare_config(str(workspace), CheckOptions(workspace=str(workspace)))
    index = build_index(str(workspace), config)
    for rid in ("agh", "claude-code", "codex", "amp", "workspace-agents", "agentskills"):
        eff = resolve_effective_set(index, rid)
        rendered = render_effective_set(index, eff)
        builtins = [s.name for s in eff.enabled if s.decl.builtin]  # AGH's `agh` and Amp's five are rendered too
        assert sorted(e.name for e in rendered.entries) == sorted(builtins + ["alpha", "beta"]), rid
        for e, s in zip(rendered.entries, eff.enabled):
            assert e.text and e.text in rendered.text, rid
            cost = catalog_cost(s.decl)
            assert (cost.chars, cost.truncated, cost.shown) == (e.chars, e.truncated, e.shown), rid
