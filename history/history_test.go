package history

import (
	"context"
	"errors"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/scaling"
)

func readFile(t *testing.T, path string) *Accounting {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	a, err := ReadSacct(path, f)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestRealSample: the real Slurm 22.05.8 output of shared/docs/slurm-accounting.md, each
// expected value read off that sample by hand.
func TestRealSample(t *testing.T) {
	a := readFile(t, "testdata/sacct-slurm-22.05-doc.txt")
	if len(a.Jobs) != 7 || a.StepLines != 0 {
		t.Fatalf("%d jobs, %d step lines: want 7, 0", len(a.Jobs), a.StepLines)
	}
	want := []struct {
		id      string
		state   string
		outcome Outcome
		tasks   int
		el      int64
		limit   int64 // -1 unlimited
		wait    int64
	}{
		{"1", "COMPLETED", Observed, 2, 4, -1, 0},    // --ntasks=2, 00:00:04, start = submit
		{"2", "COMPLETED", Observed, 1, 3, -1, 6},    // 15:29:51 → 15:29:57
		{"3", "TIMEOUT", Censored, 1, 77, 60, 6},     // 00:01:17, limit 00:01:00
		{"4", "FAILED", Excluded, 1, 0, -1, 10},      // 15:29:51 → 15:30:01
		{"5", "CANCELLED", Excluded, 1, 2, -1, 13},   // "CANCELLED by 0"
		{"6_0", "COMPLETED", Observed, 1, 3, -1, 15}, // array task
		{"6_1", "COMPLETED", Observed, 1, 2, -1, 18}, // array task
	}
	for i, w := range want {
		j := a.Jobs[i]
		lim := int64(-1)
		if j.TimeLimitS != nil {
			lim = *j.TimeLimitS
		}
		if j.JobID != w.id || j.State != w.state || j.Outcome != w.outcome || j.Tasks != w.tasks || j.TasksFrom != "submit_line" || j.ElapsedS != w.el || lim != w.limit || j.QueueWaitS == nil || *j.QueueWaitS != w.wait {
			t.Errorf("job %d: %+v, want %+v", i, j, w)
		}
	}
	// array tasks 6_0 and 6_1 are one study (--array is scheduling), and so are jobs 3 and 5
	// (sleep 600, the job name differs: scheduling); sleep 3 and sleep 2 are different
	// programs: 5 studies.
	ss := Group(a.Jobs)
	if len(ss) != 5 {
		for _, s := range ss {
			t.Logf("%d %q %d", s.ID, s.Program, len(s.Jobs))
		}
		t.Fatalf("%d studies, want 5", len(ss))
	}
	if s := ss[4]; s.Program != "sleep 2" || len(s.Jobs) != 2 {
		t.Errorf("array study: %+v", s)
	}
}

// TestStepLines: the sample with steps (N.batch, N.0) has 6 job lines and 9 step lines; the
// task count then comes from the allocated CPUs (no SubmitLine, NTasks empty on jobs).
func TestStepLines(t *testing.T) {
	a := readFile(t, "testdata/sacct-steps-22.05-doc.txt")
	if len(a.Jobs) != 7 || a.StepLines != 8 {
		t.Fatalf("%d jobs, %d step lines: want 7, 8", len(a.Jobs), a.StepLines)
	}
	if j := a.Jobs[0]; j.Tasks != 2 || j.TasksFrom != "ncpus" {
		t.Errorf("job 1: tasks %d from %s, want 2 from ncpus", j.Tasks, j.TasksFrom)
	}
	if g := Group(a.Jobs); g[0].GroupedBy != "job_name" {
		t.Errorf("grouped by %s, want job_name (no SubmitLine)", g[0].GroupedBy)
	}
}

// TestTwoPrograms: the generated file (testdata/gen-sacct-two-programs.py) has 31 jobs in
// three studies: lulesh -s 30 (17 jobs: 12 completed, 1 TIMEOUT, OUT_OF_MEMORY, CANCELLED,
// FAILED, NODE_FAIL one each), lulesh -s 45 (2), cg class=C (12: 7 completed, 3 TIMEOUT,
// one CANCELLED, one FAILED).
func TestTwoPrograms(t *testing.T) {
	a := readFile(t, "testdata/sacct-two-programs.txt")
	ss := Group(a.Jobs)
	if len(a.Jobs) != 31 || len(ss) != 3 {
		t.Fatalf("%d jobs in %d studies, want 31 in 3", len(a.Jobs), len(ss))
	}
	type counts struct{ jobs, done, to, excl int }
	want := []counts{{17, 12, 1, 4}, {2, 2, 0, 0}, {12, 7, 3, 2}}
	for i, s := range ss {
		ex := 0
		for _, x := range s.Excluded {
			ex += x.Jobs
		}
		if got := (counts{len(s.Jobs), s.Completed, s.TimedOut, ex}); got != want[i] {
			t.Errorf("study %d: %+v, want %+v", s.ID, got, want[i])
		}
	}
	if ss[2].Program != "./run_cg.sh class=C" || ss[2].Jobs[0].Tasks != 8 {
		t.Errorf("cg study: %q, tasks %d (want -N 1 × --ntasks-per-node=8)", ss[2].Program, ss[2].Jobs[0].Tasks)
	}
	an, err := Analyze(context.Background(), ss[0], Options{Predict: []int{128}})
	if err != nil {
		t.Fatal(err)
	}
	// The generator's law is T(p) = 20 + 2400/p: Amdahl with T(1) = 2420 s, serial fraction
	// 20/2420 = 0.00826; the 3 % noise allows a few per cent.
	if an.Fit.Scaling.Chosen.Name != "amdahl" {
		t.Fatalf("chosen %s, want amdahl", an.Fit.Scaling.Chosen.Name)
	}
	if f := *an.Fit.Scaling.Chosen.SerialFraction; math.Abs(f-20.0/2420) > 0.003 {
		t.Errorf("serial fraction %g, want ≈ %g", f, 20.0/2420)
	}
	if p := an.Predictions[0].TimeS; math.Abs(p/(20+2400.0/128)-1) > 0.05 {
		t.Errorf("T(128) = %g, want ≈ %g", p, 20+2400.0/128)
	}
	// The recommended p's node-hours: nodes = ⌈p/16⌉ (16 tasks per node in the file).
	rc := an.Recommended
	if rc == nil || rc.TasksPerNode != 16 || rc.Nodes != (rc.P+15)/16 || math.Abs(rc.NodeHours-float64(rc.Nodes)*rc.TimeS/3600) > 1e-12 {
		t.Errorf("cost %+v", rc)
	}
}

// TestCensoringMatters: completed runs exactly on T(p) = 50 + 800/p at p = 4 … 32 (Amdahl fits
// them exactly: T(1) = 850), and a TIMEOUT at p = 1 after 1000 s. The completed runs alone
// say T(1) = 850, below what the job proved; the censored fit must move T(1) towards the
// bound (the one-sided penalty), while a bound the model already meets (p = 2, 300 s <
// T(2) = 450) changes nothing.
func TestCensoringMatters(t *testing.T) {
	law := func(p int) float64 { return 50 + 800/float64(p) }
	var runs []Run
	for _, p := range []int{4, 8, 16, 32} {
		runs = append(runs, Run{JobID: "c", P: p, ElapsedS: law(p)})
	}
	free, err := FitCensored(context.Background(), "t", "strong", runs)
	if err != nil {
		t.Fatal(err)
	}
	b := 1000.0
	cf, err := FitCensored(context.Background(), "t", "strong", append(runs, Run{JobID: "to", P: 1, ElapsedS: 1030, Censored: true, LowerBoundS: &b}))
	if err != nil {
		t.Fatal(err)
	}
	t0, _ := modelAt(free.Scaling, 1)
	t1, _ := modelAt(cf.Scaling, 1)
	if math.Abs(t0-850) > 1e-6 {
		t.Fatalf("uncensored T(1) = %g, want 850 (exact Amdahl)", t0)
	}
	if !(t1 > t0+10) {
		t.Errorf("censored T(1) = %g: the bound 1000 did not pull the fit up from %g", t1, t0)
	}
	// the objective the method states: Σ obs r² + Σ cens hinge², lower with the censored fit
	obj := func(r *scaling.Result) float64 {
		s := 0.0
		for _, x := range runs {
			m, _ := modelAt(r, x.P)
			s += math.Pow((m-x.ElapsedS)/x.ElapsedS, 2)
		}
		m, _ := modelAt(r, 1)
		return s + math.Pow(math.Min(0, m-b)/b, 2)
	}
	if !(obj(cf.Scaling) < obj(free.Scaling)) {
		t.Errorf("penalised objective %g (censored fit) not below %g (completed runs alone)", obj(cf.Scaling), obj(free.Scaling))
	}
	low := 300.0
	met, err := FitCensored(context.Background(), "t", "strong", append(runs, Run{JobID: "to", P: 2, ElapsedS: 320, Censored: true, LowerBoundS: &low}))
	if err != nil {
		t.Fatal(err)
	}
	if m, _ := modelAt(met.Scaling, 2); math.Abs(m-450) > 1e-6 || met.BoundsMissed != 0 {
		t.Errorf("a met bound changed the fit: T(2) = %g, want 450; missed %d", m, met.BoundsMissed)
	}
}

// TestRefusals: every malformed input is refused as fault.ErrInput naming file:line.
func TestRefusals(t *testing.T) {
	hdr := "JobID|JobName|NCPUS|Elapsed|Timelimit|State|Submit|Start\n"
	cases := []struct{ name, in, want string }{
		{"empty", "", "f.txt: empty"},
		{"no state column", "JobID|Elapsed|NCPUS\n1|00:00:01|1\n", "f.txt:1: header lacks State"},
		{"duplicate column", "JobID|State|State|Elapsed|NCPUS\n", "f.txt:1: column \"State\" appears twice"},
		{"fields", hdr + "1|a|1|00:00:01|UNLIMITED\n", "f.txt:2: 5 fields, the header has 8"},
		{"state", hdr + "1|a|1|00:00:01|UNLIMITED|DONE|Unknown|Unknown\n", "f.txt:2: State \"DONE\""},
		{"elapsed", hdr + "1|a|1|1:2:3:4|UNLIMITED|COMPLETED|Unknown|Unknown\n", "f.txt:2: Elapsed \"1:2:3:4\""},
		{"elapsed minutes", hdr + "1|a|1|00:61:00|UNLIMITED|COMPLETED|Unknown|Unknown\n", "f.txt:2: Elapsed"},
		{"limit", hdr + "1|a|1|00:00:01|forever|COMPLETED|Unknown|Unknown\n", "f.txt:2: Timelimit \"forever\""},
		{"ncpus", hdr + "1|a|-4|00:00:01|UNLIMITED|COMPLETED|Unknown|Unknown\n", "f.txt:2: NCPUS \"-4\""},
		{"submit", hdr + "1|a|1|00:00:01|UNLIMITED|COMPLETED|yesterday|Unknown\n", "f.txt:2: Submit \"yesterday\""},
		{"start before submit", hdr + "1|a|1|00:00:01|UNLIMITED|COMPLETED|2026-01-02T00:00:00|2026-01-01T00:00:00\n", "f.txt:2: Start"},
		{"repeated", hdr + "1|a|1|00:00:01|UNLIMITED|COMPLETED|Unknown|Unknown\n1|a|1|00:00:01|UNLIMITED|COMPLETED|Unknown|Unknown\n", "f.txt:3: job 1 repeated (first at line 2)"},
		{"no tasks", hdr + "1|a||00:00:01|UNLIMITED|COMPLETED|Unknown|Unknown\n", "f.txt:2: job 1: no task count"},
		{"days", hdr + "1|a|1|99999-00:00:00|UNLIMITED|COMPLETED|Unknown|Unknown\n", "f.txt:2: Elapsed"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadSacct("f.txt", strings.NewReader(c.in))
			if !errors.Is(err, fault.ErrInput) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("err %v, want ErrInput with %q", err, c.want)
			}
		})
	}
}

