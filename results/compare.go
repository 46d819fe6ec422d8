package results

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/temple-rl/temple/internal/regular"
	"github.com/temple-rl/temple/stats"
)

// ReadSummary reads summary.json of a results directory: its name, runs, agents and optimum (the
// numbers compare and report use; the seed and spec are left zero). A summary of a newer results
// format is refused. A damaged one is refused with a *DamagedError, and so is the directory when
// any file temple wrote there is missing or changed (Verify).
func ReadSummary(dir Dir) (Summary, error) {
	path := dir.Path(SummaryFile)
	held, err := regular.ReadFile(path, maxLayoutBytes)
	if err != nil {
		return Summary{}, fmt.Errorf("results: %w (is %s a results directory?)", err, dir)
	}
	if _, err := ParseSummary(path, held); err != nil { // first: its format says more than its checksum
		return Summary{}, err
	}
	b, err := readVerified(dir, SummaryFile, maxLayoutBytes) // the bytes parsed are the bytes checked
	if err != nil {
		return Summary{}, err
	}
	sum, err := ParseSummary(path, b)
	if err != nil {
		return Summary{}, err
	}
	return sum, Verify(dir) // every file temple wrote there
}

// ParseSummary is ReadSummary of the content b of the summary.json at path.
func ParseSummary(path string, b []byte) (Summary, error) {
	var raw struct {
		FormatVersion int             `json:"format_version"`
		Name          string          `json:"name"`
		Runs          *int            `json:"runs"`
		Agents        []AgentSummary  `json:"agents"`
		Optimal       *OptimalSummary `json:"optimal"`
		Tuning        *Tuning         `json:"tuning"`
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
	return Summary{FormatVersion: raw.FormatVersion, Name: raw.Name, Runs: *raw.Runs, Agents: raw.Agents, Optimal: raw.Optimal, Tuning: raw.Tuning}, nil
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

// ComparePairs runs the paired comparisons named, each "A:B" testing A − B (SplitPairs), and
// adjusts their p-values together with Holm's correction, over these comparisons alone: the test
// of a researcher who named in advance the comparisons that decide a question, which keeps the
// power that Holm's correction over every pair would spend on comparisons nobody asked.
func ComparePairs(sum Summary, pairs []string) ([]stats.Comparison, error) {
	byName := map[string]AgentSummary{}
	var names []string
	for _, a := range sum.Agents {
		byName[a.Name] = a
		names = append(names, a.Name)
	}
	split, err := SplitPairs(pairs, names)
	if err != nil {
		return nil, fmt.Errorf("results: compare: %s: %w", sum.Name, err)
	}
	var cs []stats.Comparison
	for _, ab := range split {
		c, err := stats.PairedTest(ab[0], ab[1], byName[ab[0]].PerRun, byName[ab[1]].PerRun)
		if err != nil {
			return nil, err
		}
		cs = append(cs, c)
	}
	stats.Holm(cs)
	return cs, nil
}

// SplitPairs reads comparisons named "A:B" between the agents named: each is split at the colon
// where both sides name agents, which must happen in exactly one place (a name may hold a colon).
// A pair that names no agents, splits two ways, compares an agent with itself or repeats another
// (either way round) is refused, as is an empty list.
func SplitPairs(pairs, agents []string) ([][2]string, error) {
	known := map[string]bool{}
	var quoted []string // for the error of a pair that names no agents
	for _, a := range agents {
		known[a] = true
		quoted = append(quoted, fmt.Sprintf("%q", a))
	}
	if len(pairs) == 0 {
		return nil, fmt.Errorf("no pair given")
	}
	seen := map[[2]string]bool{}
	var out [][2]string
	for _, pair := range pairs {
		var splits [][2]string
		for k := range len(pair) {
			if pair[k] == ':' && known[pair[:k]] && known[pair[k+1:]] {
				splits = append(splits, [2]string{pair[:k], pair[k+1:]})
			}
		}
		switch {
		case len(splits) == 0:
			return nil, fmt.Errorf("pair %q is not A:B with A and B agents (the agents: %s)", pair, strings.Join(quoted, ", "))
		case len(splits) > 1:
			return nil, fmt.Errorf("pair %q splits into agents in %d ways (%q:%q and %q:%q)", pair, len(splits), splits[0][0], splits[0][1], splits[1][0], splits[1][1])
		case splits[0][0] == splits[0][1]:
			return nil, fmt.Errorf("pair %q compares %q with itself", pair, splits[0][0])
		}
		ab := splits[0]
		if seen[ab] || seen[[2]string{ab[1], ab[0]}] {
			return nil, fmt.Errorf("%q and %q are compared twice", ab[0], ab[1])
		}
		seen[ab] = true
		out = append(out, ab)
	}
	return out, nil
}

// CompareDirs compares each agent of directory a with the agent of the same name in directory b,
// run by run. Both must hold the same task sequences (identical tasks.json), so that run r
// faced the same tasks in both.
func CompareDirs(a, b Dir) ([]stats.Comparison, error) {
	sa, err := ReadSummary(a) // checks every file of a, tasks.json too
	if err != nil {
		return nil, err
	}
	sb, err := ReadSummary(b)
	if err != nil {
		return nil, err
	}
	ta, errA := readVerified(a, TasksFile, maxTasksBytes)
	tb, errB := readVerified(b, TasksFile, maxTasksBytes)
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
			c, err := stats.PairedTest(DirAgentName(x.Name, a), DirAgentName(y.Name, b), x.PerRun, y.PerRun)
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

// DirAgentName is how CompareDirs names the agent name of results directory dir.
func DirAgentName(name string, dir Dir) string { return name + " (" + dir.path + ")" }

// MarginFor is the margin δ of the comparison of agents a and b and what it was taken from: m's
// absolute margin when set; otherwise m's fraction of the larger of their mean regrets when both
// have the oracle's (the difference of their mean per-task rewards is that of their regrets, the
// optimum being the same), else of the larger magnitude of their mean per-task rewards. 0 when
// that reference is 0 (two agents with no regret): no equivalence is tested then.
func MarginFor(m stats.Margin, a, b AgentSummary) (float64, string) {
	if m.Absolute > 0 {
		return m.Absolute, "absolute"
	}
	pct := Num(100*m.Fraction) + "%"
	if a.Oracle != nil && b.Oracle != nil {
		return m.Of(a.Oracle.MeanRegret.Mean, b.Oracle.MeanRegret.Mean), pct + " of the larger mean regret"
	}
	return m.Of(a.MeanPerTaskReward, b.MeanPerTaskReward), pct + " of the larger mean per-task reward"
}

// AgentsByName are the agents of a summary by the names Compare and ComparePairs give them.
func AgentsByName(sum Summary) map[string]AgentSummary {
	out := map[string]AgentSummary{}
	for _, a := range sum.Agents {
		out[a.Name] = a
	}
	return out
}

// AgentsOfDirs are the agents of two results directories by the names CompareDirs gives them.
func AgentsOfDirs(a Dir, sa Summary, b Dir, sb Summary) map[string]AgentSummary {
	out := map[string]AgentSummary{}
	for _, x := range sa.Agents {
		out[DirAgentName(x.Name, a)] = x
	}
	for _, y := range sb.Agents {
		out[DirAgentName(y.Name, b)] = y
	}
	return out
}

// Judge adds to every comparison an equivalence test (stats.TOST) at margin m resolved for its
// two agents (MarginFor; agents by the comparisons' names), and adjusts all their p-values
// together (stats.HolmWithEquivalence): the verdicts then say "level" where the equivalence test
// shows it. It returns each comparison's margin basis, in order.
func Judge(cs []stats.Comparison, agents map[string]AgentSummary, m stats.Margin) ([]string, error) {
	bases := make([]string, len(cs))
	for i := range cs {
		a, okA := agents[cs[i].A]
		b, okB := agents[cs[i].B]
		if !okA || !okB {
			return nil, fmt.Errorf("results: compare: no summary of %q or %q to set their margin from", cs[i].A, cs[i].B)
		}
		var delta float64
		delta, bases[i] = MarginFor(m, a, b)
		if delta == 0 {
			continue
		}
		if err := cs[i].TestEquivalence(delta); err != nil {
			return nil, fmt.Errorf("results: compare: %w", err)
		}
	}
	stats.HolmWithEquivalence(cs)
	return bases, nil
}

// WriteComparisons writes compare.csv into the results directory dir, and records its checksum
// there: one line per comparison with its verdict at the 5% level on the adjusted p-values
// (stats.Comparison.Verdict), then — after the verdict, so that the columns before it keep their
// places — the equivalence margin, the TOST's p-value raw and adjusted (empty without an
// equivalence test) and the minimum detectable effect. It refuses a directory in which an
// experiment is running.
func WriteComparisons(dir Dir, cs []stats.Comparison) error {
	unlock, err := lock(dir, "(temple compare)", nil)
	if err != nil {
		return err
	}
	defer unlock()
	if err := beginWriting(dir, CompareFile); err != nil {
		return err
	}
	err = WriteCSV(dir.Path(CompareFile), "a,b,runs,mean_difference,ci95,t,p,p_holm,effect_size_dz,wins,verdict,margin,p_tost,p_tost_holm,mde", func(w *bufio.Writer) {
		for _, c := range cs {
			pTOST, pTOSTAdjusted := "", ""
			if c.Margin > 0 {
				pTOST, pTOSTAdjusted = Num(c.PTOST), Num(c.PTOSTAdjusted)
			}
			fmt.Fprintf(w, "%s,%s,%d,%s,%s,%s,%s,%s,%s,%d,%s,%s,%s,%s,%s\n", CSVField(c.A), CSVField(c.B), c.N, Num(c.MeanDiff), Num(c.CI95),
				Num(c.T), Num(c.P), Num(c.PAdjusted), Num(c.EffectSize), c.Wins, CSVField(c.Verdict()),
				Num(c.Margin), pTOST, pTOSTAdjusted, Num(c.MDE))
		}
	})
	if err != nil {
		endWriting(dir, CompareFile) // the record as it was (best effort on a full disk)
		return err
	}
	return record(dir, CompareFile)
}
