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
