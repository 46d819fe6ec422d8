package results

import (
	"strings"
	"testing"
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
