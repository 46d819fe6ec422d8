package mazepicture_test

import (
	"fmt"

	"github.com/temple-rl/temple/env"
	"github.com/temple-rl/temple/mazepicture"
)

// The landforms of a 3×2 maze: two slips, a goal, lava and a wall, labelled cell by cell (the
// bottom row first).
func ExampleLandforms() {
	mz := env.Maze{Width: 3, Height: 2, Slip: []float64{0, 0, 0.2, 0.2, 0, 0}, Actions: 4,
		Goals: []env.Cell{{X: 3, Y: 2}}, Lava: []env.Cell{{X: 2, Y: 1}}, Walls: []env.Cell{{X: 1, Y: 2}}}
	g := mazepicture.Landforms(mz)
	p := g.Panels[0]
	fmt.Println(g.Legend)
	fmt.Printf("classes %v, labels %q\n", p.Class, p.Label)
	// Output:
	// [slip 0 slip 0.2]
	// classes [0 0 1 -1 0 0], labels ["" "L" "" "#" "" "G"]
}
