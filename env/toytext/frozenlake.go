package toytext

import (
	"fmt"
	"slices"

	"github.com/temple-rl/temple/mdp"
)

// FrozenLake actions, in Gymnasium's order (frozen_lake.py: LEFT = 0, DOWN = 1, RIGHT = 2, UP = 3).
const (
	Left = iota
	Down
	Right
	Up
)

// FrozenLakeActions is the number of FrozenLake actions.
const FrozenLakeActions = 4

// FrozenLakeActionNames are the names of the FrozenLake actions in table order.
var FrozenLakeActionNames = [FrozenLakeActions]string{"left", "down", "right", "up"}

// lakeMaps are Gymnasium's preset maps (frozen_lake.py, MAPS), row 0 first.
var lakeMaps = map[string][]string{
	"4x4": {
		"SFFF",
		"FHFH",
		"FFFH",
		"HFFG",
	},
	"8x8": {
		"SFFFFFFF",
		"FFFFFFFF",
		"FFFHFFFF",
		"FFFFFHFF",
		"FFFHFFFF",
		"FHHFFFHF",
		"FHFFHFHF",
		"FFFHFFFG",
	},
}

// FrozenLakeParams choose a FrozenLake task: a preset map or a map of one's own, slippery or not.
type FrozenLakeParams struct {
	// Map names a preset map of Gymnasium, "4x4" or "8x8"; leave it empty to give Desc instead.
	Map string `json:"map,omitempty"`
	// Desc is a map of one's own, row 0 (the top) first, all rows of one length, each letter one of
	// 'S' (start), 'F' (frozen), 'H' (hole) or 'G' (goal). It needs at least one 'S'; with several,
	// the start is uniform over them, as in Gymnasium.
	Desc []string `json:"desc,omitempty"`
	// Slippery is Gymnasium's is_slippery: the intended move happens with probability 1/3 and each
	// of the two perpendicular moves with probability 1/3; never the opposite move.
	Slippery bool `json:"slippery"`
}

// Lake is a validated FrozenLake map: rows of equal length over the letters S, F, H, G, with at
// least one S. State s is the cell (row, col) with s = row*Cols() + col, as in Gymnasium. Get one
// from FrozenLakeParams.Lake; the zero Lake has no cells.
type Lake struct{ rows []string }

// Lake resolves the map of p (the preset named by Map, or Desc) and validates it. Errors name the
// field and its value.
func (p FrozenLakeParams) Lake() (Lake, error) {
	switch {
	case p.Map != "" && p.Desc != nil:
		return Lake{}, fmt.Errorf("frozenlake: both Map (%q) and Desc are set, want one of them", p.Map)
	case p.Map != "":
		m, ok := lakeMaps[p.Map]
		if !ok {
			return Lake{}, fmt.Errorf("frozenlake: Map = %q, want \"4x4\" or \"8x8\" (or an empty Map and a Desc)", p.Map)
		}
		return Lake{slices.Clone(m)}, nil
	case len(p.Desc) == 0:
		return Lake{}, fmt.Errorf("frozenlake: Map is empty and Desc has no rows, want a preset Map or a Desc")
	}
	ncol := len(p.Desc[0])
	if ncol == 0 {
		return Lake{}, fmt.Errorf("frozenlake: Desc row 0 is empty, want at least one cell")
	}
	starts := 0
	for r, row := range p.Desc {
		if len(row) != ncol {
			return Lake{}, fmt.Errorf("frozenlake: Desc row %d is %q with %d cells, want %d like row 0", r, row, len(row), ncol)
		}
		for c := 0; c < ncol; c++ {
			switch row[c] {
			case 'S':
				starts++
			case 'F', 'H', 'G':
			default:
				return Lake{}, fmt.Errorf("frozenlake: Desc row %d column %d is %q, want 'S', 'F', 'H' or 'G'", r, c, row[c])
			}
		}
	}
	if starts == 0 {
		return Lake{}, fmt.Errorf("frozenlake: Desc %q has no start cell 'S'", p.Desc)
	}
	return Lake{slices.Clone(p.Desc)}, nil
}

// Desc returns a copy of the map's rows, row 0 first.
func (l Lake) Desc() []string { return slices.Clone(l.rows) }

// Rows is the number of rows of the map.
func (l Lake) Rows() int { return len(l.rows) }

