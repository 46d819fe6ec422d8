package toytext

import (
	"math"
	"strings"
	"testing"

	"github.com/temple-rl/temple/mdp"
)

func mustTaxi(t *testing.T) *mdp.Model {
	t.Helper()
	m, err := Taxi()
	if err != nil {
		t.Fatalf("Taxi(): %v", err)
	}
	return m
}

func taxiIndex(t *testing.T, row, col, pass, dest int) int {
	t.Helper()
	i, err := EncodeTaxi(TaxiState{Row: row, Col: col, Pass: pass, Dest: dest})
	if err != nil {
		t.Fatal(err)
	}
	return i
}

func TestTaxiEncoding(t *testing.T) {
	// Gymnasium's encode(3, 1, 2, 0) is ((3*5 + 1)*5 + 2)*4 + 0 = 328.
	if i := taxiIndex(t, 3, 1, 2, 0); i != 328 {
		t.Errorf("EncodeTaxi(3, 1, 2, 0) = %d, want 328", i)
	}
	if i := taxiIndex(t, 4, 4, InTaxi, 3); i != TaxiStates-1 {
		t.Errorf("EncodeTaxi(4, 4, in taxi, 3) = %d, want %d", i, TaxiStates-1)
	}
	for i := 0; i < TaxiStates; i++ {
		s, err := DecodeTaxi(i)
		if err != nil {
			t.Fatal(err)
		}
		if j, err := EncodeTaxi(s); err != nil || j != i {
			t.Fatalf("EncodeTaxi(DecodeTaxi(%d)) = %d, %v", i, j, err)
		}
	}
	if s, _ := DecodeTaxi(328); s.String() != "taxi (3,1), passenger at Y, destination R" {
		t.Errorf("state 328 is %q", s)
	}
	errs := []struct {
		s    TaxiState
		want string
	}{
		{TaxiState{Row: 5}, "row 5"},
		{TaxiState{Col: -1}, "column -1"},
		{TaxiState{Pass: 5}, "passenger location 5"},
		{TaxiState{Dest: InTaxi}, "destination 4"},
	}
	for _, c := range errs {
		if _, err := EncodeTaxi(c.s); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("EncodeTaxi(%+v) error %v, want one containing %q", c.s, err, c.want)
		}
	}
	for _, i := range []int{-1, TaxiStates} {
		if _, err := DecodeTaxi(i); err == nil || !strings.Contains(err.Error(), "state") {
			t.Errorf("DecodeTaxi(%d) error %v, want an out-of-range error", i, err)
		}
	}
}

