#!/usr/bin/env bash
# Install headless Chromium (Debian package `chromium`) for the browser tests of htmlreport and
# explore. Idempotent: does nothing when a chromium binary is already on PATH. Needs root (CI and
# the project's machines run as root); see /work/shared/docs/real-components.md.
set -euo pipefail
if command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1; then
  echo "chromium already installed: $(command -v chromium || command -v chromium-browser)"
  exit 0
fi
start=$(date +%s)
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
echo "chromium installed in $(( $(date +%s) - start )) s: $(chromium --version)"
# Smoke check: headless as root needs --no-sandbox.
chromium --headless --no-sandbox --disable-gpu --dump-dom 'data:text/html,<p>ok</p>' 2>/dev/null | grep -q '<p>ok</p>'
