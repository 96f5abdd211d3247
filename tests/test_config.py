"""Configuration loading (SPEC §6.2) and CF001 diagnostics on the configuration file."""
from __future__ import annotations

from pathlib import Path

import pytest
from conftest import write

from skill_ls.core.config import ConfigError, Config, load_config, merge_client_settings
from skill_ls.analysis.rules.configuration import invalid_configuration


def test_defaults_without_a_file(workspace):
    assert load_config(workspace) == Config()


def test_unknown_key_points_at_its_line(workspace):
    f = write(workspace / ".skill-ls.toml", "runtimes = ['agh']\n\n[agh]\nbundled_root = ['x']\n")
    with pytest.raises(ConfigError) as exc:
        load_config(workspace)
    [d] = invalid_configuration(exc.value, str(f))
    assert d.code == "CF001" and d.span.start_line == 3 and "bundled_root" in d.message


def test_unknown_key_suggests_the_closest_known_key(workspace):
    """Issue 22: `check` names the key a typo meant (it still exits 2); the server's lenient reading
    leaves only that key out."""
    from skill_ls.core.config import load_config_file_lenient

    f = write(workspace / ".skill-ls.toml", "runtimes = ['agh']\nexlude = ['x/**']\n\n[agh]\nbundled_root = ['x']\n")
    with pytest.raises(ConfigError) as exc:
        load_config(workspace)
    assert "unknown key 'exlude'; did you mean 'exclude'?" in str(exc.value)
    config, errors = load_config_file_lenient(f)
    assert config.runtimes == ("agh",)
    assert [(e.keys, e.line) for e in errors] == [(("exlude",), 2), (("agh", "bundled_root"), 5)]
    assert "did you mean 'bundled_roots'?" in str(errors[1])
    [d] = invalid_configuration(errors[1], str(f))
    assert d.span.start_line == 4 and d.message.endswith("the key is ignored, the rest of the file applies")


def test_invalid_toml_points_at_its_line(workspace):
    f = write(workspace / ".skill-ls.toml", "runtimes = ['agh']\nexclude = ['a' 'b']\n")
    with pytest.raises(ConfigError) as exc:
        load_config(workspace)
    assert invalid_configuration(exc.value, str(f))[0].span.start_line >= 1


@pytest.mark.parametrize("text, fragment", [
    ("runtimes = ['vim']\n", "unknown runtime"),
    ("[agentcy]\nmax_prompt_chars = -1\n", "positive integer"),
    ("[agh]\ndraft_fields = 'loud'\n", "draft_fields"),
    ("[[roots]]\npath = 'x'\nruntime = 'agh'\ntier = 'top'\n", "not a tier of agh"),
    ("[rules.severity]\nSK007 = 'fatal'\n", "unknown severity"),
])
def test_bad_values(workspace, text, fragment):
    write(workspace / ".skill-ls.toml", text)
    with pytest.raises(ConfigError) as exc:
        load_config(workspace)
    assert fragment in str(exc.value) and ".skill-ls.toml" in str(exc.value)


def test_relative_paths_resolve_against_the_config_file(workspace):
    write(workspace / ".skill-ls.toml", "[agh]\nadditional_roots = ['shared']\n")
    assert load_config(workspace).agh_additional_roots == (workspace / "shared",)


def test_client_settings_overlay_in_camel_case(workspace):
    base = Config(exclude=("a/**",))
    merged = merge_client_settings(base, {"agh": {"draftFields": "error"}, "noUserRoots": True}, Path(workspace))
    assert merged.agh_draft_fields == "error" and merged.no_user_roots and merged.exclude == ("a/**",)
    with pytest.raises(ConfigError):
        merge_client_settings(base, {"agh": {"bogus": 1}}, Path(workspace))


def test_project_root_prefers_project_markers_over_skill_directories(tmp_path, private_home):
    """SPEC §6.3 (one server per project, issue 10): a workspace folder that is part of a project — a
    configured root, a skill directory, a nested `.agh/` — is that project; a folder with a marker of
    its own, or outside any project, is itself; `$HOME` is never a project of a folder below it."""
    from skill_ls.core.config import project_root

    configured = tmp_path / "configured"
    write(configured / ".skill-ls.toml", 'runtimes = ["agh"]\n')
    (configured / "shared" / ".agh" / "skills").mkdir(parents=True)
    assert project_root(configured / "shared", private_home) == configured
    assert project_root(configured, private_home) == configured

    py = tmp_path / "py"
    write(py / "pyproject.toml", '[project]\nname = "x"\n\n[tool.skill-ls]\nruntimes = ["agh"]\n')
    (py / "docs").mkdir()
    assert project_root(py / "docs", private_home) == py  # any folder of a configured project
    plain = tmp_path / "plain"
    write(plain / "pyproject.toml", '[project]\nname = "y"\n')
    (plain / "pkg").mkdir()
    assert project_root(plain / "pkg", private_home) == plain / "pkg"  # pyproject without [tool.skill-ls]

    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    nested = repo / "pkg" / ".agh" / "skills" / "alpha"
    write(nested / "SKILL.md", "---\nname: alpha\ndescription: A.\n---\n")
    (repo / "docs").mkdir()
    assert project_root(nested, private_home) == repo  # a skill directory of the repository
    assert project_root(repo / "pkg" / ".agh", private_home) == repo  # a path through .agh
    assert project_root(repo / "docs", private_home) == repo / "docs"  # not part of a skill tree

    write(private_home / ".skill-ls.toml", 'runtimes = ["agh"]\n')
    (private_home / ".agh" / "skills").mkdir(parents=True)
    assert project_root(private_home / ".agh" / "skills", private_home) == private_home / ".agh" / "skills"
