package measures

import (
	"math"
	"strings"
	"testing"

	"github.com/temple-rl/temple/mdp"
)

const (
	stay = 0 // the action index of "stay" in the hand-worked models
	move = 1
)

// chain is the two-state chain: in state 0 "stay" stays and "go" reaches state 1 with
// probability 1/2 (else stays); in state 1 "stay" pays 1 and stays, "go" falls back to state 0
// with probability 1/4 (else stays). Every other transition pays 0. Start: state 0.
func chain(t *testing.T) *mdp.Model {
	t.Helper()
	m, err := mdp.New(2, 2, [][]mdp.Transition{
		{{Next: 0, Prob: 1}}, {{Next: 1, Prob: 0.5}, {Next: 0, Prob: 0.5}},
		{{Next: 1, Prob: 1, Reward: 1}}, {{Next: 0, Prob: 0.25}, {Next: 1, Prob: 0.75}},
	}, []float64{1, 0})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// ring is the three-state ring: "stay" stays; "clockwise" moves s → s+1 (mod 3) with
// probability 1/2, else stays. Landing in state 0 (moving there or staying there) pays 1.
// Start: state 0.
func ring(t *testing.T) *mdp.Model {
	t.Helper()
	rows := make([][]mdp.Transition, 6)
	for s := 0; s < 3; s++ {
		pay := func(next int) float64 {
			if next == 0 {
				return 1
			}
			return 0
		}
		next := (s + 1) % 3
		rows[s*2+stay] = []mdp.Transition{{Next: s, Prob: 1, Reward: pay(s)}}
		rows[s*2+move] = []mdp.Transition{{Next: next, Prob: 0.5, Reward: pay(next)}, {Next: s, Prob: 0.5, Reward: pay(s)}}
	}
	m, err := mdp.New(3, 2, rows, []float64{1, 0, 0})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func near(got, want, tol float64) bool { return math.Abs(got-want) <= tol }

// The chain by hand, γ = 1/2.
// Diameter: 0 → 1 is a geometric number of "go"s with success 1/2, 2 steps expected; 1 → 0 one
// with success 1/4, 4 steps. D = 4, from 1 to 0.
// Values: staying in 1 pays 1 a step, V*(1) = 1/(1 − γ) = 2; in 0 "go" is best:
// V*(0) = γ(V*(0)/2 + V*(1)/2) = V*(0)/4 + 1/2, so V*(0) = 2/3.
// Q*(0, stay) = γ·2/3 = 1/3: gap 1/3. Q*(1, go) = γ(2/3·1/4 + 2·3/4) = 5/6: gap 2 − 5/6 = 7/6.
// Span 2 − 2/3 = 4/3. Value norm: (0, go) sees V* ∈ {2/3, 2} with probability 1/2 each, standard
// deviation (2 − 2/3)/2 = 2/3; (1, go) sees them with 1/4 and 3/4, (4/3)·√(3/16) = 0.57735; the
// stays are deterministic: the norm is 2/3.
// Gaps: 1/(0 + 0.1) twice for the optimal pairs, 1/(1/3 + 0.1) = 2.307692, 1/(7/6 + 0.1) =
// 0.789474: 23.097166. Least gap 1/3, median (1/3 + 7/6)/2 = 3/4, suboptimal pairs 2 of 4.
func TestHardnessOfTheChainByHand(t *testing.T) {
	h, err := HardnessOf(chain(t), 0.5, DiameterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	d := h.Diameter
	if !near(d.D, 4, 1e-6) || d.From != 1 || d.To != 0 || d.States != 2 || d.Targets != 2 || d.Sampled {
		t.Errorf("diameter %+v, want 4 from 1 to 0 over 2 states", d)
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"span", h.ValueSpan, 4.0 / 3},
		{"value norm", h.ValueNorm, 2.0 / 3},
		{"sum of reciprocal gaps", h.SumReciprocalGaps, 20 + 1/(1.0/3+0.1) + 1/(7.0/6+0.1)},
		{"least gap", h.MinGap, 1.0 / 3},
		{"median gap", h.MedianGap, 0.75},
		{"suboptimal pairs", h.SuboptimalPairs, 0.5},
	} {
		if !near(c.got, c.want, 1e-8) {
			t.Errorf("%s = %.10f, want %.10f", c.name, c.got, c.want)
		}
	}
	if h.Pairs != 4 {
		t.Errorf("%d pairs, want 4", h.Pairs)
	}
}

// The ring by hand, γ = 1/2.
// Diameter: each clockwise hop takes 2 steps expected, so s → s+1 takes 2 and s → s+2 takes 4;
// D = 4, first attained into state 0 from state 1.
// Values: staying in 0 pays 1 a step, V*(0) = 2. In 2 clockwise is best:
// V*(2) = 1/2 + γ(V*(0)/2 + V*(2)/2) = 1 + V*(2)/4, so V*(2) = 4/3. In 1 clockwise:
// V*(1) = γ(V*(2)/2 + V*(1)/2) = 1/3 + V*(1)/4, so V*(1) = 4/9.
// Gaps: (0, cw): Q* = 1/2 + γ(2/2 + (4/9)/2) = 10/9, gap 8/9; (1, stay): Q* = γ·4/9 = 2/9,
// gap 2/9; (2, stay): Q* = γ·4/3 = 2/3, gap 2/3. Span 2 − 4/9 = 14/9.
// Value norm: (0, cw) sees {2, 4/9}: (2 − 4/9)/2 = 7/9; (1, cw) {4/3, 4/9}: 4/9; (2, cw) {2, 4/3}:
// 1/3. The norm is 7/9.
// Sum of reciprocals: 3·10 + 1/(8/9 + 0.1) + 1/(2/9 + 0.1) + 1/(2/3 + 0.1) = 35.419032.
// Least gap 2/9, median 2/3, suboptimal pairs 3 of 6.
func TestHardnessOfTheRingByHand(t *testing.T) {
	h, err := HardnessOf(ring(t), 0.5, DiameterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	d := h.Diameter
	if !near(d.D, 4, 1e-6) || d.From != 1 || d.To != 0 || d.States != 3 {
		t.Errorf("diameter %+v, want 4 from 1 to 0 over 3 states", d)
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"span", h.ValueSpan, 14.0 / 9},
		{"value norm", h.ValueNorm, 7.0 / 9},
		{"sum of reciprocal gaps", h.SumReciprocalGaps, 30 + 1/(8.0/9+0.1) + 1/(2.0/9+0.1) + 1/(2.0/3+0.1)},
		{"least gap", h.MinGap, 2.0 / 9},
		{"median gap", h.MedianGap, 2.0 / 3},
		{"suboptimal pairs", h.SuboptimalPairs, 0.5},
	} {
		if !near(c.got, c.want, 1e-8) {
			t.Errorf("%s = %.10f, want %.10f", c.name, c.got, c.want)
		}
	}
}

// An episodic corridor 0 → 1 → 2, state 2 terminal, start 0, one action; the step into 2 pays 1.
// The episode ends in 2 and the next begins in 0 without a step: 1 → 0 takes 1 step (into 2, then
// the reset); 0 → 2 takes 2, the diameter. The terminal state is no source and has no value:
// V*(1) = 1, V*(0) = γ = 1/2, span 1/2 (not 1, as V*(2) = 0 would make it).
func TestHardnessOfAnEpisodicCorridor(t *testing.T) {
	m, err := mdp.NewEpisodic(3, 1, [][]mdp.Transition{
		{{Next: 1, Prob: 1}}, {{Next: 2, Prob: 1, Reward: 1}}, nil,
	}, []float64{1, 0, 0}, []bool{false, false, true})
	if err != nil {
		t.Fatal(err)
	}
	h, err := HardnessOf(m, 0.5, DiameterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if d := h.Diameter; !near(d.D, 2, 1e-9) || d.From != 0 || d.To != 2 || d.States != 3 {
		t.Errorf("diameter %+v, want 2 from 0 to 2 over 3 states", d)
	}
	if !near(h.ValueSpan, 0.5, 1e-9) || h.Pairs != 2 || !math.IsInf(h.MinGap, 1) || h.SuboptimalPairs != 0 {
		t.Errorf("span %v over %d pairs, least gap %v, suboptimal %v; want 1/2 over 2, +Inf, 0", h.ValueSpan, h.Pairs, h.MinGap, h.SuboptimalPairs)
	}
	// Hitting times through the reset: 1 → 0 is one step.
	hit := newHitting(m, reachable(m))
	if _, err := hit.solve(0, 1e-9); err != nil || !near(hit.v[1], 1, 1e-9) {
		t.Errorf("time from 1 to 0 through the reset: %v (%v), want 1", hit.v[1], err)
	}
}

// A state that, once reached, cannot be left makes the diameter infinite; a state the start
// distribution never leads to (a wall's cell) does not count.
func TestDiameterTrapsAndUnreachableStates(t *testing.T) {
	// 0 → 1 or 2 with probability 1/2 each; 1 → 0; 2 stays forever; 3 is never reached.
	m, err := mdp.New(4, 1, [][]mdp.Transition{
		{{Next: 1, Prob: 0.5}, {Next: 2, Prob: 0.5}}, {{Next: 0, Prob: 1}}, {{Next: 2, Prob: 1}}, {{Next: 0, Prob: 1}},
	}, []float64{1, 0, 0, 0})
	if err != nil {
		t.Fatal(err)
	}
	d, err := DiameterOf(m, DiameterOptions{})
	if err != nil || !math.IsInf(d.D, 1) || d.From != 2 || d.To != 0 || d.States != 3 {
		t.Errorf("diameter %+v (%v), want +Inf from the trap 2 to 0 over the 3 reachable states", d, err)
	}
	// Without the trap (2 → 0 too) the unreachable state 3 is ignored. By hand: 1 → 0 and 2 → 0
	// take 1 step; 0 → 1 takes T = 1 + (1/2)·(1 + T), T = 3 (the wrong branch costs a step back);
	// 2 → 1 takes 1 + 3 = 4, the diameter (first found into 1, from 2).
	m, err = mdp.New(4, 1, [][]mdp.Transition{
		{{Next: 1, Prob: 0.5}, {Next: 2, Prob: 0.5}}, {{Next: 0, Prob: 1}}, {{Next: 0, Prob: 1}}, {{Next: 0, Prob: 1}},
	}, []float64{1, 0, 0, 0})
	if err != nil {
		t.Fatal(err)
	}
	d, err = DiameterOf(m, DiameterOptions{})
	if err != nil || !near(d.D, 4, 1e-6) || d.From != 2 || d.To != 1 || d.States != 3 {
		t.Errorf("diameter %+v (%v), want 4 from 2 to 1 over 3 reachable states", d, err)
	}
}

// An action that risks a state from which the target cannot be reached is never used, even
// when it looks shorter: value iteration from 0 would otherwise take the trap's time for 0.
func TestDiameterAvoidsActionsThatRiskNeverArriving(t *testing.T) {
	// Into target 0 from the start 1: "risky" reaches 0 or the trap 2 (absorbing) with
	// probability 1/2 each, 1 + (1/2)·0 + (1/2)·∞; "safe" goes to 3, which goes to 0: 2 steps.
	m, err := mdp.New(4, 2, [][]mdp.Transition{
		{{Next: 1, Prob: 1}}, {{Next: 1, Prob: 1}},
		{{Next: 0, Prob: 0.5}, {Next: 2, Prob: 0.5}}, {{Next: 3, Prob: 1}},
		{{Next: 2, Prob: 1}}, {{Next: 2, Prob: 1}},
		{{Next: 0, Prob: 1}}, {{Next: 0, Prob: 1}},
	}, []float64{0, 1, 0, 0})
	if err != nil {
		t.Fatal(err)
	}
	hit := newHitting(m, reachable(m))
	if _, err := hit.solve(0, 1e-9); err != nil {
		t.Fatal(err)
	}
	if hit.in[2] || !hit.in[1] || !near(hit.v[1], 2, 1e-9) || hit.good[1*2+0] {
		t.Errorf("into 0: in %v, time from 1 = %v, risky usable %v; want 2 outside, 1 at 2 steps (safe), risky not used",
			hit.in, hit.v[1], hit.good[1*2+0])
	}
}

// Sampling targets gives a lower bound from fewer problems, the same for the same seed; a model
// larger than ExactStates asks for Targets.
func TestDiameterSampledTargets(t *testing.T) {
	m := ring(t)
	d, err := DiameterOf(m, DiameterOptions{Targets: 2, Seed: 7})
	if err != nil || !d.Sampled || d.Targets != 2 || d.States != 3 || d.D > 4+1e-6 || !near(d.D, 4, 1e-6) {
		t.Errorf("two targets of the ring: %+v (%v); every target's farthest source is 4 steps away", d, err)
	}
	again, _ := DiameterOf(m, DiameterOptions{Targets: 2, Seed: 7})
	if again != d {
		t.Errorf("same seed, different draws: %+v and %+v", d, again)
	}
	all, err := DiameterOf(m, DiameterOptions{Targets: 3})
	if err != nil || all.Sampled || all.Targets != 3 {
		t.Errorf("targets = states: %+v (%v), want every target, not sampled", all, err)
	}
	big := corridor(t, ExactStates+1)
	if _, err := DiameterOf(big, DiameterOptions{}); err == nil || !strings.Contains(err.Error(), "give DiameterOptions.Targets") {
		t.Errorf("a model of %d states without Targets: %v", ExactStates+1, err)
	}
	if d, err := DiameterOf(big, DiameterOptions{Targets: 1, Seed: 1}); err != nil || !d.Sampled || d.Targets != 1 {
		t.Errorf("one target of the big corridor: %+v (%v)", d, err)
	}
	for _, bad := range []DiameterOptions{{Targets: -1}, {Tolerance: -1}, {Tolerance: math.Inf(1)}} {
		if _, err := DiameterOf(m, bad); err == nil {
			t.Errorf("options %+v accepted", bad)
		}
	}
}

// corridor is a deterministic line of n states with "left" and "right"; the diameter is n − 1.
func corridor(t *testing.T, n int) *mdp.Model {
	t.Helper()
	rows := make([][]mdp.Transition, 2*n)
	for s := 0; s < n; s++ {
		rows[2*s] = []mdp.Transition{{Next: max(s-1, 0), Prob: 1}}
		rows[2*s+1] = []mdp.Transition{{Next: min(s+1, n-1), Prob: 1}}
	}
	start := make([]float64, n)
	start[0] = 1
	m, err := mdp.New(n, 2, rows, start)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestDiameterOfACorridor(t *testing.T) {
	d, err := DiameterOf(corridor(t, 10), DiameterOptions{})
	if err != nil || d.D != 9 || d.From != 9 || d.To != 0 {
		t.Errorf("corridor of 10: %+v (%v), want 9 from 9 to 0", d, err)
	}
}
