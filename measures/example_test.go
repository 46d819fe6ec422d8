package measures_test

import (
	"fmt"

	"github.com/temple-rl/temple/mdp"
	"github.com/temple-rl/temple/measures"
)

// The hardness of a two-state chain: from state 0, "go" reaches state 1 half the time; in state
// 1, "stay" pays 1 and "go" falls back a quarter of the time. Reaching 0 from 1 takes 4 steps
// expected, the diameter.
func ExampleHardnessOf() {
	m, err := mdp.New(2, 2, [][]mdp.Transition{
		{{Next: 0, Prob: 1}}, {{Next: 1, Prob: 0.5}, {Next: 0, Prob: 0.5}},
		{{Next: 1, Prob: 1, Reward: 1}}, {{Next: 0, Prob: 0.25}, {Next: 1, Prob: 0.75}},
	}, []float64{1, 0})
	if err != nil {
		fmt.Println(err)
		return
	}
	h, err := measures.HardnessOf(m, 0.5, measures.DiameterOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("diameter %.3f (from %d to %d)\n", h.Diameter.D, h.Diameter.From, h.Diameter.To)
	fmt.Printf("span of V* %.4f, value norm %.4f\n", h.ValueSpan, h.ValueNorm)
	fmt.Printf("least gap %.4f, sum of 1/(gap + 0.1) %.4f\n", h.MinGap, h.SumReciprocalGaps)
	// Output:
	// diameter 4.000 (from 1 to 0)
	// span of V* 1.3333, value norm 0.6667
	// least gap 0.3333, sum of 1/(gap + 0.1) 23.0972
}

// A sequence of three tasks on two models that differ in one pair: the model recurs, the
// templates are shared, and most pairs keep their dynamics at their index.
func ExampleTransferOf() {
	chain := func(q float64) *mdp.Model {
		m, _ := mdp.New(2, 2, [][]mdp.Transition{
			{{Next: 0, Prob: 1}}, {{Next: 1, Prob: 0.5}, {Next: 0, Prob: 0.5}},
			{{Next: 1, Prob: 1, Reward: 1}}, {{Next: 0, Prob: q}, {Next: 1, Prob: 1 - q}},
		}, []float64{1, 0})
		return m
	}
	tr := measures.TransferOf([]*mdp.Model{chain(0.25), chain(0.5), chain(0.25)})
	fmt.Printf("%d tasks, %d models %v, %.2f recurring, model gap %.4f\n", tr.Tasks, tr.Models, tr.Occurrences, tr.Recurring, tr.ModelGap)
	fmt.Printf("G = %d templates, τ = %.4f, S·A/G = %.1f, index agreement %.2f\n", tr.Templates, tr.TemplateGap, tr.PairsPerTemplate, tr.IndexAgreement)
	// Output:
	// 3 tasks, 2 models [2 1], 0.33 recurring, model gap 0.3536
	// G = 4 templates, τ = 0.3536, S·A/G = 1.0, index agreement 0.75
}
