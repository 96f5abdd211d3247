"""RF001-RF003: references from a skill's body."""
from __future__ import annotations

from conftest import check_tree, diags_for, skill, write

from skill_ls.core.model import Severity


def test_rf001_missing_link_target(workspace):
    f = skill(workspace, "a", body="See [guide](references/guide.md) and [ok](references/ok.md#top).\n")
    write(f.parent / "references" / "ok.md", "ok")
    [d] = diags_for(check_tree(workspace), f, "RF001")
    assert "references/guide.md" in d.message
    line = f.read_text().splitlines()[d.span.start_line]
    assert line[d.span.start_col:d.span.end_col] == "references/guide.md"


def test_rf001_ignores_urls_anchors_code_and_examples(workspace):
    body = ("[web](https://example.com) [a](#x) [m](mailto:a@b.c)\n"
            "Use `[text](relative-url)` in docs.\n"
            "```\n[inside](fence.md)\npython scripts/missing.py\n```\n"
            "Example: `scripts/example.py` would go here.\n")
    f = skill(workspace, "a", body=body)
    assert diags_for(check_tree(workspace), f, "RF001") == []


def test_rf001_script_commands_and_skill_read_file(workspace):
    body = "Run `python scripts/run.py` then `./scripts/go.sh`.\nskill_read_file(\"a\", \"docs/missing.md\")\n"
    f = skill(workspace, "a", body=body)
    write(f.parent / "scripts" / "go.sh", "")
    ds = diags_for(check_tree(workspace), f, "RF001")
    assert sorted(d.data["target"] for d in ds) == ["docs/missing.md", "scripts/run.py"]


def test_rf002_escaping_references_are_reported_not_read(workspace):
    body = "[up](../other/SKILL.md) [abs](/etc/passwd) skill_read_file(\"a\", \"../../secret\")\n"
    f = skill(workspace, "a", body=body)
    skill(workspace, "other")
    ds = diags_for(check_tree(workspace), f, "RF002")
    assert len(ds) == 3
    assert not diags_for(check_tree(workspace), f, "RF001")


def test_rf002_symlink_out_of_skill(workspace, tmp_path):
    outside = write(tmp_path / "outside.md", "secret")
    f = skill(workspace, "a", body="[x](link.md)\n")
    (f.parent / "link.md").symlink_to(outside)
    [d] = diags_for(check_tree(workspace), f, "RF002")
    assert "symlink" in d.message


def test_rf003_shell_injection_and_run_script(workspace):
    body = ("Context: !`git status`\n"
            "Rust macros `println!`, `vec!` are fine.\n"
            "skill_run_script(\"a\", \"tool.rb\")\nskill_run_script(\"a\", \"ok.py\")\n")
    f = skill(workspace, "a", body=body)
    write(f.parent / "scripts" / "ok.py", "")
    write(f.parent / "scripts" / "tool.rb", "")
    ds = diags_for(check_tree(workspace), f, "RF003")
    assert len(ds) == 2
    assert any("git status" in d.message for d in ds)
    assert any("tool.rb" in d.message for d in ds)


def test_findings_per_file_and_code_are_capped(workspace):
    f = skill(workspace, "a", body="".join(f"[x](missing{i}.md)\n" for i in range(150)))
    ds = diags_for(check_tree(workspace), f, "RF001")
    assert len(ds) == 100
    assert ds[-1].message.endswith("(and 50 more RF001 findings in this file, not shown)")


def test_rf002_after_a_reference_becomes_a_symlink_out_in_a_long_lived_workspace(workspace, tmp_path):
    """The resolution cache belongs to the index and is cleared when the disk changes: a server that
    has checked a skill still reports RF002 once a referenced file is replaced by a symlink out of
    the skill, and RF001 once it is deleted."""
    import os

    from skill_ls.analysis.workspace import WorkspaceState

    outside = write(tmp_path / "outside.md", "secret")
    f = skill(workspace, "a", body="[x](ref.md)\n")
    ref = write(f.parent / "ref.md", "inside")
    state = WorkspaceState(str(workspace), environ=dict(os.environ))
    state.load_config()
    state.install(state.build_index())

    def codes_now() -> list[str]:
        return sorted(d.code for d in state.diagnostics([str(f)])[str(f)] if d.code.startswith("RF"))

    assert codes_now() == []
    ref.unlink()
    ref.symlink_to(outside)
    state.file_changed(str(ref))
    assert codes_now() == ["RF002"]
    ref.unlink()
    state.file_changed(str(ref))
    assert codes_now() == ["RF001"]


