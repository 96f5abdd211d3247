"""The reference layout matches `agentskills to-prompt` (pip package skills-ref) byte for byte, apart
from the absolute paths, for every skill of ../shared/corpus/anthropics__skills (SPEC §4, §8)."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from conftest import CORPUS

skills_ref = pytest.importorskip("skills_ref")

from skill_ls.analysis.catalog import catalog_object  # noqa: E402
from skill_ls.analysis.check import CheckOptions, build_index, prepare_config  # noqa: E402

SOURCE = CORPUS / "anthropics__skills"
_LOCATION = re.compile(r"(<location>\n)[^\n]*(\n</location>)")


def _skill_dirs() -> list[Path]:
    return sorted(p.parent for p in SOURCE.rglob("SKILL.md"))


def _mask(text: str) -> str:
    return _LOCATION.sub(r"\1PATH\2", text)


def _reference(dirs: list[Path]) -> str:
    # The CLI (`agentskills to-prompt DIR...`) is `click.echo(to_prompt(dirs))`: the text plus a newline.
    return skills_ref.to_prompt(dirs) + "\n"


@pytest.mark.skipif(not SOURCE.is_dir(), reason="shared corpus not present")
def test_every_corpus_skill_matches_the_reference(tmp_path):
    dirs = _skill_dirs()
    assert len(dirs) >= 10
    ws = tmp_path / "ws"
    root = ws / ".agents" / "skills"
    root.mkdir(parents=True)
    copies = []
    for d in dirs:
        name = skills_ref.read_properties(d).name
        target = root / name  # the standard requires the directory to carry the skill's name
        shutil.copytree(d, target, symlinks=True)
        copies.append(target)
    config = prepare_config(str(ws), CheckOptions(workspace=str(ws), runtimes=["agentskills"]))
    index = build_index(str(ws), config)
    ours = catalog_object(index, "agentskills")

    # Whole catalog: our order (by name) fed to the reference.
    ordered = sorted(copies, key=lambda p: skills_ref.read_properties(p).name)
    expected = _reference(ordered)
    assert _mask(ours["text"]) == _mask(expected)
    # Locations are the absolute SKILL.md paths.
    for s in ours["skills"]:
        assert Path(s["path"]).is_absolute() and s["path"].endswith("/SKILL.md")
    assert len(ours["skills"]) == len(dirs)

    # One skill at a time too, so a difference names its skill.
    for copy in copies:
        single_ws = tmp_path / "single" / copy.name
        shutil.copytree(copy, single_ws / ".agents" / "skills" / copy.name, symlinks=True)
        cfg = prepare_config(str(single_ws), CheckOptions(workspace=str(single_ws), runtimes=["agentskills"]))
        text = catalog_object(build_index(str(single_ws), cfg), "agentskills")["text"]
        assert _mask(text) == _mask(_reference([copy])), copy.name
