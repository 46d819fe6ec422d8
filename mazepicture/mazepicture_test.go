package mazepicture

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/temple-rl/temple/env"
	"github.com/temple-rl/temple/template"
)

// gridText writes a template map top row first, as the maze is drawn.
func gridText(m []int, w int) string {
	var b strings.Builder
	for y := len(m)/w - 1; y >= 0; y-- {
		for x := range w {
			fmt.Fprintf(&b, "%d", m[y*w+x]+1)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// The template map of a 3×3 maze with slip 0.4 everywhere (paper Appendix A's setting): moving
// into a corner's two walls keeps 0.8 on the spot — template 2, (0.8, 0.2) — every other move has
// template 1, (0.6, 0.2, 0.2).
func TestTemplateMapGolden(t *testing.T) {
	slip := []float64{0.4, 0.4, 0.4, 0.4, 0.4, 0.4, 0.4, 0.4, 0.4}
	mz := env.Maze{Width: 3, Height: 3, Slip: slip, Actions: 4}
	m, err := mz.Model()
	if err != nil {
		t.Fatal(err)
	}
	tr := template.OfModel(m)
	golden := map[int]string{
		env.Up:    "212\n111\n111\n",
		env.Down:  "111\n111\n212\n",
		env.Left:  "211\n111\n211\n",
		env.Right: "112\n111\n112\n",
	}
	for a, want := range golden {
		if got := gridText(TemplateMap(tr, a), 3); got != want {
			t.Errorf("%s:\n%swant\n%s", env.ActionNames[a], got, want)
		}
	}
	if g := tr.Templates[1].P; len(g) != 2 || g[0] < 0.79 || g[0] > 0.81 {
		t.Errorf("template 2 = %v, want (0.8, 0.2)", g)
	}
	land, tmpl := Landforms(mz), Templates(mz, m)
	if len(land.Panels) != 1 || len(tmpl.Panels) != 4 || len(tmpl.Legend) != 2 {
		t.Fatalf("pictures: %d and %d panels, legend %v", len(land.Panels), len(tmpl.Panels), tmpl.Legend)
	}
	dir := t.TempDir()
	for name, g := range map[string]interface{ Save(string) error }{"landforms": land, "templates": tmpl} {
		if err := g.Save(filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
		for _, ext := range []string{".png", ".svg"} {
			if fi, err := os.Stat(filepath.Join(dir, name+ext)); err != nil || fi.Size() == 0 {
				t.Errorf("%s%s: %v", name, ext, err)
			}
		}
	}
}

// The learned-template picture numbers each pair by its library template and marks the pairs
// whose template is farther than τ̂ from their true one.
func TestLearnedPicturesMarkWrongIdentifications(t *testing.T) {
	slip := []float64{0.4, 0.4, 0.4, 0.4, 0.4, 0.4, 0.4, 0.4, 0.4}
	mz := env.Maze{Width: 3, Height: 3, Slip: slip, Actions: 4}
	m, _ := mz.Model()
	// Template 7 is right for the pairs that move freely, (0.6, 0.2, 0.2); template 9 is (1), wrong
	// for every pair. Every pair is given 7, except (1,1) up, given 9, and (2,1) up, never
	// identified.
	snap := template.Snapshot{Pairs: make([]int, 36), Library: []template.Template{
		{ID: 7, Visits: []template.Count{{Rank: 0, N: 60}, {Rank: 1, N: 20}, {Rank: 2, N: 20}}},
		{ID: 9, Visits: []template.Count{{Rank: 0, N: 100}}}}}
	for i := range snap.Pairs {
		snap.Pairs[i] = 7
	}
	snap.Pairs[mz.Index(env.Cell{X: 1, Y: 1})*4+env.Up] = 9
	snap.Pairs[mz.Index(env.Cell{X: 2, Y: 1})*4+env.Up] = -1
	grid, library, ok := Learned(mz, m, snap, 0.15)
	if !ok || len(grid.Panels) != 4 || len(library.Series) != 2 {
		t.Fatalf("ok %v, %d panels, %d library series", ok, len(grid.Panels), len(library.Series))
	}
	up := grid.Panels[env.Up]
	// Row y = 1 first: (1,1) got the wrong template 2; (2,1) none; (3,1) template 1, right.
	if got := up.Label[:3]; got[0] != "2*" || got[1] != "–" || got[2] != "1" {
		t.Errorf("up, bottom row labels %q", got)
	}
	// In the corner (1,3), moving up keeps 0.8 on the spot: template 1 is wrong there too.
	if got := up.Label[mz.Index(env.Cell{X: 1, Y: 3})]; got != "1*" {
		t.Errorf("up from (1,3): %q, want 1*", got)
	}
	// Wrong: the 8 pairs that push a corner into its two walls, whose truth is (0.8, 0.2), and
	// (1,1) up.
	if !strings.Contains(grid.Title, "(9 identifications farther") {
		t.Errorf("title %q: want 9 wrong identifications", grid.Title)
	}
}

// A maze computed on demand has the true templates of its stored model, and draws the same
// pictures: inspect reads the rows of a large maze without building its model.
func TestTemplatesOfOnDemandMazeEqualStored(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	slips := []float64{0, 0.2, 0.4, 0.5, 1}
	for trial := range 20 {
		w, h := 2+rng.IntN(8), 2+rng.IntN(8)
		mz := env.Maze{Width: w, Height: h, Slip: make([]float64, w*h), Actions: 4 + 4*rng.IntN(2),
			StepCost: 0.2, GoalReward: 1, LavaCost: 1, TerminalGoals: trial%2 == 0,
			Goals: []env.Cell{{X: w, Y: h}}, Lava: []env.Cell{{X: 1, Y: h}}}
		for i := range mz.Slip {
			mz.Slip[i] = slips[rng.IntN(len(slips))]
		}
		if w*h > 4 {
			mz.Walls = []env.Cell{{X: 1 + rng.IntN(w-1), Y: 1}}
		}
		m, err := mz.Model()
		if err != nil {
			t.Fatal(err)
		}
		d, err := mz.Dynamics()
		if err != nil {
			t.Fatal(err)
		}
		if got, want := template.OfModel(d), template.OfModel(m); !reflect.DeepEqual(got, want) {
			t.Fatalf("maze %d: templates on demand %+v, stored %+v", trial, got, want)
		}
		land, tmpl := Landforms(mz), Templates(mz, d)
		wantLand, wantTmpl := Landforms(mz), Templates(mz, m)
		if !reflect.DeepEqual(land, wantLand) || !reflect.DeepEqual(tmpl, wantTmpl) {
			t.Fatalf("maze %d: the pictures on demand differ from the stored model's", trial)
		}
	}
}

// A maze too large to draw cell by cell has no labels: its goals and lava are classes of their
// own in the landforms, after the slips', and its walls are blank in every picture.
func TestLargeMazePicturesMarkGoalsAndLavaByClass(t *testing.T) {
	const n = 60
	mz := env.Maze{Width: n, Height: n, Slip: make([]float64, n*n), Actions: 4, StepCost: 0.2, GoalReward: 1, LavaCost: 1,
		Goals: []env.Cell{{X: n, Y: n}}, Lava: []env.Cell{{X: 2, Y: 2}}, Walls: []env.Cell{{X: 3, Y: 3}}}
	for i := range mz.Slip {
		mz.Slip[i] = 0.2 * float64(i%3)
	}
	d, err := mz.Dynamics()
	if err != nil {
		t.Fatal(err)
	}
	land, tmpl := Landforms(mz), Templates(mz, d)
	p := land.Panels[0]
	goal, lava, wall := mz.Index(env.Cell{X: n, Y: n}), mz.Index(env.Cell{X: 2, Y: 2}), mz.Index(env.Cell{X: 3, Y: 3})
	if p.Label != nil || p.Class[lava] != 3 || p.Class[goal] != 4 || p.Class[wall] != -1 {
		t.Errorf("landforms: labels %v, lava class %d, goal class %d, wall class %d; want no labels, 3, 4, -1",
			p.Label != nil, p.Class[lava], p.Class[goal], p.Class[wall])
	}
	if want := []string{"slip 0", "slip 0.2", "slip 0.4", "lava", "goal"}; !reflect.DeepEqual(land.Legend, want) {
		t.Errorf("legend %q, want %q", land.Legend, want)
	}
	for _, q := range tmpl.Panels {
		if q.Label != nil || q.Class[wall] != -1 {
			t.Errorf("templates %s: labels %v, wall class %d", q.Title, q.Label != nil, q.Class[wall])
		}
	}
}
