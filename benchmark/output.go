package benchmark

import (
	"bytes"
	"fmt"
	"html/template"
	"math"
	"path/filepath"
	"strings"

	"github.com/temple-rl/temple/internal/atomicfile"
)

// The files a benchmark writes in its output directory.
const (
	JSONFile     = "benchmark.json"
	MarkdownFile = "benchmark.md"
	HTMLFile     = "report.html"
)

// Write writes r as DIR/benchmark.json, DIR/benchmark.md and DIR/report.html: the same data,
// and the same bytes for the same results.
func Write(dir string, r Result) error {
	if err := writeJSON(filepath.Join(dir, JSONFile), r); err != nil {
		return err
	}
	if err := atomicfile.Write(filepath.Join(dir, MarkdownFile), []byte(Markdown(r))); err != nil {
		return err
	}
	var b bytes.Buffer
	if err := page.Execute(&b, r); err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(dir, HTMLFile), b.Bytes())
}

// f is a number as the tables show it: 4 significant digits, "–" when not finite.
func f(x num) string {
	v := float64(x)
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return "–"
	}
	return fmt.Sprintf("%.4g", v)
}

func (s Spread) String() string {
	if s.Min == s.Max {
		return f(s.Mean)
	}
	return fmt.Sprintf("%s (%s–%s)", f(s.Mean), f(s.Min), f(s.Max))
}

// score is a learner's regret (or reward without the oracle) as "mean ± ci95".
func (l Learner) score() string {
	e := l.Reward
	if l.Regret != nil {
		e = *l.Regret
	}
	return f(e.Mean) + " ± " + f(e.CI95)
}

// MeasuresLine is the family's measures in one line.
func (fam Family) MeasuresLine() string {
	m := fam.Measures
	if m == nil {
		return fam.MeasuresNote
	}
	sampled := ""
	if m.DiameterSampled {
		sampled = " (sampled targets: lower bounds)"
	}
	same := "no"
	if m.SameSize {
		same = "yes"
	}
	return fmt.Sprintf("%d tasks; diameter %s%s; value span %s; value norm %s; min gap %s; Σ1/gap %s; "+
		"distinct models %d, recurring %s, model gap %s; templates G %d, τ %s, S·A/G %s; same size %s, index agreement %s",
		m.Tasks, m.Diameter, sampled, m.ValueSpan, m.ValueNorm, m.MinGap, m.SumReciprocalGaps, m.DistinctModels,
		f(m.Recurring), f(m.ModelGap), m.Templates, f(m.TemplateGap), f(m.PairsPerTemplate), same, f(m.IndexAgreement))
}

// Headroom says how far the best learner is from the best reference.
func (fam Family) Headroom() string {
	if len(fam.References) == 0 || len(fam.Learners) == 0 {
		return "no reference ran"
	}
	var parts []string
	for _, r := range fam.References {
		parts = append(parts, r.Name+" "+r.score())
	}
	return fmt.Sprintf("best learner %s %s; references (never ranked): %s", fam.Learners[0].Name, fam.Learners[0].score(), strings.Join(parts, "; "))
}

func (l Learner) verdictText() string {
	if l.Verdict == nil {
		return "—"
	}
	return l.Verdict.Text
}

func (l Learner) mde() string {
	if l.Verdict == nil {
		return "—"
	}
	return f(l.Verdict.MDE)
}

