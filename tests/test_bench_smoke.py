"""Smoke test for the benchmark harness in bench/ (it runs, and reports the expected keys; not speed)."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.long  # tests/conftest.py: started first when modules run side by side

REPO = Path(__file__).resolve().parents[1]
BENCH = REPO / "bench"


def _env() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


def _generate(out: Path, n: int, seed: int) -> dict:
    p = subprocess.run([sys.executable, str(BENCH / "generate.py"), str(out), "--skills", str(n),
                        "--seed", str(seed), "--quiet"], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    return json.loads((out / "manifest.json").read_text())


def _tree_files(root: Path) -> dict[str, bytes]:
    # the generated config holds absolute paths into the tree: compare it relative to the root
    return {str(p.relative_to(root)): p.read_bytes().replace(str(root).encode(), b"ROOT")
            for p in sorted(root.rglob("*")) if p.is_file() and p.name != "manifest.json"}


def test_generate_is_deterministic_and_complete(tmp_path):
    m = _generate(tmp_path / "a", 30, 7)
    _generate(tmp_path / "b", 30, 7)
    assert _tree_files(tmp_path / "a") == _tree_files(tmp_path / "b")
    c = m["counts"]
    assert c["skill_files"] == 30
    assert c["shadow_copies"] >= 1 and c["broken"] >= 1 and c["agents"] >= 2
    assert all(v >= 1 for v in c["per_root"].values()), c["per_root"]
    for key in ("workspace", "home", "agh_home"):
        assert Path(m[key]).is_dir()
    metas = list(Path(m["agh_home"]).glob("skills/*/.agh-meta.json"))
    assert metas and set(json.loads(metas[0].read_text())) >= {"slug", "registry", "version", "installed_at"}
    assert list(Path(m["workspace"]).glob(".agh/agents/*/AGENT.md"))


def test_check_benchmark_quick(tmp_path):
    try:
        import skill_ls.cli  # noqa: F401
    except ImportError as e:
        pytest.skip(f"skill_ls CLI not importable yet: {e}")
    _generate(tmp_path / "tree", 30, 1)
    tools = "skill-ls,agnix" if shutil.which("agnix") else "skill-ls"
    out = tmp_path / "report.json"
    p = subprocess.run([sys.executable, str(BENCH / "run.py"), "--quick", "--runs", "1", "--no-corpus",
                        "--sizes", "", "--tree", str(tmp_path / "tree"), "--tools", tools,
                        "--cli-sample", "0", "--no-lsp", "--json", str(out)],
                       capture_output=True, text=True, timeout=600, env=_env(), cwd=str(tmp_path))
    assert p.returncode == 0, p.stderr[-3000:]
    report = json.loads(out.read_text())
    for key in ("machine", "tools", "config", "datasets", "check", "ratios", "growth", "targets"):
        assert key in report, key
    assert report["machine"]["nproc"] >= 1 and report["machine"]["python"]
    assert report["tools"]["skill-ls"]["available"], report["tools"]["skill-ls"]
    rows = {r["tool"]: r for r in report["check"] if r["dataset"] == "tree-30"}
    assert set(rows) == set(tools.split(","))
    s = rows["skill-ls"]
    assert s["ok"], s  # exit status 0 or 1 (findings), never a usage/config error or a crash
    assert s["median_s"] > 0 and len(s["runs_s"]) == 1
    assert "peak_rss_mb" in s and "files_checked" in s and "diagnostics" in s
    if "agnix" in rows:
        assert "skill-ls/agnix wall" in report["ratios"]["tree-30"]
    names = [t["name"] for t in report["targets"]]
    assert any("agnix" in n for n in names) and any("exponent" in n for n in names)
    assert "| tree-30 |" in p.stdout
