package temple

import (
	"math"

	"github.com/temple-rl/temple/mdp"
)

// weighted scales counts add, whose reward sum is reward, down to about w in all (Params.
// TemplateWeight): each count becomes round(N·w/total), at least 1 so that no outcome the counts
// hold is dropped (a rare outcome's probability is then a little above its share, the total a
// little above w), and the reward sum keeps its mean. Counts of w or fewer in all are returned as
// they are. add is not modified.
func weighted(add []mdp.Succ, reward float64, w int64) ([]mdp.Succ, float64) {
	var total int64
	for _, x := range add {
		total += x.N
	}
	if total <= w {
		return add, reward
	}
	scale := float64(w) / float64(total)
	out := make([]mdp.Succ, 0, len(add))
	var kept int64
	for _, x := range add {
		if x.N == 0 {
			continue
		}
		n := max(1, int64(math.Round(float64(x.N)*scale)))
		out = append(out, mdp.Succ{State: x.State, N: n})
		kept += n
	}
	return out, reward * float64(kept) / float64(total)
}
