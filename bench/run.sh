#!/usr/bin/env bash
# The benchmark suite of issue 9: Go benchmarks of every solver, then clusterperf against GNU
# Octave's queueing package on the same networks (Octave is installed here if missing; it is a
# benchmark dependency, never a test dependency). Results go to bench/results-DATE.txt.
# Every pass runs even when an earlier one missed (a failed benchmark, a ratio below its
# target, a disagreement with Octave); the passes that missed are listed at the end and the
# script then exits with status 1.
set -uo pipefail
cd "$(dirname "$0")/.."
if ! command -v octave-cli >/dev/null || ! octave-cli --eval 'pkg load queueing' >/dev/null 2>&1; then
  apt-get update && apt-get install -y --no-install-recommends octave octave-queueing || exit 1
fi
out="bench/results-$(date +%F).txt"
missed=()
# pass NAME COMMAND...: runs one pass and records it in missed when it exits non-zero.
pass() {
  local name=$1
  shift
  "$@" || missed+=("$name (exit status $?)")
}
gobench() {
  go test ./qn ./spmd ./mpip ./pipeline -run '^$' -bench . -benchmem -benchtime=3x | tee "bench/go-bench-$(date +%F).txt"
}
pass "Go benchmarks" gobench
pass "clusterperf mva vs Octave" go run ./bench/qnbench -out "$out" "$@"
# The class-oriented Method of Moments on the same networks (issue 20): times and agreement
# (no ratio targets: those are exact MVA's).
pass "clusterperf comom vs Octave" go run ./bench/qnbench -quick -solver comom -out "${out%.txt}-comom.txt"
echo "results written to $out"
if ((${#missed[@]} > 0)); then
  echo "missed: ${#missed[@]} pass(es):" >&2
  printf '  %s\n' "${missed[@]}" >&2
  exit 1
fi
echo "all passes ok"
