#!/usr/bin/env bash
# Installs what the real VS Code end-to-end tests (tests/editors/test_vscode.py) need on Debian:
# Chromium, ripgrep and code-server's native build dependencies from apt, then code-server 4.100.3
# (the last line that runs on Node 20) and playwright-core from this directory's package-lock.json.
# Idempotent; nothing is cached outside the repository except the ripgrep download cache below.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

need_apt=()
for pkg in build-essential pkg-config libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev ripgrep chromium fonts-dejavu-core; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || need_apt+=("$pkg")
done
if [ "${#need_apt[@]}" -gt 0 ]; then
  echo "install.sh: apt-get install ${need_apt[*]}"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
fi

lock_sum="$(sha256sum package-lock.json | cut -d' ' -f1)"
if [ -f node_modules/code-server/out/node/entry.js ] && [ -d node_modules/playwright-core ] \
   && [ "$(cat node_modules/.skill-ls-lock.sha256 2>/dev/null)" = "$lock_sum" ]; then
  echo "install.sh: code-server and playwright-core already installed"
  exit 0
fi

# code-server's @vscode/ripgrep postinstall downloads rg from GitHub (unreachable from CI): seed its
# download cache with Debian's rg, under the name and version it asks for.
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
cp "$(command -v rg)" "$tmp/rg"
cache="${TMPDIR:-/tmp}/vscode-ripgrep-cache-1.15.11"
mkdir -p "$cache"
tar -czf "$cache/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz" -C "$tmp" rg

echo "install.sh: npm ci (code-server, playwright-core)"
# code-server's postinstall refuses to run as root unless npm_config_unsafe_perm is set.
npm_config_yes=true npm_config_unsafe_perm=true npm ci --no-audit --no-fund --loglevel=error
test -f node_modules/code-server/out/node/entry.js || { echo "install.sh: code-server did not install" >&2; exit 1; }
test -e node_modules/code-server/lib/vscode/node_modules.asar || { echo "install.sh: code-server's postinstall did not run" >&2; exit 1; }
echo "$lock_sum" > node_modules/.skill-ls-lock.sha256
echo "install.sh: OK ($(node -e 'console.log(require("code-server/package.json").version)') on node $(node --version))"
