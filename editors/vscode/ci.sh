#!/usr/bin/env bash
# Build, test and package the VS Code extension offline (npm registry only), from this directory.
# Needs Node.js >= 18 with npm (code-server in e2e/ needs 20) and python3 >= 3.10 with pip (the server and
# its libraries go into the .vsix: scripts/bundle_server.py); nothing else (the .vsix is read with node).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

missing=()
for tool in node npm python3; do
  command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "ci.sh: ${missing[*]} not found: install Node.js 20 with npm (https://nodejs.org/en/download, or e.g. apt-get install nodejs npm) and Python 3.10+ (python3)" >&2
  exit 1
fi
node_major="$(node -p 'process.versions.node.split(".")[0]')"
if [ "$node_major" -lt 18 ]; then
  echo "ci.sh: node $(node --version) is too old: install Node.js 20 (https://nodejs.org/en/download)" >&2
  exit 1
fi

npm ci
npm run typecheck
npm run build
npm test
rm -f skill-ls.vsix
npm run package

test -s skill-ls.vsix || { echo "ci.sh: skill-ls.vsix was not produced" >&2; exit 1; }
# The .vsix is a zip: list its entries from the central directory (no unzip needed).
listing="$(node - skill-ls.vsix <<'JS'
const buf = require('fs').readFileSync(process.argv[2]);
let end = buf.length - 22; // the end-of-central-directory record, before a comment of up to 64 KiB
while (end >= 0 && buf.readUInt32LE(end) !== 0x06054b50) end--;
if (end < 0) { console.error('ci.sh: skill-ls.vsix is not a zip file'); process.exit(1); }
let at = buf.readUInt32LE(end + 16);
for (let n = buf.readUInt16LE(end + 10); n > 0; n--) {
  if (buf.readUInt32LE(at) !== 0x02014b50) { console.error('ci.sh: skill-ls.vsix has a broken central directory'); process.exit(1); }
  const nameLen = buf.readUInt16LE(at + 28);
  console.log(buf.toString('utf8', at + 46, at + 46 + nameLen));
  at += 46 + nameLen + buf.readUInt16LE(at + 30) + buf.readUInt16LE(at + 32);
}
JS
)"
for entry in extension/dist/extension.js extension/package.json extension/bundled/tool/skill_ls_bundled.py \
    extension/bundled/libs/skill_ls/__init__.py extension/bundled/libs/pygls/__init__.py extension/bundled/libs/yaml/__init__.py \
    extension/media/icon.png extension/media/vscode-problems.png extension/readme.md; do
  if ! grep -qx "${entry}" <<<"$listing"; then
    echo "ci.sh: ${entry} missing from skill-ls.vsix" >&2
    echo "$listing" >&2
    exit 1
  fi
done
echo "ci.sh: OK ($(wc -c <skill-ls.vsix) bytes, $(wc -l <<<"$listing") entries)"