// TestLimits: a line over MaxLineBytes and a file over MaxBytes are ErrTooLarge, read no
// further than the limit.
func TestLimits(t *testing.T) {
	long := "JobID|State|Elapsed|NCPUS\n1|COMPLETED|00:00:01|" + strings.Repeat("1", MaxLineBytes) + "\n"
	if _, err := ReadSacct("f", strings.NewReader(long)); !errors.Is(err, fault.ErrTooLarge) {
		t.Errorf("long line: %v", err)
	}
	r := &endless{line: []byte("1.batch|COMPLETED|00:00:01|1\n")}
	if _, err := ReadSacct("f", r); !errors.Is(err, fault.ErrTooLarge) || r.n > MaxBytes+1<<20 {
		t.Errorf("endless input: %v after %d bytes", err, r.n)
	}
}

// endless is a header and then the same step line forever.
type endless struct {
	line []byte
	n    int
	hdr  bool
}

func (e *endless) Read(p []byte) (int, error) {
	src := e.line
	if !e.hdr {
		e.hdr, src = true, []byte("JobID|State|Elapsed|NCPUS\n")
	}
	k := copy(p, src)
	e.n += k
	return k, nil
}

// TestSubmitLine: the task count and the program of stored submit lines (Slurm stores argv
// joined by spaces; see shared/docs/slurm-accounting.md gotcha 10).
func TestSubmitLine(t *testing.T) {
	cases := []struct {
		line, program string
		tasks         int
	}{
		{"sbatch --ntasks=8 --time=00:10:00 --wrap srun ./a -x 1", "srun ./a -x 1", 8},
		{"sbatch -n 4 job.sh in.dat", "job.sh in.dat", 4},
		{"sbatch -n4 job.sh", "job.sh", 4},
		{"sbatch -N 2 --ntasks-per-node=16 run.sh", "run.sh", 32},
		{"sbatch --wrap mpirun -np 12 ./b in", "mpirun ./b in", 12},
		{"sbatch --wrap srun --ntasks=6 ./b", "srun ./b", 6},
		{"sbatch --parsable -J x --exclusive run.sh a b", "run.sh a b", 0},
	}
	for _, c := range cases {
		s := parseSubmit(c.line)
		prog, _ := launcherFree(s.program)
		n, _ := s.tasks()
		if strings.Join(prog, " ") != c.program || n != c.tasks {
			t.Errorf("%q: program %q tasks %d, want %q %d", c.line, strings.Join(prog, " "), n, c.program, c.tasks)
		}
	}
}

// TestPipeInSubmitLine: a '|' inside the stored submit line (sacct does not escape it) is
// rejoined when SubmitLine is the only free-text column that can hold it.
func TestPipeInSubmitLine(t *testing.T) {
	in := "JobID|State|Elapsed|NCPUS|SubmitLine|WorkDir\n1|COMPLETED|00:00:05|2|sbatch --wrap ./a | tee log|/w\n"
	a, err := ReadSacct("f", strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if j := a.Jobs[0]; j.SubmitLine != "sbatch --wrap ./a | tee log" || j.WorkDir != "/w" {
		t.Errorf("%q %q", j.SubmitLine, j.WorkDir)
	}
}
