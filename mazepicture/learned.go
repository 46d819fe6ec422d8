package mazepicture

import (
	"fmt"
	"strconv"

	"github.com/temple-rl/temple/env"
	"github.com/temple-rl/temple/mdp"
	"github.com/temple-rl/temple/plots"
	"github.com/temple-rl/temple/stats"

	"github.com/temple-rl/temple/template"
)

// Learned draws what an agent learned on maze mz with true model d, from its snapshot at the end
// of the task: for each action, the library template each cell's pair was identified with
// (numbered by library position, * where it is farther than tau from the pair's true template,
// – where the pair was never identified), and the library itself — each template's ranked
// probabilities, with its reward and visit count in the legend. ok is false when the snapshot is
// not of a task of the maze's size.
func Learned(mz env.Maze, d mdp.Dynamics, snap template.Snapshot, tau float64) (pairs plots.Grid, library plots.Figure, ok bool) {
	S, A := d.Size()
	if len(snap.Pairs) != S*A {
		return plots.Grid{}, plots.Figure{}, false
	}
	pairs = identifications(mz, d, snap, tau)
	library = plots.Figure{Title: fmt.Sprintf("Template library after this task (%d templates)", len(snap.Library)),
		XLabel: "Rank", YLabel: "Probability", Points: true}
	for k, tm := range snap.Library {
		g := tm.Mean()
		pairs.Legend = append(pairs.Legend, fmt.Sprintf("%d: p %.2f r %.3g", k+1, g.P, g.R))
		ranks := make([]float64, len(g.P)) // 1-based ranks of the template's non-zero probabilities
		for j, r := range g.Rank {
			ranks[j] = float64(r + 1)
		}
		library.Series = append(library.Series, plots.Series{Label: fmt.Sprintf("%d: r %.3g, %d visits", k+1, g.R, tm.N()),
			X: ranks, Band: stats.Band{Mean: g.P}})
	}
	return pairs, library, true
}

// identifications is the map of the library template each pair of maze mz was identified with,
// a panel per action, titled with the count of identifications farther than tau from the truth.
func identifications(mz env.Maze, d mdp.Dynamics, snap template.Snapshot, tau float64) plots.Grid {
	S, A := d.Size()
	tr := template.OfModel(d)
	position := map[int]int{}
	for k, tm := range snap.Library {
		position[tm.ID] = k
	}
	wrong := 0
	pairs := plots.Grid{W: mz.Width, H: mz.Height}
	for a := range A {
		panel := plots.GridPanel{Title: env.ActionNames[a], Class: make([]int, S), Label: make([]string, S)}
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
	if !plots.GridCellByCell(mz.Width, mz.Height) {
		marked = "" // drawn without labels
	}
	pairs.Title = fmt.Sprintf("%s: learned templates of each action (%d identifications farther than τ̂ = %g from the truth%s)",
		mz.Name(), wrong, tau, marked)
	return pairs
}
