package measures

import (
	"cmp"
	"math"
	"slices"

	"github.com/temple-rl/temple/mdp"
	"github.com/temple-rl/temple/template"
)

// sameModel is the distance (mdp.Distance) at or below which two models are one, as mdp.ModelGap
// counts them: it absorbs rounding in probabilities built by different sums.
const sameModel = 1e-9

// Transfer is what a sequence of tasks offers to transfer, from the tasks' true models.
type Transfer struct {
	// Tasks is the number of tasks in the sequence.
	Tasks int
	// Models is the number of distinct models: two tasks share a model when they have the same S
	// and A and every pair's next-state distribution and expected reward agree (mdp.Distance at
	// most 1e-9; the start distribution is not part of the model).
	Models int
	// Occurrences[k] is how many tasks have the k-th distinct model, in order of first appearance.
	Occurrences []int
	// Recurring is the share of tasks whose model an earlier task had: (Tasks − Models)/Tasks.
	Recurring float64
	// ModelGap is Γ, the least distance between two distinct models (mdp.ModelGap; Brunskill &
	// Li 2013's model gap, which FMRL and FM-TempLe group by); +Inf with fewer than two models.
	ModelGap float64
	// Templates is G, the number of distinct transition templates over every task's pairs of
	// non-terminal states (paper Definition 2; template.OfModel).
	Templates int
	// TemplateGap is τ, the least distance ρ between two distinct templates (paper Definition 5);
	// +Inf with fewer than two templates.
	TemplateGap float64
	// RankingGap is ν (paper Definition 8), the least over the tasks; +Inf when no template has two
	// unequal adjacent probabilities.
	RankingGap float64
	// PairsPerTemplate is S·A/G: the non-terminal pairs of a task (averaged over the tasks when
	// their sizes differ) over the sequence's templates, how many pairs each template stands for.
	PairsPerTemplate float64
	// SameSize says that every task has the same numbers of states and actions, so that a state
	// index can name the same state in every task.
	SameSize bool
	// IndexAgreement is the share of a task's pairs (s, a) whose next-state distribution is that
	// of the same pair in the task before (rewards aside), averaged over the consecutive tasks of
	// the same size (pairs of states terminal in either task left out): 1 when the dynamics keep
	// their index from task to task, near 0 when the states are shuffled. NaN when no two
	// consecutive tasks have the same size.
	IndexAgreement float64
}

// TransferOf measures the task sequence of models, in order.
func TransferOf(models []*mdp.Model) Transfer {
	tr := Transfer{Tasks: len(models), ModelGap: math.Inf(1), TemplateGap: math.Inf(1), RankingGap: math.Inf(1),
		IndexAgreement: math.NaN(), SameSize: true}
	if len(models) == 0 {
		return tr
	}
	rows := make([]sortedRows, len(models))
	for k, m := range models {
		rows[k] = sortRows(m)
	}
	var distinct []int // the task of each distinct model's first appearance
	for k := range models {
		found := -1
		for j, first := range distinct {
			if rows[k].distance(rows[first]) <= sameModel {
				found = j
				break
			}
		}
		if found < 0 {
			distinct = append(distinct, k)
			tr.Occurrences = append(tr.Occurrences, 0)
			found = len(distinct) - 1
		}
		tr.Occurrences[found]++
	}
	tr.Models = len(distinct)
	tr.Recurring = float64(tr.Tasks-tr.Models) / float64(tr.Tasks)
	for i := range distinct {
		for j := i + 1; j < len(distinct); j++ {
			if d := rows[distinct[i]].distance(rows[distinct[j]]); d > sameModel {
				tr.ModelGap = math.Min(tr.ModelGap, d)
			}
		}
	}

	var all template.Truth
	pairs := 0
	for _, m := range models {
		t := template.OfModel(m)
		all.Include(t.Templates...)
		tr.RankingGap = math.Min(tr.RankingGap, t.RankingGap)
		pairs += t.Pairs
	}
	tr.Templates = len(all.Templates)
	tr.TemplateGap = template.MinDistance(all.Templates)
	if tr.Templates > 0 {
		tr.PairsPerTemplate = float64(pairs) / float64(len(models)) / float64(tr.Templates)
	}

	agreement, compared := 0.0, 0
	for k := 1; k < len(models); k++ {
		x, y := models[k-1], models[k]
		if x.S != y.S || x.A != y.A {
			tr.SameSize = false
			continue
		}
		if share, ok := sameDynamics(rows[k-1], rows[k], x, y); ok {
			agreement += share
			compared++
		}
	}
	if compared > 0 {
		tr.IndexAgreement = agreement / float64(compared)
	}
	return tr
}

// sortedRows are a model's rows with each pair's outcomes in increasing next state, and its
// expected rewards, for comparing models pair by pair without the work of S per pair.
type sortedRows struct {
	S, A  int
	start []int32
	succ  []mdp.StateProb
	r     []float64
}

func sortRows(m *mdp.Model) sortedRows {
	out := sortedRows{S: m.S, A: m.A, start: m.Start, succ: make([]mdp.StateProb, len(m.Next)), r: m.R}
	for i := 0; i < m.S*m.A; i++ {
		row := out.succ[m.Start[i]:m.Start[i+1]]
		for k := range row {
			row[k] = mdp.StateProb{State: m.Next[int(m.Start[i])+k], P: m.Prob[int(m.Start[i])+k]}
		}
		slices.SortFunc(row, func(a, b mdp.StateProb) int { return cmp.Compare(a.State, b.State) })
	}
	return out
}

// row is the outcomes of pair i in increasing next state.
func (x sortedRows) row(i int) []mdp.StateProb { return x.succ[x.start[i]:x.start[i+1]] }

// distance is mdp.Distance of the two models: the largest ‖P_x(·|s,a) − P_y(·|s,a)‖₂ +
// |R_x(s,a) − R_y(s,a)| over the pairs (the squares summed in state order, as mdp.Distance sums
// them), +Inf when they differ in size.
func (x sortedRows) distance(y sortedRows) float64 {
	if x.S != y.S || x.A != y.A {
		return math.Inf(1)
	}
	d := 0.0
	for i := range x.r {
		d = math.Max(d, mdp.L2(x.row(i), y.row(i))+math.Abs(x.r[i]-y.r[i]))
	}
	return d
}

// sameDynamics is the share of the pairs of states terminal in neither model whose next-state
// distributions agree (L2 distance at most sameModel); false when there are no such pairs.
func sameDynamics(x, y sortedRows, mx, my *mdp.Model) (float64, bool) {
	same, pairs := 0, 0
	for s := 0; s < x.S; s++ {
		if mx.Terminal(s) || my.Terminal(s) {
			continue
		}
		for i := s * x.A; i < (s+1)*x.A; i++ {
			pairs++
			if mdp.L2(x.row(i), y.row(i)) <= sameModel {
				same++
			}
		}
	}
	if pairs == 0 {
		return 0, false
	}
	return float64(same) / float64(pairs), true
}
