package learners_test

import (
	"fmt"

	"github.com/temple-rl/temple/learners"
)

// C-UCRL beside UCRL2 on RiverSwim for 20 000 steps of one continuing run, the same environment
// draws for both: pooling the middle states' equivalent actions lets C-UCRL earn more
// (docs/experiments/c-ucrl.md).
func ExampleNewCUCRL() {
	pu := learners.DefaultUCRL2()
	pu.RMax = 10000
	pc := learners.DefaultCUCRL()
	pc.RMax = 10000
	u, _ := learners.NewUCRL2(pu)
	c, err := learners.NewCUCRL(pc)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("C-UCRL ahead of UCRL2:", riverSwimReward(c, 20000) > riverSwimReward(u, 20000)) // about 4.10 M against 141 120 here
	// Output: C-UCRL ahead of UCRL2: true
}

// recluster: doubling runs ApproxEquivalence only when t has doubled since the last clustering
// (about log₂ T times in T steps rather than at every episode), pooling the kept classes anew
// from the current counts in between. On RiverSwim's 20 000 steps, as in ExampleNewCUCRL, both
// schedules earn far more than UCRL2 (141 120); one run says nothing about which of the two is
// ahead: over many runs on RiverSwim-6 and 10×10 mazes they were not distinguishable
// (docs/experiments/fast-settings.md).
func ExampleNewCUCRL_reclusterDoubling() {
	every := learners.DefaultCUCRL()
	every.RMax = 10000
	doubling := every
	doubling.Recluster = learners.ReclusterDoubling
	a, err := learners.NewCUCRL(every)
	if err != nil {
		fmt.Println(err)
		return
	}
	b, err := learners.NewCUCRL(doubling)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("every episode:", riverSwimReward(a, 20000))
	fmt.Println("doubling:", riverSwimReward(b, 20000))
	// Output:
	// every episode: 4.09536e+06
	// doubling: 2.95536e+06
}
