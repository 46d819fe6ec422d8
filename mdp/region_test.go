package mdp

import (
	"math"
	"math/rand/v2"
	"testing"
)

// randomChainModel is a random sparse MDP whose pairs lead to at most three nearby states, so
// that regions around a state stay small.
func randomChainModel(t *testing.T, rng *rand.Rand, S, A int) *Model {
	t.Helper()
	rows := make([][]Transition, S*A)
	for i := range rows {
		s := i / A
		p := rng.Float64()
		rows[i] = []Transition{
			{Next: (s + 1) % S, Prob: p, Reward: rng.Float64()*2 - 1},
			{Next: (s + S - 1 - rng.IntN(2)) % S, Prob: 1 - p, Reward: rng.Float64() - 0.5},
		}
		if rows[i][0].Next == rows[i][1].Next {
			rows[i] = rows[i][:1]
			rows[i][0].Prob = 1
		}
	}
	return startingIn0(t, S, A, rows)
}

// Around finds exactly the states a brute-force search finds, at their fewest steps.
func TestAroundMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	m := randomChainModel(t, rng, 200, 3)
	sources := []int{5, 120}
	r := Around(m, sources, 7)
	want := map[int]int{}
	for _, s := range sources {
		want[s] = 0
	}
	frontier := sources
	for step := 1; step <= 7; step++ {
		var next []int
		for _, s := range frontier {
			for a := range m.A {
				for _, tr := range m.Row(s, a) {
					if _, ok := want[tr.Next]; !ok {
						want[tr.Next] = step
						next = append(next, tr.Next)
					}
				}
			}
		}
		frontier = next
	}
	if len(r.States) != len(want) {
		t.Fatalf("%d states, want %d", len(r.States), len(want))
	}
	for k, s := range r.States {
		if k > 0 && r.States[k-1] >= s {
			t.Fatalf("states not ascending at %d", k)
		}
		if d, ok := want[int(s)]; !ok || int(r.Dist[k]) != d || r.Index(int(s)) != k {
			t.Fatalf("state %d: distance %d, index %d; want %d (%v)", s, r.Dist[k], r.Index(int(s)), d, ok)
		}
	}
	if r.Index(60) != -1 || r.Whole() {
		t.Fatalf("state 60 is in the region, or the region is whole")
	}
}

// The region's finite-horizon values are those of the whole model, bit for bit, wherever an
// episode from a source can need them; and its V* is within the bound of RadiusFor.
func TestRegionSolvesLikeTheWholeModel(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const T, gamma, tol = 6, 0.8, 1e-6
	m := randomChainModel(t, rng, 400, 2)
	sources := []int{10, 200, 201}
	vmax := m.MaxAbsReward() / (1 - gamma)
	r := Around(m, sources, RadiusFor(T, gamma, vmax, tol))
	if r.Whole() {
		t.Fatal("the region is the whole model: the test would not test locality")
	}
	h, err := r.FiniteHorizon(m, T)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := FiniteHorizon(m, T)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for k, s := range r.States {
		for steps := 0; steps <= T; steps++ {
			got := h.Value(steps, k)
			if int(r.Dist[k]) > T-steps {
				if steps > 0 && !math.IsNaN(got) {
					t.Fatalf("V_%d(%d) computed beyond the episodes' reach: %v", steps, s, got)
				}
				continue
			}
			if want := whole.Value(steps, int(s)); math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("V_%d(%d) = %v, whole model %v", steps, s, got, want)
			}
			checked++
		}
	}
	sol, err := r.ValueIteration(m, gamma, tol)
	if err != nil {
		t.Fatal(err)
	}
	exact, err := ValueIteration(m, gamma, 1e-12)
	if err != nil {
		t.Fatal(err)
	}
	worst := 0.0
	for k, s := range r.States {
		if int(r.Dist[k]) <= T {
			worst = math.Max(worst, math.Abs(sol.V[k]-exact.V[s]))
		}
	}
	if worst > 2*tol {
		t.Fatalf("V* off by %v near the sources, want at most %v", worst, 2*tol)
	}
	if checked == 0 || worst == 0 {
		t.Fatalf("nothing compared (%d values, worst %v)", checked, worst)
	}
}

// A region as wide as the model holds every state.
func TestRegionWhole(t *testing.T) {
	m := randomChainModel(t, rand.New(rand.NewPCG(5, 6)), 30, 2)
	if r := Around(m, []int{0}, 100); !r.Whole() || len(r.States) != 30 {
		t.Fatalf("region of radius 100 holds %d of 30 states", len(r.States))
	}
	// A radius beyond any int32 (γ within 10⁻¹⁵ of 1) is the whole reachable task.
	if r := Around(m, []int{0}, RadiusFor(3, 1-1e-15, 10, 1e-9)); !r.Whole() {
		t.Fatalf("a huge radius holds %d of 30 states", len(r.States))
	}
	if _, err := Around(m, []int{0}, 3).FiniteHorizon(m, 4); err == nil {
		t.Fatal("a horizon beyond the radius was accepted")
	}
}
