"""VS Code for real (editors/vscode): the built .vsix in code-server, driven through Chromium.

code-server is VS Code's own workbench, extension host and extension API served to a browser; Debian's
Chromium shows it and playwright-core drives it with the keyboard and mouse, reading what is on screen
(Problems panel, hovers, quick fix menu, the catalog preview, toasts). The driver is
`editors/vscode/e2e/run.js`; it runs once per session over a copy of `examples/demo` with a private
HOME/AGH_HOME and writes what each flow observed; each test below checks one flow.

Needs: `node`, `editors/vscode/e2e/node_modules` (`editors/vscode/e2e/install.sh`: apt packages, then
`npm ci` from the lockfile), Chromium, and the extension's own `node_modules` to build the .vsix. Without
them the tests skip with a one-line reason; under `CI=true` they fail instead (`.ci/run` installs all).
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
import warnings
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
VSCODE = REPO / "editors" / "vscode"
E2E = VSCODE / "e2e"
VSIX = VSCODE / "skill-ls.vsix"
DEMO = REPO / "examples" / "demo"
RUN_TIMEOUT = 900  # seconds for the whole browser session (a loaded 2-core machine is slow)
IN_CI = os.environ.get("CI", "").lower() == "true"
pytestmark = pytest.mark.long  # tests/conftest.py: started first when modules run side by side


def _chromium() -> str | None:
    for cand in (os.environ.get("CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium"), shutil.which("chromium-browser")):
        if cand and Path(cand).is_file():
            return cand
    return None


def _missing() -> str | None:
    """One line saying what is missing to run the real VS Code, or None."""
    if shutil.which("node") is None:
        return "node is not installed"
    if not (E2E / "node_modules" / "code-server" / "out" / "node" / "entry.js").is_file():
        return "code-server is not installed (run editors/vscode/e2e/install.sh)"
    if not (E2E / "node_modules" / "playwright-core").is_dir():
        return "playwright-core is not installed (run editors/vscode/e2e/install.sh)"
    if _chromium() is None:
        return "Chromium is not installed (apt-get install chromium, or set CHROMIUM)"
    return None


def _vsix_stale() -> bool:
    if not VSIX.is_file():
        return True
    built = VSIX.stat().st_mtime
    # The .vsix carries the server (bundled/libs, from skill_ls/): a change there makes it stale too.
    sources = [VSCODE / "package.json", VSCODE / "README.md", *(VSCODE / "src").rglob("*.ts"),
               *(VSCODE / "syntaxes").rglob("*.json"), *(VSCODE / "bundled").glob("requirements*.txt"),
               *(VSCODE / "bundled" / "tool").glob("*.py"), *(VSCODE / "media").glob("*"),
               *(REPO / "skill_ls").rglob("*.py")]
    return any(p.stat().st_mtime > built for p in sources)


def _ensure_vsix() -> str | None:
    """Build the .vsix when it is missing or older than the sources; a reason when that is impossible."""
    if not _vsix_stale():
        return None
    if not (VSCODE / "node_modules").is_dir():
        return "the .vsix is missing or stale and editors/vscode/node_modules is absent (run editors/vscode/ci.sh)"
    npm = shutil.which("npm")
    if npm is None:
        return "npm is not installed"
    for script in ("build", "package"):
        proc = subprocess.run([npm, "run", script], cwd=VSCODE, capture_output=True, text=True, timeout=300)
        if proc.returncode != 0:
            pytest.fail(f"npm run {script} failed:\n{proc.stdout}\n{proc.stderr}")
    return None


def _skip_or_fail(reason: str) -> None:
    if IN_CI:
        pytest.fail(f"CI=true but the real VS Code cannot run: {reason}")
    pytest.skip(reason)


USER_COPY = textwrap.dedent(
    """\
    ---
    name: code-review
    description: My personal code review notes. Use when reviewing any pull request.
    ---
    # Code review (user)
    """
)
CATALOG_EDIT = {
    "path": ".agh/agents/reviewer/skills/code-review/SKILL.md",
    "from": "The reviewer agent's own code review procedure.",
    "to": "The reviewer agent's stricter code review procedure.",
}

# `release-notes` in the reviewer agent's `skills.disabled` list (line 9: `    - release-notes`)
TOMBSTONE_HOVER = {"path": ".agh/agents/reviewer/AGENT.md", "line": 9, "col": 7, "name": "release-notes"}
CODE_LENS_PICK = "shared/.agh/skills/code-review/SKILL.md"  # the declaration chosen from the code lens's pick
# What the extension host gets as PATH: the system's, where `python3` is Debian's (no skill_ls, no
# pygls, nothing installed) and no `skill-language-server` exists: the .vsix must bring the server.
BARE_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
MOVED_FOLDER = "shared/.agh/skills/code-review"  # moved out of the workspace and back during the session


def _check_json(ws: Path, env: dict[str, str]) -> list[dict[str, Any]]:
    """`skill-ls check --format json` run in `ws` (its project; paths relative to it)."""
    proc = subprocess.run(
        [sys.executable, "-m", "skill_ls", "check", "--format", "json"],
        cwd=ws, env=env, capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode in (0, 1), proc.stderr
    return json.loads(proc.stdout)["diagnostics"]


def _skill(path: Path, name: str, description: str, extra: str = "", body: str = "") -> Path:
    path.mkdir(parents=True, exist_ok=True)
    f = path / "SKILL.md"
    f.write_text(f"---\nname: {name}\ndescription: {description}\n{extra}---\n{body or f'# {name}'}\n")
    return f


def _multi_root(root: Path, home: Path) -> dict[str, Any]:
    """Three project folders with their own `.skill-ls.toml` (a `.code-workspace` names alpha and beta;
    gamma is added during the session, beta then removed):

    - alpha checks AGH only: `review-guide` wins in its workspace tier; a Claude Code copy of it
      under `.claude/skills` is not read (no finding); `deploy-check` misspells `allowed-tools`.
    - beta checks Claude Code only: its project `review-guide` is shadowed by the personal copy in
      ~/.claude/skills (SH001; hover: the personal copy wins); `release-plan` writes `allowed_tools`;
      a subagent `helper`.
    - gamma checks AGH with an additional root `shared/`, which holds a shadowed copy of `notes`, and
      Amp, whose project copy of `code-review` (`.agents/skills`) shadows Amp's built-in one.
    Under another folder's configuration each would show different findings."""
    alpha, beta, gamma = root / "alpha", root / "beta", root / "gamma"
    (alpha / ".skill-ls.toml").parent.mkdir(parents=True)
    (alpha / ".skill-ls.toml").write_text('runtimes = ["agh"]\n')
    _skill(alpha / ".agh/skills/review-guide", "review-guide", "Alpha's review guide. Use when reviewing alpha code.")
    _skill(alpha / ".claude/skills/review-guide", "review-guide", "The team's review guide. Use when reviewing a pull request.")
    _skill(alpha / ".agh/skills/deploy-check", "deploy-check", "Checks a deployment. Use before deploying alpha.",
           extra="alowed-tools: Read\n")
    beta.mkdir()
    (beta / ".skill-ls.toml").write_text('runtimes = ["claude-code"]\n')
    hover = _skill(beta / ".claude/skills/review-guide", "review-guide",
                   "The team's review guide. Use when reviewing a pull request.")
    _skill(beta / ".claude/skills/release-plan", "release-plan", "Plans a release. Use when cutting a release.",
           extra="allowed_tools: Read\n")
    subagent = beta / ".claude/agents/helper.md"
    subagent.parent.mkdir(parents=True)
    subagent.write_text("---\nname: helper\ndescription: Helps review pull requests.\n---\nYou help review pull requests.\n")
    winner = _skill(home / ".claude/skills/review-guide", "review-guide",
                    "My personal review guide. Use when reviewing anything.")
    gamma.mkdir()
    (gamma / ".skill-ls.toml").write_text('runtimes = ["agh", "amp"]\n\n[agh]\nadditional_roots = ["shared"]\n')
    _skill(gamma / ".agh/skills/notes", "notes", "Gamma notes. Use when taking notes.")
    amp_copy = _skill(gamma / ".agents/skills/code-review", "code-review", "Gamma's code review. Use when reviewing gamma code.")
    _skill(gamma / "shared/.agh/skills/notes", "notes", "Shared notes. Use when taking notes.")
    workspace_file = root / "team.code-workspace"
    workspace_file.write_text(json.dumps({"folders": [{"path": str(alpha)}, {"path": str(beta)}], "settings": {}}))
    return {
        "workspaceFile": str(workspace_file),
        "folders": {"alpha": str(alpha), "beta": str(beta)},
        "hover": {"file": str(hover), "name": "review-guide"},
        "winner": str(winner),
        "add": {"name": "gamma", "path": str(gamma)},
        "remove": "beta",
        # `model: ` completed on a new line after the description of beta's (Claude Code) skill and subagent
        "modelCompletion": [{"name": "skill", "file": str(hover), "line": 3},
                            {"name": "subagent", "file": str(subagent), "line": 3}],
        # the code lens of gamma's Amp copy: its pick holds Amp's built-in `code-review`
        "builtin": {"file": str(amp_copy)},
    }


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    reason = _missing() or _ensure_vsix()
    if reason:
        _skip_or_fail(reason)
    keep = os.environ.get("SKILL_LS_E2E_ARTIFACTS")  # keep results, logs and pictures for a look afterwards
    root = Path(keep) if keep else tmp_path_factory.mktemp("vscode")
    if keep:
        shutil.rmtree(root, ignore_errors=True)
        root.mkdir(parents=True)
    ws = root / "demo"
    shutil.copytree(DEMO, ws)
    home = root / "home"
    agh_home = home / ".agh"
    (agh_home / "skills").mkdir(parents=True)
    env = {**os.environ, "HOME": str(home), "AGH_HOME": str(agh_home), "PYTHONPATH": str(REPO)}
    expected = _check_json(ws, env)
    multi = _multi_root(root / "multi", home)
    multi_files = _tree(root / "multi")
    # Pictures only when asked (screenshots.sh, or artifacts kept); a failed flow's picture always.
    shots = os.environ.get("SKILL_LS_SCREENSHOTS") or (str(root / "screenshots") if keep else None)
    config = {
        "vsix": str(VSIX),
        "workspace": str(ws),
        "home": str(home),
        "aghHome": str(agh_home),
        # No server setting: the extension runs the server it carries with `python3` from this PATH.
        "path": BARE_PATH,
        "work": str(root / "work"),
        "out": str(root / "results.json"),
        "screenshots": shots,
        "failureShots": str(root / "screenshots"),
        "chromium": _chromium(),
        "userCopy": {
            "path": str(agh_home / "skills" / "code-review" / "SKILL.md"),
            "text": USER_COPY,
            "expectCode": "SH002",
            "expectText": "shadows 3 other copies",
        },
        "catalogEdit": CATALOG_EDIT,
        "tombstoneHover": TOMBSTONE_HOVER,
        "codeLensPick": CODE_LENS_PICK,
        "folderMove": {"from": str(ws / MOVED_FOLDER), "to": str(root / "moved-away" / "code-review")},
        "checkCommand": ["/usr/bin/env", f"PYTHONPATH={REPO}", sys.executable, "-m", "skill_ls", "check", "--format", "json"],
        "multiRoot": multi,
        "noPython": True,  # a second code-server whose PATH holds no Python
    }
    if os.environ.get("SKILL_LS_E2E_FLOWS"):  # e.g. "multiroot" while working on one group
        config["flows"] = os.environ["SKILL_LS_E2E_FLOWS"].split(",")
    if os.environ.get("SKILL_LS_E2E_TRACE"):  # e.g. "verbose": the LSP traffic in results.json's outputChannel
        config["trace"] = os.environ["SKILL_LS_E2E_TRACE"]
    (root / "work").mkdir()
    (root / "config.json").write_text(json.dumps(config, indent=2))
    proc = subprocess.run(
        ["node", str(E2E / "run.js"), str(root / "config.json")],
        cwd=E2E, capture_output=True, text=True, timeout=RUN_TIMEOUT,
    )
    out = root / "results.json"
    results: dict[str, Any] = json.loads(out.read_text()) if out.is_file() else {}
    if results.get("fatal") or proc.returncode != 0:
        pytest.fail(f"the VS Code session did not run ({root}): {results.get('fatal') or proc.stderr[-3000:]}")
    # The tree as the session left it (quick fix applied, user copy added) and, as the multi-root flows
    # change no skill, each folder's check (the demo flows added a user copy to $AGH_HOME, which the AGH
    # folders read too): the checks run at once.
    folders = {"demo": ws, **{name: Path(p) for name, p in
                              [*multi["folders"].items(), (multi["add"]["name"], multi["add"]["path"])]}}
    with ThreadPoolExecutor(len(folders)) as pool:
        checks = dict(zip(folders, pool.map(lambda p: _check_json(p, env), folders.values())))
    after = checks.pop("demo")
    multi_expected = checks
    return {"results": results, "flows": results["flows"], "expected": expected, "after": after, "ws": ws, "home": home,
            "root": root, "multi": multi, "multi_expected": multi_expected,
            "multi_files": (multi_files, _tree(root / "multi"))}


