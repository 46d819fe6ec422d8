package template_test

import (
	"fmt"

	"github.com/temple-rl/temple/env"
	"github.com/temple-rl/temple/template"
)

// The template distance ρ of paper Definition 5: L2 between the sorted probability vectors
// (the shorter padded with zeros) plus the absolute reward difference.
func ExampleDistance() {
	a := template.Point{P: []float64{0.8, 0.2}, R: 0}
	b := template.Point{P: []float64{0.6, 0.2, 0.2}, R: 0}
	fmt.Printf("ρ = %.4f\n", template.Distance(a, b))
	// Output: ρ = 0.2828
}

// Paper Appendix A: a 5×5 grid with slip 0.4 has 100 state-action pairs but two templates.
func ExampleOfModel() {
	slip := make([]float64, 25)
	for i := range slip {
		slip[i] = 0.4
	}
	m, _ := env.Maze{Width: 5, Height: 5, Slip: slip, Actions: 4}.Model()
	tr := template.OfModel(m)
	fmt.Printf("%d pairs, %d templates, gap τ = %.3f\n", tr.Pairs, len(tr.Templates), tr.Gap)
	for _, g := range tr.Templates {
		fmt.Printf("p = %.1f r = %g\n", g.P, g.R)
	}
	// Output:
	// 100 pairs, 2 templates, gap τ = 0.283
	// p = [0.6 0.2 0.2] r = 0
	// p = [0.8 0.2] r = 0
}
