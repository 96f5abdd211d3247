"""Previews of what a runtime's skill tool returns (skill-ls preview / skillLs.preview)."""
from __future__ import annotations

from skill_ls.analysis.preview import amp_loaded_skill, substitute, workspace_agents_skill_use
from skill_ls.core.index import DocumentStore
from tests.conftest import write

AMP_SKILL = "---\nname: web-scraper\ndescription: Scrapes web pages.\n---\n\n# Web Scraper\n\nInstructions...\n"


def _doc(path):
    return DocumentStore().get(str(path))


def test_amp_loaded_skill_is_load_skill_byte_for_byte(tmp_path):
    doc = _doc(write(tmp_path / "web-scraper" / "SKILL.md", AMP_SKILL, dedent=False))
    # [`<loaded_skill name="${skill.name}">`, skill.content, args ? `\nArguments: ${args}` : "", `</loaded_skill>`].join("\n")
    assert amp_loaded_skill("web-scraper", doc, "").text == (
        '<loaded_skill name="web-scraper">\n' "\n# Web Scraper\n\nInstructions...\n" "\n" "\n" "</loaded_skill>")
    assert amp_loaded_skill("web-scraper", doc, "https://x").text == (
        '<loaded_skill name="web-scraper">\n' "\n# Web Scraper\n\nInstructions...\n" "\n\nArguments: https://x\n"
        "</loaded_skill>")
    assert amp_loaded_skill("web-scraper", doc, "").exact


def test_workspace_agents_substitutions_from_the_page():
    # "Calling skill_use("my-skill", "123") produces: Analyze pull request #123"
    assert substitute("Analyze pull request #$ARGUMENTS", "123", "/s") == "Analyze pull request #123"
    # "Calling skill_use("my-skill", "main develop") produces: Compare main with develop"
    assert substitute("Compare $ARGUMENTS[0] with $ARGUMENTS[1]", "main develop", "/s") == "Compare main with develop"
    assert substitute("Compare $0 with $1", "main develop", "/s") == "Compare main with develop"
    assert substitute("Run: python ${SKILL_DIR}/scripts/analyze.py", "", "/abs/skill") == \
        "Run: python /abs/skill/scripts/analyze.py"
    assert substitute("$ARGUMENTS[5]|", "a", "/s") == "|"


def test_workspace_agents_skill_use_lists_scripts_and_references_and_never_runs_commands(tmp_path):
    root = tmp_path / "review-code"
    doc = _doc(write(root / "SKILL.md", "---\nname: review-code\ndescription: d\n---\n\nReview $ARGUMENTS.\n"
                     "Branch: !`git branch --show-current`\n", dedent=False))
    write(root / "scripts" / "lint.sh", "#!/bin/sh\n")
    write(root / "references" / "style-guide.md", "# Style\n")
    p = workspace_agents_skill_use("review-code", doc, "src/app.py")
    assert p.text.startswith('<skill-context name="review-code">\nReview src/app.py.\nBranch: !`git branch')
    assert "Scripts: scripts/lint.sh\nReferences: references/style-guide.md\n</skill-context>\n" in p.text
    assert not p.exact and p.reading and any("never runs" in n for n in p.notes)


def test_cli_preview_amp_and_workspace_agents(workspace, capsys):
    from skill_ls.cli import main

    write(workspace / ".agents" / "skills" / "web-scraper" / "SKILL.md", AMP_SKILL, dedent=False)
    assert main(["preview", "web-scraper", "--workspace", str(workspace), "--runtime", "amp",
                 "--arguments", "https://x"]) == 0
    out = capsys.readouterr().out
    assert out.startswith('<loaded_skill name="web-scraper">') and out.endswith("Arguments: https://x\n</loaded_skill>")
    assert main(["preview", "nope", "--workspace", str(workspace), "--runtime", "amp"]) == 2
    assert "not in Amp's effective set" in capsys.readouterr().err
    assert main(["preview", "web-scraper", "--workspace", str(workspace), "--runtime", "codex"]) == 2
    assert "no documented skill tool" in capsys.readouterr().err


def test_preview_of_a_built_in_skill_says_it_is_compiled_in(workspace, capsys):
    """`skill-ls preview agh` (AGH's bundled skill) once answered "'agh' is not in AGH's effective set
    (available: agh, ...)": a built-in has no file, so the answer says that instead."""
    from skill_ls.cli import main

    (workspace / ".agh" / "skills").mkdir(parents=True)
    assert main(["preview", "agh", "--workspace", str(workspace), "--runtime", "agh"]) == 2
    err = capsys.readouterr().err
    assert "AGH's built-in skill" in err and "not in AGH's effective set" not in err and "\n" == err[-1]
    assert main(["preview", "painter", "--workspace", str(workspace), "--runtime", "amp"]) == 2
    assert "Amp's built-in skill" in capsys.readouterr().err


def test_an_unknown_name_is_one_line_whatever_the_names_listed_hold(workspace, capsys):
    """The error lists the effective set's names; a name holding a newline (`name: "line\\nbreak"`)
    once split it over two lines (found by the typed-value fuzzer)."""
    from skill_ls.cli import main

    write(workspace / ".agents" / "skills" / "odd" / "SKILL.md",
          '---\nname: "line\\nbreak"\ndescription: d\n---\nBody.\n', dedent=False)
    assert main(["preview", "nope", "--workspace", str(workspace), "--runtime", "amp"]) == 2
    err = capsys.readouterr().err
    assert "not in Amp's effective set" in err and err.count("\n") == 1 and "line\\nbreak" in err
    from skill_ls.analysis.preview import PreviewError, preview_skill  # the error itself (the server shows it)
    from tests.conftest import workspace_state

    try:
        preview_skill(workspace_state(workspace).index, "amp", "nope")
    except PreviewError as exc:
        assert "\n" not in str(exc) and "line\\nbreak" in str(exc)
    else:
        raise AssertionError("no PreviewError")
