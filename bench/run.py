#!/usr/bin/env python3
"""skill-ls benchmark: `skill-ls check` against agnix and the skills-ref reference validator.

    python bench/run.py                      # everything: corpus, 1k/3k/10k synthetic, LSP latency
    python bench/run.py --quick              # 1 run, small trees, no LSP (sanity check)
    python bench/run.py --sizes 1000,3000 --runs 3 --json out.json --markdown out.md
    python bench/run.py --tree /tmp/t --no-corpus --sizes '' --quick   # an existing generated tree

For every dataset (the shared corpus, and synthetic trees from bench/generate.py) each tool runs as a
child process, interleaved run by run, after one untimed warm-up run (skipped with --quick):

* skill-ls  -> `skill-ls check DIR --no-user-roots --format json`, the console script of a fresh venv
               that `pip install .` made (--install venv, the default: what a user runs); with
               --install source, `python -m skill_ls` from this tree (PYTHONPATH)
* skill-ls --jobs 1 -> the same in one process (no fork), to compare with the default's choice
* agnix     -> `agnix DIR --format json --max-files 0`
* skills-ref-> `python bench/skills_ref_all.py DIR`: skills_ref.validate() (what `agentskills validate`
               calls) on every skill dir, one interpreter. `agentskills validate` itself is one process
               per skill; its cost is reported separately, extrapolated from a sample.

With --hog N (default 1; 0 with --quick), every dataset is then checked again by the two skill-ls
variants while N processes burn a CPU each (started first and given time to show in the load
average, as on a busy CI runner): the "loaded" rows, named "<dataset> +N hog".

Wall time is the median of --runs; peak RSS comes from `/usr/bin/time -v` (else os.wait4 rusage of the
child). HOME points at the tree's private home (synthetic) or an empty temp dir (corpus). The markdown
report goes to stdout (and --markdown), the raw numbers to --json. Defaults, when not --quick:
--json bench/results.json --markdown bench/results.md.
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
sys.path.insert(0, str(BENCH))
import generate  # noqa: E402

CORPUS = Path(os.environ.get("SKILL_LS_CORPUS", "/work/shared/corpus"))
TIME_BIN = "/usr/bin/time"
RUN_TIMEOUT = float(os.environ.get("SKILL_LS_BENCH_TIMEOUT", "900"))

TARGET_CORPUS_RATIO = 0.5
TARGET_EXPONENT = 1.1
TARGET_10K_SECONDS = 1.5
TARGET_LOADED_RATIO = 1.05  # default ÷ --jobs 1 under load: the same work when it stays in one process
TARGET_LSP_P95_MS = 15.0


# --------------------------------------------------------------------------- environment

def child_env(home: str | None, agh_home: str | None) -> dict:
    env = dict(os.environ)
    for k in ("AGH_HOME", "CODEX_HOME", "AMP_TOOLBOX", "XDG_CONFIG_HOME"):
        env.pop(k, None)
    if home:
        env["HOME"] = home
    if agh_home:
        env["AGH_HOME"] = agh_home
    if INSTALLED is None:  # skill-ls from the source tree (--install source)
        env["PYTHONPATH"] = str(REPO) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    # Any non-empty PYTHONDONTWRITEBYTECODE (even "0") stops Python writing .pyc files, so every timed
    # run would recompile the package from source (~0.1 s). An installed package has its .pyc files;
    # drop the variable so the untimed warm-up run writes them, as `pip install` would have.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["NO_COLOR"] = "1"
    return env


def _out(cmd, timeout=60, env=None, cwd=None) -> tuple[int, str]:
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env, cwd=cwd)
        return p.returncode, (p.stdout + p.stderr).strip()
    except (OSError, subprocess.TimeoutExpired) as e:
        return -1, str(e)


def machine_info() -> dict:
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.lower().startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = None
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                mem = round(int(line.split()[1]) / 1024 / 1024, 1)
    except OSError:
        pass
    try:
        affinity = len(os.sched_getaffinity(0))
    except AttributeError:
        affinity = os.cpu_count()
    return {
        "nproc": affinity,
        "cpu_count": os.cpu_count(),
        "cpu_model": cpu or platform.processor(),
        "mem_total_gb": mem,
        "python": platform.python_version(),
        "python_impl": platform.python_implementation(),
        "platform": platform.platform(),
        "loadavg_at_start": [round(x, 2) for x in os.getloadavg()] if hasattr(os, "getloadavg") else None,
        "peak_rss_method": "/usr/bin/time -v" if os.access(TIME_BIN, os.X_OK) else "os.wait4 rusage",
    }


def git_info() -> dict:
    rc, head = _out(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"])
    rc2, dirty = _out(["git", "-C", str(REPO), "status", "--porcelain", "--", "skill_ls"])
    return {"commit": head if rc == 0 else None, "skill_ls_dirty": bool(dirty) if rc2 == 0 else None}


INSTALLED: str | None = None  # the `skill-ls` console script of the --install venv, once made


def install_venv(where: Path, log) -> str:
    """`pip install REPO` (a regular install, not editable) into a fresh virtual environment: skill-ls
    as a user gets it. This machine's base interpreter loads an editable-install finder and a sandbox
    `.pth` hook at every start (~20 ms of a ~30 ms start-up); a venv has neither."""
    venv = where / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", str(REPO)]
    log(f"installing skill-ls into {venv}")
    p = subprocess.run(pip, capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit(f"bench: pip install into the venv failed:\n{p.stdout[-2000:]}{p.stderr[-2000:]}")
    return str(venv / "bin" / "skill-ls")


def skill_ls_cmd() -> list[str]:
    override = os.environ.get("SKILL_LS_CMD")
    if override:
        return override.split()
    return [INSTALLED] if INSTALLED else [sys.executable, "-m", "skill_ls"]


def detect_tools() -> dict:
    env = child_env(None, None)
    tools = {}
    base = skill_ls_cmd()
    rc, out = _out(base + ["check", "--help"], env=env, cwd=str(REPO))
    ver = None
    if rc == 0:
        rc2, out2 = _out(base + ["--version"], env=env, cwd=str(REPO))
        if rc2 == 0 and out2:
            ver = out2.splitlines()[-1]
        else:
            rc3, out3 = _out([sys.executable, "-c", "import skill_ls;print(getattr(skill_ls,'__version__','?'))"],
                             env=env)
            ver = out3 if rc3 == 0 else "?"
    tools["skill-ls"] = {"available": rc == 0, "version": ver,
                         "cmd": base + ["check", "DIR", "--no-user-roots", "--format", "json"],
                         "note": None if rc == 0 else ("`check --help` failed: " + out[-300:])}
    tools["skill-ls --jobs 1"] = {**tools["skill-ls"], "cmd": tools["skill-ls"]["cmd"] + ["--jobs", "1"],
                                  "note": "the same check in one process"}
    agnix = agnix_binary()
    tools["agnix"] = {"available": bool(agnix), "version": _out([agnix, "--version"])[1] if agnix else None,
                      "cmd": [agnix or "agnix", "DIR", "--format", "json", "--max-files", "0"]}
    rc, ver = _out([sys.executable, "-c", "import skills_ref;print(skills_ref.__version__)"])
    tools["skills-ref"] = {"available": rc == 0, "version": ver if rc == 0 else None,
                           "cmd": [sys.executable, str(BENCH / "skills_ref_all.py"), "DIR"],
                           "note": "skills_ref.validate() on every skill dir, one process"}
    cli = shutil.which("agentskills")
    tools["agentskills-cli"] = {"available": bool(cli), "version": _out([cli, "--version"])[1] if cli else None,
                                "cmd": ["agentskills", "validate", "SKILL_DIR"],
                                "note": "one process per skill; total extrapolated from a sample"}
    return tools


# --------------------------------------------------------------------------- running one child

def run_child(cmd: list[str], env: dict, cwd: str, tmp: Path, timeout: float = RUN_TIMEOUT) -> dict:
    """Run cmd once; return wall seconds, peak RSS (KiB), exit code and the stdout text."""
    out_path = tmp / "stdout.txt"
    err_path = tmp / "stderr.txt"
    rss_path = tmp / "rss.txt"
    use_time = os.access(TIME_BIN, os.X_OK)
    full = ([TIME_BIN, "-v", "-o", str(rss_path)] + cmd) if use_time else cmd
    with open(out_path, "wb") as fo, open(err_path, "wb") as fe:
        t0 = time.perf_counter()
        p = subprocess.Popen(full, stdout=fo, stderr=fe, stdin=subprocess.DEVNULL, env=env, cwd=cwd)
        timer = threading.Timer(timeout, p.kill)
        timer.start()
        try:
            _, status, ru = os.wait4(p.pid, 0)
        finally:
            timer.cancel()
        wall = time.perf_counter() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
    rc = p.returncode
    rss_kb = None
    if use_time:
        try:
            txt = rss_path.read_text(errors="replace")
            m = re.search(r"Maximum resident set size \(kbytes\):\s*(\d+)", txt)
            rss_kb = int(m.group(1)) if m else None
            m = re.search(r"Command exited with non-zero status (\d+)", txt)
            if m:
                rc = int(m.group(1))
            elif "Command terminated by signal" in txt:
                rc = -1
        except OSError:
            pass
    else:
        rss_kb = ru.ru_maxrss
    return {
        "wall": wall,
        "rss_kb": rss_kb,
        "rc": rc,
        "stdout": out_path.read_text(encoding="utf-8", errors="replace"),
        "stderr": err_path.read_text(encoding="utf-8", errors="replace")[-2000:],
    }


def summarize_output(tool: str, stdout: str) -> dict:
    try:
        data = json.loads(stdout)
    except ValueError:
        return {}
    if not isinstance(data, dict):
        return {}
    if tool.startswith("skill-ls"):
        return {"files_checked": data.get("files_checked"), "diagnostics": len(data.get("diagnostics") or []),
                "summary": data.get("summary")}
    if tool == "agnix":
        return {"files_checked": data.get("files_checked"), "diagnostics": len(data.get("diagnostics") or []),
                "summary": data.get("summary")}
    if tool == "skills-ref":
        return {"files_checked": data.get("skills"), "diagnostics": data.get("messages"),
                "summary": {"invalid": data.get("invalid")}}
    return {}


def agnix_binary() -> str | None:
    """agnix's own executable. The pip package puts it next to the interpreter; `shutil.which` may
    find a version manager's shim first (pyenv's is a shell script that execs the binary, ~0.06 s per
    run), which would slow agnix down in the comparison."""
    beside = Path(sys.executable).parent / "agnix"
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    found = shutil.which("agnix")
    if found:
        try:
            with open(found, "rb") as f:
                if f.read(2) == b"#!":  # a script wrapper: ask pyenv where the real one is
                    rc, out = _out(["pyenv", "which", "agnix"])
                    if rc == 0 and out.strip():
                        return out.strip().splitlines()[-1]
        except OSError:
            pass
    return found


def tool_cmd(tool: str, path: str) -> list[str]:
    if tool == "skill-ls":
        return skill_ls_cmd() + ["check", path, "--no-user-roots", "--format", "json"]
    if tool == "skill-ls --jobs 1":
        return skill_ls_cmd() + ["check", path, "--no-user-roots", "--format", "json", "--jobs", "1"]
    if tool == "agnix":
        return [agnix_binary() or "agnix", path, "--format", "json", "--max-files", "0"]
    if tool == "skills-ref":
        return [sys.executable, str(BENCH / "skills_ref_all.py"), path]
    raise ValueError(tool)


# --------------------------------------------------------------------------- datasets

def bench_dataset(ds: dict, tools: list[str], runs: int, warmup: bool, tmp: Path, log) -> list[dict]:
    env = child_env(ds["home"], ds.get("agh_home"))
    path, cwd = ds["path"], ds["path"]
    results = {t: {"dataset": ds["name"], "skills": ds["skills"], "tool": t, "walls": [], "rss_kb": [],
                   "exit_codes": [], "errors": []} for t in tools}
    if warmup:
        for t in tools:
            r = run_child(tool_cmd(t, path), env, cwd, tmp)
            results[t]["warmup_s"] = round(r["wall"], 4)
    for i in range(runs):
        for t in tools:  # interleaved, so drift hits every tool alike
            r = run_child(tool_cmd(t, path), env, cwd, tmp)
            res = results[t]
            res["walls"].append(r["wall"])
            res["rss_kb"].append(r["rss_kb"])
            res["exit_codes"].append(r["rc"])
            if i == 0:
                res.update(summarize_output(t, r["stdout"]))
                if r["rc"] not in (0, 1):
                    res["errors"].append(r["stderr"][-600:])
            log(f"  {ds['name']:>14} {t:<11} run {i + 1}/{runs}: {r['wall']:.3f} s, "
                f"{(r['rss_kb'] or 0) / 1024:.0f} MiB, exit {r['rc']}")
    out = []
    for t in tools:
        res = results[t]
        w = res.pop("walls")
        res["runs_s"] = [round(x, 4) for x in w]
        res["median_s"] = round(statistics.median(w), 4) if w else None
        res["min_s"] = round(min(w), 4) if w else None
        rss = [x for x in res.pop("rss_kb") if x]
        res["peak_rss_mb"] = round(max(rss) / 1024, 1) if rss else None
        res["ok"] = all(c in (0, 1) for c in res["exit_codes"])
        out.append(res)
    return out


def bench_cli_sample(ds: dict, sample: int, tmp: Path, log) -> dict | None:
    """`agentskills validate DIR` once per sampled skill dir; extrapolate to every skill dir."""
    exe = shutil.which("agentskills")
    if not exe or sample <= 0:
        return None
    sys.path.insert(0, str(BENCH))
    from skills_ref_all import skill_dirs
    dirs = list(skill_dirs(ds["path"]))
    if not dirs:
        return None
    step = max(1, len(dirs) // sample)
    picked = dirs[::step][:sample]
    env = child_env(ds["home"], ds.get("agh_home"))
    walls, rss = [], []
    for d in picked:
        r = run_child([exe, "validate", str(d)], env, ds["path"], tmp, timeout=120)
        walls.append(r["wall"])
        if r["rss_kb"]:
            rss.append(r["rss_kb"])
    per = statistics.median(walls)
    log(f"  {ds['name']:>14} agentskills validate: {per * 1000:.0f} ms/skill x {len(dirs)} skills")
    return {"dataset": ds["name"], "skills": ds["skills"], "tool": "agentskills-cli", "skill_dirs": len(dirs),
            "sampled": len(picked), "per_skill_median_s": round(per, 4),
            "estimated_total_s": round(per * len(dirs), 3),
            "peak_rss_mb": round(max(rss) / 1024, 1) if rss else None}


# --------------------------------------------------------------------------- analysis

def loglog_slope(points: list[tuple[float, float]]) -> float | None:
    pts = [(math.log(n), math.log(t)) for n, t in points if n > 0 and t and t > 0]
    if len(pts) < 2:
        return None
    mx = sum(x for x, _ in pts) / len(pts)
    my = sum(y for _, y in pts) / len(pts)
    den = sum((x - mx) ** 2 for x, _ in pts)
    if den == 0:
        return None
    return sum((x - mx) * (y - my) for x, y in pts) / den


def find(rows, dataset, tool):
    for r in rows:
        if r["dataset"] == dataset and r["tool"] == tool and r.get("ok", True):
            return r
    return None


def analyse(rows: list[dict], sizes: list[int], baseline_s: float | None) -> tuple[dict, dict, list]:
    ratios = {}
    for ds in dict.fromkeys(r["dataset"] for r in rows):
        s = find(rows, ds, "skill-ls")
        if not s or not s.get("median_s"):
            continue
        d = {}
        for other in ("agnix", "skills-ref"):
            o = find(rows, ds, other)
            if o and o.get("median_s"):
                d[f"skill-ls/{other} wall"] = round(s["median_s"] / o["median_s"], 3)
                if s.get("min_s") and o.get("min_s"):
                    d[f"skill-ls/{other} wall (min)"] = round(s["min_s"] / o["min_s"], 3)
                if s.get("peak_rss_mb") and o.get("peak_rss_mb"):
                    d[f"skill-ls/{other} rss"] = round(s["peak_rss_mb"] / o["peak_rss_mb"], 3)
        ratios[ds] = d

    pts, pts_agnix = [], []
    for n in sizes:
        s = find(rows, f"synthetic-{n}", "skill-ls")
        if s and s.get("median_s"):
            pts.append((n, s["median_s"]))
        a = find(rows, f"synthetic-{n}", "agnix")
        if a and a.get("median_s"):
            pts_agnix.append((n, a["median_s"]))
    in_range = [(n, t) for n, t in pts if 1000 <= n <= 10000] if any(n >= 1000 for n, _ in pts) else pts
    growth = {
        "sizes": [n for n, _ in pts],
        "skill_ls_median_s": [t for _, t in pts],
        "exponent": _r(loglog_slope(in_range if len(in_range) >= 2 else pts)),
        "exponent_endpoints": _r(loglog_slope([pts[0], pts[-1]]) if len(pts) >= 2 else None),
        "startup_s": baseline_s,
        "exponent_net_of_startup": _r(loglog_slope([(n, t - baseline_s) for n, t in
                                                     (in_range if len(in_range) >= 2 else pts)])
                                      if baseline_s is not None else None),
        "segment_exponents": {f"{a[0]}->{b[0]}": _r(loglog_slope([a, b])) for a, b in zip(pts, pts[1:])},
        "agnix_exponent": _r(loglog_slope(pts_agnix)),
        "fit": "least-squares slope of log(median wall) vs log(skills), 1,000..10,000 skills",
    }

    targets = []
    c = ratios.get("corpus", {}).get("skill-ls/agnix wall")
    targets.append({"name": "check on corpus <= 0.5x agnix wall time", "target": TARGET_CORPUS_RATIO,
                    "value": c, "pass": None if c is None else c <= TARGET_CORPUS_RATIO})
    e = growth["exponent"]
    targets.append({"name": "growth exponent 1k->10k <= 1.1", "target": TARGET_EXPONENT,
                    "value": e, "pass": None if e is None else e <= TARGET_EXPONENT})
    s10 = find(rows, "synthetic-10000", "skill-ls")
    v = s10["median_s"] if s10 else None
    targets.append({"name": "check on 10,000 skills < 1.5 s", "target": TARGET_10K_SECONDS,
                    "value": v, "pass": None if v is None else v < TARGET_10K_SECONDS})
    for ds in dict.fromkeys(r["dataset"] for r in rows):
        default, one = find(rows, ds, "skill-ls"), find(rows, ds, "skill-ls --jobs 1")
        if default and one and default.get("median_s") and one.get("median_s"):
            ratio = round(default["median_s"] / one["median_s"], 3)
            ratios.setdefault(ds, {})["skill-ls/--jobs 1 wall"] = ratio
            if "hog" in ds:
                targets.append({"name": f"{ds}: default <= --jobs 1 wall (x{TARGET_LOADED_RATIO}: noise)",
                                "target": TARGET_LOADED_RATIO, "value": ratio, "pass": ratio <= TARGET_LOADED_RATIO})
    return ratios, growth, targets


def _r(x, nd=3):
    return None if x is None else round(x, nd)


# --------------------------------------------------------------------------- markdown

def fmt(x, nd=3, unit=""):
    if x is None:
        return "—"
    if isinstance(x, float):
        return f"{x:.{nd}f}{unit}"
    return f"{x}{unit}"


def verdict(p):
    return "n/a" if p is None else ("PASS" if p else "FAIL")


def markdown(report: dict) -> str:
    m = report["machine"]
    L = [f"# skill-ls benchmark results", "",
         f"Run {report['started_at']} ({'quick' if report['config']['quick'] else 'full'}; "
         f"{report['config']['runs']} timed run(s) per tool, median reported"
         f"{'' if report['config']['quick'] else ', after one warm-up run'}).", "",
         f"Machine: {m['nproc']} CPU(s), {m['cpu_model']}, {m['mem_total_gb']} GB RAM; "
         f"Python {m['python']}; {m['platform']}. Peak RSS via {m['peak_rss_method']}. "
         f"Load average at start {m.get('loadavg_at_start')}, at end {m.get('loadavg_at_end')}.", "",
         f"Source: commit {report['source'].get('commit')}"
         f"{' with uncommitted changes under skill_ls/' if report['source'].get('skill_ls_dirty') else ''}.", "",
         "| tool | version | available |", "|---|---|---|"]
    for name, t in report["tools"].items():
        L.append(f"| {name} | {t.get('version') or '—'} | {'yes' if t['available'] else 'no'} |")
    L += ["", "## `check` wall time and memory", "",
          "| dataset | skills | tool | median s | min s | peak RSS MiB | files checked | diagnostics | exit |",
          "|---|---:|---|---:|---:|---:|---:|---:|---|"]
    for r in report["check"]:
        L.append(f"| {r['dataset']} | {r['skills']} | {r['tool']} | {fmt(r['median_s'])} | {fmt(r['min_s'])} | "
                 f"{fmt(r['peak_rss_mb'], 1)} | {fmt(r.get('files_checked'))} | {fmt(r.get('diagnostics'))} | "
                 f"{','.join(str(c) for c in sorted(set(r['exit_codes'])))} |")
    for r in report.get("agentskills_cli", []):
        L.append(f"| {r['dataset']} | {r['skills']} | agentskills validate ×{r['skill_dirs']} (est.) | "
                 f"{fmt(r['estimated_total_s'])} | — | {fmt(r['peak_rss_mb'], 1)} | {r['skill_dirs']} | — | "
                 f"{r['per_skill_median_s'] * 1000:.0f} ms/skill, {r['sampled']} sampled |")
    if report["ratios"]:
        L += ["", "## Ratios (skill-ls ÷ other; below 1 means skill-ls is faster / smaller)", "",
              "Wall ratios are median ÷ median (min ÷ min in brackets: less sensitive to background load).", "",
              "| dataset | skill-ls/agnix wall | skill-ls/agnix RSS | skill-ls/skills-ref wall | skill-ls/skills-ref RSS "
              "| default/--jobs 1 wall |",
              "|---|---:|---:|---:|---:|---:|"]
        for ds, d in report["ratios"].items():
            L.append(f"| {ds} | {fmt(d.get('skill-ls/agnix wall'))} ({fmt(d.get('skill-ls/agnix wall (min)'))}) | "
                     f"{fmt(d.get('skill-ls/agnix rss'))} | {fmt(d.get('skill-ls/skills-ref wall'))} "
                     f"({fmt(d.get('skill-ls/skills-ref wall (min)'))}) | {fmt(d.get('skill-ls/skills-ref rss'))} "
                     f"| {fmt(d.get('skill-ls/--jobs 1 wall'))} |")
    g = report["growth"]
    if g.get("sizes"):
        L += ["", "## Growth", "",
              f"skill-ls check median: " + ", ".join(f"{n:,} skills {t:.3f} s" for n, t in
                                                    zip(g["sizes"], g["skill_ls_median_s"])) + ".",
              f"Log-log slope (exponent) {fmt(g['exponent'])}; endpoints {fmt(g['exponent_endpoints'])}; "
              f"net of the {fmt(g['startup_s'])} s start-up (empty workspace) {fmt(g['exponent_net_of_startup'])}; "
              f"agnix {fmt(g['agnix_exponent'])}. Segment slopes: "
              + (", ".join(f"{k} {fmt(v)}" for k, v in g.get("segment_exponents", {}).items()) or "—") + "."]
    lsp = report.get("lsp")
    if lsp:
        L += ["", "## Language server latency", ""]
        if lsp.get("error") and not lsp.get("runs"):
            L.append(f"Not measured: {lsp['error']}")
        for run in lsp.get("runs", []):
            L += lsp_markdown(run)
    L += ["", "## Targets", "", "| target | value | result |", "|---|---:|---|"]
    for t in report["targets"]:
        L.append(f"| {t['name']} | {fmt(t['value'])} | {verdict(t['pass'])} |")
    L.append("")
    return "\n".join(L)


def lsp_markdown(run: dict) -> list[str]:
    L = [f"### {run['skills']:,} skills ({run.get('skill_files_under_workspace', '?')} under the workspace)", ""]
    if run.get("error"):
        L += [f"Error: {run['error']}", ""]
    def ms(d, k):
        v = (d or {}).get(k)
        return "—" if v is None else f"{v:.1f}"
    if any(run.get(k) for k in ("did_change", "hover", "definition")):
        L += ["| measure | n | p50 ms | p95 ms | p99 ms | max ms |", "|---|---:|---:|---:|---:|---:|"]
    for label, key in (("didChange → publishDiagnostics (same version)", "did_change"),
                       ("… in a Claude Code skill (listing over budget)", "did_change_claude"),
                       ("hover on `name:`", "hover"), ("definition on `name:`", "definition"),
                       ("same-name SKILL.md created in $AGH_HOME/skills → publish", "watch_agh_home"),
                       ("same-name SKILL.md created in ~/.claude/skills → publish", "watch_claude_home")):
        d = run.get(key)
        if d:
            L.append(f"| {label} | {d.get('n', '—')} | {ms(d, 'p50')} | {ms(d, 'p95')} | {ms(d, 'p99')} | "
                     f"{ms(d, 'max')} |")
            if key.startswith("watch") and d.get("delete"):
                dd = d["delete"]
                L.append(f"| … and deleted again → publish | {dd.get('n', '—')} | {ms(dd, 'p50')} | {ms(dd, 'p95')} "
                         f"| {ms(dd, 'p99')} | {ms(dd, 'max')} |")
    ini = run.get("initial")
    if not ini:
        return L
    L += ["", f"Start → initialize result {fmt(ini.get('initialize_s'))} s; initialized → first publishDiagnostics "
              f"{fmt(ini.get('first_publish_s'))} s; → index settled {fmt(ini.get('settled_s'))} s "
              f"({ini.get('publishes', '—')} publishes, {ini.get('files_with_diagnostics', '—')} files). "
              f"Idle RSS after index {fmt(run.get('idle_rss_mb'), 1)} MiB; at the end {fmt(run.get('final_rss_mb'), 1)} MiB. "
              f"Missed/timed-out edits: {(run.get('did_change') or {}).get('timeouts', '—')}. "
              f"Server CPU time (user + system, unaffected by other jobs): {fmt(ini.get('server_cpu_s'))} s "
              f"to settle, {fmt((run.get('did_change') or {}).get('server_cpu_ms_per_edit'), 2)} ms per edit "
              f"({fmt((run.get('did_change_claude') or {}).get('server_cpu_ms_per_edit'), 2)} ms in the Claude Code skill). "
              f"Load average {fmt(run.get('load_start'), 2)} → {fmt(run.get('load_end'), 2)}.", ""]
    return L


# --------------------------------------------------------------------------- main

def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="skill-ls check benchmark (see bench/README.md)")
    ap.add_argument("--quick", action="store_true", help="1 run, small trees, no warm-up, no LSP")
    ap.add_argument("--json", type=Path, help="write the raw report here (default bench/results.json unless --quick)")
    ap.add_argument("--markdown", type=Path, help="write the markdown here (default bench/results.md unless --quick)")
    ap.add_argument("--sizes", help="synthetic tree sizes, comma-separated ('' for none); default 1000,3000,10000")
    ap.add_argument("--runs", type=int, help="timed runs per tool and dataset (default 5; --quick 1)")
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--tree", action="append", default=[], type=Path,
                    help="also benchmark an existing bench/generate.py tree (its dir or manifest.json)")
    ap.add_argument("--no-corpus", action="store_true", help="skip the shared corpus")
    ap.add_argument("--corpus", type=Path, default=CORPUS)
    ap.add_argument("--install", choices=("venv", "source"), default="venv",
                    help="skill-ls as a user installs it (`pip install .` into a fresh venv, the default) "
                         "or `python -m skill_ls` from this source tree")
    ap.add_argument("--tools", default="skill-ls,skill-ls --jobs 1,agnix,skills-ref",
                    help="subset of skill-ls,skill-ls --jobs 1,agnix,skills-ref")
    ap.add_argument("--agnix-max", type=int, metavar="N",
                    help="run agnix only on datasets of at most N skills (it takes minutes on a loaded machine)")
    ap.add_argument("--hog", type=int, help="CPU-burning processes for the loaded rows (default 1; --quick 0)")
    ap.add_argument("--cli-sample", type=int, help="agentskills validate processes to sample per dataset (0=off)")
    ap.add_argument("--lsp", dest="lsp", action="store_true", default=None, help="run bench/lsp_latency.py")
    ap.add_argument("--no-lsp", dest="lsp", action="store_false")
    ap.add_argument("--lsp-sizes", default="3000,10000")
    ap.add_argument("--lsp-edits", type=int, default=250)
    ap.add_argument("--keep", type=Path, help="generate synthetic trees here and keep them")
    a = ap.parse_args(argv)

    quick = a.quick
    runs = a.runs or (1 if quick else 5)
    if a.sizes is None:
        sizes = [300, 1000] if quick else [1000, 3000, 10000]
    else:
        sizes = [int(x) for x in a.sizes.split(",") if x.strip()]
    json_out = a.json or (None if quick else BENCH / "results.json")
    md_out = a.markdown or (None if quick else BENCH / "results.md")
    cli_sample = a.cli_sample if a.cli_sample is not None else (3 if quick else 25)
    run_lsp = a.lsp if a.lsp is not None else not quick
    hogs = a.hog if a.hog is not None else (0 if quick else 1)
    log = lambda s: print(s, file=sys.stderr, flush=True)  # noqa: E731

    global INSTALLED
    venv_dir = None
    if a.install == "venv" and not os.environ.get("SKILL_LS_CMD"):
        venv_dir = Path(tempfile.mkdtemp(prefix="skill-ls-bench-venv-"))
        INSTALLED = install_venv(venv_dir, log)
    report = {"schema": 1, "started_at": dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
              "config": {"quick": quick, "runs": runs, "sizes": sizes, "seed": a.seed,
                         "warmup": not quick, "corpus": None if a.no_corpus else str(a.corpus),
                         "install": "venv" if INSTALLED else ("SKILL_LS_CMD" if os.environ.get("SKILL_LS_CMD") else "source"),
                         "hogs": hogs},
              "machine": machine_info(), "tools": detect_tools(), "source": git_info(), "datasets": [], "check": [],
              "agentskills_cli": [], "ratios": {}, "growth": {}, "targets": [], "lsp": None}
    wanted = [t for t in a.tools.split(",") if t]
    tools = [t for t in wanted if report["tools"].get(t, {}).get("available")]
    missing = [t for t in wanted if t not in tools]
    if missing:
        log(f"not available, skipped: {', '.join(missing)}")
    report["config"]["tools"] = tools

    work = Path(tempfile.mkdtemp(prefix="skill-ls-bench-"))
    try:
        tmp = work / "io"
        tmp.mkdir()
        empty_home = work / "empty-home"
        empty_home.mkdir()
        datasets = []
        if not a.no_corpus and not a.corpus.is_dir():
            log(f"corpus {a.corpus} not found: skipped")
        elif not a.no_corpus:
            n = sum(1 for _ in _skill_files(a.corpus))
            datasets.append({"name": "corpus", "path": str(a.corpus), "skills": n, "home": str(empty_home),
                             "agh_home": None})
        for t in a.tree:
            mpath = t if t.name == "manifest.json" else t / "manifest.json"
            m = json.loads(mpath.read_text())
            datasets.append({"name": f"tree-{m['skills']}", "path": m["workspace"], "skills": m["skills"],
                             "home": m["home"], "agh_home": m["agh_home"], "manifest": str(mpath)})
        gen_root = a.keep or (work / "trees")
        for n in sizes:
            out = gen_root / f"synthetic-{n}"
            if (out / "manifest.json").exists():
                m = json.loads((out / "manifest.json").read_text())
            else:
                t0 = time.perf_counter()
                m = generate.generate(out, n, a.seed, a.corpus, quiet=True)
                log(f"generated {n} skills in {time.perf_counter() - t0:.1f} s -> {out}")
            datasets.append({"name": f"synthetic-{n}", "path": m["workspace"], "skills": n,
                             "home": m["home"], "agh_home": m["agh_home"],
                             "files_under_workspace": m["counts"]["skill_files_under_workspace"]})
        report["datasets"] = [{k: v for k, v in d.items()} for d in datasets]

        baseline = None
        if "skill-ls" in tools:
            ew = work / "empty-ws"
            ew.mkdir()
            b = bench_dataset({"name": "empty", "path": str(ew), "skills": 0, "home": str(empty_home)},
                              ["skill-ls"], max(runs, 3), not quick, tmp, log)
            baseline = b[0]["median_s"]
            report["startup"] = b[0]
        for ds in datasets:
            log(f"dataset {ds['name']} ({ds['skills']} skills) at {ds['path']}")
            these = [t for t in tools if t != "agnix" or a.agnix_max is None or ds["skills"] <= a.agnix_max]
            report["check"] += bench_dataset(ds, these, runs, not quick, tmp, log)
            if "skills-ref" in wanted:
                r = bench_cli_sample(ds, cli_sample, tmp, log)
                if r:
                    report["agentskills_cli"].append(r)
        loaded_tools = [t for t in tools if t.startswith("skill-ls")]
        if hogs and loaded_tools:
            with cpu_hogs(hogs, log) as load:
                report["machine"]["loadavg_loaded"] = load
                for ds in datasets:
                    name = f"{ds['name']} +{hogs} hog"
                    log(f"dataset {name}")
                    report["check"] += bench_dataset({**ds, "name": name}, loaded_tools, runs, not quick, tmp, log)

        if run_lsp:
            report["lsp"] = run_lsp_bench(a, report, work, log)

        report["ratios"], report["growth"], report["targets"] = analyse(report["check"], sizes, baseline)
        if report["lsp"] and report["lsp"].get("runs"):
            r3 = next((r for r in report["lsp"]["runs"] if r["skills"] == 3000), report["lsp"]["runs"][0])
            p95 = (r3.get("did_change") or {}).get("p95")
            report["targets"].append({"name": f"LSP didChange→diagnostics p95 < 15 ms ({r3['skills']:,} skills)",
                                      "target": TARGET_LSP_P95_MS, "value": p95,
                                      "pass": None if p95 is None else p95 < TARGET_LSP_P95_MS})
        report["finished_at"] = dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
        report["machine"]["loadavg_at_end"] = [round(x, 2) for x in os.getloadavg()]
        md = markdown(report)
        print(md)
        if json_out:
            json_out.parent.mkdir(parents=True, exist_ok=True)
            json_out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
        if md_out:
            md_out.parent.mkdir(parents=True, exist_ok=True)
            md_out.write_text(md, encoding="utf-8")
    finally:
        shutil.rmtree(work, ignore_errors=True)
        if venv_dir is not None:
            shutil.rmtree(venv_dir, ignore_errors=True)
    return 0


class cpu_hogs:
    """`n` processes that each burn a CPU, started and given up to 90 s to show in the 1-minute load
    average (what skill-ls reads to choose its processes), stopped on exit. The value of the `with`
    is the load average once they run."""

    def __init__(self, n: int, log):
        self.n, self.log, self.procs = n, log, []

    def __enter__(self) -> list[float]:
        self.procs = [subprocess.Popen([sys.executable, "-c", "while True: pass"], stdin=subprocess.DEVNULL)
                      for _ in range(self.n)]
        start, deadline = os.getloadavg()[0], time.monotonic() + 90
        while os.getloadavg()[0] < start + 0.8 * self.n and time.monotonic() < deadline:
            time.sleep(1)
        load = [round(x, 2) for x in os.getloadavg()]
        self.log(f"{self.n} CPU hog(s) running; load average {load}")
        return load

    def __exit__(self, *exc) -> None:
        for p in self.procs:
            p.kill()
            p.wait()


def _skill_files(top: Path):
    for root, dirs, files in os.walk(top):
        dirs[:] = [d for d in dirs if d not in (".git", "node_modules")]
        if "SKILL.md" in files:
            yield Path(root) / "SKILL.md"


def run_lsp_bench(a, report, work: Path, log) -> dict:
    """Run bench/lsp_latency.py in a child process (so a stuck server can never hang this run)."""
    out = work / "lsp.json"
    cmd = [sys.executable, str(BENCH / "lsp_latency.py"), "--sizes", a.lsp_sizes, "--edits", str(a.lsp_edits),
           "--json", str(out), "--seed", str(a.seed), "--corpus", str(a.corpus)]
    log("LSP latency: " + " ".join(cmd))
    try:
        p = subprocess.run(cmd, timeout=3600, env=child_env(None, None), stdout=sys.stderr)
    except subprocess.TimeoutExpired:
        return {"error": "lsp_latency.py timed out after 3600 s", "runs": []}
    if out.exists():
        return json.loads(out.read_text())
    return {"error": f"lsp_latency.py exited {p.returncode} without a report", "runs": []}


if __name__ == "__main__":
    sys.exit(main())
