package experiment

import (
	"fmt"
	"math"
	"time"

	"github.com/temple-rl/temple/families"
)

// The sizes of an experiment are checked before any work: what counters and the memory can hold
// (checkSizes, from Validate; the memory estimate, from BuildTasks before the sequences are drawn),
// what float64 sums can hold (checkRewards, once the tasks are built) and how long it will take
// (EstimateWork, which the command line shows and asks --yes for past an hour).

// maxStepsPerTask is the most steps a task may take (episodes × steps): 2⁵³, the largest count a
// float64 holds exactly (the summaries average such counts).
const maxStepsPerTask = 1 << 53

// maxTaskReward bounds the reward a task can total (episodes × steps × the largest |reward|): the
// summaries square per-run means (variances), which must stay finite.
const maxTaskReward = 1e150

// checkSizes refuses the sizes of s that no run could hold, naming the fields: more tasks a run
// than families.MaxTasksPerRun, more steps a task than counters hold.
func checkSizes(s *Spec) error {
	if n := families.TasksPerRun(s.Tasks.Params); n > families.MaxTasksPerRun {
		return fmt.Errorf("tasks: a run would hold %d tasks (count, per_size × sizes, repeat), more than the %d a run may hold",
			n, families.MaxTasksPerRun)
	}
	if steps := float64(s.Episodes) * float64(s.Steps); steps > maxStepsPerTask {
		return fmt.Errorf("episodes × steps = %d × %d = %.3g steps a task, more than the 2^53 (%.3g) a task may take",
			s.Episodes, s.Steps, steps, float64(maxStepsPerTask))
	}
	return nil
}

// checkRewards refuses tasks whose total reward could overflow the summaries: episodes × steps ×
// the task's largest |reward| above maxTaskReward (rewards of 1e308 passed and failed after the
// computation, writing -Inf).
func checkRewards(s Spec, runs [][]Task) error {
	perTask := float64(s.Episodes) * float64(s.Steps)
	for run, tasks := range runs {
		for k, t := range tasks {
			d, ok := t.Dynamics().(interface{ MaxAbsReward() float64 })
			if !ok {
				continue
			}
			if r := d.MaxAbsReward(); !(r*perTask <= maxTaskReward) {
				return fmt.Errorf("tasks: run %d, task %d (%s): rewards up to %g over episodes × steps = %.3g steps could total %.3g, "+
					"beyond what the summaries hold (%g); scale the task's rewards down", run, k, t.Def.Name(), r, perTask, r*perTask, maxTaskReward)
			}
		}
	}
	return nil
}

// StepsPerCoreSecond is the speed EstimateWork assumes: environment steps of one cell per second
// on one core, measured on the default experiment (temple run: 36 million steps in 9.2 cell-seconds
// on a 2-core machine, 4×4 mazes). Larger tasks take longer per step, so the estimate is a lower
// bound there.
const StepsPerCoreSecond = 4e6

// Work is an estimate of an experiment's time.
type Work struct {
	Cells   int64         // (run, agent) cells, of every point of a sweep or scaling study
	Steps   float64       // environment steps of every cell together: cells × tasks × episodes × steps
	Workers int           // cells run at once
	Time    time.Duration // Steps at StepsPerCoreSecond on Workers cores (saturates)
}

// EstimateWork estimates the time of s on jobs workers (0: one per core) before anything is
// drawn: cells × tasks × episodes × steps environment steps at StepsPerCoreSecond. The tasks of a
// run are what the tasks block says (families.TasksPerRun, at least 1 for a file).
func EstimateWork(s Spec, jobs int) (Work, error) {
	points, err := Points(s)
	if err != nil {
		return Work{}, err
	}
	jobs = Workers(jobs)
	var w Work
	for _, pt := range points {
		ps := pt.Spec
		cells := int64(ps.Runs) * int64(len(ps.Agents))
		w.Cells += cells
		w.Steps += float64(cells) * float64(families.TasksPerRun(ps.Tasks.Params)) * float64(ps.Episodes) * float64(ps.Steps)
	}
	w.Workers = int(min(int64(jobs), max(w.Cells, 1)))
	seconds := w.Steps / (StepsPerCoreSecond * float64(w.Workers))
	w.Time = time.Duration(min(seconds, float64(math.MaxInt64/2)/1e9) * 1e9)
	return w, nil
}

func (w Work) String() string {
	return fmt.Sprintf("%d cells, %.3g environment steps in all (cells × tasks × episodes × steps): about %s on %d workers "+
		"at %.0f million steps a second each (measured on 4×4 mazes; larger tasks take longer)",
		w.Cells, w.Steps, roundDuration(w.Time), w.Workers, StepsPerCoreSecond/1e6)
}

// roundDuration is d to a precision that suits it.
func roundDuration(d time.Duration) string {
	switch {
	case d >= 1000*time.Hour:
		return fmt.Sprintf("%.3g hours", d.Hours())
	case d >= time.Hour:
		return d.Round(time.Minute).String()
	default:
		return d.Round(time.Second).String()
	}
}
