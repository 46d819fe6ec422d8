package temple

import (
	"math"

	"github.com/temple-rl/temple/mdp"
)

// weighted scales counts add, whose reward sum is reward, down to about w in all (Params.
// TemplateWeight): each count becomes round(N·w/total), and the reward sum keeps its mean. A count
// that rounds to 0 is dropped — its outcome is left to the pair's own samples — except that the
// largest count is kept at 1 at least, so that something is added. (Rounding every outcome up to
// 1 was tried: it inflates a rare outcome to 1/w, and at w = 20 it made O-TempLe lose whole tasks;
// docs/experiments/regime-map.md, "Template weight".) Counts of w or fewer in all are returned as
// they are. add is not modified.
func weighted(add []mdp.Succ, reward float64, w int64) ([]mdp.Succ, float64) {
	var total int64
	largest := -1
	for k, x := range add {
		total += x.N
		if largest < 0 || x.N > add[largest].N {
			largest = k
		}
	}
	if total <= w {
		return add, reward
	}
	scale := float64(w) / float64(total)
	out := make([]mdp.Succ, 0, len(add))
	var kept int64
	for k, x := range add {
		n := int64(math.Round(float64(x.N) * scale))
		if k == largest {
			n = max(n, 1)
		}
		if n == 0 {
			continue
		}
		out = append(out, mdp.Succ{State: x.State, N: n})
		kept += n
	}
	return out, reward * float64(kept) / float64(total)
}
