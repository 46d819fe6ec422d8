package families

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/temple-rl/temple/env"
	"github.com/temple-rl/temple/env/custom"
	"github.com/temple-rl/temple/mdp"
)

// The family registers itself (registry.go).
func init() {
	register(Family{Name: Terrain, Summary: "a new grid layout per task with cells of recurring terrain kinds: floor, ice, mud, sand (not in the paper; templates as a prior)",
		Defaults: defaultTerrain})
}

// Terrain is the family of terrain grids (not in the paper; docs/experiments/terrain.md): every
// task is a new grid — walls, start, goal and hazards drawn anew, so that nothing carries over by
// state index — whose open cells are each of one terrain kind: floor moves as told, ice slides one
// cell further, mud holds the mover back, sand slips it sideways. A kind gives every move from its
// cells the same sorted next-state distribution (its template) wherever the grid is open around
// the cell, so a few well-separated templates recur across tasks while the layouts do not.
const Terrain = "terrain"

// The terrain kinds.
const (
	Floor = "floor" // the move happens
	Ice   = "ice"   // the move goes one cell further with probability ice_slide
	Mud   = "mud"   // the mover stays with probability mud_hold
	Sand  = "sand"  // the move goes to each perpendicular neighbour with probability sand_slip/2
)

// terrainKinds are the kinds a config may name.
var terrainKinds = []string{Floor, Ice, Mud, Sand}

// TerrainParams are terrain's parameters: the grid's size, the terrain set and the kinds'
// probabilities (which set the templates' separations), walls, hazards and rewards.
type TerrainParams struct {
	Width       int      `yaml:"width" doc:"columns of every grid" range:">= 3, width·height <= 4096"`
	Height      int      `yaml:"height" doc:"rows of every grid" range:">= 3"`
	Count       int      `yaml:"count" doc:"number of tasks of a run, each a new grid" range:">= 1"`
	Terrains    []string `yaml:"terrains" doc:"terrain kinds each open cell is drawn from, uniformly: floor, ice (slides on), mud (holds back), sand (slips sideways)" range:"1 to 4 distinct of floor, ice, mud, sand"`
	IceSlide    float64  `yaml:"ice_slide" doc:"probability that a move from ice goes one cell further (when that cell is open)" range:"0 < ice_slide < 1"`
	MudHold     float64  `yaml:"mud_hold" doc:"probability that a move from mud leaves the mover where it is" range:"0 < mud_hold < 1"`
	SandSlip    float64  `yaml:"sand_slip" doc:"probability that a move from sand goes sideways instead, half to each side" range:"0 < sand_slip < 1"`
	Walls       float64  `yaml:"walls" doc:"probability that a cell is a wall, drawn cell by cell" range:"0 <= walls < 0.5"`
	Hazards     int      `yaml:"hazards" doc:"hazard cells per grid, drawn among the open cells beside a shortest path from start to goal (fewer when there are fewer); reaching one ends the episode" range:">= 0"`
	MinDistance int      `yaml:"min_distance" doc:"fewest moves from start to goal" range:"1 <= min_distance <= width + height − 2"`
	StepCost    float64  `yaml:"step_cost" doc:"cost of every move (a move onto the goal pays goal_reward − step_cost)" range:"finite"`
	GoalReward  float64  `yaml:"goal_reward" doc:"reward for reaching the goal, which ends the episode" range:"finite"`
	HazardCost  float64  `yaml:"hazard_cost" doc:"cost of reaching a hazard, which ends the episode" range:"finite"`
}

// defaultTerrain is 60 grids of 8×8 with floor, ice and mud: templates (1), (0.5, 0.5) and
// (0.75, 0.25) in the open, at distances 0.35 to 0.71 before rewards.
func defaultTerrain() Params {
	return &TerrainParams{Width: 8, Height: 8, Count: 60, Terrains: []string{Floor, Ice, Mud},
		IceSlide: 0.5, MudHold: 0.25, SandSlip: 0.4, Walls: 0.15, Hazards: 4, MinDistance: 7,
		StepCost: 0.05, GoalReward: 1, HazardCost: 1}
}

// maxTerrainCells bounds a grid: every task is a stored model, written whole to tasks.json.
const maxTerrainCells = 4096