// Cols is the number of columns of the map.
func (l Lake) Cols() int {
	if len(l.rows) == 0 {
		return 0
	}
	return len(l.rows[0])
}

// State is the state index of cell (row, col): row*Cols() + col.
func (l Lake) State(row, col int) int { return row*l.Cols() + col }

// Cell is the (row, col) of state s.
func (l Lake) Cell(s int) (row, col int) { return s / l.Cols(), s % l.Cols() }

// Letter is the map letter of state s: 'S', 'F', 'H' or 'G'.
func (l Lake) Letter(s int) byte {
	r, c := l.Cell(s)
	return l.rows[r][c]
}

// CellName names state s by its cell and letter, e.g. "(1,1) H".
func (l Lake) CellName(s int) string {
	r, c := l.Cell(s)
	return fmt.Sprintf("(%d,%d) %c", r, c, l.rows[r][c])
}

// Terminal reports whether an episode ends on reaching state s: a hole or the goal.
func (l Lake) Terminal(s int) bool {
	letter := l.Letter(s)
	return letter == 'H' || letter == 'G'
}

// move is the state reached from s by moving in direction a; a move off the map stays in s.
func (l Lake) move(s, a int) int {
	r, c := l.Cell(s)
	switch a {
	case Left:
		c = max(c-1, 0)
	case Down:
		r = min(r+1, l.Rows()-1)
	case Right:
		c = min(c+1, l.Cols()-1)
	case Up:
		r = max(r-1, 0)
	}
	return l.State(r, c)
}

// FrozenLake builds the exact model of Gymnasium's FrozenLake-v1 (frozen_lake.py, FrozenLakeEnv
// with success_rate 1/3 and reward_schedule (1, 0, 0)). S = rows*cols, A = 4 (left, down, right,
// up). A move off the map stays in place. Slippery, action a moves in directions a−1, a and a+1
// (mod 4) with probability 1/3 each, which are the two perpendicular moves and the intended one;
// not slippery, it moves in direction a. The reward is 1 on every transition into the goal 'G' and
// 0 otherwise. Holes and the goal are terminal. The start distribution is uniform over the 'S'
// cells.
//
// Gymnasium lists one outcome per direction, so a row can name the same next state twice (moving
// left from a cell of the left edge stays, as does its slip up on the top row); here the outcomes
// with one next state are merged into one with the summed probability, in the order of first
// appearance. The reward depends only on the next state, so the merge is exact.
func FrozenLake(p FrozenLakeParams) (*mdp.Model, error) {
	l, err := p.Lake()
	if err != nil {
		return nil, err
	}
	S, A := l.Rows()*l.Cols(), FrozenLakeActions
	rows := make([][]mdp.Transition, S*A)
	start := make([]float64, S)
	terminal := make([]bool, S)
	starts := 0
	for s := 0; s < S; s++ {
		if l.Letter(s) == 'S' {
			starts++
		}
	}
	for s := 0; s < S; s++ {
		if l.Terminal(s) {
			terminal[s] = true // its rows stay empty: NewEpisodic makes it absorbing
			continue
		}
		if l.Letter(s) == 'S' {
			start[s] = 1 / float64(starts)
		}
		for a := 0; a < A; a++ {
			dirs, prob := []int{a}, 1.0
			if p.Slippery {
				dirs, prob = []int{(a + 3) % 4, a, (a + 1) % 4}, 1.0/3.0
			}
			var row []mdp.Transition
			for _, d := range dirs {
				next := l.move(s, d)
				row = addOutcome(row, next, prob, l.reward(next))
			}
			rows[s*A+a] = row
		}
	}
	return mdp.NewEpisodic(S, A, rows, start, terminal)
}

// reward is the reward paid on a transition into state s: 1 into the goal, 0 elsewhere.
func (l Lake) reward(s int) float64 {
	if l.Letter(s) == 'G' {
		return 1
	}
	return 0
}

// addOutcome adds prob to the outcome of row that leads to next, or appends a new outcome.
func addOutcome(row []mdp.Transition, next int, prob, reward float64) []mdp.Transition {
	for k := range row {
		if row[k].Next == next {
			row[k].Prob += prob
			return row
		}
	}
	return append(row, mdp.Transition{Next: next, Prob: prob, Reward: reward})
}
