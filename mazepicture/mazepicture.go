// Package mazepicture draws maze tasks for temple inspect: a maze's landforms and true template
// map as the paper's Figure 1 and its 5×5 template figure do, and what an agent learned on it
// from a snapshot of its template library.
//
// It may import the maze (env), its model (mdp), the templates (template), the statistics (stats)
// and the figures (plots). It must not import experiment or results: the caller hands it a maze,
// its model and a snapshot. (Package plots stays free of the task packages, and env of plotting,
// which the C library must not carry: so these pictures are neither's.)
package mazepicture

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/temple-rl/temple/env"
	"github.com/temple-rl/temple/mdp"
	"github.com/temple-rl/temple/plots"

	"github.com/temple-rl/temple/template"
)

// Landforms draws maze mz as the paper's Figure 1 does: each cell coloured by its landform (slip
// probability), goals, lava and walls marked. A maze too large to draw cell by cell is drawn
// without labels: goals and lava then get classes of their own, after the slips'.
func Landforms(mz env.Maze) plots.Grid {
	slips := slipClasses(mz.Slip)
	labelled := plots.GridCellByCell(mz.Width, mz.Height)
	S := mz.Width * mz.Height
	land := plots.GridPanel{Title: "landforms", Class: make([]int, S)}
	if labelled {
		land.Label = make([]string, S)
	}
	for s := range S {
		land.Class[s] = slices.Index(slips.classes, slips.bin(mz.Slip[s]))
	}
	mark := func(cells []env.Cell, text string, class int) {
		for _, c := range cells {
			if labelled {
				land.Label[mz.Index(c)] = text
			} else {
				land.Class[mz.Index(c)] = class
			}
		}
	}
	mark(mz.Lava, "L", len(slips.classes))
	mark(mz.Goals, "G", len(slips.classes)+1) // a goal that is also lava pays as a goal
	for _, c := range mz.Walls {
		land.Class[mz.Index(c)] = -1
		if labelled {
			land.Label[mz.Index(c)] = "#"
		}
	}
	title := "landforms (G goal, L lava, # wall)"
	if !labelled {
		title = "landforms (walls blank)"
	}
	landforms := plots.Grid{Title: fmt.Sprintf("%s: %s", mz.Name(), title), W: mz.Width, H: mz.Height,
		Panels: []plots.GridPanel{land}, Legend: slips.legend()}
	if !labelled {
		landforms.Legend = append(landforms.Legend, "lava", "goal")
	}
	return landforms
}

// slips are a maze's landform classes: one per distinct slip, or per tenth (binned) when there
// are more than eight.
type slips struct {
	classes []float64
	binned  bool
}

// slipClasses are the landform classes of the slips of a maze's cells.
func slipClasses(cells []float64) slips {
	c := slips{classes: slices.Clone(cells)}
	slices.Sort(c.classes)
	c.classes = slices.Compact(c.classes)
	if c.binned = len(c.classes) > 8; c.binned {
		for i := range c.classes {
			c.classes[i] = c.bin(c.classes[i])
		}
		c.classes = slices.Compact(c.classes)
	}
	return c
}

// bin is the class of slip p: p itself, or its tenth when binned.
func (c slips) bin(p float64) float64 {
	if !c.binned {
		return p
	}
	return math.Min(math.Floor(p*10), 9) / 10
}

// legend names every class.
func (c slips) legend() []string {
	var names []string
	for _, p := range c.classes {
		name := "slip " + strconv.FormatFloat(p, 'g', 3, 64)
		if c.binned {
			name = fmt.Sprintf("slip %g–%g", p, p+0.1)
		}
		names = append(names, name)
	}
	return names
}

// Templates draws the true template map of maze mz with true model d: for each action, the cells
// coloured by the template of their pair, numbered as in the legend, so that the cells that share
// a template are visible at a glance (the paper's 5×5 template figure).
func Templates(mz env.Maze, d mdp.Dynamics) plots.Grid {
	labelled := plots.GridCellByCell(mz.Width, mz.Height)
	tr := template.OfModel(d)
	templates := plots.Grid{Title: fmt.Sprintf("%s: true templates of each action (%d templates for %d pairs)", mz.Name(),
		len(tr.Templates), tr.Pairs), W: mz.Width, H: mz.Height}
	for a := range tr.A {
		panel := plots.GridPanel{Title: env.ActionNames[a], Class: TemplateMap(tr, a)}
		if labelled {
			panel.Label = make([]string, len(panel.Class))
		}
		for s, k := range panel.Class {
			if mz.IsWall(s) {
				panel.Class[s] = -1
			}
			if !labelled {
				continue
			}
			switch {
			case mz.IsWall(s):
				panel.Label[s] = "#"
			case k < 0:
				panel.Label[s] = "T" // a terminal state: no template
			default:
				panel.Label[s] = strconv.Itoa(k + 1)
			}
		}
		templates.Panels = append(templates.Panels, panel)
	}
	for k, g := range tr.Templates {
		p := make([]string, len(g.P))
		for i, x := range g.P {
			p[i] = strconv.FormatFloat(x, 'g', 3, 64)
		}
		templates.Legend = append(templates.Legend, fmt.Sprintf("%d: p %v r %.3g", k+1, p, math.Round(g.R*1e9)/1e9+0))
	}
	return templates
}

// TemplateMap is the index of the true template of (s, a) for every state s (−1 for a terminal
// state).
func TemplateMap(tr template.Truth, a int) []int {
	out := make([]int, tr.S)
	for s := range out {
		out[s] = tr.PairTemplate[s*tr.A+a]
	}
	return out
}
