#!/usr/bin/env python3
"""Generates sacct-two-programs.txt: a synthetic `sacct --parsable2` output (Slurm 22.05
columns and formats as in shared/docs/slurm-accounting.md) of two programs with known
run-time laws, for the golden test of `clusterperf history`.

  lulesh -s 30 (alice): T(p) = 20 + 2400/p s     (Amdahl), p = 1 … 64, 16 tasks per node
  lulesh -s 45 (alice): 3.2 × that, at p = 8, 16 (another input: a separate study)
  cg class=C (bob):     T(p) = 5 + 3000/p + 0.5·p s, p = 8 … 256, 8 tasks per node
each with relative Gaussian noise of SD 3 % (seed 31). A job whose true time exceeds its
limit is TIMEOUT with Elapsed = limit + 15…45 s (the kill delay); some jobs are given
OUT_OF_MEMORY, CANCELLED, FAILED or NODE_FAIL. Queue waits are uniform 0 … 900 s.
Run: python3 gen-sacct-two-programs.py (writes sacct-two-programs.txt)."""
import random, datetime
random.seed(31)
hdr = "JobID|JobName|User|Partition|NNodes|NTasks|NCPUS|Submit|Start|End|Elapsed|Timelimit|State|ExitCode|SubmitLine|WorkDir"
lines = [hdr]
t0 = datetime.datetime(2026, 11, 2, 9, 0, 0)
jid = [1000]


def fmt(s):
    s = int(round(s)); d, s = divmod(s, 86400); h, s = divmod(s, 3600); m, s = divmod(s, 60)
    return (f"{d}-" if d else "") + f"{h:02d}:{m:02d}:{s:02d}"


def job(name, user, part, nodes, ntasks, submitline, wd, true_t, limit, state=None, steps=True):
    global t0
    jid[0] += 1; j = jid[0]
    t0 += datetime.timedelta(minutes=random.randint(20, 200))
    sub = t0; wait = random.randint(0, 900); st = sub + datetime.timedelta(seconds=wait)
    if state is None:
        state = "COMPLETED" if true_t <= limit else "TIMEOUT"
    cap = int(min(true_t, limit))
    if state == "TIMEOUT": el = limit + random.randint(15, 45)
    elif state == "COMPLETED": el = true_t
    elif state.startswith("CANCELLED"): el = random.randint(1, max(2, cap - 1))
    elif state == "FAILED": el = random.randint(1, 60)
    elif state == "OUT_OF_MEMORY": el = random.randint(5, 100)
    else: el = random.randint(1, max(2, cap))  # NODE_FAIL
    en = st + datetime.timedelta(seconds=round(el))
    ex = {"FAILED": "1:0", "OUT_OF_MEMORY": "0:125"}.get(state, "0:0")
    lines.append("|".join(map(str, [j, name, user, part, nodes, "", ntasks, sub.isoformat(), st.isoformat(), en.isoformat(), fmt(el), fmt(limit), state, ex, submitline, wd])))
    if steps:
        bst = "CANCELLED" if state in ("TIMEOUT",) or state.startswith("CANCELLED") else state
        lines.append("|".join(map(str, [f"{j}.batch", "batch", "", part, 1, 1, ntasks, sub.isoformat(), st.isoformat(), en.isoformat(), fmt(el), "", bst, ex, "", ""])))
        lines.append("|".join(map(str, [f"{j}.0", "lulesh2.0", "", part, nodes, ntasks, ntasks, st.isoformat(), st.isoformat(), en.isoformat(), fmt(el), "", bst, ex, "", ""])))


def TA(p): return (20 + 2400 / p) * (1 + random.gauss(0, 0.03))


A = [(1, 1800, None), (1, 3600, "OUT_OF_MEMORY"), (2, 1200, None), (2, 1500, None), (4, 1200, None), (4, 1200, None),
     (8, 900, None), (8, 900, "CANCELLED by 1001"), (8, 900, None), (16, 600, None), (16, 600, "FAILED"), (16, 600, None),
     (32, 600, None), (32, 600, None), (64, 300, None), (64, 300, "NODE_FAIL"), (64, 300, None)]
for p, lim, stt in A:
    job("lulesh", "alice", "compute", (p + 15) // 16, p, f"sbatch --ntasks={p} --time={fmt(lim)} -J lulesh --wrap srun ./lulesh2.0 -s 30 -i 100", "/home/alice/lulesh", TA(p), lim, stt)
for p in (8, 16):
    job("lulesh", "alice", "compute", (p + 15) // 16, p, f"sbatch --ntasks={p} --time=01:00:00 -J lulesh --wrap srun ./lulesh2.0 -s 45 -i 100", "/home/alice/lulesh", 3.2 * TA(p), 3600)


def TB(p): return (5 + 3000 / p + 0.5 * p) * (1 + random.gauss(0, 0.03))


B = [(1, 300, None), (1, 300, None), (2, 600, None), (2, 600, "CANCELLED by 1001"), (4, 600, None), (4, 600, None),
     (8, 600, None), (8, 600, "FAILED"), (16, 300, None), (16, 300, None), (32, 300, None), (2, 120, None)]
for n, lim, stt in B:
    p = 8 * n
    job("cg", "bob", "compute", n, p, f"sbatch -N {n} --ntasks-per-node=8 -t {fmt(lim)} -J cg ./run_cg.sh class=C", "/scratch/bob/npb", TB(p), lim, stt, steps=False)
open("sacct-two-programs.txt", "w").write("\n".join(lines) + "\n")
print(len([l for l in lines[1:] if "." not in l.split("|")[0]]), "jobs")