def test_rf002_link_to_an_existing_file_of_a_sibling_skill_is_a_warning(workspace, tmp_path):
    """Issue 12: a "related skills" table (`../threat-detection/SKILL.md`) works in the repository;
    an error is too harsh. The warning explains the standalone-install risk; errors stay for absolute
    paths, links that leave the repository, and links that point at nothing."""
    (workspace / ".git").mkdir()
    body = ("[related](../threat-detection/SKILL.md) [ref](../threat-detection/references/x.md)\n"
            "[readme](../../README.md) [gone](../nothing/SKILL.md) [abs](/etc/passwd) [out](../../../elsewhere.md)\n")
    f = skill(workspace / "skills", "a", body=body)
    other = skill(workspace / "skills", "threat-detection")
    write(other.parent / "references" / "x.md", "x")
    write(workspace / "README.md", "repo")
    write(tmp_path / "elsewhere.md", "outside the repository")
    ds = {d.message.split("'")[1]: d for d in diags_for(check_tree(workspace), f, "RF002")}
    assert set(ds) == {"../threat-detection/SKILL.md", "../threat-detection/references/x.md", "../../README.md",
                       "../nothing/SKILL.md", "/etc/passwd", "../../../elsewhere.md"}
    sibling = ds["../threat-detection/SKILL.md"]
    assert sibling.severity == Severity.WARNING
    assert "the skill 'threat-detection'" in sibling.message and "installed on its own" in sibling.message
    assert ds["../threat-detection/references/x.md"].severity == Severity.WARNING
    assert ds["../../README.md"].severity == Severity.WARNING
    assert ds["../nothing/SKILL.md"].severity == Severity.ERROR and "points at nothing" in ds["../nothing/SKILL.md"].message
    assert ds["/etc/passwd"].severity == Severity.ERROR
    assert ds["../../../elsewhere.md"].severity == Severity.ERROR  # leaves the repository


def test_rf001_skill_read_file_reads_the_copy_that_wins(workspace, private_home, tmp_path):
    """`skill_read_file("demo", ...)` reads the copy of `demo` the runtime loads (the workspace winner),
    not whichever copy the index lists first: a guide only the winner has is found, one only a shadowed
    copy has is missing."""
    bundled = tmp_path / "bundled"
    write(workspace / ".skill-ls.toml", f'runtimes = ["agh"]\n\n[agh]\nbundled_roots = ["{bundled}"]\n')
    winner = skill(workspace / ".agh" / "skills", "demo")
    write(winner.parent / "references" / "guide.md", "# Guide\n")
    skill(private_home / ".agh" / "skills", "demo")
    shadowed = skill(bundled / "skills", "demo")
    write(shadowed.parent / "references" / "old.md", "# Only in the bundled copy\n")
    caller = skill(workspace / ".agh" / "skills", "caller",
                   body='skill_read_file("demo", "references/guide.md")\nskill_read_file("demo", "references/old.md")\n')
    ds = diags_for(check_tree(workspace), caller, "RF001")
    assert [d.data["target"] for d in ds] == ["references/old.md"]
    assert "does not exist in demo/" in ds[0].message


def test_resolver_reads_symlinks_as_realpath_does(tmp_path):
    """The index's resolver builds a directory's real path from its parent's (cached); on a tree of
    symlinks (to files, directories, out of the skill, through a linked parent, dangling, in a loop)
    it must answer exactly what the uncached resolution with os.path.realpath answers."""
    import os

    from skill_ls.core.references import ReferenceResolver, resolve_reference

    outside = tmp_path / "outside"
    (outside / "deep").mkdir(parents=True)
    (outside / "deep" / "f.md").write_text("x")
    real_root = tmp_path / "real"
    skill_dir = real_root / "skills" / "s"
    (skill_dir / "references" / "sub").mkdir(parents=True)
    (skill_dir / "references" / "a.md").write_text("a")
    (skill_dir / "references" / "sub" / "b.md").write_text("b")
    os.symlink(skill_dir / "references", skill_dir / "refs")  # a directory inside
    os.symlink(outside, skill_dir / "out")  # a directory outside
    os.symlink(outside / "deep" / "f.md", skill_dir / "references" / "f.md")  # a file outside
    os.symlink(skill_dir / "references" / "a.md", skill_dir / "a-link.md")  # a file inside
    os.symlink(tmp_path / "missing", skill_dir / "dangling.md")
    os.symlink(skill_dir / "loop", skill_dir / "loop")
    os.symlink(real_root, tmp_path / "linked-root")  # the skill reached through a linked parent
    targets = ["references/a.md", "refs/a.md", "refs/sub/b.md", "refs/f.md", "out/deep/f.md", "a-link.md",
               "dangling.md", "loop", "loop/x.md", "references/sub", "references/../references/a.md",
               "missing/x.md", "references/sub/../a.md", ".", "refs", "out"]
    for base in (skill_dir, tmp_path / "linked-root" / "skills" / "s"):
        resolver = ReferenceResolver()
        for target in targets * 2:
            assert resolver.resolve(str(base), target) == resolve_reference(str(base), target), (base, target)


