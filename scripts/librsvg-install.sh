#!/usr/bin/env bash
# Install librsvg's command-line renderer (Debian package `librsvg2-bin`: rsvg-convert) for the
# tests that render the project's SVG plots the way desktop viewers do (report's
# TestHeatMapRsvg: a PNG inside an SVG must be labelled image/png, or librsvg draws nothing).
# Idempotent: does nothing when rsvg-convert is already on PATH. Needs root (CI and the
# project's machines run as root); see /work/shared/docs/real-components.md.
set -euo pipefail
if command -v rsvg-convert >/dev/null 2>&1; then
  echo "rsvg-convert already installed: $(command -v rsvg-convert)"
  exit 0
fi
start=$(date +%s)
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends librsvg2-bin fonts-dejavu-core >/dev/null
echo "librsvg installed in $(( $(date +%s) - start )) s: $(rsvg-convert --version)"
# Smoke check: a 10 × 10 red square renders to a PNG.
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
printf '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="red"/></svg>' |
  rsvg-convert -f png -o "$tmp"
[ "$(head -c 4 "$tmp" | tail -c 3)" = PNG ]
