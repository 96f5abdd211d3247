"""Fixes never make a file worse (issue 12), on a copy of the shared corpus and on generated files:

- every fixable finding, fixed alone, disappears and brings no new error code and no more errors;
- `check --fix --unsafe-fixes` over the whole tree makes no file worse, leaves no fixable finding it
  could apply, and a second run changes nothing.
"""
from __future__ import annotations

import os
import shutil
from collections import Counter
from pathlib import Path

import pytest
from conftest import CORPUS

from skill_ls.analysis.check import CheckOptions, Checker, build_index, prepare_config
from skill_ls.analysis.fixes import FileState, apply_fixes, fix_in_memory, worse
from skill_ls.apply import rename_dirs, write_files
from skill_ls.core.discovery import Environment
from skill_ls.core.index import DocumentStore, Index
from skill_ls.core.model import Diagnostic, Severity


def _setup(root: Path):
    opts = CheckOptions(paths=[str(root)], no_user_roots=True)
    config = prepare_config(str(root), opts)
    env = Environment.from_environ(None, config)
    files = Checker(build_index(str(root), config)).files_in_scope([str(root)])
    return config, env, files


def _check(root: Path, config, env, files: list[str], overlays: dict[str, str] | None = None) -> list[Diagnostic]:
    store = DocumentStore()
    for path, text in (overlays or {}).items():
        store.set_overlay(path, text, None)
    index = Index(str(root), env, config, store=store).build()
    return Checker(index).check_files(files)


def _by_path(diags: list[Diagnostic]) -> dict[str, list[Diagnostic]]:
    out: dict[str, list[Diagnostic]] = {}
    for d in diags:
        out.setdefault(d.path, []).append(d)
    return out


def _identity(d: Diagnostic) -> tuple[str, str, int]:
    # The line too: YAML stops at the first error, so the same message can come back from a later line.
    return d.code, d.message, d.span.start_line


def assert_each_fix_alone_repairs_and_never_worsens(root: Path, *, allow_worse: bool = False) -> int:
    """Apply every offered text fix on its own; returns how many were tried. `allow_worse`: only
    for resolution findings (SH*) that a fix reveals by unblocking a copy; the engine's guard undoes
    those (see assert_fix_all_never_worsens_and_is_idempotent)."""
    config, env, files = _setup(root)
    before = _check(root, config, env, files)
    per_file = _by_path(before)
    tried = 0
    seen: set[tuple] = set()
    for d in before:
        fix = d.fix
        if fix is None or fix.rename_dir is not None:
            continue
        key = (d.path, fix.title, fix.edits)
        if key in seen:
            continue
        seen.add(key)
        state = FileState.load(d.path)
        assert state is not None, d.path
        apply_fixes(state, [d])
        assert state.changed, f"{d.code} fix '{fix.title}' changes nothing in {d.path}"
        # Check the changed file only (its resolution peers are unchanged).
        after = _by_path(_check(root, config, env, [d.path], {d.path: state.full_text()})).get(d.path, [])
        assert _identity(d) not in {_identity(a) for a in after}, f"{d.code} '{fix.title}' did not repair {d.path}"
        why = worse(per_file[d.path], after)
        if allow_worse and why is not None and all(c.startswith("SH") for c in why.split("introduce ", 1)[-1].split(", ")):
            continue
        assert why is None, (d.path, fix.title, why)
        tried += 1
    return tried