def test_body_scan_finds_what_a_scan_of_every_line_finds():
    """The body scan visits only the lines with a marker and jumps over fenced blocks; on random
    bodies (fences of both kinds and lengths, indented fences, links, calls, scripts, shell lines,
    CR and CRLF breaks, frontmatter) it must find exactly what reading every line with fence_step does."""
    import random

    from skill_ls.core.body import _scan_body, _scan_line, fence_step
    from skill_ls.core.index import Document
    from skill_ls.core.parse.frontmatter import parse_frontmatter
    from skill_ls.core.parse.text import SourceText

    def every_line(doc):
        refs, shells = [], []
        fm = doc.fm
        fence = None
        for n in range(fm.body_start_line if fm is not None and fm.ok else 0, doc.src.line_count):
            line = doc.src.line_text(n)
            is_fence, fence = fence_step(line, fence)
            if not is_fence and fence is None:
                _scan_line(n, line, refs, shells)
        return refs, shells

    pieces = ["```", "~~~", "````", "  ```", " ~~~~", "    ```", "x ```", "](x.md)", "[a](b/c.md)", "`[a](q.md)`",
              "skill_read_file('s', 'p')", "`python scripts/x.py`", "`./scripts/y.sh`", "!`ls`", "``!`x` ``",
              "\n", "\n", "\n", "\r\n", "\r", "text ", "---\n", "name: x\n", "\t```", "é", "😀", " ",
              "!```", "   ~~~", "](", "!`", "skill_", "scripts/", "~"]
    rnd = random.Random(20261126)
    for _ in range(20000):
        text = "".join(rnd.choice(pieces) for _ in range(rnd.randint(0, 30)))
        if rnd.random() < 0.3:
            text = "---\nname: a\n---\n" + text
        src = SourceText.from_str(text)
        doc = Document("/s/SKILL.md", src, parse_frontmatter(src))
        assert _scan_body(doc) == every_line(doc), text


def test_lines_containing_finds_what_a_scan_of_every_line_finds():
    """`lines_containing` (CC007, CC008) jumps between the needle and the possible fences; on random
    bodies and on every corpus SKILL.md it must yield exactly the lines a walk of every line with
    fence_step yields that hold the needle, with the same line numbers and fenced flags."""
    import random

    from conftest import CORPUS

    from skill_ls.core.body import fence_step, lines_containing
    from skill_ls.core.index import Document
    from skill_ls.core.parse.frontmatter import parse_frontmatter
    from skill_ls.core.parse.text import SourceText

    def every_line(doc, needle):
        fm = doc.fm
        fence = None
        out = []
        for n in range(fm.body_start_line if fm is not None and fm.ok else 0, doc.src.line_count):
            line = doc.src.line_text(n)
            is_fence, after = fence_step(line, fence)
            if not is_fence and needle in line:
                out.append((n, line, fence is not None))
            fence = after
        return out

    def same(text, needle):
        src = SourceText.from_str(text)
        doc = Document("/s/SKILL.md", src, parse_frontmatter(src))
        assert list(lines_containing(doc, needle)) == every_line(doc, needle), (needle, text)

    pieces = ["```", "~~~", "````", "  ```", " ~~~~", "    ```", "x ```", "$1", "$ARGUMENTS[0]", "echo $x",
              "```$", "$```", "\n", "\n", "\n", "\r\n", "\r", "text ", "---\n", "name: x\n", "\t```", "é", "😀", " "]
    rnd = random.Random(20261124)
    for _ in range(20000):
        text = "".join(rnd.choice(pieces) for _ in range(rnd.randint(0, 30)))
        if rnd.random() < 0.3:
            text = "---\nname: a\n---\n" + text
        same(text, "$")
        same(text, "$ARGUMENTS[")
    if CORPUS.is_dir():
        for path in sorted(CORPUS.rglob("SKILL.md"))[:2000]:
            same(path.read_bytes().decode("utf-8", "replace").lstrip("\ufeff"), "$")
