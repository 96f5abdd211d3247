#!/usr/bin/env python3
"""Puts the skill-ls language server inside the VS Code extension: bundled/libs holds a copy of the
repository's `skill_ls` package and its dependencies (bundled/requirements*.txt), so the .vsix runs
the server with any Python >= 3.10 and nothing installed (bundled/tool/skill_ls_bundled.py).

    python3 scripts/bundle_server.py          # from editors/vscode; `npm run package` runs it

Needs pip and the PyPI registry (or pip's cache). Writes bundled/libs/skill-ls-bundle.json with what
it holds.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent  # editors/vscode
REPO = HERE.parent.parent
LIBS = HERE / "bundled" / "libs"
IGNORE = shutil.ignore_patterns("__pycache__", "*.pyc")


def pip(*args: str) -> None:
    cmd = [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-compile",
           "--no-deps", "--target", str(LIBS), *args]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"bundle_server.py: {' '.join(cmd)} failed:\n{proc.stdout}{proc.stderr}")


def main() -> int:
    if sys.version_info < (3, 10):
        sys.exit("bundle_server.py: needs Python 3.10 or newer")
    shutil.rmtree(LIBS, ignore_errors=True)
    LIBS.mkdir(parents=True)
    pip("--only-binary=:all:", "--implementation", "py", "--python-version", "3.10", "--platform", "any",
        "-r", str(HERE / "bundled" / "requirements.txt"))
    pip("--only-binary=:all:", "-r", str(HERE / "bundled" / "requirements-native.txt"))
    shutil.copytree(REPO / "skill_ls", LIBS / "skill_ls", ignore=IGNORE)
    for junk in LIBS.glob("*.dist-info"):  # metadata the server never reads; licences stay in the wheels' text
        for f in junk.iterdir():
            if f.name not in ("METADATA", "LICENSE", "LICENSE.txt", "licenses"):
                shutil.rmtree(f) if f.is_dir() else f.unlink()
    shutil.rmtree(LIBS / "bin", ignore_errors=True)  # console scripts of the wheels: unused
    for cache in LIBS.rglob("__pycache__"):
        shutil.rmtree(cache, ignore_errors=True)
    version = next(line.split("=", 1)[1].strip().strip('"') for line in (REPO / "pyproject.toml").read_text().splitlines()
                   if line.startswith("version"))
    holds = sorted(p.name for p in LIBS.iterdir())
    (LIBS / "skill-ls-bundle.json").write_text(json.dumps(
        {"skill_ls": version, "built_with": f"{sys.implementation.name} {sys.version_info[0]}.{sys.version_info[1]}",
         "contents": holds}, indent=1) + "\n")
    size = sum(f.stat().st_size for f in LIBS.rglob("*") if f.is_file())
    print(f"bundle_server.py: {LIBS.relative_to(HERE)} holds skill-ls {version} and {len(holds)} entries ({size // 1024} KiB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