// Rows checked by hand against the map: walls stand east of (0,1), (1,1), (3,0), (4,0), (3,2) and
// (4,2), and around the grid. Landmarks: R (0,0), G (0,4), Y (4,0), B (4,3).
func TestTaxiRows(t *testing.T) {
	const R, G, Y, B = 0, 1, 2, 3
	m := mustTaxi(t)
	type st struct{ row, col, pass, dest int }
	cases := []struct {
		name     string
		from     st
		a        int
		to       st
		reward   float64
		terminal bool
	}{
		{"south", st{0, 0, Y, G}, South, st{1, 0, Y, G}, -1, false},
		{"south off the grid stays", st{4, 2, Y, G}, South, st{4, 2, Y, G}, -1, false},
		{"north", st{2, 3, B, R}, North, st{1, 3, B, R}, -1, false},
		{"north off the grid stays", st{0, 2, InTaxi, R}, North, st{0, 2, InTaxi, R}, -1, false},
		{"east open", st{0, 0, Y, G}, East, st{0, 1, Y, G}, -1, false},
		{"east wall at (0,1)|(0,2)", st{0, 1, Y, G}, East, st{0, 1, Y, G}, -1, false},
		{"east wall at (1,1)|(1,2)", st{1, 1, R, B}, East, st{1, 1, R, B}, -1, false},
		{"east open in row 2", st{2, 1, R, B}, East, st{2, 2, R, B}, -1, false},
		{"east wall at (3,0)|(3,1)", st{3, 0, InTaxi, B}, East, st{3, 0, InTaxi, B}, -1, false},
		{"east wall at (4,2)|(4,3)", st{4, 2, InTaxi, B}, East, st{4, 2, InTaxi, B}, -1, false},
		{"east open at (3,1)|(3,2)", st{3, 1, InTaxi, B}, East, st{3, 2, InTaxi, B}, -1, false},
		{"east border", st{2, 4, R, G}, East, st{2, 4, R, G}, -1, false},
		{"west wall at (0,1)|(0,2)", st{0, 2, R, G}, West, st{0, 2, R, G}, -1, false},
		{"west wall at (4,0)|(4,1)", st{4, 1, R, G}, West, st{4, 1, R, G}, -1, false},
		{"west wall at (3,2)|(3,3)", st{3, 3, R, G}, West, st{3, 3, R, G}, -1, false},
		{"west open", st{0, 4, R, G}, West, st{0, 3, R, G}, -1, false},
		{"west border", st{1, 0, R, G}, West, st{1, 0, R, G}, -1, false},
		{"legal pickup at R", st{0, 0, R, G}, Pickup, st{0, 0, InTaxi, G}, -1, false},
		{"legal pickup at B", st{4, 3, B, Y}, Pickup, st{4, 3, InTaxi, Y}, -1, false},
		{"illegal pickup: passenger elsewhere", st{0, 0, Y, G}, Pickup, st{0, 0, Y, G}, -10, false},
		{"illegal pickup: off a landmark", st{2, 2, R, G}, Pickup, st{2, 2, R, G}, -10, false},
		{"illegal pickup: passenger aboard", st{0, 0, InTaxi, G}, Pickup, st{0, 0, InTaxi, G}, -10, false},
		{"successful dropoff at G", st{0, 4, InTaxi, G}, Dropoff, st{0, 4, G, G}, 20, true},
		{"successful dropoff at Y", st{4, 0, InTaxi, Y}, Dropoff, st{4, 0, Y, Y}, 20, true},
		{"dropoff at another landmark", st{4, 0, InTaxi, G}, Dropoff, st{4, 0, Y, G}, -1, false},
		{"dropoff off every landmark", st{2, 2, InTaxi, G}, Dropoff, st{2, 2, InTaxi, G}, -10, false},
		{"dropoff without the passenger", st{0, 4, R, G}, Dropoff, st{0, 4, R, G}, -10, false},
		{"dropoff at the passenger's own landmark", st{0, 0, R, G}, Dropoff, st{0, 0, R, G}, -10, false},
	}
	for _, c := range cases {
		s := taxiIndex(t, c.from.row, c.from.col, c.from.pass, c.from.dest)
		next := taxiIndex(t, c.to.row, c.to.col, c.to.pass, c.to.dest)
		want := []mdp.Transition{{Next: next, Prob: 1, Reward: c.reward}}
		got := m.Row(s, c.a)
		if len(got) != 1 || got[0] != want[0] {
			t.Errorf("%s: row (%d, %s) = %v, want %v", c.name, s, TaxiActionNames[c.a], got, want)
		}
		if m.Terminal(s) {
			t.Errorf("%s: state %d is terminal", c.name, s)
		}
		if m.Terminal(next) != c.terminal {
			t.Errorf("%s: next state %d terminal = %v, want %v", c.name, next, m.Terminal(next), c.terminal)
		}
	}
}

// The start distribution is Gymnasium's: uniform over the states with the passenger waiting at a
// landmark other than the destination, 25 × 4 × 3 = 300 of them. Terminal states are the 100 with
// the passenger at the destination.
func TestTaxiStartAndTerminal(t *testing.T) {
	m := mustTaxi(t)
	if m.S != 500 || m.A != 6 {
		t.Fatalf("S, A = %d, %d, want 500, 6", m.S, m.A)
	}
	starts, terminals, total := 0, 0, 0.0
	for i, p := range m.StartDistribution() {
		s, _ := DecodeTaxi(i)
		total += p
		wantStart := s.Pass != InTaxi && s.Pass != s.Dest
		if wantStart != (p > 0) {
			t.Errorf("%v: start probability %v", s, p)
		}
		if p > 0 {
			starts++
			if math.Abs(p-1.0/300) > 1e-15 {
				t.Errorf("%v: start probability %v, want 1/300", s, p)
			}
		}
		if m.Terminal(i) != (s.Pass == s.Dest) || m.Terminal(i) != s.Terminal() {
			t.Errorf("%v: terminal = %v", s, m.Terminal(i))
		}
		if m.Terminal(i) {
			terminals++
		}
	}
	if starts != 300 || terminals != 100 || math.Abs(total-1) > 1e-12 {
		t.Errorf("%d start states summing to %v and %d terminal states, want 300, 1 and 100", starts, total, terminals)
	}
}

