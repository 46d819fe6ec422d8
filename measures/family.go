package measures

import (
	"fmt"
	"math"
	"slices"

	"github.com/temple-rl/temple/mdp"
)

// Family are the measures of a family's task sequence: the hardness of its tasks, summarised
// over the tasks, and what the sequence offers to transfer.
type Family struct {
	Transfer Transfer
	// Tasks holds each task's hardness, in sequence order (tasks with the same model, start
	// distribution and terminal states share one computation).
	Tasks []Hardness
	// Diameter, ValueSpan, ValueNorm, SumReciprocalGaps and MinGap summarise the tasks' measures
	// of those names: their mean over the tasks, the least and the largest.
	Diameter, ValueSpan, ValueNorm, SumReciprocalGaps, MinGap Spread
	// DiameterSampled says that some task's diameter was computed over sampled targets
	// (DiameterOptions.Targets): the diameters are then lower bounds.
	DiameterSampled bool
}

// Spread is a measure over a sequence's tasks: the mean, the least and the largest.
type Spread struct {
	Mean, Min, Max float64
}

// FamilyOf measures the task sequence of models with discount gamma; opt applies to every
// task's diameter. An error names the task (0-based).
func FamilyOf(models []*mdp.Model, gamma float64, opt DiameterOptions) (Family, error) {
	if len(models) == 0 {
		return Family{}, fmt.Errorf("measures: a family's measures need at least one task")
	}
	f := Family{Transfer: TransferOf(models), Tasks: make([]Hardness, len(models))}
	rows := make([]sortedRows, len(models))
	for k, m := range models {
		rows[k] = sortRows(m)
		same := func(j int) bool { return sameTask(models[j], m, rows[j], rows[k]) }
		if j := firstSame(k, same); j >= 0 {
			f.Tasks[k] = f.Tasks[j]
			continue
		}
		h, err := HardnessOf(m, gamma, opt)
		if err != nil {
			return Family{}, fmt.Errorf("task %d: %w", k, err)
		}
		f.Tasks[k] = h
		f.DiameterSampled = f.DiameterSampled || h.Diameter.Sampled
	}
	f.Diameter = spread(f.Tasks, func(h Hardness) float64 { return h.Diameter.D })
	f.ValueSpan = spread(f.Tasks, func(h Hardness) float64 { return h.ValueSpan })
	f.ValueNorm = spread(f.Tasks, func(h Hardness) float64 { return h.ValueNorm })
	f.SumReciprocalGaps = spread(f.Tasks, func(h Hardness) float64 { return h.SumReciprocalGaps })
	f.MinGap = spread(f.Tasks, func(h Hardness) float64 { return h.MinGap })
	return f, nil
}

// firstSame is the first j < k for which same(j) holds, −1 when there is none.
func firstSame(k int, same func(j int) bool) int {
	for j := range k {
		if same(j) {
			return j
		}
	}
	return -1
}

// sameTask reports whether x and y (with their sorted rows) are the same task for every hardness
// measure: the same model (within sameModel), start distribution and terminal states.
func sameTask(x, y *mdp.Model, rx, ry sortedRows) bool {
	return x.S == y.S && x.A == y.A && slices.Equal(x.StartDistribution(), y.StartDistribution()) &&
		slices.Equal(x.TerminalStates(), y.TerminalStates()) && rx.distance(ry) <= sameModel
}

// spread is the mean, least and largest of measure over the tasks.
func spread(tasks []Hardness, measure func(Hardness) float64) Spread {
	s := Spread{Min: math.Inf(1), Max: math.Inf(-1)}
	for _, h := range tasks {
		x := measure(h)
		s.Mean += x / float64(len(tasks))
		s.Min, s.Max = math.Min(s.Min, x), math.Max(s.Max, x)
	}
	return s
}