def assert_fix_all_never_worsens_and_is_idempotent(root: Path, *, allow_reverted: bool = False) -> Counter[str]:
    """`allow_reverted`: generated trees may hold fixes the engine's guard has to undo (a placeholder
    description unblocks a copy whose name clashes with another: SH003); they must then stay undone."""
    config, env, files = _setup(root)
    before = _by_path(_check(root, config, env, files))
    outcome = fix_in_memory(str(root), env, config, files, unsafe=True)
    if not allow_reverted:
        assert outcome.reverted == [], outcome.reverted
    written, skipped = write_files(outcome.files, [str(root)])
    assert skipped == [] and sorted(written) == sorted(outcome.files)
    done, not_renamed = rename_dirs(outcome.renames, [str(root)])
    assert not_renamed == [] and len(done) == len(outcome.renames)
    config, env, files = _setup(root)
    after_diags = _check(root, config, env, files)
    after = _by_path(after_diags)
    def moved(path: str) -> str:
        for _, old, new in outcome.renames:
            if path.startswith(old + os.sep):
                return new + path[len(old):]
        return path

    for path, diags in before.items():
        why = worse(diags, after.get(moved(path), []))
        assert why is None, (path, why)
    # Nothing left that a fix claims to repair (except what the guard undid, in the files it names).
    undone = {moved(path) for path, _ in outcome.reverted}
    assert [d for d in after_diags if d.fix is not None and d.path not in undone] == []
    again = fix_in_memory(str(root), env, config, files, unsafe=True)
    assert again.files == {} and again.renames == []
    fixed: Counter[str] = Counter()
    for c in outcome.fixed.values():
        fixed.update(c)
    for code, _, _ in outcome.renames:
        fixed[code] += 1
    return fixed


# -- the shared corpus -----------------------------------------------------------------------------

corpus_only = pytest.mark.skipif(not CORPUS.is_dir(), reason="shared corpus not present")


@pytest.fixture
def corpus_copy(tmp_path) -> Path:
    dst = tmp_path / "corpus"
    # A working copy the author can edit: the corpus is stored read-only, and `--fix` never rewrites
    # a read-only file (it says so instead).
    shutil.copytree(CORPUS, dst, symlinks=True, copy_function=shutil.copyfile)
    for d, _, files in os.walk(dst):
        os.chmod(d, 0o755)
        for f in files:
            if not os.path.islink(os.path.join(d, f)):
                os.chmod(os.path.join(d, f), 0o644)
    return dst


@corpus_only
def test_every_fix_on_the_corpus_alone_repairs_its_finding_and_adds_no_error(corpus_copy):
    assert assert_each_fix_alone_repairs_and_never_worsens(corpus_copy) >= 30


@corpus_only
def test_fix_all_on_the_corpus_never_worsens_a_file_and_is_idempotent(corpus_copy):
    fixed = assert_fix_all_never_worsens_and_is_idempotent(corpus_copy)
    # What the corpus offers today (see docs/corpus-review.md): 22 SK009 renames of `name` to a valid
    # directory name, and 11 `category` keys moved under `metadata:`.
    assert fixed == {"SK009": 22, "SK007": 11}


# -- broken fixtures of every kind --------------------------------------------------------------------

BROKEN = {
    "glued/SKILL.md": "---\nname: glued\ndescription: 当用户需要时使用。license: Apache-2.0\n---\nBody\n",
    "colon/SKILL.md": "---\nname: colon\ndescription: Use when: the user asks\n---\nBody\n",
    "both/SKILL.md": "---\nname: both\ndescription: Use when: asked.compatibility: Python 3\n---\nBody\n",
    "bom/SKILL.md": "\ufeff---\nname: bom\ndescription: A skill.\n---\nBody\n",
    "nodesc/SKILL.md": "---\nname: nodesc\n---\nBody\n",
    "nofm/SKILL.md": "# Just a body\n",
    "catalogue/SKILL.md": "---\nname: catalogue\ndescription: d\norigin: github\nauthor: me\nrisk: low\n"
                          "tags: [a]\n---\nBody\n",
    "meta/SKILL.md": "---\nname: meta\ndescription: d\nmetadata:\n  version: 2\n  ok: yes-string\n---\nBody\n",
    "renamed/SKILL.md": "---\nname: other-name\ndescription: d\n---\nBody\n",
    "bad_dir/SKILL.md": "---\nname: bad-dir\ndescription: d\n---\nBody\n",
    "Bad Both/SKILL.md": "---\nname: Bad Both\ndescription: d\n---\nBody\n",
    "typo/SKILL.md": "---\nname: typo\ndescription: d\nlicence: MIT\n---\nBody\n",
    ".agents/skills/crlf/SKILL.md": "---\r\nname: crlf\r\ndescription: Use when: asked\r\n---\r\nBody\r\n",
    ".agents/skills/shape/SKILL.md": "--- \nname: shape\ndescription: d\n...\nBody\n",
}


