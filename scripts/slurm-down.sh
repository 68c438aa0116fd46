#!/usr/bin/env bash
# slurm-down.sh: stop the daemons slurm-up.sh started (slurmd, slurmctld, slurmdbd, mariadbd,
# munged, in that order), by the process ids it recorded in $SLURM_UP_STATE. Leaves packages,
# key, config and the accounting database in place.
set -uo pipefail
state=${SLURM_UP_STATE:-/var/run/clusterperf-slurm}
for d in slurmd slurmctld slurmdbd mariadbd munged; do
  f="$state/$d.pid"
  [ -s "$f" ] || continue
  pid=$(cat "$f")
  if kill -0 "$pid" 2>/dev/null; then
    kill "$pid"
    for _ in $(seq 1 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$pid" 2>/dev/null; then kill -9 "$pid" 2>/dev/null || true; fi
    echo "slurm-down: stopped $d (pid $pid)" >&2
  fi
  rm -f "$f"
done