func (p *TerrainParams) Validate() error {
	switch {
	case p.Width < 3 || p.Height < 3:
		return fmt.Errorf("width = %d and height = %d, want both at least 3", p.Width, p.Height)
	case p.Width*p.Height > maxTerrainCells:
		return fmt.Errorf("width·height = %d, want at most %d (each grid is a stored model)", p.Width*p.Height, maxTerrainCells)
	case p.Count < 1:
		return fmt.Errorf("count = %d, want at least 1", p.Count)
	case len(p.Terrains) == 0 || len(p.Terrains) > len(terrainKinds):
		return fmt.Errorf("terrains = %v, want 1 to 4 distinct of %v", p.Terrains, terrainKinds)
	case !(p.Walls >= 0 && p.Walls < 0.5):
		return fmt.Errorf("walls = %v, want 0 <= walls < 0.5", p.Walls)
	case p.Hazards < 0:
		return fmt.Errorf("hazards = %d, want at least 0", p.Hazards)
	case p.MinDistance < 1 || p.MinDistance > p.Width+p.Height-2:
		return fmt.Errorf("min_distance = %d, want 1 <= min_distance <= width + height − 2 = %d", p.MinDistance, p.Width+p.Height-2)
	}
	for k, t := range p.Terrains {
		if !slices.Contains(terrainKinds, t) {
			return fmt.Errorf("terrains[%d] = %q, want one of %v", k, t, terrainKinds)
		}
		if slices.Index(p.Terrains, t) != k {
			return fmt.Errorf("terrains[%d] = %q is listed twice", k, t)
		}
	}
	for _, f := range []struct {
		key string
		v   float64
	}{{"ice_slide", p.IceSlide}, {"mud_hold", p.MudHold}, {"sand_slip", p.SandSlip}} {
		if !(f.v > 0 && f.v < 1) {
			return fmt.Errorf("%s = %v, want a probability strictly between 0 and 1", f.key, f.v)
		}
	}
	for _, f := range []struct {
		key string
		v   float64
	}{{"step_cost", p.StepCost}, {"goal_reward", p.GoalReward}, {"hazard_cost", p.HazardCost}} {
		if math.IsNaN(f.v) || math.IsInf(f.v, 0) {
			return fmt.Errorf("%s = %v, want a finite number", f.key, f.v)
		}
	}
	return nil
}

// terrainAttempts bounds the layouts drawn for one task before the family gives up: a layout is
// drawn again when no open cell is min_distance moves from the start.
const terrainAttempts = 1000

// Sequence draws the grids of a run one after another. For each grid, in this order: each cell is
// a wall with probability walls (cell order: x fastest, then y); the start, uniformly among the
// open cells; the goal, uniformly among the open cells at least min_distance moves from the start
// (none: the layout is drawn again); the hazards, without replacement among the open cells beside
// the shortest path from start to goal that breadth-first search finds (moves in the order up,
// down, left, right), except the path itself; then each remaining open cell's terrain, uniformly
// from terrains, in cell order.
func (p *TerrainParams) Sequence(_ int, rng *rand.Rand) (env.Sequence, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	out := make(env.Sequence, p.Count)
	for k := range out {
		g, err := p.drawGrid(rng)
		if err != nil {
			return nil, fmt.Errorf("terrain: task %d: %w", k, err)
		}
		m, err := g.model(p)
		if err != nil {
			return nil, fmt.Errorf("terrain: task %d: %w", k, err)
		}
		out[k] = env.Custom{Task: custom.Task{Name: fmt.Sprintf("terrain %dx%d", p.Width, p.Height), Model: m}}
	}
	return out, nil
}

// terrainGrid is one drawn layout: per cell its kind ("" for walls, the goal and hazards), and
// the start, goal and hazard cells by index.
type terrainGrid struct {
	w, h        int
	wall        []bool
	kind        []string
	start, goal int
	hazard      []bool
}

func (p *TerrainParams) drawGrid(rng *rand.Rand) (terrainGrid, error) {
	n := p.Width * p.Height
	for range terrainAttempts {
		g := terrainGrid{w: p.Width, h: p.Height, wall: make([]bool, n), kind: make([]string, n), hazard: make([]bool, n)}
		var open []int
		for c := range n {
			g.wall[c] = rng.Float64() < p.Walls
			if !g.wall[c] {
				open = append(open, c)
			}
		}
		if len(open) < 2 {
			continue
		}
		g.start = open[rng.IntN(len(open))]
		dist, parent := g.bfs(g.start)
		var far []int
		for _, c := range open {
			if dist[c] >= p.MinDistance {
				far = append(far, c)
			}
		}
		if len(far) == 0 {
			continue
		}
		g.goal = far[rng.IntN(len(far))]
		onPath := make([]bool, n)
		for c := g.goal; c >= 0; c = parent[c] {
			onPath[c] = true
		}
		var beside []int
		for _, c := range open {
			if onPath[c] {
				continue
			}
			for a := range 4 {
				if d, ok := g.neighbour(c, a); ok && onPath[d] {
					beside = append(beside, c)
					break
				}
			}
		}
		for range min(p.Hazards, len(beside)) {
			j := rng.IntN(len(beside))
			g.hazard[beside[j]] = true
			beside = slices.Delete(beside, j, j+1)
		}
		for _, c := range open {
			if c != g.goal && !g.hazard[c] {
				g.kind[c] = p.Terrains[rng.IntN(len(p.Terrains))]
			}
		}
		return g, nil
	}
	return terrainGrid{}, errors.New("no layout with a goal min_distance moves from the start in 1000 draws: lower walls or min_distance")
}

