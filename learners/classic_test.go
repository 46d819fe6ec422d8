package learners

import (
	"math/rand/v2"
	"testing"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/agent/agenttest"
	"github.com/temple-rl/temple/env/classic"
	"github.com/temple-rl/temple/mdp"
)

// runContinuing runs ag on m for steps steps from a drawn start state as one continuing run (no
// episodes), as Strehl & Littman's experiments do, and returns the total reward.
func runContinuing(t *testing.T, ag agent.Agent, m *mdp.Model, steps int, seed uint64) float64 {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	if err := ag.BeginTask(agent.Task{S: m.S, A: m.A, Gamma: 0.95, Rand: rand.New(rand.NewPCG(seed, 8))}); err != nil {
		t.Fatal(err)
	}
	_, total := agenttest.Loop{Agent: ag, Task: m, Rand: rng}.Steps(m.SampleStart(rng), steps)
	return total
}

// policyValue is V^π(μ) of the deterministic policy the learner gives (agent.PolicyInfo) at the start
// distribution μ, and V*(μ), both exact for γ = 0.95.
func policyValue(t *testing.T, p agent.PolicyInfo, m *mdp.Model) (got, best float64) {
	t.Helper()
	pi := make([]int, m.S)
	dst := make([]float64, m.A)
	for s := range pi {
		p.Policy(s, dst)
		pi[s] = mdp.ArgMax(dst)
		if dst[pi[s]] != 1 {
			t.Fatalf("policy in state %d is %v, not deterministic", s, dst)
		}
	}
	v, err := mdp.PolicyEvaluation(m, pi, 0.95, 1e-6)
	if err != nil {
		t.Fatal(err)
	}
	sol, err := mdp.ValueIteration(m, 0.95, 1e-6)
	if err != nil {
		t.Fatal(err)
	}
	for s, w := range m.StartDistribution() {
		got += w * v[s]
		best += w * sol.V[s]
	}
	return got, best
}

// After 5000 steps of RiverSwim both MBIE-EB and E3 act optimally: swimming right everywhere,
// the policy whose discounted value from the start is V*.
func TestRiverSwimNearOptimal(t *testing.T) {
	m, err := classic.RiverSwim()
	if err != nil {
		t.Fatal(err)
	}
	mb, err := NewMBIEEB(MBIEEBParams{Beta: 0.4 * 10000, RMax: 10000, PlanTolerance: 1e-4, Replan: ReplanDoubling, Planning: PlanDelta})
	if err != nil {
		t.Fatal(err)
	}
	e3, err := NewE3(E3Params{M: 16, RMax: 10000, Epsilon: 0.1, PlanTolerance: 1e-4, Planning: PlanDelta})
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range []agent.Base{mb, e3} {
		for seed := range uint64(5) {
			runContinuing(t, agent.NewSingle(b), m, 5000, seed)
			if got, best := policyValue(t, b, m); got < 0.999*best {
				t.Errorf("%T seed %d: V^π(μ) = %.6g after 5000 steps, want V*(μ) = %.6g", b, seed, got, best)
			}
		}
	}
}

