package families

import (
	"math/rand/v2"

	"github.com/temple-rl/temple/env"
	"github.com/temple-rl/temple/env/toytext"
)

// The family registers itself (registry.go).
func init() {
	register(Family{Name: FrozenLake, Summary: "Gymnasium's FrozenLake-v1 (Appendix F.5)",
		Defaults: defaultFrozenLake})
}

// FrozenLake is the family of Gymnasium's FrozenLake-v1 (the paper's Appendix F.5); its name is
// its task kind's.
const FrozenLake = env.KindFrozenLake

// FrozenLakeParams are count copies of one FrozenLake.
type FrozenLakeParams struct {
	Map      string   `yaml:"map" doc:"Gymnasium's preset map, or empty with desc" range:"4x4 | 8x8 | empty"`
	Desc     []string `yaml:"desc,omitempty" doc:"a map of one's own, top row first, letters S (start), F (frozen), H (hole), G (goal)" range:"rows of one length, at least one S"`
	Slippery bool     `yaml:"slippery" doc:"Gymnasium's is_slippery: the intended move and each perpendicular one with probability 1/3"`
	Count    int      `yaml:"count" doc:"number of tasks of a run, copies of the one lake" range:">= 1"`
}

// defaultFrozenLake is Gymnasium's default: the 4×4 map, slippery.
func defaultFrozenLake() Params { return &FrozenLakeParams{Map: "4x4", Slippery: true, Count: 1} }

func (p *FrozenLakeParams) task() (env.Task, error) {
	return env.FrozenLake{FrozenLakeParams: toytext.FrozenLakeParams{Map: p.Map, Desc: p.Desc, Slippery: p.Slippery}}, nil
}

func (p *FrozenLakeParams) Validate() error { return checkCopies(p.task, p.Count) }

func (p *FrozenLakeParams) Sequence(int, *rand.Rand) (env.Sequence, error) {
	return copiesOf(p.task, p.Count)
}
