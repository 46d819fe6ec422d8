package classic

import (
	"math"
	"testing"

	"github.com/temple-rl/temple/mdp"
)

// row is one published transition: from state s under action a to next with probability p and
// reward r.
type row struct {
	s, a, next int
	p, r       float64
}

// checkTable compares every row of m with the published table: each listed outcome is there with
// its probability and reward, and nothing else is.
func checkTable(t *testing.T, m *mdp.Model, table []row) {
	t.Helper()
	want := map[[2]int]map[int][2]float64{}
	for _, x := range table {
		k := [2]int{x.s, x.a}
		if want[k] == nil {
			want[k] = map[int][2]float64{}
		}
		want[k][x.next] = [2]float64{x.p, x.r}
	}
	for s := range m.S {
		for a := range m.A {
			got := m.Row(s, a)
			w := want[[2]int{s, a}]
			if len(got) != len(w) {
				t.Errorf("(%d, %d): %d outcomes %v, want %d", s, a, len(got), got, len(w))
				continue
			}
			for _, tr := range got {
				pr, ok := w[tr.Next]
				if !ok || math.Abs(tr.Prob-pr[0]) > 1e-12 || tr.Reward != pr[1] {
					t.Errorf("(%d, %d) → %d: p %v r %v, want %v", s, a, tr.Next, tr.Prob, tr.Reward, pr)
				}
			}
		}
	}
}

// The RiverSwim of Strehl & Littman (2008, Figure 1), written out state by state.
func TestRiverSwimTable(t *testing.T) {
	m, err := RiverSwim()
	if err != nil {
		t.Fatal(err)
	}
	if m.S != 6 || m.A != 2 {
		t.Fatalf("S = %d, A = %d; want 6 and 2", m.S, m.A)
	}
	table := []row{
		{0, SwimLeft, 0, 1, 5},
		{1, SwimLeft, 0, 1, 0}, {2, SwimLeft, 1, 1, 0}, {3, SwimLeft, 2, 1, 0}, {4, SwimLeft, 3, 1, 0}, {5, SwimLeft, 4, 1, 0},
		{0, SwimRight, 0, 0.7, 0}, {0, SwimRight, 1, 0.3, 0},
		{1, SwimRight, 0, 0.1, 0}, {1, SwimRight, 1, 0.6, 0}, {1, SwimRight, 2, 0.3, 0},
		{2, SwimRight, 1, 0.1, 0}, {2, SwimRight, 2, 0.6, 0}, {2, SwimRight, 3, 0.3, 0},
		{3, SwimRight, 2, 0.1, 0}, {3, SwimRight, 3, 0.6, 0}, {3, SwimRight, 4, 0.3, 0},
		{4, SwimRight, 3, 0.1, 0}, {4, SwimRight, 4, 0.6, 0}, {4, SwimRight, 5, 0.3, 0},
		{5, SwimRight, 4, 0.7, 0}, {5, SwimRight, 5, 0.3, 10000},
	}
	checkTable(t, m, table)
	if mu := m.StartDistribution(); mu[1] != 0.5 || mu[2] != 0.5 {
		t.Errorf("start distribution %v, want 1/2 on states 1 and 2", mu)
	}
	// The published point of RiverSwim: the optimal policy swims right everywhere, even in state
	// 0 where swimming left pays 5 at once.
	sol, err := mdp.ValueIteration(m, 0.95, 1e-9)
	if err != nil {
		t.Fatal(err)
	}
	for s, a := range sol.Policy {
		if a != SwimRight {
			t.Errorf("optimal action in state %d is %d, want swim right", s, a)
		}
	}
}

// The SixArms of Strehl & Littman (2008, Figure 1), written out state by state.
func TestSixArmsTable(t *testing.T) {
	m, err := SixArms()
	if err != nil {
		t.Fatal(err)
	}
	if m.S != 7 || m.A != 6 {
		t.Fatalf("S = %d, A = %d; want 7 and 6", m.S, m.A)
	}
	table := []row{
		{0, 0, 1, 1, 0},
		{0, 1, 2, 0.15, 0}, {0, 1, 0, 0.85, 0},
		{0, 2, 3, 0.1, 0}, {0, 2, 0, 0.9, 0},
		{0, 3, 4, 0.05, 0}, {0, 3, 0, 0.95, 0},
		{0, 4, 5, 0.03, 0}, {0, 4, 0, 0.97, 0},
		{0, 5, 6, 0.01, 0}, {0, 5, 0, 0.99, 0},
		// Arm 1: every action but 4 stays and pays 50.
		{1, 0, 1, 1, 50}, {1, 1, 1, 1, 50}, {1, 2, 1, 1, 50}, {1, 3, 1, 1, 50}, {1, 4, 0, 1, 0}, {1, 5, 1, 1, 50},
		// Arms 2..6: action k stays and pays r_k, the others return.
		{2, 0, 0, 1, 0}, {2, 1, 2, 1, 133}, {2, 2, 0, 1, 0}, {2, 3, 0, 1, 0}, {2, 4, 0, 1, 0}, {2, 5, 0, 1, 0},
		{3, 0, 0, 1, 0}, {3, 1, 0, 1, 0}, {3, 2, 3, 1, 300}, {3, 3, 0, 1, 0}, {3, 4, 0, 1, 0}, {3, 5, 0, 1, 0},
		{4, 0, 0, 1, 0}, {4, 1, 0, 1, 0}, {4, 2, 0, 1, 0}, {4, 3, 4, 1, 800}, {4, 4, 0, 1, 0}, {4, 5, 0, 1, 0},
		{5, 0, 0, 1, 0}, {5, 1, 0, 1, 0}, {5, 2, 0, 1, 0}, {5, 3, 0, 1, 0}, {5, 4, 5, 1, 1660}, {5, 5, 0, 1, 0},
		{6, 0, 0, 1, 0}, {6, 1, 0, 1, 0}, {6, 2, 0, 1, 0}, {6, 3, 0, 1, 0}, {6, 4, 0, 1, 0}, {6, 5, 6, 1, 6000},
	}
	checkTable(t, m, table)
	if mu := m.StartDistribution(); mu[0] != 1 {
		t.Errorf("start distribution %v, want state 0", mu)
	}
	// By hand, γ = 0.95: staying in arm 6 is worth 6000/(1−γ) = 120 000; pulling arm 6 from the hub
	// is worth V0 = γ(0.01·120 000 + 0.99·V0), so V0 = 1140/(1 − 0.9405) = 19 159.66…, more than any
	// other arm (arm 5: 946.2/0.0785 = 12 053.5).
	sol, err := mdp.ValueIteration(m, 0.95, 1e-9)
	if err != nil {
		t.Fatal(err)
	}
	if want := 1140 / (1 - 0.95*0.99); math.Abs(sol.V[0]-want) > 1e-6 || sol.Policy[0] != 5 {
		t.Errorf("V*(0) = %v, policy %d; want %v and arm 6 (action 5)", sol.V[0], sol.Policy[0], want)
	}
	if math.Abs(sol.V[6]-120000) > 1e-5 {
		t.Errorf("V*(6) = %v, want 120 000", sol.V[6])
	}
	// Arm 5 is worth staying in (1660/(1−γ) = 33 200 > γ·V*(0) = 18 201.7); arms 1–4 are not, so
	// their best action returns to the hub (arm 1: action 4; arms 2–4: the lowest action, 0).
	for s, want := range []int{5, 4, 0, 0, 0, 4, 5} {
		if sol.Policy[s] != want {
			t.Errorf("optimal action in state %d is %d, want %d", s, sol.Policy[s], want)
		}
	}
}
