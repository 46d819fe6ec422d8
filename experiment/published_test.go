package experiment

import (
	"math"
	"slices"
	"testing"

	"github.com/temple-rl/temple/families"
	"github.com/temple-rl/temple/template"
)

// TestPublishedOnlineMazeTemplates checks the ground-truth templates of the published run 0
// against what the published experiment reports: 17 distinct templates over its 100 tasks, whose smallest pairwise
// distances are 0.08, 0.10 and 0.1414.
func TestPublishedOnlineMazeTemplates(t *testing.T) {
	s := Default()
	s.Runs = 1
	s.Tasks = families.FromFile("published:online-maze-4x4")
	p, err := Build(s)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Runs[0]) != 100 {
		t.Fatalf("run 0 has %d tasks, want 100", len(p.Runs[0]))
	}
	var all []template.Point
	for _, task := range p.Runs[0] {
		all = append(all, template.OfModel(task.Model).Templates...)
	}
	distinct := template.Distinct(all)
	if len(distinct) != 17 {
		t.Errorf("%d distinct true templates, want 17", len(distinct))
	}
	var d []float64
	for i := range distinct {
		for j := i + 1; j < len(distinct); j++ {
			d = append(d, math.Round(template.Distance(distinct[i], distinct[j])*1e4)/1e4)
		}
	}
	slices.Sort(d)
	d = slices.Compact(d)
	if want := []float64{0.08, 0.1, 0.1414}; !slices.Equal(d[:3], want) {
		t.Errorf("smallest template distances %v, want %v", d[:3], want)
	}
}