def _write_tree(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))


def test_broken_fixtures_each_fix_alone(tmp_path):
    root = tmp_path / "repo"
    _write_tree(root, BROKEN)
    assert assert_each_fix_alone_repairs_and_never_worsens(root) >= len(BROKEN) - 2


def test_broken_fixtures_fix_all(tmp_path):
    root = tmp_path / "repo"
    _write_tree(root, BROKEN)
    fixed = assert_fix_all_never_worsens_and_is_idempotent(root)
    assert {"SK001", "SK003", "SK005", "SK006", "SK007", "SK009", "SK013"} <= set(fixed)
    text = (root / "glued" / "SKILL.md").read_text(encoding="utf-8")
    assert text == "---\nname: glued\ndescription: 当用户需要时使用。\nlicense: Apache-2.0\n---\nBody\n"
    assert (root / "bad-dir" / "SKILL.md").is_file()
    assert (root / ".agents/skills/crlf/SKILL.md").read_bytes() == \
        b'---\nname: crlf\ndescription: "Use when: asked"\n---\nBody\n'
    errors = [d for d in _check(root, *_setup(root)) if d.severity == Severity.ERROR]
    assert {d.code for d in errors} == {"SK008"}  # 'Bad Both': no valid name to rename to; left to the author


# -- generated files ---------------------------------------------------------------------------------

try:
    from hypothesis import given, settings
    from hypothesis import strategies as st
except ImportError:  # pragma: no cover - hypothesis is a test extra
    given = None

if given is not None:
    _KEYS = st.sampled_from(["license", "compatibility", "allowed-tools", "metadata", "origin", "version",
                             "category", "author", "licence", "tags", "name", "description"])
    _TEXT = st.text(alphabet=st.sampled_from(list("ab c.:-#'\"`@%\\[]{}&<>。使") + ["\t"]), max_size=20)
    _VALUE = st.one_of(_TEXT, st.sampled_from(["Use when: asked", "x。license: MIT", "1.10", "true", "[a, b]",
                                               "{k: v}", "", "'quoted: yes'", "a.compatibility: b"]))

    @st.composite
    def skill_files(draw) -> tuple[str, bytes]:
        dirname = draw(st.sampled_from(["good-skill", "Bad_Dir", "other", "x"]))
        lines = []
        if draw(st.booleans()):
            lines.append(f"name: {draw(st.sampled_from([dirname, 'good-skill', 'Bad Name', 'other-name', '']))}")
        if draw(st.booleans()):
            lines.append(f"description: {draw(_VALUE)}")
        for _ in range(draw(st.integers(0, 3))):
            lines.append(f"{draw(_KEYS)}: {draw(_VALUE)}")
        if draw(st.booleans()):
            lines.append("metadata:\n  " + draw(st.sampled_from(["a: b", "n: 2", "t: [x]", "k: v\n  m: 1"])))
        eol = draw(st.sampled_from(["\n", "\r\n"]))
        text = "---\n" + "\n".join(lines) + "\n---\nBody\n" if draw(st.booleans()) else "\n".join(lines) + "\n"
        text = text.replace("\n", eol)
        if draw(st.booleans()):
            text = "\ufeff" + text
        return dirname, text.encode("utf-8")

    @settings(max_examples=max(10, settings().max_examples // 2))
    @given(files=st.lists(skill_files(), min_size=1, max_size=3), amp=st.booleans())
    def test_fuzz_fixes_never_worsen_and_are_idempotent(tmp_path_factory, files, amp):
        root = tmp_path_factory.mktemp("fuzzfix")
        base = root / ".agents" / "skills" if amp else root
        for i, (dirname, data) in enumerate(files):
            path = base / f"{dirname}{i if i else ''}" / "SKILL.md" if dirname != "x" else base / dirname / "SKILL.md"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        assert_each_fix_alone_repairs_and_never_worsens(root, allow_worse=True)
        assert_fix_all_never_worsens_and_is_idempotent(root, allow_reverted=True)
