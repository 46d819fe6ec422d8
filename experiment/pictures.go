package experiment

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/temple-rl/temple/env"
	"github.com/temple-rl/temple/report"
	"github.com/temple-rl/temple/template"
)

// MazePictures draws a maze task as the paper's Figure 1 does — each cell coloured by its
// landform (slip probability), goals, lava and walls marked — and its true template map: for
// each action, the cells coloured by the template of their pair, numbered as in the legend, so
// that the cells that share a template are visible at a glance (the paper's 5×5 template
// figure). ok is false for a task that is not a maze.
func MazePictures(t Task) (landforms, templates report.Grid, ok bool) {
	mz, ok := t.Def.(env.Maze)
	if !ok {
		return report.Grid{}, report.Grid{}, false
	}
	S := mz.Width * mz.Height
	// Landforms: one class per distinct slip, or per tenth when there are more than eight.
	slips := slices.Clone(mz.Slip)
	slices.Sort(slips)
	slips = slices.Compact(slips)
	bin, binned := func(p float64) float64 { return p }, len(slips) > 8
	if binned {
		bin = func(p float64) float64 { return math.Min(math.Floor(p*10), 9) / 10 }
		for i := range slips {
			slips[i] = bin(slips[i])
		}
		slips = slices.Compact(slips)
	}
	// A maze too large to draw cell by cell is drawn without labels: goals and lava then get
	// classes of their own, after the slips'.
	labelled := report.GridCellByCell(mz.Width, mz.Height)
	land := report.GridPanel{Title: "landforms", Class: make([]int, S)}
	if labelled {
		land.Label = make([]string, S)
	}
	for s := range S {
		land.Class[s] = slices.Index(slips, bin(mz.Slip[s]))
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
	mark(mz.Lava, "L", len(slips))
	mark(mz.Goals, "G", len(slips)+1) // a goal that is also lava pays as a goal
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
	landforms = report.Grid{Title: fmt.Sprintf("%s: %s", mz.Name(), title), W: mz.Width, H: mz.Height,
		Panels: []report.GridPanel{land}}
	for _, p := range slips {
		name := "slip " + strconv.FormatFloat(p, 'g', 3, 64)
		if binned {
			name = fmt.Sprintf("slip %g–%g", p, p+0.1)
		}
		landforms.Legend = append(landforms.Legend, name)
	}
	if !labelled {
		landforms.Legend = append(landforms.Legend, "lava", "goal")
	}

	tr := template.OfModel(t.Dynamics())
	templates = report.Grid{Title: fmt.Sprintf("%s: true templates of each action (%d templates for %d pairs)", mz.Name(),
		len(tr.Templates), tr.Pairs), W: mz.Width, H: mz.Height}
	for a := range tr.A {
		panel := report.GridPanel{Title: env.ActionNames[a], Class: TemplateMap(tr, a)}
		if labelled {
			panel.Label = make([]string, S)
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
	return landforms, templates, true
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

// LearnedPictures draws what an agent learned on a maze task, from its snapshot at the end of
// the task: for each action, the library template each cell's pair was identified with
// (numbered by library position, * where it is farther than tau from the pair's true template,
// – where the pair was never identified), and the library itself — each template's ranked
// probabilities, with its reward and visit count in the legend. ok is false for a task that is
// not a maze.
func LearnedPictures(t Task, snap template.Snapshot, tau float64) (pairs report.Grid, library report.Figure, ok bool) {
	mz, ok := t.Def.(env.Maze)
	if !ok {
		return report.Grid{}, report.Figure{}, false
	}
	S, A := t.Dynamics().Size()
	if len(snap.Pairs) != S*A {
		return report.Grid{}, report.Figure{}, false
	}
	tr := template.OfModel(t.Dynamics())
	position := map[int]int{}
	for k, tm := range snap.Library {
		position[tm.ID] = k
	}
	wrong := 0
	pairs = report.Grid{W: mz.Width, H: mz.Height}
	for a := range A {
		panel := report.GridPanel{Title: env.ActionNames[a], Class: make([]int, S), Label: make([]string, S)}
		for s := range S {
			i := s*A + a
			k, identified := position[snap.Pairs[i]]
			switch {
			case mz.IsWall(s):
				panel.Class[s], panel.Label[s] = -1, "#"
			case tr.PairTemplate[i] < 0:
				panel.Class[s], panel.Label[s] = -1, "T"
			case snap.Pairs[i] < 0 || !identified:
				panel.Class[s], panel.Label[s] = -1, "–"
			default:
				panel.Class[s], panel.Label[s] = k, strconv.Itoa(k+1)
				if template.Distance(snap.Library[k].Mean(), tr.Templates[tr.PairTemplate[i]]) > tau {
					panel.Label[s] += "*"
					wrong++
				}
			}
		}
		pairs.Panels = append(pairs.Panels, panel)
	}
	marked := ", marked *"
	if !report.GridCellByCell(mz.Width, mz.Height) {
		marked = "" // drawn without labels
	}
	pairs.Title = fmt.Sprintf("%s: learned templates of each action (%d identifications farther than τ̂ = %g from the truth%s)",
		mz.Name(), wrong, tau, marked)
	library = report.Figure{Title: fmt.Sprintf("Template library after this task (%d templates)", len(snap.Library)),
		XLabel: "Rank", YLabel: "Probability", Points: true}
	for k, tm := range snap.Library {
		g := tm.Mean()
		pairs.Legend = append(pairs.Legend, fmt.Sprintf("%d: p %.2f r %.3g", k+1, g.P, g.R))
		ranks := make([]float64, len(g.P)) // 1-based ranks of the template's non-zero probabilities
		for j, r := range g.Rank {
			ranks[j] = float64(r + 1)
		}
		library.Series = append(library.Series, report.Series{Label: fmt.Sprintf("%d: r %.3g, %d visits", k+1, g.R, tm.N()),
			X: ranks, Band: report.Band{Mean: g.P}})
	}
	return pairs, library, true
}