// terrainMoves are the four moves in the order of env's actions: up (y + 1), down, left, right.
var terrainMoves = [4][2]int{env.Up: {0, 1}, env.Down: {0, -1}, env.Left: {-1, 0}, env.Right: {1, 0}}

// sides are the two perpendicular moves of each move (sand).
var sides = [4][2]int{env.Up: {env.Left, env.Right}, env.Down: {env.Left, env.Right}, env.Left: {env.Up, env.Down}, env.Right: {env.Up, env.Down}}

// neighbour is the open cell one move a from c, false at the border or a wall.
func (g terrainGrid) neighbour(c, a int) (int, bool) {
	x, y := c%g.w+terrainMoves[a][0], c/g.w+terrainMoves[a][1]
	if x < 0 || x >= g.w || y < 0 || y >= g.h {
		return 0, false
	}
	d := x + y*g.w
	return d, !g.wall[d]
}

// bfs is every cell's number of moves from s (−1: unreachable or a wall) and its parent on a
// shortest path (−1 for s and unreached cells).
func (g terrainGrid) bfs(s int) (dist, parent []int) {
	dist, parent = make([]int, len(g.wall)), make([]int, len(g.wall))
	for c := range dist {
		dist[c], parent[c] = -1, -1
	}
	dist[s] = 0
	queue := []int{s}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		for a := range 4 {
			if d, ok := g.neighbour(c, a); ok && dist[d] < 0 {
				dist[d], parent[d] = dist[c]+1, c
				queue = append(queue, d)
			}
		}
	}
	return dist, parent
}

// terminal reports whether cell c ends an episode: a wall (no move reaches it; terminal so that
// it carries no pairs), the goal or a hazard.
func (g terrainGrid) terminal(c int) bool { return g.wall[c] || c == g.goal || g.hazard[c] }

// model is the grid's MDP: a state per cell, the four moves, terminal goal, hazards and walls,
// and the start cell.
func (g terrainGrid) model(p *TerrainParams) (*mdp.Model, error) {
	n := g.w * g.h
	terminal := make([]bool, n)
	for c := range terminal {
		terminal[c] = g.terminal(c)
	}
	rows := make([][]mdp.Transition, n*4)
	for c := range n {
		if terminal[c] {
			continue
		}
		for a := range 4 {
			rows[c*4+a] = g.row(p, c, a)
		}
	}
	start := make([]float64, n)
	start[g.start] = 1
	return mdp.NewEpisodic(n, 4, rows, start, terminal)
}

// row is the outcomes of move a from open cell c by c's terrain; a move into the border or a wall
// stays in c, and a slide stops at a wall, the border, the goal or a hazard.
func (g terrainGrid) row(p *TerrainParams, c, a int) []mdp.Transition {
	to := func(from, move int) int {
		if d, ok := g.neighbour(from, move); ok {
			return d
		}
		return from
	}
	one := to(c, a)
	var out []mdp.Transition
	add := func(next int, prob float64) {
		for k := range out {
			if out[k].Next == next {
				out[k].Prob += prob
				return
			}
		}
		out = append(out, mdp.Transition{Next: next, Prob: prob, Reward: g.reward(p, next)})
	}
	switch g.kind[c] {
	case Floor:
		add(one, 1)
	case Ice:
		further := one
		if one != c && !g.terminal(one) {
			further = to(one, a)
		}
		add(one, 1-p.IceSlide)
		add(further, p.IceSlide)
	case Mud:
		add(one, 1-p.MudHold)
		add(c, p.MudHold)
	case Sand:
		add(one, 1-p.SandSlip)
		add(to(c, sides[a][0]), p.SandSlip/2)
		add(to(c, sides[a][1]), p.SandSlip/2)
	}
	return out
}

// reward is paid on landing in cell c.
func (g terrainGrid) reward(p *TerrainParams, c int) float64 {
	switch {
	case c == g.goal:
		return p.GoalReward - p.StepCost
	case g.hazard[c]:
		return -p.HazardCost
	}
	return -p.StepCost
}
