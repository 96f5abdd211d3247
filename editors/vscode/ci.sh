#!/usr/bin/env bash
# Build, test and package the VS Code extension offline (npm registry only), from this directory.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

npm ci
npm run typecheck
npm run build
npm test
rm -f skill-ls.vsix
npm run package

test -s skill-ls.vsix || { echo "ci.sh: skill-ls.vsix was not produced" >&2; exit 1; }
listing="$(unzip -l skill-ls.vsix)"
for entry in extension/dist/extension.js extension/package.json; do
  if ! grep -q " ${entry}\$" <<<"$listing"; then
    echo "ci.sh: ${entry} missing from skill-ls.vsix" >&2
    echo "$listing" >&2
    exit 1
  fi
done
echo "ci.sh: OK ($(wc -c <skill-ls.vsix) bytes)"
