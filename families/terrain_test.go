package families

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/temple-rl/temple/env"
	"github.com/temple-rl/temple/mdp"
	"github.com/temple-rl/temple/template"
)

// openGrid is a 5×3 grid without walls, every cell of the given kind, start (1,1) (index 0), goal
// (5,3) (index 14), and a hazard at (3,3) (index 12).
func openGrid(kind string) terrainGrid {
	g := terrainGrid{w: 5, h: 3, wall: make([]bool, 15), kind: make([]string, 15), hazard: make([]bool, 15), start: 0, goal: 14}
	g.hazard[12] = true
	for c := range g.kind {
		if c != 12 && c != 14 {
			g.kind[c] = kind
		}
	}
	return g
}

// outcomes are a row's next states and probabilities, rewards aside.
func outcomes(row []mdp.Transition) map[int]float64 {
	out := map[int]float64{}
	for _, t := range row {
		out[t.Next] += t.Prob
	}
	return out
}

// TestTerrainRows works moves by hand on openGrid (cells numbered x + 5·y from 0): from cell 6,
// (2,2), right reaches 7 on floor; on ice 7 with 0.5 and 8 with 0.5; on mud 7 with 0.75 and 6 with
// 0.25; on sand 7 with 0.6, 11 (up) and 1 (down) with 0.2 each. From cell 8, (4,2), right on ice
// slides to 9 and stops at the border (9 with 1). From cell 7, (3,2), up on ice reaches the
// hazard 12 and stops there: reward −hazard_cost, probability 1. Into the border from cell 0, left
// stays at 0 whatever the kind.
func TestTerrainRows(t *testing.T) {
	p := defaultTerrain().(*TerrainParams)
	p.SandSlip = 0.4
	for _, c := range []struct {
		kind       string
		cell, move int
		want       map[int]float64
	}{
		{Floor, 6, env.Right, map[int]float64{7: 1}},
		{Ice, 6, env.Right, map[int]float64{7: 0.5, 8: 0.5}},
		{Mud, 6, env.Right, map[int]float64{7: 0.75, 6: 0.25}},
		{Sand, 6, env.Right, map[int]float64{7: 0.6, 11: 0.2, 1: 0.2}},
		{Ice, 8, env.Right, map[int]float64{9: 1}},
		{Ice, 7, env.Up, map[int]float64{12: 1}},
		{Mud, 0, env.Left, map[int]float64{0: 1}},
		{Sand, 0, env.Left, map[int]float64{0: 0.8, 5: 0.2}},
	} {
		row := openGrid(c.kind).row(p, c.cell, c.move)
		got := outcomes(row)
		if len(got) != len(c.want) {
			t.Errorf("%s, cell %d, move %d: outcomes %v, want %v", c.kind, c.cell, c.move, got, c.want)
			continue
		}
		for s, q := range c.want {
			if d := got[s] - q; d > 1e-12 || d < -1e-12 {
				t.Errorf("%s, cell %d, move %d: outcomes %v, want %v", c.kind, c.cell, c.move, got, c.want)
			}
		}
	}
	if r := openGrid(Ice).reward(p, 12); r != -p.HazardCost {
		t.Errorf("reward on the hazard %v, want %v", r, -p.HazardCost)
	}
	if r := openGrid(Ice).reward(p, 14); r != p.GoalReward-p.StepCost {
		t.Errorf("reward on the goal %v, want %v", r, p.GoalReward-p.StepCost)
	}
}

// TestTerrainSequence: equal streams give equal grids; every grid has its goal at least
// min_distance moves from its start and its hazards beside a shortest path; the layouts differ from
// task to task; and the open-floor templates of the default kinds — (1), (0.5, 0.5) and
// (0.75, 0.25) with reward −0.05 — recur in every task.
func TestTerrainSequence(t *testing.T) {
	p := defaultTerrain().(*TerrainParams)
	p.Count = 8
	a, err := p.Sequence(0, rand.New(rand.NewPCG(3, 4)))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := p.Sequence(0, rand.New(rand.NewPCG(3, 4)))
	want := []template.Point{{P: []float64{1}, R: -0.05}, {P: []float64{0.5, 0.5}, R: -0.05}, {P: []float64{0.75, 0.25}, R: -0.05}}
	starts := map[int]bool{}
	for k := range a {
		ma, err := a[k].Model()
		if err != nil {
			t.Fatal(err)
		}
		mb, _ := b[k].Model()
		if mdp.Distance(ma, mb) != 0 {
			t.Errorf("task %d differs between equal streams", k)
		}
		start := slices.Index(ma.StartDistribution(), 1)
		starts[start] = true
		truth := template.OfModel(ma)
		for _, g := range want {
			if _, d := truth.Nearest(g); d > 1e-9 {
				t.Errorf("task %d: template %v missing (nearest at %v)", k, g, d)
			}
		}
	}
	if len(starts) < 4 {
		t.Errorf("%d distinct start cells over 8 tasks, want the layouts to vary", len(starts))
	}
	for seed := range uint64(50) {
		g, err := p.drawGrid(rand.New(rand.NewPCG(seed, 9)))
		if err != nil {
			t.Fatal(err)
		}
		dist, parent := g.bfs(g.start)
		if dist[g.goal] < p.MinDistance {
			t.Errorf("seed %d: goal %d moves from the start, want at least %d", seed, dist[g.goal], p.MinDistance)
		}
		onPath := map[int]bool{}
		for c := g.goal; c >= 0; c = parent[c] {
			onPath[c] = true
		}
		for c, h := range g.hazard {
			if !h {
				continue
			}
			beside := false
			for a := range 4 {
				if d, ok := g.neighbour(c, a); ok && onPath[d] {
					beside = true
				}
			}
			if onPath[c] || !beside {
				t.Errorf("seed %d: hazard %d on the path (%v) or not beside it", seed, c, onPath[c])
			}
		}
	}
}

// TestTerrainValidate names the key out of range.
func TestTerrainValidate(t *testing.T) {
	for _, c := range []struct {
		set  func(*TerrainParams)
		want string
	}{
		{func(p *TerrainParams) { p.Terrains = []string{"lava"} }, `terrains[0] = "lava"`},
		{func(p *TerrainParams) { p.Terrains = []string{Ice, Ice} }, "listed twice"},
		{func(p *TerrainParams) { p.IceSlide = 1 }, "ice_slide = 1"},
		{func(p *TerrainParams) { p.Walls = 0.6 }, "walls = 0.6"},
		{func(p *TerrainParams) { p.MinDistance = 20 }, "min_distance = 20"},
		{func(p *TerrainParams) { p.Width, p.Height = 100, 50 }, "width·height = 5000"},
	} {
		p := defaultTerrain().(*TerrainParams)
		c.set(p)
		if err := p.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Validate = %v, want it to contain %q", err, c.want)
		}
	}
}
