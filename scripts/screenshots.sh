#!/usr/bin/env bash
# Regenerate the plots README.md shows, in docs/screenshots/, from the repository's examples:
#   sweep-web-tier.png  solve examples/qn/web-tier.yaml --sweep population=1:60 (bounds, N*)
#   fit-openfoam.png    fit examples/scaling/openfoam_motorbike_arc.csv --predict 96,192
#   mpip-amg.png        mpip of the three AMG2013 profiles, --predict 128 (the forecast ringed)
# Run from anywhere: scripts/screenshots.sh. The explorer's screenshots (explore-*.png) come
# from the browser tests (headless Chromium), not from here.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
go build -o "$bin/clusterperf" ./cmd/clusterperf
cp=$bin/clusterperf
out=docs/screenshots
"$cp" solve examples/qn/web-tier.yaml --sweep population=1:60 --plot "$out/sweep-web-tier.png" >/dev/null
"$cp" fit examples/scaling/openfoam_motorbike_arc.csv --predict 96,192 --plot "$out/fit-openfoam.png" >/dev/null
"$cp" mpip mpip/testdata/samples/mpiP_cm__amg2013.*.mpiP --latency 5us --bandwidth 1GB/s --predict 128 \
  --plot "$out/mpip-amg.png" >/dev/null
echo "wrote $out/sweep-web-tier.png $out/fit-openfoam.png $out/mpip-amg.png"
