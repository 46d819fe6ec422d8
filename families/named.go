package families

import (
	"fmt"
	"math/rand/v2"

	"github.com/temple-rl/temple/env"
)

// The families register themselves (registry.go).
func init() {
	register(Family{Name: Taxi, Summary: "Gymnasium's Taxi-v3, Dietterich's taxi domain (Appendix F.5)",
		Defaults: defaultNamed(Taxi)})
	register(Family{Name: RiverSwim, Summary: "Strehl & Littman's RiverSwim (Appendix F.5)",
		Defaults: defaultNamed(RiverSwim)})
	register(Family{Name: SixArms, Summary: "Strehl & Littman's SixArms (Appendix F.5)",
		Defaults: defaultNamed(SixArms)})
}

// The families of one fixed MDP without parameters (the paper's Appendix F.5).
// Each family's name is its task kind's.
const (
	Taxi      = env.KindTaxi      // Gymnasium's Taxi-v3 (Dietterich's taxi domain)
	RiverSwim = env.KindRiverSwim // Strehl & Littman's RiverSwim
	SixArms   = env.KindSixArms   // Strehl & Littman's SixArms
)

// NamedParams are count copies of the MDP of a task kind without parameters (env.Named).
type NamedParams struct {
	kind  string
	Count int `yaml:"count" doc:"number of tasks of a run, copies of the one MDP" range:">= 1"`
}

// defaultNamed is one task of the given kind.
func defaultNamed(kind string) func() Params {
	return func() Params { return &NamedParams{kind: kind, Count: 1} }
}

func (p *NamedParams) task() (env.Task, error) { return env.NewNamed(p.kind) }

func (p *NamedParams) Validate() error { return checkCopies(p.task, p.Count) }

func (p *NamedParams) Sequence(int, *rand.Rand) (env.Sequence, error) {
	return copiesOf(p.task, p.Count)
}

// copiesOf is the sequence of count copies of the task that task makes, once its model builds.
func copiesOf(task func() (env.Task, error), count int) (env.Sequence, error) {
	if err := checkCopies(task, count); err != nil {
		return nil, err
	}
	t, err := task()
	if err != nil {
		return nil, err
	}
	out := make(env.Sequence, count)
	for k := range out {
		out[k] = t
	}
	return out, nil
}

// checkCopies checks count and that the task builds, without making the sequence (a count of a
// billion is for the memory estimate to refuse, not for validation to allocate).
func checkCopies(task func() (env.Task, error), count int) error {
	if count < 1 {
		return fmt.Errorf("count = %d, want at least 1", count)
	}
	t, err := task()
	if err == nil {
		_, err = t.Model()
	}
	return err
}
