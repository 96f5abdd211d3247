#!/usr/bin/env bash
# Refreshes the README's VS Code pictures (docs/img/vscode-*.png, and editors/vscode/media/ for the .vsix) from a real run of the end-to-end
# tests: the built .vsix in code-server, driven through Chromium (tests/editors/test_vscode.py).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../../.."
bash editors/vscode/e2e/install.sh
shots="$(mktemp -d)"; trap 'rm -rf "$shots"' EXIT
SKILL_LS_SCREENSHOTS="$shots" PYTHONPATH="$PWD" python3 -m pytest -q -p no:cacheprovider tests/editors/test_vscode.py
mkdir -p docs/img editors/vscode/media
for name in problems hover codelens quickfix catalog disk-change; do
  if [ -f "$shots/$name.png" ]; then
    cp "$shots/$name.png" "docs/img/vscode-$name.png"
    cp "$shots/$name.png" "editors/vscode/media/vscode-$name.png"  # the extension's README and walkthrough, packaged
  else
    echo "screenshots.sh: no $name.png (that flow failed; see the test output)" >&2
  fi
done
ls -l docs/img/vscode-*.png
