package results

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/temple-rl/temple/stats"
)

func TestCompareAgainstTheBaselineAndAllPairs(t *testing.T) {
	sum := Summary{Name: "x", Agents: []AgentSummary{
		{Name: "A", PerRun: []float64{11, 12, 13, 14}},
		{Name: "B", PerRun: []float64{10, 10, 10, 10}},
		{Name: "C", PerRun: []float64{10, 11, 10, 11}},
	}}
	cs, err := Compare(sum, "B")
	if err != nil || len(cs) != 2 || cs[0].A != "A" || cs[0].B != "B" || cs[1].A != "C" {
		t.Fatalf("against B: %+v, %v", cs, err)
	}
	if cs[0].MeanDiff != 2.5 || cs[0].PAdjusted < cs[0].P {
		t.Errorf("A − B = %v, p %v adjusted %v", cs[0].MeanDiff, cs[0].P, cs[0].PAdjusted)
	}
	all, err := Compare(sum, "")
	if err != nil || len(all) != 3 {
		t.Fatalf("all pairs: %d comparisons, %v", len(all), err)
	}
	if _, err := Compare(sum, "D"); err == nil || !strings.Contains(err.Error(), `no agent named "D"`) {
		t.Errorf("unknown baseline: %v", err)
	}
}

// --pair: only the comparisons named, Holm over those alone; names with a colon split where both
// sides are agents; a pair that names no agents, splits two ways, repeats or compares an agent
// with itself is refused with the agents' names.
func TestComparePairs(t *testing.T) {
	sum := Summary{Name: "x", Agents: []AgentSummary{
		{Name: "A", PerRun: []float64{11, 12, 13, 14}},
		{Name: "B", PerRun: []float64{10, 10, 10, 10}},
		{Name: "C", PerRun: []float64{10, 11, 10, 11}},
		{Name: "D:1", PerRun: []float64{9, 10, 11, 11}},
	}}
	cs, err := ComparePairs(sum, []string{"A:B", "C:D:1"})
	if err != nil || len(cs) != 2 || cs[0].A != "A" || cs[0].B != "B" || cs[1].A != "C" || cs[1].B != "D:1" {
		t.Fatalf("A:B, C:D:1: %+v, %v", cs, err)
	}
	all, err := Compare(sum, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range all {
		if c.A == "A" && c.B == "B" && !(c.P == cs[0].P && c.PAdjusted >= cs[0].PAdjusted) {
			t.Errorf("A − B: p %v adjusted over 2 comparisons %v, over all 6 %v", cs[0].P, cs[0].PAdjusted, c.PAdjusted)
		}
	}
	for pair, want := range map[string]string{
		"A:E":   `x: pair "A:E" is not A:B with A and B agents (the agents: "A", "B", "C", "D:1")`,
		"AB":    `pair "AB" is not A:B`,
		"A:A":   `compares "A" with itself`,
		"B:A":   `"B" and "A" are compared twice`,
		"D:1:1": `pair "D:1:1" is not A:B`,
	} {
		pairs := []string{pair}
		if pair == "B:A" {
			pairs = []string{"A:B", "B:A"}
		}
		if _, err := ComparePairs(sum, pairs); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", pair, err, want)
		}
	}
	sum.Agents = append(sum.Agents, AgentSummary{Name: "A:D", PerRun: []float64{1, 2, 3, 4}}, AgentSummary{Name: "D", PerRun: []float64{1, 1, 1, 1}}, AgentSummary{Name: "1", PerRun: []float64{2, 2, 2, 2}})
	if _, err := ComparePairs(sum, []string{"A:D:1"}); err == nil || !strings.Contains(err.Error(), "x: pair \"A:D:1\" splits into agents in 2 ways") {
		t.Errorf("A:D:1 with agents A, D:1, A:D and 1: %v", err)
	}
}