// TestClassicComparison runs MBIE-EB, E3 and RMax for 5000 steps on RiverSwim and SixArms (γ =
// 0.95, 100 seeded runs each) with the settings of Strehl & Littman's (2008) Section 6 as the
// reproduction cited at MBIEEBParams reports them: β = 0.4·R_max and 0.8·R_max with m = ∞ for
// MBIE-EB; m = 16 and 4 for E3; m = 16 and 6 for RMax, acting greedily on its optimistic model.
// It logs the mean total reward beside the most any learner can expect, the 5000-step optimum of
// mdp.FiniteHorizon. Its assertions are the measured behaviour, with margin: on RiverSwim all
// three earn at least 85% of the optimum; on SixArms MBIE-EB earns more than twice what RMax or E3
// earn — the ordering the reproduction reports from the paper's figure (MBIE-EB far above RMax
// and E3 on SixArms, all close on RiverSwim). E3's ε is ours (0.1; the reported "thresh" could
// not be mapped to it): with V_max = R_max/(1−γ) of 200 000 and 120 000 it explores wherever an
// unknown state is reachable.
func TestClassicComparison(t *testing.T) {
	const runs, steps = 100, 5000
	for _, c := range []struct {
		name    string
		build   func() (*mdp.Model, error)
		rmax    float64
		beta    float64 // β/R_max
		mRMax   int64
		mE3     int64
		atLeast float64
	}{
		{"RiverSwim", classic.RiverSwim, 10000, 0.4, 16, 16, 0.85},
		{"SixArms", classic.SixArms, 6000, 0.8, 6, 4, 0},
	} {
		m, err := c.build()
		if err != nil {
			t.Fatal(err)
		}
		h, err := mdp.FiniteHorizon(m, steps)
		if err != nil {
			t.Fatal(err)
		}
		best := 0.0
		for s, w := range m.StartDistribution() {
			best += w * h.Value(steps, s)
		}
		mb, err := NewMBIEEB(MBIEEBParams{Beta: c.beta * c.rmax, RMax: c.rmax, PlanTolerance: 1e-4, Replan: ReplanDoubling, Planning: PlanDelta})
		if err != nil {
			t.Fatal(err)
		}
		e3, err := NewE3(E3Params{M: c.mE3, RMax: c.rmax, Epsilon: 0.1, PlanTolerance: 1e-4, Planning: PlanDelta})
		if err != nil {
			t.Fatal(err)
		}
		rm, err := NewRMax(RMaxParams{M: c.mRMax, RMax: c.rmax, Rule: Optimistic, PlanTolerance: 1e-4, Planning: PlanFull})
		if err != nil {
			t.Fatal(err)
		}
		mean := map[string]float64{}
		for _, ag := range []struct {
			name string
			a    agent.Agent
		}{{"MBIE-EB", agent.NewSingle(mb)}, {"E3", agent.NewSingle(e3)}, {"RMax", agent.NewSingle(rm)}} {
			for seed := range uint64(runs) {
				mean[ag.name] += runContinuing(t, ag.a, m, steps, seed) / runs
			}
			t.Logf("%-9s %-7s mean total reward %.3g, %.3f of the optimum %.4g", c.name, ag.name, mean[ag.name], mean[ag.name]/best, best)
			if mean[ag.name] < c.atLeast*best {
				t.Errorf("%s %s: mean total reward %.4g, want at least %.2f of %.4g", c.name, ag.name, mean[ag.name], c.atLeast, best)
			}
		}
		if c.name == "SixArms" && (mean["MBIE-EB"] < 2*mean["RMax"] || mean["MBIE-EB"] < 2*mean["E3"]) {
			t.Errorf("SixArms: MBIE-EB %.4g, RMax %.4g, E3 %.4g; want MBIE-EB above twice each", mean["MBIE-EB"], mean["RMax"], mean["E3"])
		}
	}
}

// The doubling schedule costs MBIE-EB little return against re-planning after every sample, as the
// paper's algorithm does: on RiverSwim (β = 0.4·R_max, 5000 steps, 30 runs) its mean total reward
// is within 2% of the optimum of the exact schedule's. SixArms is logged too. Skipped with -short:
// re-planning every step makes it take seconds.
func TestMBIEEBDoublingAgainstEverySample(t *testing.T) {
	if testing.Short() {
		t.Skip("re-plans after every sample")
	}
	const runs, steps = 30, 5000
	for _, c := range []struct {
		name  string
		build func() (*mdp.Model, error)
		rmax  float64
		beta  float64
	}{{"RiverSwim", classic.RiverSwim, 10000, 0.4}, {"SixArms", classic.SixArms, 6000, 0.8}} {
		m, err := c.build()
		if err != nil {
			t.Fatal(err)
		}
		h, err := mdp.FiniteHorizon(m, steps)
		if err != nil {
			t.Fatal(err)
		}
		best := 0.0
		for s, w := range m.StartDistribution() {
			best += w * h.Value(steps, s)
		}
		mean := map[Replan]float64{}
		for _, replan := range []Replan{ReplanDoubling, ReplanEverySample} {
			mb, err := NewMBIEEB(MBIEEBParams{Beta: c.beta * c.rmax, RMax: c.rmax, PlanTolerance: 1e-4, Replan: replan, Planning: PlanDelta})
			if err != nil {
				t.Fatal(err)
			}
			plans := 0
			for seed := range uint64(runs) {
				mean[replan] += runContinuing(t, agent.NewSingle(mb), m, steps, seed) / runs
				plans += mb.Stats().Plans()
			}
			t.Logf("%-9s %-12s mean total reward %.3g (%.3f of the optimum), %d plans per run", c.name, replan, mean[replan], mean[replan]/best, plans/runs)
		}
		if d := mean[ReplanEverySample] - mean[ReplanDoubling]; c.name == "RiverSwim" && d > 0.02*best {
			t.Errorf("RiverSwim: doubling earns %.4g, every-sample %.4g; want within 2%% of the optimum %.4g", mean[ReplanDoubling], mean[ReplanEverySample], best)
		}
	}
}