// Markdown is benchmark.md: per family its seeds, measures and headroom, then its learners ranked
// with their verdicts.
func Markdown(r Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Benchmark %s (seed %d)\n\n", r.Benchmark, r.Seed)
	fmt.Fprintf(&b, "Every learner tuned by temple tune with %d settings, %d runs each at the first stage of successive halving, "+
		"on its family's design seed; judged once at the family's judging seed. Verdicts are temple compare's against the "+
		"family's best single-task learner on the design seed (the least regret there: choosing it uses no judged run), on mean per-task reward (A > B: A has less regret), with a TOST at margin %s "+
		"and Holm over the family's comparisons; MDE is each comparison's minimum detectable effect (80%% power).\n",
		r.Budget.Settings, r.Budget.Runs, r.Margin)
	if r.Budget.SharedDraws() {
		fmt.Fprintf(&b, "\nThe settings were drawn shared (temple tune --draws shared): learners that have a parameter were tried at "+
			"the same values of it at the same settings, so that a learner and one built on it differ in what one adds, not in "+
			"the luck of their designs.\n")
	}
	if r.Budget.Tunings() > 1 {
		fmt.Fprintf(&b, "\nEvery family was tuned twice, at two tuning seeds with the same budget, and both tunings judged at the "+
			"family's judging seed. Each family's ranked table is the first tuning's; its rank stability compares it with the "+
			"second's (Kendall's τ_b between the two rankings, and the learners whose rank moved by more than one place).\n")
	}
	for _, fam := range r.Families {
		fmt.Fprintf(&b, "\n## %s\n\n", fam.Name)
		fmt.Fprintf(&b, "Seeds: tuning %d, design %v, judging %d; %d judged runs; ranked by %s.\n\n", fam.TuningSeed, fam.DesignSeeds,
			fam.JudgingSeed, fam.Runs, fam.Objective)
		fmt.Fprintf(&b, "Measures: %s.\n\n", fam.MeasuresLine())
		fmt.Fprintf(&b, "Headroom: %s.\n\n", fam.Headroom())
		unit := "regret"
		if fam.Objective != "regret" {
			unit = "reward"
		}
		fmt.Fprintf(&b, "| rank | learner | type | %s (± 95%% CI) | verdict against %s | MDE |\n|---:|---|---|---:|---|---:|\n", unit, fam.BestSingleTask)
		for _, l := range fam.Learners {
			fmt.Fprintf(&b, "| %d | %s | %s | %s | %s | %s |\n", l.Rank, l.Name, l.Type, l.score(), l.verdictText(), l.mde())
		}
		for _, l := range fam.References {
			fmt.Fprintf(&b, "| ref | %s | %s | %s | (headroom, not ranked) | |\n", l.Name, l.Type, l.score())
		}
		if st := fam.Stability; st != nil {
			fmt.Fprintf(&b, "\nRank stability: %s.\n\n", st.Summary())
			fmt.Fprintf(&b, "| learner | rank, first tuning | rank, second tuning | %s, second tuning (± 95%% CI) | verdict against %s, second tuning |\n|---|---:|---:|---:|---|\n",
				unit, st.BestSingleTask)
			for _, p := range st.Ranks {
				l := st.learner(p.Name)
				fmt.Fprintf(&b, "| %s | %d | %d | %s | %s |\n", p.Name, p.First, p.Second, l.score(), l.verdictText())
			}
		}
		for _, x := range fam.NotApplicable {
			fmt.Fprintf(&b, "\nDoes not apply: %s (%s): %s\n", x.Name, x.Type, oneLine(x.Reason))
		}
		for _, x := range fam.NotTuned {
			fmt.Fprintf(&b, "\nNot tuned: %s (%s): %s\n", x.Name, x.Type, oneLine(x.Reason))
		}
	}
	return b.String()
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

var page = template.Must(template.New("report").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Benchmark {{.Benchmark}}</title>
<style>body{font-family:sans-serif;max-width:70em;margin:auto}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px}td.n{text-align:right}</style>
</head><body>
<h1>Benchmark {{.Benchmark}} (seed {{.Seed}})</h1>
<p>Every learner tuned with {{.Budget.Settings}} settings ({{.Budget.Runs}} runs each at the first stage) on its family's design seed, judged at the family's judging seed; verdicts against the family's best single-task learner on the design seed, with a TOST at margin {{.Margin}}.{{if .Budget.SharedDraws}} Settings drawn shared: learners that have a parameter were tried at the same values of it at the same settings.{{end}}{{if gt .Budget.Tunings 1}} Every family was tuned twice, at two tuning seeds, both judged at the family's judging seed: each ranked table is the first tuning's, and its rank stability compares it with the second's.{{end}}</p>
{{range .Families}}<h2>{{.Name}}</h2>
<p>Seeds: tuning {{.TuningSeed}}, design {{.DesignSeeds}}, judging {{.JudgingSeed}}; {{.Runs}} judged runs; ranked by {{.Objective}}.</p>
<p>Measures: {{.MeasuresLine}}.</p>
<p>Headroom: {{.Headroom}}.</p>
<table><tr><th>rank</th><th>learner</th><th>type</th><th>{{.Objective}} ± 95% CI</th><th>verdict against {{.BestSingleTask}}</th><th>MDE</th></tr>
{{range .Learners}}<tr><td class="n">{{.Rank}}</td><td>{{.Name}}</td><td>{{.Type}}</td><td class="n">{{.Score}}</td><td>{{.VerdictText}}</td><td class="n">{{.MDEText}}</td></tr>
{{end}}{{range .References}}<tr><td>ref</td><td>{{.Name}}</td><td>{{.Type}}</td><td class="n">{{.Score}}</td><td>headroom, not ranked</td><td></td></tr>
{{end}}</table>
{{with .Stability}}<p>Rank stability: {{.Summary}}.</p>
<table><tr><th>learner</th><th>rank, first tuning</th><th>rank, second tuning</th><th>score, second tuning ± 95% CI</th><th>verdict against {{.BestSingleTask}}, second tuning</th></tr>
{{range .Rows}}<tr><td>{{.Name}}</td><td class="n">{{.First}}</td><td class="n">{{.Second}}</td><td class="n">{{.Score}}</td><td>{{.VerdictText}}</td></tr>
{{end}}</table>
{{end}}{{range .NotApplicable}}<p>Does not apply: {{.Name}} ({{.Type}}): {{.Reason}}</p>
{{end}}{{range .NotTuned}}<p>Not tuned: {{.Name}} ({{.Type}}): {{.Reason}}</p>
{{end}}{{end}}</body></html>
`))

// Score, VerdictText and MDEText are the table's cells (for report.html).
func (l Learner) Score() string       { return l.score() }
func (l Learner) VerdictText() string { return l.verdictText() }
func (l Learner) MDEText() string     { return l.mde() }

// Summary is the stability in one line: the second tuning's seeds, Kendall's τ_b and the
// learners that moved by more than one place.
func (st Stability) Summary() string {
	moved := "none"
	if len(st.Moved) > 0 {
		moved = strings.Join(st.Moved, ", ")
	}
	return fmt.Sprintf("second tuning at tuning seed %d (design %v), judged at the same judging seed %d; Kendall's τ_b %s "+
		"between the two rankings; moved by more than one place: %s", st.TuningSeed, st.DesignSeeds, st.JudgingSeed, f(st.KendallTauB), moved)
}

// learner is the second tuning's result of the learner named.
func (st Stability) learner(name string) Learner {
	for _, l := range st.Learners {
		if l.Name == name {
			return l
		}
	}
	return Learner{}
}

// StabilityRow is a line of report.html's stability table.
type StabilityRow struct {
	RankPair
	Score, VerdictText string
}

// Rows are report.html's stability table: every learner's two ranks, and its score and verdict
// under the second tuning.
func (st Stability) Rows() []StabilityRow {
	var out []StabilityRow
	for _, p := range st.Ranks {
		l := st.learner(p.Name)
		out = append(out, StabilityRow{RankPair: p, Score: l.score(), VerdictText: l.verdictText()})
	}
	return out
}