// The margin of a pair: 5% of the larger mean regret with the oracle (regrets 40 and 10: 2), of
// the larger mean reward's magnitude without it (−60 and 30: 3), or the absolute margin given.
func TestMarginFor(t *testing.T) {
	withRegret := func(reward, regret float64) AgentSummary {
		return AgentSummary{MeanPerTaskReward: reward, Oracle: &AgentOracle{MeanRegret: Estimate{Mean: regret}}}
	}
	five := stats.Margin{Fraction: 0.05}
	if d, basis := MarginFor(five, withRegret(-60, 40), withRegret(30, 10)); math.Abs(d-2) > 1e-12 || basis != "5% of the larger mean regret" {
		t.Errorf("with the oracle: %v (%s), want 2", d, basis)
	}
	if d, basis := MarginFor(five, AgentSummary{MeanPerTaskReward: -60}, withRegret(30, 10)); math.Abs(d-3) > 1e-12 || basis != "5% of the larger mean per-task reward" {
		t.Errorf("without the oracle for one: %v (%s), want 3", d, basis)
	}
	if d, basis := MarginFor(stats.Margin{Absolute: 0.7}, withRegret(1, 1), withRegret(2, 2)); d != 0.7 || basis != "absolute" {
		t.Errorf("absolute: %v (%s), want 0.7", d, basis)
	}
}

// Judge tests equivalence at each pair's margin and adjusts every p-value together: B and C
// differ by 0.05 at most in every run (mean 0) against a margin of 5% of 10.0125, 0.500625, so
// they are level; A beats both by about 11. The margins, the TOSTs' p-values and the MDEs reach
// compare.csv after the verdict.
func TestJudgeAndCompareCSV(t *testing.T) {
	sum := Summary{Name: "x", Agents: []AgentSummary{
		{Name: "A", MeanPerTaskReward: 21.5, PerRun: []float64{20, 21, 22, 23}},
		{Name: "B", MeanPerTaskReward: 10.0125, PerRun: []float64{10, 10.05, 10, 10}},
		{Name: "C", MeanPerTaskReward: 10.0125, PerRun: []float64{10, 10, 10.05, 10}},
	}}
	cs, err := Compare(sum, "")
	if err != nil {
		t.Fatal(err)
	}
	bases, err := Judge(cs, AgentsByName(sum), stats.Margin{Fraction: 0.05})
	if err != nil || len(bases) != 3 || bases[0] != "5% of the larger mean per-task reward" {
		t.Fatalf("Judge: %v, %v", bases, err)
	}
	got := cs[0].Verdict() + "; " + cs[1].Verdict() + "; " + cs[2].Verdict()
	if got != "A > B; A > C; B and C are level" || math.Abs(cs[2].Margin-0.500625) > 1e-12 {
		t.Errorf("verdicts %q, B − C margin %v; want A > B; A > C; B and C are level, 0.500625", got, cs[2].Margin)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "compare.csv")
	if err := WriteComparisons(At(dir), cs); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if lines[0] != "a,b,runs,mean_difference,ci95,t,p,p_holm,effect_size_dz,wins,verdict,margin,p_tost,p_tost_holm,mde" ||
		!strings.HasPrefix(lines[3], "B,C,4,") || !strings.Contains(lines[3], ",B and C are level,0.500625,") {
		t.Errorf("compare.csv:\n%s", b)
	}
	if _, err := Judge(cs, map[string]AgentSummary{}, stats.Margin{Fraction: 0.05}); err == nil || !strings.Contains(err.Error(), `no summary of "A"`) {
		t.Errorf("agents unknown: %v", err)
	}
	// Without an equivalence test (two agents without regret) the TOST columns are empty.
	none := []stats.Comparison{{A: "P", B: "Q", N: 2, P: 1, PAdjusted: 1, PTOST: 1, PTOSTAdjusted: 1}}
	if err := WriteComparisons(At(dir), none); err != nil {
		t.Fatal(err)
	}
	if b, _ = os.ReadFile(path); !strings.HasSuffix(strings.TrimSpace(string(b)), ",P and Q are not distinguishable,0,,,0") {
		t.Errorf("compare.csv without an equivalence test:\n%s", b)
	}
}
