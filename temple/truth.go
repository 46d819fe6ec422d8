package temple

import (
	"math"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/internal/buf"
	"github.com/temple-rl/temple/template"
)

// diagnostics measure what O-TempLe (and FM-TempLe, through it) learned against the task's true
// model when the runner knows it (agent.Task.Truth): which pairs were augmented from a template
// farther than τ̂ from their true template (for Phase's Misidentified and the
// misidentification_rate), and how far the library's templates are from every true template met
// so far. They are never acted on.
type diagnostics struct {
	tau   float64         // τ̂
	A     int             // the task's actions
	truth *template.Truth // the task's true templates, nil when the runner does not know them
	// seen holds every true template met so far, to measure learned templates against.
	seen template.Truth
	// wrong[s] counts the pairs of state s that received counts from elsewhere (a matched
	// template, or FM-TempLe's identified model) farther than τ̂ from the pair's truth, and
	// wrongPair[i] whether pair i is one of them.
	wrong     []int
	wrongPair []bool
	// misidentified counts the identifications of the task whose template is farther than τ̂
	// from the pair's true template.
	misidentified int
}

// begin starts task t: its true templates, when it has a true model, join those seen.
func (d *diagnostics) begin(t agent.Task) {
	d.A = t.A
	d.wrong = buf.Zeroed(d.wrong, t.S)
	d.wrongPair = buf.Zeroed(d.wrongPair, t.S*t.A)
	d.misidentified = 0
	d.truth = nil
	if t.Truth != nil {
		tr := template.OfModel(t.Truth)
		d.truth = &tr
		d.seen.Include(tr.Templates...)
	}
}

// farFromTruth reports whether template t is farther than τ̂ from pair i's true template, when
// the task's truth is known.
func (d *diagnostics) farFromTruth(i int, t *template.Template) bool {
	return d.truth != nil && d.truth.PairTemplate[i] >= 0 && template.Distance(t.Mean(), d.truth.Templates[d.truth.PairTemplate[i]]) > d.tau
}

// identified counts pair i's identification with template t.
func (d *diagnostics) identified(i int, t *template.Template) {
	if d.farFromTruth(i, t) {
		d.misidentified++
	}
}

// markWrong marks pair i wrong when template t, augmented into it, is farther than τ̂ from its
// truth; mark marks it whatever the cause (FM-TempLe's model); unmarkWrong takes it out again when
// the augmentation is withdrawn.
func (d *diagnostics) markWrong(i int, t *template.Template) {
	if d.farFromTruth(i, t) {
		d.mark(i)
	}
}

func (d *diagnostics) mark(i int) {
	d.wrongPair[i] = true
	d.wrong[i/d.A]++
}

func (d *diagnostics) unmarkWrong(i int) {
	if d.wrongPair[i] {
		d.wrongPair[i] = false
		d.wrong[i/d.A]--
	}
}

// phase is Misidentified for a state that the base counts as KnownModel while one of its pairs
// was augmented wrongly, the base's phase ph otherwise.
func (d *diagnostics) phase(s int, ph agent.Phase) agent.Phase {
	if ph == agent.KnownModel && d.wrong[s] > 0 {
		return agent.Misidentified
	}
	return ph
}

// metrics are, when the task's truth is known: the share of the task's identifications whose
// template is farther than τ̂ from the pair's true template (when any pair was identified), the
// number of distinct true templates of the task, the mean and largest distance from each library
// template to the nearest true template seen so far, and the share of the library's visits held
// by templates within τ̂ of a true template.
func (d *diagnostics) metrics(lib *template.Library, identified int) []agent.Metric {
	if d.truth == nil {
		return nil
	}
	mean, worst, close := 0.0, 0.0, 0.0
	for _, t := range lib.Templates() {
		_, dist := d.seen.Nearest(t.Mean())
		mean += dist / float64(lib.Len())
		worst = math.Max(worst, dist)
		if dist <= d.tau {
			close += float64(t.N())
		}
	}
	var m []agent.Metric
	if identified > 0 {
		m = append(m, agent.Metric{Name: "misidentification_rate", Value: float64(d.misidentified) / float64(identified)})
	}
	return append(m,
		agent.Metric{Name: "true_templates", Value: float64(len(d.truth.Templates))},
		agent.Metric{Name: "template_error_mean", Value: mean},
		agent.Metric{Name: "template_error_max", Value: worst},
		agent.Metric{Name: "visits_within_tau", Value: close / float64(max(lib.TotalVisits(), 1))},
	)
}
