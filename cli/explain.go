package cli

// The parts of temple run's summary that explain it: what the template learners learned, a
// legend of its terms, warnings about results that say less than they seem to, and whether the
// cells were reused from an earlier run.

import (
	"fmt"
	"io"
	"iter"
	"strings"

	"github.com/temple-rl/temple/experiment"
	"github.com/temple-rl/temple/results"
)

// agentMetrics are the per-task diagnostics of metrics.csv of one agent.
type agentMetrics struct {
	// sums and counts of every metric over runs and tasks
	sum, n map[string]float64
	// last is each run's value of every metric on its last task, by metric and run
	last     map[string]map[int]float64
	lastTask map[int]int
}

// diagnostics are the per-task diagnostics of an experiment's cells (its metrics.csv): by agent,
// and the agents in the order of their first row.
type diagnostics struct {
	order []string
	by    map[string]*agentMetrics
}

// diagnosticsOf gathers the rows of metrics.csv by agent.
func diagnosticsOf(rows iter.Seq[results.MetricRow]) diagnostics {
	var order []string
	by := map[string]*agentMetrics{}
	for r := range rows {
		m := by[r.Agent]
		if m == nil {
			m = &agentMetrics{sum: map[string]float64{}, n: map[string]float64{}, last: map[string]map[int]float64{}, lastTask: map[int]int{}}
			by[r.Agent] = m
			order = append(order, r.Agent)
		}
		m.sum[r.Metric] += r.Value
		m.n[r.Metric]++
		if r.Task > m.lastTask[r.Run] {
			m.lastTask[r.Run] = r.Task
		}
		if r.Task == m.lastTask[r.Run] {
			if m.last[r.Metric] == nil {
				m.last[r.Metric] = map[int]float64{}
			}
			m.last[r.Metric][r.Run] = r.Value
		}
	}
	return diagnostics{order: order, by: by}
}

// mean is the metric's mean over runs and tasks, and whether the agent reports it.
func (m *agentMetrics) mean(name string) (float64, bool) {
	if m.n[name] == 0 {
		return 0, false
	}
	return m.sum[name] / m.n[name], true
}

// meanLast is the metric's mean over runs of its value on each run's last task.
func (m *agentMetrics) meanLast(name string) float64 {
	s := 0.0
	for _, v := range m.last[name] {
		s += v
	}
	return s / float64(max(1, len(m.last[name])))
}

// printLearned says what the template learners (the agents that report library_size: O-TempLe,
// FM-TempLe, template-prior) learned: their library after the last task, and the pairs they
// identified with a library template and augmented with its visits per task (template-prior:
// the pairs placed with a drawn template).
func printLearned(out io.Writer, d diagnostics, width int) {
	header := false
	for _, a := range d.order {
		m := d.by[a]
		if _, ok := m.mean("library_size"); !ok {
			continue
		}
		if !header {
			fmt.Fprintln(out, "\nWhat the template learners learned (mean over runs; metrics.csv):")
			header = true
		}
		if placed, ok := m.mean("placed_pairs"); ok { // template-prior: a drawn template, not an identification
			fmt.Fprintf(out, "  %-*s %.1f templates in the library after the last task; per task %.1f pairs placed with a drawn template at its end\n",
				width, a, m.meanLast("library_size"), placed)
			continue
		}
		identified, _ := m.mean("identified_pairs")
		augmented, _ := m.mean("augmented_pairs")
		fmt.Fprintf(out, "  %-*s %.1f templates in the library after the last task; per task %.1f pairs identified with a template, %.1f augmented with its visits\n",
			width, a, m.meanLast("library_size"), identified, augmented)
	}
}

// printLegend explains the terms of the summary in one line each.
func printLegend(out io.Writer, s experiment.Spec, sum results.Summary) {
	fmt.Fprintln(out, "\nTerms: per-task reward = total reward of a task's episodes; ± = half-width of the 95% CI across runs;")
	fmt.Fprintln(out, "  Holm-adjusted p = the paired test's p-value corrected for the several pairs tested together;")
	if sum.Optimal != nil {
		fmt.Fprintln(out, "  share of optimal = reward / the expected reward of the optimal policy; regret = their difference;")
		fmt.Fprintln(out, "  ε-mistakes = steps whose action's Q* is more than ε below V*, the optimum's value;")
	}
	fmt.Fprintln(out, "  more in docs/concepts.md.")
}

// printFlags warns about results that say less than they seem to: an agent whose every run
// earned the same per-task reward (often: no episode ever reached the goal), an agent none of
// whose episodes reached a terminal state on tasks that have them (metrics.csv's
// terminated_episodes), and an agent whose reward posterior clamped rewards outside the range it
// was given (reward_clamps).
func printFlags(out io.Writer, s experiment.Spec, sum results.Summary, d diagnostics) {
	for _, a := range sum.Agents {
		var notes []string
		if m := d.by[a.Name]; m != nil {
			if t, ok := m.mean("terminated_episodes"); ok && t == 0 {
				notes = append(notes, "no episode of any run reached a terminal state (the goal, on tasks where reaching it ends the episode)")
			}
			if c, ok := m.mean("reward_clamps"); ok && c > 0 {
				notes = append(notes, fmt.Sprintf("%.4g rewards a task on average fell outside its Beta reward posterior's range (reward_min, reward_max) "+
					"and were clamped into it (reward_clamps in metrics.csv); leave both at task to take each task's own range", c))
			}
		}
		if s.Runs >= 2 && a.CI95 == 0 {
			notes = append(notes, fmt.Sprintf("every run earned the same, %.2f per task", a.MeanPerTaskReward))
		}
		if len(notes) > 0 {
			fmt.Fprintf(out, "  note: %s: %s\n", a.Name, strings.Join(notes, "; "))
		}
	}
}

// printReused says how many of the experiment's cells were read back from an earlier run into
// the same directory dir rather than run now (timings.json's reused_cells).
func printReused(out io.Writer, dir results.Dir, cells []results.CellResult) {
	reused := 0
	for _, c := range cells {
		if c.Resumed {
			reused++
		}
	}
	if reused > 0 {
		fmt.Fprintf(out, "\nReused %d of %d cells stored in %s by an earlier run of the same spec; --force to run them again.\n",
			reused, len(cells), dir)
	}
}