// Every transition is deterministic, and it enters a terminal state exactly when it is a
// successful drop-off (+20, Gymnasium's terminated = True): 4 such pairs, the taxi at the
// destination with the passenger aboard. From the start states, 404 states are reachable, 4 of
// them terminal, as Gymnasium's docs count.
func TestTaxiTerminationAndReachable(t *testing.T) {
	m := mustTaxi(t)
	dropoffs := 0
	for s := 0; s < m.S; s++ {
		if m.Terminal(s) {
			continue
		}
		for a := 0; a < m.A; a++ {
			row := m.Row(s, a)
			if len(row) != 1 || row[0].Prob != 1 {
				t.Fatalf("row (%d, %d) = %v, want one outcome with probability 1", s, a, row)
			}
			success := a == Dropoff && row[0].Reward == 20
			if m.Terminal(row[0].Next) != success {
				t.Errorf("row (%d, %s) = %v: terminal next state %v, successful drop-off %v",
					s, TaxiActionNames[a], row, m.Terminal(row[0].Next), success)
			}
			if success {
				dropoffs++
			}
		}
	}
	if dropoffs != 4 {
		t.Errorf("%d successful drop-offs, want 4", dropoffs)
	}
	seen := make([]bool, m.S)
	var queue []int
	for s, p := range m.StartDistribution() {
		if p > 0 {
			seen[s] = true
			queue = append(queue, s)
		}
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		for a := 0; a < m.A; a++ {
			for _, tr := range m.Row(s, a) {
				if !seen[tr.Next] {
					seen[tr.Next] = true
					queue = append(queue, tr.Next)
				}
			}
		}
	}
	reached, reachedTerminal := 0, 0
	for s, ok := range seen {
		if ok {
			reached++
			if m.Terminal(s) {
				reachedTerminal++
			}
		}
	}
	if reached != 404 || reachedTerminal != 4 {
		t.Errorf("%d reachable states, %d terminal, want 404 and 4", reached, reachedTerminal)
	}
}

// Ground truth from the exact solver, checked by hand. An episode of n actions that ends with the
// successful drop-off returns −(1 + γ + … + γ^(n−2)) + 20·γ^(n−1).
func TestTaxiOptimalValues(t *testing.T) {
	const gamma = 0.9
	const R, G, Y = 0, 1, 2
	ret := func(n int) float64 {
		v := 0.0
		for k := 0; k < n-1; k++ {
			v -= math.Pow(gamma, float64(k))
		}
		return v + 20*math.Pow(gamma, float64(n-1))
	}
	sol, err := mdp.ValueIteration(mustTaxi(t), gamma, 1e-12)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name                 string
		row, col, pass, dest int
		want                 float64
	}{
		{"at G with the passenger aboard: drop off", 0, 4, InTaxi, G, 20},
		{"one step from G: west of it", 0, 3, InTaxi, G, ret(2)},
		// Column 0 has no walls: 4 moves south to Y, pickup, 4 moves north, drop-off.
		{"at R, passenger at Y, going to R", 0, 0, Y, R, ret(10)},
		// The wall between columns 1 and 2 in rows 0 and 1 forces a detour through row 2:
		// pickup, 2 south, 4 east, 2 north, drop-off.
		{"at R, passenger at R, going to G", 0, 0, R, G, ret(10)},
		{"terminal: delivered at G", 0, 4, G, G, 0},
	}
	for _, c := range cases {
		s := taxiIndex(t, c.row, c.col, c.pass, c.dest)
		if math.Abs(sol.V[s]-c.want) > 1e-9 {
			t.Errorf("%s: V*(%d) = %v, want %v", c.name, s, sol.V[s], c.want)
		}
	}
}

func TestTaxiStateString(t *testing.T) {
	cases := []struct {
		s    TaxiState
		want string
	}{
		{TaxiState{Row: 0, Col: 4, Pass: InTaxi, Dest: 1}, "taxi (0,4), passenger in taxi, destination G"},
		{TaxiState{Row: 4, Col: 3, Pass: 3, Dest: 2}, "taxi (4,3), passenger at B, destination Y"},
		{TaxiState{Row: 9, Col: 0, Pass: 7, Dest: -1}, "taxi (9,0), passenger at 7, destination -1"},
	}
	for _, c := range cases {
		if got := c.s.String(); got != c.want {
			t.Errorf("%#v.String() = %q, want %q", c.s, got, c.want)
		}
	}
}
