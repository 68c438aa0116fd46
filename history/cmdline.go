package history

import (
	"strconv"
	"strings"
)

// submit is a submit line taken apart: the batch options and the program with its
// arguments. Slurm stores the submit line as argv joined by spaces (its shell quoting is
// lost: `--wrap 'srun ./a in'` is stored as `--wrap srun ./a in`), so it is split on spaces.
type submit struct {
	opts    map[string]string // long option name → value ("" for a flag)
	order   []string          // option names in order of appearance
	program []string          // the script and its arguments, or the --wrap command
}

// shortLong maps sbatch's short options to their long names (`man sbatch`, 22.05); the
// value-taking ones are in takesValue.
var shortLong = map[string]string{
	"A": "account", "a": "array", "b": "begin", "C": "constraint", "c": "cpus-per-task", "D": "chdir",
	"d": "dependency", "e": "error", "F": "nodefile", "G": "gpus", "H": "hold", "i": "input", "J": "job-name",
	"k": "no-kill", "L": "licenses", "M": "clusters", "m": "distribution", "N": "nodes", "n": "ntasks",
	"O": "overcommit", "o": "output", "p": "partition", "q": "qos", "Q": "quiet", "s": "oversubscribe",
	"t": "time", "v": "verbose", "W": "wait", "w": "nodelist", "x": "exclude",
}

// flagOnly are the long options that take no value.
var flagOnly = map[string]bool{
	"parsable": true, "exclusive": true, "hold": true, "no-kill": true, "overcommit": true, "quiet": true,
	"oversubscribe": true, "verbose": true, "wait": true, "requeue": true, "no-requeue": true, "contiguous": true,
	"spread-job": true, "use-min-nodes": true, "test-only": true, "ignore-pbs": true, "reboot": true, "help": true,
	"usage": true, "version": true, "get-user-env": true,
}

// parallelism are the options that set the size of the run: they may differ within a
// study (the fit's p comes from them).
var parallelism = map[string]bool{
	"ntasks": true, "nodes": true, "ntasks-per-node": true, "cpus-per-task": true, "ntasks-per-core": true,
	"ntasks-per-socket": true, "ntasks-per-gpu": true, "mem-per-cpu": true, "nodelist": true, "exclude": true,
	"overcommit": true, "exclusive": true, "oversubscribe": true,
}

// schedulingOnly are options that change how and when the job is scheduled or where its
// output goes, not what it computes: they may differ within a study.
var schedulingOnly = map[string]bool{
	"time": true, "job-name": true, "output": true, "error": true, "parsable": true, "begin": true,
	"dependency": true, "mail-type": true, "mail-user": true, "hold": true, "qos": true, "account": true,
	"priority": true, "nice": true, "comment": true, "requeue": true, "no-requeue": true, "quiet": true,
	"verbose": true, "wait": true, "time-min": true, "deadline": true, "signal": true, "open-mode": true, "array": true,
}

// parseSubmit splits a stored submit line ("sbatch … script args" or "sbatch … --wrap cmd").
func parseSubmit(line string) submit {
	s := submit{opts: map[string]string{}}
	tok := strings.Fields(line)
	if len(tok) == 0 {
		return s
	}
	i := 0
	switch tok[0] {
	case "sbatch", "srun", "salloc":
		i = 1
	default:
		if strings.HasSuffix(tok[0], "/sbatch") || strings.HasSuffix(tok[0], "/srun") {
			i = 1
		}
	}
	for i < len(tok) {
		t := tok[i]
		name, val, hasVal := "", "", false
		switch {
		case strings.HasPrefix(t, "--") && len(t) > 2:
			name, val, hasVal = strings.Cut(t[2:], "=")
		case strings.HasPrefix(t, "-") && len(t) >= 2 && t != "-":
			long, ok := shortLong[t[1:2]]
			if !ok {
				long = t[1:2]
			}
			name = long
			if len(t) > 2 {
				val, hasVal = t[2:], true
			}
		default:
			s.program = tok[i:]
			return s
		}
		i++
		if name == "wrap" {
			if hasVal {
				s.program = append([]string{val}, tok[i:]...)
			} else {
				s.program = tok[i:]
			}
			s.set(name, "")
			return s
		}
		if !hasVal && !flagOnly[name] && i < len(tok) {
			val = tok[i]
			i++
		}
		s.set(name, val)
	}
	return s
}

func (s *submit) set(name, val string) {
	if _, ok := s.opts[name]; !ok {
		s.order = append(s.order, name)
	}
	s.opts[name] = val
}

// tasks is the run's task count from the batch options: --ntasks, else --nodes ×
// --ntasks-per-node; else the launcher's -n/-np in the program (srun -n 8 ./a).
func (s submit) tasks() (int, bool) {
	if n, err := strconv.Atoi(s.opts["ntasks"]); err == nil && n > 0 && n <= maxCount {
		return n, true
	}
	nn, e1 := strconv.Atoi(s.opts["nodes"])
	per, e2 := strconv.Atoi(s.opts["ntasks-per-node"])
	if e1 == nil && e2 == nil && nn > 0 && per > 0 && int64(nn)*int64(per) <= maxCount {
		return nn * per, true
	}
	prog, n := launcherFree(s.program)
	_ = prog
	if n > 0 {
		return n, true
	}
	return 0, false
}

// launchers are the MPI launchers whose size options launcherFree removes.
var launchers = map[string]bool{"srun": true, "mpirun": true, "mpiexec": true, "mpiexec.hydra": true, "aprun": true}

// launcherSize are the launchers' options that set the size (and take a value).
var launcherSize = map[string]bool{"-n": true, "-np": true, "--ntasks": true, "-N": true, "--nodes": true,
	"--ntasks-per-node": true, "-c": true, "--cpus-per-task": true, "-ppn": true, "--npernode": true, "-npernode": true}

// launcherFree is the program with the launchers' size options removed (so runs at
// different sizes compare equal), and the task count they gave (0: none).
func launcherFree(prog []string) ([]string, int) {
	out := make([]string, 0, len(prog))
	n := 0
	inLauncher := false
	for i := 0; i < len(prog); i++ {
		t := prog[i]
		base := t[strings.LastIndex(t, "/")+1:]
		if launchers[base] {
			inLauncher = true
			out = append(out, t)
			continue
		}
		if inLauncher && strings.HasPrefix(t, "-") {
			name, val, hasVal := strings.Cut(t, "=")
			if launcherSize[name] {
				if !hasVal && i+1 < len(prog) {
					i++
					val = prog[i]
				}
				if name == "-n" || name == "-np" || name == "--ntasks" {
					if v, err := strconv.Atoi(val); err == nil && v > 0 && v <= maxCount {
						n = v
					}
				}
				continue
			}
			if len(t) > 2 && (t[:2] == "-n" && isDigits(t[2:])) {
				if v, err := strconv.Atoi(t[2:]); err == nil && v > 0 && v <= maxCount {
					n = v
				}
				continue
			}
			out = append(out, t)
			continue
		}
		inLauncher = false
		out = append(out, t)
	}
	return out, n
}

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}
