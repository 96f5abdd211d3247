#!/usr/bin/env bash
# Every install command the project prints, run for real on a fresh environment (part of .ci/run):
# a wheel and an sdist are built, the wheel is installed into a fresh venv and run, and the checkout
# is installed with `pipx install .` and `uv tool install .` (README.md "Install"; tests/test_install.py
# checks that the README prints exactly these). Everything lands in a temporary directory.
set -euo pipefail
cd "$(dirname "$0")/.."
out="$(mktemp -d)"; trap 'rm -rf "$out"' EXIT
py="${PYTHON:-python3}"

echo "packaging: wheel and sdist"
"$py" -m pip install --quiet --disable-pip-version-check build pipx uv
"$py" -m build --sdist --wheel --outdir "$out/dist" . >"$out/build.log" 2>&1 || { cat "$out/build.log"; exit 1; }
ls "$out/dist"/skill_ls-*.whl "$out/dist"/skill_ls-*.tar.gz >/dev/null

run_installed() {  # $1: a bin directory holding skill-ls and skill-language-server
  "$1/skill-ls" --version
  test -x "$1/skill-language-server"
  local rc=0
  "$1/skill-ls" check examples/demo --format json >"$out/check.json" || rc=$?
  [ "$rc" -le 1 ] || { echo "packaging: skill-ls check exited $rc" >&2; exit 1; }
  "$py" -c 'import json,sys; d=json.load(open(sys.argv[1]))["diagnostics"]; assert d, "no findings on the demo"' "$out/check.json"
}

echo "packaging: the wheel in a fresh venv"
"$py" -m venv "$out/venv"
"$out/venv/bin/python" -m pip install --quiet --disable-pip-version-check "$out"/dist/skill_ls-*.whl
(cd "$out" && "$out/venv/bin/python" -c 'import skill_ls, os; assert "site-packages" in skill_ls.__file__, skill_ls.__file__')
run_installed "$out/venv/bin"

echo "packaging: the sdist in a fresh venv"
"$py" -m venv "$out/venv-sdist"
"$out/venv-sdist/bin/python" -m pip install --quiet --disable-pip-version-check "$out"/dist/skill_ls-*.tar.gz
run_installed "$out/venv-sdist/bin"

echo "packaging: pipx install . (from the checkout)"
PIPX_HOME="$out/pipx" PIPX_BIN_DIR="$out/pipx-bin" PIPX_MAN_DIR="$out/pipx-man" "$py" -m pipx install --quiet . >/dev/null
run_installed "$out/pipx-bin"

echo "packaging: uv tool install . (from the checkout)"
UV_TOOL_DIR="$out/uv-tools" UV_TOOL_BIN_DIR="$out/uv-bin" UV_CACHE_DIR="$out/uv-cache" "$py" -m uv tool install --quiet . >/dev/null
run_installed "$out/uv-bin"
echo "packaging: OK"
