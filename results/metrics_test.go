package results

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/temple-rl/temple/agent"
)

// TestReadMetricsReadsWhatWriteWrote: every metric of every task of every cell, in the order
// Write writes them, an agent's name with a comma and quotes included; a damaged line is refused
// with its number.
func TestReadMetricsReadsWhatWriteWrote(t *testing.T) {
	dir := t.TempDir()
	setup := fixtureSetup(t)
	setup.Agents = []string{`A, "quoted"`, "B"}
	setup.Baseline = "B"
	var cells []CellResult
	for run := range 2 {
		for _, a := range setup.Agents {
			c := fixtureCell(run, a)
			for k := range c.Tasks {
				c.Tasks[k].Metrics = []agent.Metric{{Name: "known_pairs", Value: float64(10*run + k)}, {Name: "plans", Value: 0.5}}
			}
			cells = append(cells, c)
		}
	}
	if _, err := Write(At(dir), setup, cells); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "metrics.csv")
	rows, err := ReadMetrics(At(dir))
	if err != nil {
		t.Fatal(err)
	}
	var want []MetricRow
	for _, c := range cells {
		for _, task := range c.Tasks {
			for _, m := range task.Metrics {
				want = append(want, MetricRow{Run: c.Run, Agent: c.Agent, Task: task.Task, Metric: m.Name, Value: m.Value})
			}
		}
	}
	if !slices.Equal(rows, want) {
		t.Fatalf("ReadMetrics = %v, want %v", rows, want)
	}

	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	damaged := strings.Replace(string(b), ",plans,0.5\n", ",plans,half\n", 1)
	if err := os.WriteFile(path, []byte(damaged), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = ReadMetrics(At(dir))
	var d *DamagedError
	if !errors.As(err, &d) || d.Path != path || !strings.Contains(d.Problem, "line 3 is not run,agent,task,metric,value") {
		t.Errorf("a value that is not a number: error %v, want a DamagedError naming %s and line 3", err, path)
	}
}

// FuzzReadMetrics: whatever the bytes of metrics.csv, ReadMetrics returns rows or a
// *DamagedError, and never panics.
func FuzzReadMetrics(f *testing.F) {
	f.Add([]byte("run,agent,task,metric,value\n0,A,0,plans,1\n1,\"B, c\",2,known_pairs,3.5\n"))
	f.Add([]byte("run,agent,task,metric,value\n0,A\n"))
	f.Add([]byte(""))
	f.Fuzz(func(t *testing.T, b []byte) {
		if _, err := parseMetrics(bytes.NewReader(b), "metrics.csv"); err != nil {
			var d *DamagedError
			if !errors.As(err, &d) {
				t.Fatalf("error %v is not a DamagedError", err)
			}
		}
	})
}
