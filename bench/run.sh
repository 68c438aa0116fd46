#!/usr/bin/env bash
# The benchmark suite of issue 9: Go benchmarks of every solver, then clusterperf against GNU
# Octave's queueing package on the same networks (Octave is installed here if missing; it is a
# benchmark dependency, never a test dependency). Results go to bench/results-DATE.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v octave-cli >/dev/null || ! octave-cli --eval 'pkg load queueing' >/dev/null 2>&1; then
  apt-get update && apt-get install -y --no-install-recommends octave octave-queueing
fi
out="bench/results-$(date +%F).txt"
go test ./qn ./spmd ./mpip ./pipeline -run '^$' -bench . -benchmem -benchtime=3x | tee "bench/go-bench-$(date +%F).txt"
go run ./bench/qnbench -out "$out" "$@"
# The class-oriented Method of Moments on the same networks (issue 20): times and agreement.
go run ./bench/qnbench -quick -solver comom -out "${out%.txt}-comom.txt" || true
echo "results written to $out"