def _tree(root: Path) -> dict[str, bytes]:
    """Every file under `root` (relative path -> bytes)."""
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_ci_installs_the_real_editors() -> None:
    ci = (REPO / ".ci" / "run").read_text()
    assert "editors/vscode/e2e/install.sh" in ci and "tmux" in ci


def _tools_dir(tmp_path: Path, names: list[str]) -> Path:
    """A directory holding only the named executables (symlinks), to run a script with a bare PATH."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name in names:
        found = shutil.which(name)
        assert found, name
        (bin_dir / name).symlink_to(found)
    return bin_dir


@pytest.mark.parametrize("present", [[], ["node"]])
def test_ci_sh_names_the_missing_tools_in_one_line(tmp_path: Path, present: list[str]) -> None:
    """editors/vscode/ci.sh on a machine without node or npm: one line naming them and how to get
    them, before anything runs (no `npm ci` traceback, no `command not found` halfway)."""
    if any(shutil.which(t) is None for t in present):
        _skip_or_fail("node is not installed")
    bin_dir = _tools_dir(tmp_path, ["dirname", *present])
    proc = subprocess.run(["/bin/bash", str(VSCODE / "ci.sh")], env={"PATH": str(bin_dir), "HOME": str(tmp_path)},
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and proc.stdout == "", proc.stderr
    missing = [t for t in ("node", "npm", "python3") if t not in present]
    assert lines[0].startswith(f"ci.sh: {' '.join(missing)} not found: install Node.js 20"), lines[0]


def test_ci_sh_reads_the_vsix_without_unzip(tmp_path: Path) -> None:
    """ci.sh checks the .vsix's entries with node (no `unzip` on a fresh Debian machine): its reader
    lists what Python's zipfile wrote, including a comment after the central directory."""
    import re
    import zipfile

    if shutil.which("node") is None:
        _skip_or_fail("node is not installed")
    script = re.search(r"node - skill-ls.vsix <<'JS'\n(.*?)\nJS\n", (VSCODE / "ci.sh").read_text(), re.S)
    assert script, "ci.sh no longer lists the .vsix with node"
    vsix = tmp_path / "skill-ls.vsix"
    names = ["extension.vsixmanifest", "extension/package.json", "extension/dist/extension.js", "extension/ü.md"]
    with zipfile.ZipFile(vsix, "w", zipfile.ZIP_DEFLATED) as z:
        for name in names:
            z.writestr(name, "x" * 100)
        z.comment = b"built by a test"
    proc = subprocess.run(["node", "-", str(vsix)], input=script.group(1), capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == names
    vsix.write_bytes(b"not a zip")
    proc = subprocess.run(["node", "-", str(vsix)], input=script.group(1), capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1 and "not a zip file" in proc.stderr


def _flow(session: dict[str, Any], name: str) -> dict[str, Any]:
    flow = session["flows"].get(name)
    assert flow is not None, f"flow {name} did not run"
    assert flow["ok"], f"{name}: {flow.get('error')} (artifacts: {session['root']})\nobserved: {json.dumps(flow.get('observed'), indent=1)[:4000]}"
    return flow["observed"]


def _skill_ls_toasts(toasts: list[dict[str, str]]) -> list[dict[str, str]]:
    return [t for t in toasts if t["severity"] in ("warning", "error") and "skill" in t["text"].lower()]


def test_starts_without_a_warning_or_error_toast(session: dict[str, Any]) -> None:
    observed = _flow(session, "startup")
    assert observed["status"].endswith("skills"), observed["status"]
    assert _skill_ls_toasts(observed["toasts"]) == [], observed["toasts"]
    settled = _flow(session, "problems")  # read again once every startup message had time to come
    assert _skill_ls_toasts(settled["toasts"]) == [], settled["toasts"]
    final = _flow(session, "final_toasts")
    assert _skill_ls_toasts(final["toasts"]) == [], json.dumps(final, indent=1)[:4000]


def test_problems_panel_equals_check_including_files_never_opened(session: dict[str, Any]) -> None:
    observed = _flow(session, "problems")
    assert observed["openEditors"] == 0  # nothing was opened: every row comes from the index
    assert _rows(observed["problems"]) == _check_rows(session["expected"])


def test_hover_names_the_winning_tier(session: dict[str, Any]) -> None:
    hover = _flow(session, "hover")["hover"]
    assert "skill code-review" in hover
    assert "winner: workspace .agh/skills/code-review/SKILL.md" in hover
    assert "shadowed: additional" in hover and "shadowed: bundled" in hover


def test_hover_picture_shows_the_whole_card(session: dict[str, Any]) -> None:
    """The README's hover picture is taken with the whole hover on screen, down to the card's
    portability (tier) table: the window is made tall enough for VS Code's hover height cap."""
    observed = _flow(session, "hover")
    assert observed["hoverHeight"] > 250, observed["hoverHeight"]  # taller than the 800-pixel window's hover
    assert "winner: workspace .agh/skills/code-review/SKILL.md" in observed["hover"], observed["hover"]


def test_hover_on_a_skill_an_agent_disables_says_it_is_not_in_its_catalog(session: dict[str, Any]) -> None:
    """Issue 22: hover on a skill listed in an agent's `skills.disabled` gave its catalog size as if it
    were in that agent's catalog. In the reviewer agent's AGENT.md, hovered with the mouse: the card
    says the agent's catalog leaves it out, with no catalog size; its copies are still listed."""
    hover = _flow(session, "tombstone_hover")["hover"]
    assert "skill release-notes" in hover, hover
    assert "not in agent reviewer's catalog: its skills.disabled removes it" in hover, hover
    assert "chars in the catalog" not in hover, hover
    assert "winner: workspace" in hover, hover


def test_code_lens_click_lists_the_declarations(session: dict[str, Any]) -> None:
    """The code lens over the frontmatter, clicked with the mouse: a quick pick with every declaration
    of the skill, winner first, each with its tier and the server's label (as Show Skill Shadows and
    `skill-ls where`); choosing a shadowed copy opens it."""
    observed = _flow(session, "codelens")
    assert observed["title"] == "winner · workspace — shadows 2", observed
    items = observed["items"]
    assert len(items) == 3, items
    assert "winner · workspace — shadows 2" in items[0] and ".agh/skills/code-review/SKILL.md" in items[0], items
    assert any("shadowed · additional — by workspace" in i and CODE_LENS_PICK in i for i in items[1:]), items
    assert any("shadowed · bundled — by workspace" in i and "vendor/skills/code-review/SKILL.md" in i for i in items[1:]), items
    assert '3 declarations of "code-review" (agh)' in observed["placeholder"], observed


def test_quick_fix_renames_the_misspelled_key(session: dict[str, Any]) -> None:
    observed = _flow(session, "quickfix")
    assert any("allowed-tools" in a for a in observed["actions"])
    assert "allowed-tools: Read Grep" in observed["onDisk"] and "alowed-tools" not in observed["onDisk"]
    assert not any(p["code"] == "SK007" for p in observed["problemsAfter"])


def test_catalog_preview_from_the_palette(session: dict[str, Any]) -> None:
    flow = session["flows"]["catalog"]
    observed = flow["observed"]
    text = observed.get("text") or ""
    assert "code-review" in text and "The reviewer agent's own code review procedure" in text, flow
    assert "release-notes" not in text  # disabled for the reviewer agent


def test_catalog_preview_follows_a_description_change_on_disk(session: dict[str, Any]) -> None:
    observed = _flow(session, "catalog")
    assert CATALOG_EDIT["to"] in observed["refreshed"]


def _rows(problems: list[dict[str, Any]]) -> list[tuple[str, str, int, int]]:
    return sorted((p["file"], p["code"], p["line"], p["col"]) for p in problems)


def _check_rows(diags: list[dict[str, Any]]) -> list[tuple[str, str, int, int]]:
    return sorted((d["path"], d["code"], d["range"]["start"]["line"] + 1, d["range"]["start"]["character"] + 1) for d in diags)


def test_disk_change_in_a_user_root_reaches_the_problems_panel(session: dict[str, Any]) -> None:
    """A copy written into $AGH_HOME/skills (no keystroke): the workspace copy's SH002 now counts it, and
    the panel equals `skill-ls check` of the tree as the session left it. The user copy itself is outside
    the workspace, so, as in `skill-ls check`, it has no row while it is not open."""
    observed = _flow(session, "disk_change")
    before = [p for p in observed["before"] if p["code"] == "SH002" and p["file"] == ".agh/skills/code-review/SKILL.md"]
    after = [p for p in observed["after"] if p["code"] == "SH002" and p["file"] == ".agh/skills/code-review/SKILL.md"]
    assert "shadows 2 other copies" in before[0]["message"], before
    assert "shadows 3 other copies" in after[0]["message"] and "user copy" in after[0]["message"], after
    assert _rows(observed["after"]) == _check_rows(session["after"])


def _check_panel_rows(rows: list[dict[str, Any]]) -> list[tuple[str, str, int, int]]:
    return sorted((r["file"], r["code"], r["line"], r["col"]) for r in rows)


def test_a_skill_folder_moved_out_of_the_workspace_leaves_the_problems_panel(session: dict[str, Any]) -> None:
    """`shared/.agh/skills/code-review` renamed out of the workspace on disk (no keystroke): its row
    leaves the Problems panel, the winner's SH002 no longer counts it, and the panel equals
    `skill-ls check` run at that moment; renamed back, the panel equals `skill-ls check` again."""
    observed = _flow(session, "folder_moved")
    winner = ".agh/skills/code-review/SKILL.md"

    def sh002(rows: list[dict[str, Any]]) -> str:
        return next(r["message"] for r in rows if r["file"] == winner and r["code"] == "SH002")

    assert any(r["file"].startswith(MOVED_FOLDER + "/") for r in observed["before"]), observed["before"]
    assert "additional copy" in sh002(observed["before"]), observed["before"]
    away = observed["away"]
    assert not any(r["file"].startswith(MOVED_FOLDER + "/") for r in away), away
    assert "additional copy" not in sh002(away) and "shadows 2 other copies" in sh002(away), sh002(away)
    assert _rows(away) == _check_panel_rows(observed["checkAway"])
    back = observed["back"]
    assert _rows(back) == _check_panel_rows(observed["checkBack"]) == _check_rows(session["after"])
    assert "additional copy" in sh002(back), back


# -- multi-root -------------------------------------------------------------------------------------

def _folder_rows(problems: list[dict[str, Any]], folder: str) -> list[tuple[str, str, int, int]]:
    """The Problems panel rows of one workspace folder ("alpha • .agh/skills/x/SKILL.md"), paths
    relative to the folder like `skill-ls check`'s."""
    prefix = f"{folder} • "
    return sorted((p["file"][len(prefix):], p["code"], p["line"], p["col"]) for p in problems if p["file"].startswith(prefix))


def test_multi_root_problems_equal_check_for_each_folder(session: dict[str, Any]) -> None:
    """Each folder of a `.code-workspace` is checked under its own `.skill-ls.toml`, files never opened
    included: the panel's rows for a folder equal `skill-ls check <folder>`."""
    observed = _flow(session, "multiroot_open")
    if observed.get("attempts"):  # code-server needed a reload to show the folders: say so in the output
        warnings.warn(f"multi-root window reloaded once: {json.dumps(observed['attempts'])[:2000]}", stacklevel=1)
    assert _skill_ls_toasts(observed["toasts"]) == [], observed["toasts"]
    observed = _flow(session, "multiroot_problems")
    assert _skill_ls_toasts(observed["toasts"]) == [], observed["toasts"]
    assert observed["openEditors"] == 0
    rows = observed["problems"]
    assert {p["file"].split(" • ")[0] for p in rows} <= {"alpha", "beta"}, rows
    for folder in ("alpha", "beta"):
        assert _folder_rows(rows, folder) == _check_rows(session["multi_expected"][folder]), folder
    # the configurations differ: beta's project copy is shadowed by the personal one (Claude Code);
    # alpha's identical Claude Code copy is not read by alpha's runtimes (AGH only)
    assert ("review-guide", "SH001") in {(r[0].split("/")[2], r[1]) for r in _folder_rows(rows, "beta")}
    assert not any(r[0].startswith(".claude/") for r in _folder_rows(rows, "alpha"))


def test_the_multi_root_session_leaves_the_folders_as_they_were(session: dict[str, Any]) -> None:
    """The multi-root flows only type into editors and revert (a word typed to see completions): every
    file of the folders is as before, so `skill-ls check` afterwards checks the tree the panel showed.
    (code-server saves a changed file after a second by default: on a loaded machine the typed
    `model: ` reached the disk before File: Revert File, an AG004 the panel had never shown.) The
    workspace file itself is rewritten on purpose (a folder added, one removed)."""
    before, after = session["multi_files"]
    changed = sorted(k for k in before.keys() | after.keys()
                     if k != "team.code-workspace" and before.get(k) != after.get(k))
    assert changed == [], {k: (before.get(k), after.get(k)) for k in changed}


def test_multi_root_hover_in_the_second_folder_names_its_winner(session: dict[str, Any]) -> None:
    hover = _flow(session, "multiroot_hover")["hover"]
    assert "skill review-guide" in hover
    assert "winner: personal" in hover and "shadowed: project" in hover, hover


def test_multi_root_catalog_from_the_palette_answers_for_the_active_folder(session: dict[str, Any]) -> None:
    """Preview Agent Catalog with a file of the second folder active: beta's Claude Code catalog (the
    personal copy's description wins), not alpha's AGH one."""
    text = _flow(session, "multiroot_catalog")["text"]
    assert "My personal review guide" in text and "release-plan" in text, text
    assert "deploy-check" not in text and "Alpha's review guide" not in text, text


def test_multi_root_where_from_the_palette_answers_for_the_active_folder(session: dict[str, Any]) -> None:
    """Show Skill Shadows on the second folder's file: beta's two Claude Code declarations, the personal
    copy first (the winner), not alpha's AGH copy."""
    observed = _flow(session, "multiroot_where")
    items = observed["items"]
    personal = str(session["home"] / ".claude/skills/review-guide/SKILL.md")
    assert len(items) == 2, items
    assert "winner" in items[0] and personal in items[0], items
    assert "shadowed" in items[1] and "beta/.claude/skills/review-guide/SKILL.md" in items[1], items
    assert "(claude-code)" in observed["placeholder"], observed


def test_multi_root_a_copy_outside_every_folder_answers_for_the_folder_that_reads_it(session: dict[str, Any]) -> None:
    """Picking the winner in Show Skill Shadows opens the personal copy (outside both folders); its hover
    is beta's Claude Code resolution, not the first folder's AGH view of a loose file."""
    hover = _flow(session, "multiroot_where")["winnerHover"]
    assert "Claude Code (claude-code)" in hover and "winner: personal" in hover, hover
    assert "AGH (agh)" not in hover, hover


def test_model_completion_offers_the_aliases_the_rules_know(session: dict[str, Any]) -> None:
    """Issue 22: `model:` completion offered nothing although the rules know Claude Code's model
    aliases. `model: ` typed in a Claude Code skill and in a subagent, Ctrl+Space: the suggest widget
    lists them."""
    o = _flow(session, "model_completion")
    for kind in ("skill", "subagent"):
        labels = {row.split(" ")[0] for row in o[kind]["suggestions"]}
        assert {"sonnet", "opus", "haiku", "inherit"} <= labels, (kind, o[kind])


def test_choosing_amps_built_in_copy_opens_no_file(session: dict[str, Any]) -> None:
    """Issue 22: choosing Amp's built-in copy in the code lens's pick tried to open `(built-in
    code-review)` as a file. Its row says it is built into Amp (no file); choosing it says there is
    no file to open (information, no error) and opens no editor."""
    o = _flow(session, "builtin_pick")
    assert "(amp)" in o["placeholder"], o
    row = next(r for r in o["items"] if "built" in r)
    assert "built into amp (no file)" in row, o["items"]
    said = [t for t in o["toasts"] if "code-review" in t["text"]]
    assert [t["severity"] for t in said] == ["info"], o["toasts"]
    assert "is built into amp: there is no file to open" in said[0]["text"], said
    assert not [t for t in o["toasts"] if t["severity"] == "error"], o["toasts"]
    assert not [t for t in o["tabs"] if "built-in" in t], o["tabs"]


def test_multi_root_folder_added_and_removed_on_disk(session: dict[str, Any]) -> None:
    """The `.code-workspace` file edited on disk: the added folder is indexed with its own configuration
    (its additional root) and its rows equal `skill-ls check`; the removed folder's rows leave the panel."""
    added = _flow(session, "multiroot_add_folder")["problems"]
    assert _folder_rows(added, "gamma") == _check_rows(session["multi_expected"]["gamma"])
    assert _folder_rows(added, "alpha") == _check_rows(session["multi_expected"]["alpha"])
    removed = _flow(session, "multiroot_remove_folder")["problems"]
    beta = session["multi"]["folders"]["beta"]
    # a file that left the workspace is labelled by its absolute path: none of beta's may remain
    assert not [p for p in removed if p["file"].startswith(("beta • ", beta + "/"))], removed
    assert _folder_rows(removed, "gamma") == _check_rows(session["multi_expected"]["gamma"])


# -- issue 22: install the .vsix, open a folder, it works -------------------------------------------

def test_bare_path_has_no_server_and_its_python_nothing_installed() -> None:
    """The precondition of the session: on BARE_PATH there is no `skill-language-server`, and its
    `python3` cannot import skill_ls nor pygls; whatever runs the server comes from the .vsix."""
    assert shutil.which("skill-language-server", path=BARE_PATH) is None
    python = shutil.which("python3", path=BARE_PATH)
    if python is None:
        _skip_or_fail("no python3 on the system PATH")
    for module in ("skill_ls", "pygls"):
        proc = subprocess.run([python, "-c", f"import {module}"], env={"PATH": BARE_PATH}, cwd="/", capture_output=True)
        assert proc.returncode != 0, f"{python} can import {module}: the session would not prove the bundle"


def test_runs_the_server_it_carries_with_python_from_path(session: dict[str, Any]) -> None:
    """No setting, no pip: the output channel says the bundled server runs with python3 from PATH,
    and the Problems panel equals `skill-ls check` (test_problems_panel_equals_check_...)."""
    log = session["results"].get("outputChannel", "")
    assert "(the bundled server; Python from PATH)" in log, log[-3000:]
    assert "skill_ls_bundled.py serve" in log and "Python: /usr/bin/python3 (PATH): Python 3." in log, log[-3000:]


def test_output_channel_has_no_cancel_noise_nor_a_normal_exit_as_an_error(session: dict[str, Any]) -> None:
    """pygls's "Cancel notification for unknown message id" warnings and `[Error] … exited with code 0`
    for a normal restart (the session restarts the server) are gone from the output channel."""
    log = session["results"].get("outputChannel", "")
    assert "Cancel notification" not in log and "unknown message id" not in log, log[-3000:]
    assert not [line for line in log.splitlines() if "Error" in line and "exited with code 0" in line], log[-3000:]
    # the session's Restart Server (flow server_killed) stopped a running server: logged as information
    assert [line for line in log.splitlines() if line.startswith("[Info") and "exited with code 0" in line], log[-3000:]


def test_problem_codes_link_to_the_rule_documentation(session: dict[str, Any]) -> None:
    anchors = _flow(session, "problems")["codeLinks"]  # every anchor of the rows: file names, actions, codes
    links = [a for a in anchors if re.fullmatch(r"[A-Z]{2}\d{3}", a["text"])]
    assert links, f"no code in the Problems panel is a link: {anchors}"
    for link in links:
        assert link["href"].endswith(f"/docs/rules.md#{link['text'].lower()}"), link


def test_palette_commands_explain_list_portability_shadows_output(session: dict[str, Any]) -> None:
    o = _flow(session, "palette")
    assert o["explainItems"][0].startswith("SK007"), o["explainItems"][:3]  # the finding under the cursor first
    assert o["explain"].startswith("# SK007") and "unknown-field" in o["explain"], o["explain"][:500]
    assert any(r.startswith("code-review") or "code-review" in r.split(" ")[0:2] for r in o["skills"]), o["skills"]
    assert "skills the runtime loads" in o["skillsPlaceholder"], o["skillsPlaceholder"]
    assert o["portability"].startswith("Portability of .agh/skills/code-review/SKILL.md"), o["portability"][:300]
    # a skill AGH does not read: its own runtime answers (issue 22: .claude/skills got AGH's declarations)
    assert "(agh)" not in o["shadowsPlaceholder"] and "summarize" in o["shadowsPlaceholder"], o["shadowsPlaceholder"]
    assert "(the bundled server; Python from PATH)" in o["output"], o["output"][-2000:]


def test_completion_replaces_the_word_typed_dashes_included(session: dict[str, Any]) -> None:
    o = _flow(session, "completion")
    assert o["line"].strip() == "allowed-tools:", o


def test_a_killed_server_comes_back_and_the_crash_notification_goes_away(session: dict[str, Any]) -> None:
    """kill -9 of the server: it is started again and the panel equals `skill-ls check`; killed four
    more times, a notification says it will not be restarted; Restart Server brings it back and the
    notification goes away (it stayed on screen before)."""
    o = _flow(session, "server_killed")
    assert o["pidsAfter"] and set(o["pidsAfter"]).isdisjoint(o["pidsBefore"])
    assert "crashed repeatedly" in o["crashToast"]["text"], o["crashToast"]
    assert not any("crashed repeatedly" in t["text"] for t in o["toastsAfterRestart"]), o["toastsAfterRestart"]


def test_without_python_says_what_it_needs_and_open_settings_shows_them(session: dict[str, Any]) -> None:
    """A machine with code-server and no Python: one notification saying the extension needs Python
    3.10+, with Install Python / Open Settings / Retry; Open Settings in this remote window
    (code-server) shows the server settings, not "No Settings Found"."""
    o = _flow(session, "no_python")
    assert "needs Python 3.10 or newer" in o["toast"]["text"], o["toast"]
    assert o["buttons"] == ["Install Python", "Open Settings", "Retry"], o["buttons"]
    assert not o["settings"]["noResults"], o["settings"]
    assert "Remote" in o["settings"]["tab"], o["settings"]  # machine-overridable settings of a remote window
    assert any("Python Path" in r for r in o["settings"]["rows"]), o["settings"]


def test_the_vsix_readme_pictures_icon_and_walkthrough_are_in_the_package() -> None:
    """The extension's details page showed alt text (pictures at ../../docs/img, outside the package)
    and no icon: every picture of its README and walkthrough is a packaged file under media/, the same
    bytes as docs/img's, and package.json names an icon."""
    pkg = json.loads((VSCODE / "package.json").read_text())
    assert (VSCODE / pkg["icon"]).is_file() and pkg["icon"].startswith("media/")
    readme = (VSCODE / "README.md").read_text()
    pictures = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", readme)
    steps = [st["media"]["image"] for w in pkg["contributes"]["walkthroughs"] for st in w["steps"]]
    assert len(steps) == 4 and pictures
    ignored = (VSCODE / ".vscodeignore").read_text()
    for ref in pictures + steps:
        assert ref.startswith("media/") and (VSCODE / ref).is_file(), ref
        assert (VSCODE / ref).read_bytes() == (REPO / "docs" / "img" / Path(ref).name).read_bytes(), ref
    assert not [line for line in ignored.splitlines() if line.startswith("media")]
    assert "--no-rewrite-relative-links" in pkg["scripts"]["package"]
