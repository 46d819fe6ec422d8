package results

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/temple-rl/temple/stats"
)

// ReadSummary reads summary.json of a results directory: its name, runs, agents and optimum (the
// numbers compare and report use; the seed and spec are left zero). A summary of a newer results
// format is refused. A damaged one is refused with a *DamagedError, and so is the directory when
// any file temple wrote there is missing or changed (Verify).
func ReadSummary(dir string) (Summary, error) {
	path := filepath.Join(dir, "summary.json")
	b, err := os.ReadFile(path)
	if err != nil {
		return Summary{}, fmt.Errorf("results: %w (is %s a results directory?)", err, dir)
	}
	sum, err := ParseSummary(path, b) // first: its format says more than its checksum
	if err != nil {
		return Summary{}, err
	}
	return sum, Verify(dir) // every file temple wrote there, summary.json with them
}

// ParseSummary is ReadSummary of the content b of the summary.json at path.
func ParseSummary(path string, b []byte) (Summary, error) {
	var raw struct {
		FormatVersion int             `json:"format_version"`
		Name          string          `json:"name"`
		Runs          *int            `json:"runs"`
		Agents        []AgentSummary  `json:"agents"`
		Optimal       *OptimalSummary `json:"optimal"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return Summary{}, &DamagedError{Path: path, Problem: fmt.Sprintf("not a summary's JSON (%v)", err)}
	}
	if err := checkFormat(path, raw.FormatVersion); err != nil {
		return Summary{}, err
	}
	bad := func(format string, a ...any) (Summary, error) {
		return Summary{}, &DamagedError{Path: path, Problem: fmt.Sprintf(format, a...)}
	}
	if raw.Runs == nil || *raw.Runs < 1 {
		return bad("it has no runs, or fewer than 1")
	}
	if len(raw.Agents) == 0 {
		return bad("it has no agents")
	}
	seen := map[string]bool{}
	for _, a := range raw.Agents {
		switch {
		case a.Name == "" || seen[a.Name]:
			return bad("agent %q: each agent must have a name, once", a.Name)
		case len(a.PerRun) != *raw.Runs:
			return bad("agent %q has %d per-run values for %d runs", a.Name, len(a.PerRun), *raw.Runs)
		}
		seen[a.Name] = true
	}
	return Summary{FormatVersion: raw.FormatVersion, Name: raw.Name, Runs: *raw.Runs, Agents: raw.Agents, Optimal: raw.Optimal}, nil
}

// Compare runs paired comparisons of the agents of one results directory, run by run, on their
// mean per-task reward: every agent against baseline, or every pair of agents when baseline is
// empty. The p-values are adjusted together with Holm's correction.
func Compare(sum Summary, baseline string) ([]stats.Comparison, error) {
	var cs []stats.Comparison
	found := baseline == ""
	for i, a := range sum.Agents {
		for j, b := range sum.Agents {
			if a.Name == baseline {
				found = true
			}
			if baseline != "" && (b.Name != baseline || i == j) || baseline == "" && j <= i {
				continue
			}
			c, err := stats.PairedTest(a.Name, b.Name, a.PerRun, b.PerRun)
			if err != nil {
				return nil, err
			}
			cs = append(cs, c)
		}
	}
	if !found {
		return nil, fmt.Errorf("results: compare: no agent named %q in %s", baseline, sum.Name)
	}
	stats.Holm(cs)
	return cs, nil
}

// CompareDirs compares each agent of directory a with the agent of the same name in directory b,
// run by run. Both must hold the same task sequences (identical tasks.json), so that run r
// faced the same tasks in both.
func CompareDirs(a, b string) ([]stats.Comparison, error) {
	sa, err := ReadSummary(a) // checks every file of a, tasks.json too
	if err != nil {
		return nil, err
	}
	sb, err := ReadSummary(b)
	if err != nil {
		return nil, err
	}
	ta, errA := os.ReadFile(filepath.Join(a, "tasks.json"))
	tb, errB := os.ReadFile(filepath.Join(b, "tasks.json"))
	switch {
	case errA != nil:
		return nil, fmt.Errorf("results: compare: %w", errA)
	case errB != nil:
		return nil, fmt.Errorf("results: compare: %w", errB)
	case !bytes.Equal(ta, tb):
		return nil, fmt.Errorf("results: compare: %s and %s ran different task sequences (their tasks.json differ); runs cannot be paired", a, b)
	}
	var cs []stats.Comparison
	for _, x := range sa.Agents {
		for _, y := range sb.Agents {
			if x.Name != y.Name {
				continue
			}
			c, err := stats.PairedTest(x.Name+" ("+a+")", y.Name+" ("+b+")", x.PerRun, y.PerRun)
			if err != nil {
				return nil, err
			}
			cs = append(cs, c)
		}
	}
	if len(cs) == 0 {
		return nil, fmt.Errorf("results: compare: %s and %s have no agent name in common", a, b)
	}
	stats.Holm(cs)
	return cs, nil
}

// WriteComparisons writes compare.csv: one line per comparison, ending with its verdict at the
// 5% level on the Holm-adjusted p-value (stats.Comparison.Verdict).
func WriteComparisons(path string, cs []stats.Comparison) error {
	return WriteCSV(path, "a,b,runs,mean_difference,ci95,t,p,p_holm,effect_size_dz,wins,verdict", func(w *bufio.Writer) {
		for _, c := range cs {
			fmt.Fprintf(w, "%s,%s,%d,%s,%s,%s,%s,%s,%s,%d,%s\n", CSVField(c.A), CSVField(c.B), c.N, Num(c.MeanDiff), Num(c.CI95),
				Num(c.T), Num(c.P), Num(c.PAdjusted), Num(c.EffectSize), c.Wins, CSVField(c.Verdict()))
		}
	})
}
