package temple

import (
	"math/rand/v2"
	"testing"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/env"
	"github.com/temple-rl/temple/mdp"
)

func maze(t *testing.T, rng *rand.Rand, size, actions int) *mdp.Model {
	t.Helper()
	slip := make([]float64, size*size)
	for i := range slip {
		slip[i] = []float64{0, 0.2, 0.4}[rng.IntN(3)]
	}
	mz := env.Maze{Width: size, Height: size, Slip: slip, Goals: []env.Cell{{X: size, Y: size}},
		StepCost: 0.2, GoalReward: 1, LavaCost: 1, Actions: actions}
	m, err := mz.Model()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// checkTransfer plays the source tasks, then watches every identification in the target task:
// some pairs must match templates made in the source tasks, and each such pair's counts must be
// its own samples plus exactly the template's earlier visits, placed through σ⁻¹ on states of the
// target task.
func checkTransfer(t *testing.T, sources []*mdp.Model, target *mdp.Model) {
	o, err := NewOTempLe(DefaultParams(), rmaxBase(500))
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(9, 9))
	for k, m := range sources {
		playTask(t, o, m, k, 2000, rng)
	}
	fromSources := map[int]bool{}
	for _, tm := range o.lib.Templates() {
		fromSources[tm.ID] = true
	}
	if err := o.BeginTask(agent.Task{Index: len(sources), S: target.S, A: target.A, Gamma: 0.95, Rand: rng, Truth: target}); err != nil {
		t.Fatal(err)
	}
	transferred := 0
	s := target.SampleStart(rng)
	for step := 0; step < 60000; step++ {
		a := o.Act(s)
		i := s*target.A + a
		next, r := target.Step(s, a, rng)
		ownBefore := o.own.At(i)
		o.Observe(s, a, r, next)
		if ownBefore == o.p.Ms-1 && o.own.At(i) == o.p.Ms && o.augmented[i] && fromSources[o.tmplOf(i)] {
			transferred++
			// The template now holds its earlier visits plus this pair's m_s own samples.
			if got, want := o.st.Counts().N(i), o.lib.Get(o.tmplOf(i)).N(); got != want {
				t.Fatalf("pair %d: %d samples after augmentation, want own %d + template's earlier %d", i, got, o.p.Ms, want-o.p.Ms)
			}
			for _, x := range o.st.Counts().Successors(i) {
				if int(x.State) >= target.S {
					t.Fatalf("pair %d augmented onto state %d of a %d-state task", i, x.State, target.S)
				}
			}
		}
		s = next
	}
	if transferred == 0 {
		t.Fatal("no pair of the target task was augmented from a template of the source tasks")
	}
	t.Logf("%d pairs of the target task augmented from source templates", transferred)
}

// TestTemplatesTransferAcrossSizes: templates learned on 3×3 mazes (9-long vectors) are matched
// and used on a 6×6 maze (36 states) by zero-padding, and augmentation lands on the right states.
func TestTemplatesTransferAcrossSizes(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	checkTransfer(t, []*mdp.Model{maze(t, rng, 3, 4), maze(t, rng, 3, 4)}, maze(t, rng, 6, 4))
	// And from large to small: ranks beyond the small task's states are never placed.
	checkTransfer(t, []*mdp.Model{maze(t, rng, 6, 4)}, maze(t, rng, 3, 4))
}

// TestTemplatesTransferToMoreActions: templates of a 4-action task serve an 8-action task.
func TestTemplatesTransferToMoreActions(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	checkTransfer(t, []*mdp.Model{maze(t, rng, 4, 4)}, maze(t, rng, 4, 8))
}
