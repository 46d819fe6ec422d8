package results

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"iter"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/temple-rl/temple/internal/atomicfile"
	"github.com/temple-rl/temple/stats"
)

// figureOrder is the order of the figures in the report; other figures follow in name order.
var figureOrder = []string{"per_task_reward", "advantage_over_", "cumulative_reward", "episode_reward", "eps_mistakes", "regret_by_phase_"}

// reportPage is what report.html shows.
type reportPage struct {
	Name, Version string
	Seed          uint64
	Runs          int
	Tasks         string
	Summary       Summary
	Baseline      string
	Comparisons   []stats.Comparison // the verdicts of Verdicts: what temple run prints
	Tested        Tested             // which comparisons Comparisons holds
	Figures       []SVGFigure
	Foreign       []string        // SVG files under figures/ that temple did not write: named, not shown
	Agents        []string        // the columns of Diagnostics
	Diagnostics   []diagnosticRow // a row per metric, in order of first appearance
	Seconds       float64         // cell time in timings.json
	Reused        int             // cells read back from earlier invocations
	Spec          string
}

// SVGFigure is a figure of a results directory: its file name without .svg and its markup.
type SVGFigure struct {
	Name string
	SVG  template.HTML
}

type diagnosticRow struct {
	Metric string
	Values []string // per agent, the mean over runs and tasks of the metric, "" when the agent has none
}

// VerdictPairs is the largest number of agents whose every pair is tested (Verdicts); with more,
// each agent is tested against the baseline only.
const VerdictPairs = 4

// Tested says which comparisons Verdicts tested (0: none).
type Tested int

const (
	// TestedNamed are the comparisons the spec named (output.verdicts).
	TestedNamed Tested = iota + 1
	// TestedAllPairs is every pair of agents.
	TestedAllPairs
	// TestedBaseline is every agent against the baseline.
	TestedBaseline
)

// Named and AllPairs say which comparisons were tested, for the report's template.
func (t Tested) Named() bool    { return t == TestedNamed }
func (t Tested) AllPairs() bool { return t == TestedAllPairs }

// Verdicts are the paired comparisons that temple run prints and report.html shows, Holm-adjusted
// together: the comparisons named, each "A:B" (a spec's output.verdicts), when there are any;
// otherwise every pair of up to VerdictPairs agents, or every agent against the baseline (every
// pair when there is none).
func Verdicts(sum Summary, baseline string, named []string) ([]stats.Comparison, Tested, error) {
	if len(named) > 0 {
		cs, err := ComparePairs(sum, named)
		return cs, TestedNamed, err
	}
	if len(sum.Agents) <= VerdictPairs {
		baseline = ""
	}
	cs, err := Compare(sum, baseline)
	if baseline == "" {
		return cs, TestedAllPairs, err
	}
	return cs, TestedBaseline, err
}

// WriteReport writes report.html into a results directory from the files it holds: one
// self-contained page with the resolved spec, the summary with 95% CIs, the paired comparison with
// the baseline, every figure inline, each agent's diagnostics and the timings. Every file it reads
// is checked as temple wrote it (ReadSummary, which verifies the whole directory). Write, which
// has the results in memory, builds the same page from them.
func WriteReport(dir Dir) error {
	sum, err := ReadSummary(dir)
	if err != nil {
		return err
	}
	specYAML, err := readVerified(dir, SpecFile, maxSpecBytes)
	if err != nil {
		return err
	}
	page, err := newReportPage(dir, sum, specYAML)
	if err != nil {
		return err
	}
	metrics, err := ReadMetrics(dir)
	if err != nil {
		return err
	}
	page.Diagnostics = diagnosticRows(slices.Values(metrics), page.Agents)
	var timings struct {
		Total  float64 `json:"total_cell_seconds"`
		Reused int     `json:"reused_cells"`
	}
	if b, err := readListed(dir, TimingsFile, maxLayoutBytes); err == nil {
		if err := json.Unmarshal(b, &timings); err != nil {
			return &DamagedError{Path: dir.Path(TimingsFile), Problem: fmt.Sprintf("not the timings' JSON (%v)", err)}
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	page.Seconds, page.Reused = timings.Total, timings.Reused
	return writeReport(dir, page)
}

// newReportPage is the page of report.html of the results directory dir of summary sum and
// spec.yaml specYAML, its figures read from dir (those temple wrote): all but the diagnostics and
// the timings.
func newReportPage(dir Dir, sum Summary, specYAML []byte) (reportPage, error) {
	var s SpecHeader
	if err := yaml.Unmarshal(specYAML, &s); err != nil {
		return reportPage{}, fmt.Errorf("results: %s: %w", dir.Path(SpecFile), err)
	}
	var agents []string
	for _, a := range sum.Agents {
		agents = append(agents, a.Name)
	}
	page := reportPage{Name: s.Name, Version: Version, Seed: s.Seed, Runs: s.Runs, Summary: sum, Baseline: s.Output.Baseline,
		Spec: string(specYAML), Tasks: s.Tasks.Family, Agents: agents}
	var err error
	if len(agents) >= 2 && s.Runs >= 2 {
		if page.Comparisons, page.Tested, err = Verdicts(sum, page.Baseline, s.Output.Verdicts); err != nil {
			return reportPage{}, err
		}
	}
	if page.Figures, page.Foreign, err = ReadFigures(dir); err != nil {
		return reportPage{}, err
	}
	return page, nil
}

// writeReport writes page as dir's report.html, and records it.
func writeReport(dir Dir, page reportPage) error {
	err := atomicfile.WriteWith(dir.Path(ReportFile), func(w *bufio.Writer) error {
		return reportTemplate.Execute(w, page)
	})
	if err != nil {
		return fmt.Errorf("results: report: %w", err)
	}
	return record(dir, ReportFile)
}

// RewriteReport is WriteReport for temple report: it refuses a directory in which an experiment
// is running (whose writer writes the report itself).
func RewriteReport(dir Dir) error {
	unlock, err := lock(dir, "(temple report)", nil)
	if err != nil {
		return err
	}
	defer unlock()
	return WriteReport(dir)
}

// SpecHeader is what a results directory's reader needs of its resolved spec (spec.yaml): these
// keys only, so that it does not depend on the runner that wrote it.
type SpecHeader struct {
	Name  string `yaml:"name"`
	Seed  uint64 `yaml:"seed"`
	Runs  int    `yaml:"runs"`
	Tasks struct {
		Family string `yaml:"family"`
	} `yaml:"tasks"`
	Output struct {
		Baseline string   `yaml:"baseline"`
		Verdicts []string `yaml:"verdicts"`
	} `yaml:"output"`
}

// ReadSpecHeader reads the SpecHeader of dir's spec.yaml; it returns the file's bytes too.
func ReadSpecHeader(dir Dir) (SpecHeader, []byte, error) {
	path := dir.Path(SpecFile)
	b, err := readVerified(dir, SpecFile, maxSpecBytes)
	if err != nil {
		return SpecHeader{}, nil, err
	}
	var h SpecHeader
	if err := yaml.Unmarshal(b, &h); err != nil {
		return SpecHeader{}, nil, fmt.Errorf("results: %s: %w", path, err)
	}
	return h, b, nil
}

// ReadFigures reads the SVG figures of the results directory dir (its figures/) in report order:
// those that temple wrote, whose checksums dir's checksums.json records. Any other SVG there,
// not temple's and so not to be trusted as markup, is not read: foreign names them, for the
// report to say so.
func ReadFigures(dir Dir) (figures []SVGFigure, foreign []string, err error) {
	files, err := filepath.Glob(dir.Path(FiguresDir + "/*.svg"))
	if err != nil {
		return nil, nil, err
	}
	rank := func(name string) int {
		for i, prefix := range figureOrder {
			if strings.HasPrefix(name, prefix) {
				return i
			}
		}
		return len(figureOrder)
	}
	slices.SortStableFunc(files, func(a, b string) int {
		return rank(filepath.Base(a)) - rank(filepath.Base(b))
	})
	for _, file := range files {
		name := FiguresDir + "/" + filepath.Base(file)
		b, err := readVerified(dir, name, maxLayoutBytes)
		if err != nil {
			var damaged *DamagedError
			if errors.As(err, &damaged) {
				foreign = append(foreign, name)
				continue
			}
			return nil, nil, err
		}
		// Our own figures, written by plots.Figure and checked above: trusted markup. Drop the
		// XML prolog.
		svg := string(b)
		if i := strings.Index(svg, "<svg"); i > 0 {
			svg = svg[i:]
		}
		figures = append(figures, SVGFigure{Name: strings.TrimSuffix(filepath.Base(file), ".svg"), SVG: template.HTML(svg)})
	}
	return figures, foreign, nil
}

// diagnosticRows averages each agent's metrics (metrics.csv's rows, in its order) over runs and
// tasks: a row per metric, a column per agent (so that no metric's name is cut at the page's
// edge).
func diagnosticRows(metrics iter.Seq[MetricRow], agents []string) []diagnosticRow {
	type acc struct{ sum, n float64 }
	sums := map[[2]string]*acc{}
	var names []string
	for m := range metrics {
		if !slices.Contains(names, m.Metric) {
			names = append(names, m.Metric)
		}
		k := [2]string{m.Agent, m.Metric}
		if sums[k] == nil {
			sums[k] = &acc{}
		}
		sums[k].sum += m.Value
		sums[k].n++
	}
	var rows []diagnosticRow
	for _, m := range names {
		row := diagnosticRow{Metric: m}
		for _, a := range agents {
			if x := sums[[2]string{a, m}]; x != nil {
				row.Values = append(row.Values, strconv.FormatFloat(x.sum/x.n, 'g', 4, 64))
			} else {
				row.Values = append(row.Values, "")
			}
		}
		rows = append(rows, row)
	}
	return rows
}

var reportTemplate = template.Must(template.New("report").Funcs(template.FuncMap{
	"f2":     func(x float64) string { return strconv.FormatFloat(x, 'f', 2, 64) },
	"g3":     func(x float64) string { return strconv.FormatFloat(x, 'g', 3, 64) },
	"phases": func() []string { return []string{"exploring", "misidentified", "known_model", "unclassified"} },
	"join":   func(xs []string) string { return strings.Join(xs, ", ") },
	"deref": func(x *float64) string {
		if x == nil {
			return ""
		}
		return strconv.FormatFloat(*x, 'f', 2, 64)
	},
}).Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{{.Name}} — temple report</title>
<style>
body { font-family: "Liberation Sans", Arial, sans-serif; max-width: 1300px; margin: 2em auto; color: #222; padding: 0 1em; }
h1 { font-size: 1.6em; } h2 { font-size: 1.25em; margin-top: 2em; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; margin: 0.5em 0; font-size: 0.92em; }
th, td { border: 1px solid #ddd; padding: 0.3em 0.6em; text-align: right; white-space: nowrap; }
td.verdict { white-space: normal; text-align: left; min-width: 14em; }
th:first-child, td:first-child { text-align: left; }
th { background: #f4f4f4; }
.figures { display: flex; flex-wrap: wrap; gap: 1em; }
.figure svg { width: 520px; height: auto; border: 1px solid #eee; }
pre { background: #f7f7f7; padding: 1em; overflow-x: auto; font-size: 0.85em; }
.note { color: #666; font-size: 0.9em; }
.scroll { overflow-x: auto; }
</style></head><body>
<h1>{{.Name}}</h1>
<p class="note">temple {{.Version}} · seed {{.Seed}} · {{.Runs}} runs · tasks: {{.Tasks}} · {{printf "%.1f" .Seconds}} s of cell time, each cell's as measured by the invocation that ran it{{if .Reused}} ({{.Reused}} cells reused from earlier invocations){{end}}</p>

<h2>Summary</h2>
<p class="note">Mean over runs of each run's mean per-task reward (total reward of a task's episodes), ± half-width of the 95% confidence interval across runs (Student's t).{{if .Baseline}} The advantage over {{.Baseline}} is paired run by run.{{end}}</p>
<table><tr><th>agent</th><th>mean per-task reward</th><th>95% CI</th>{{if .Baseline}}<th>advantage over {{.Baseline}}</th><th>95% CI</th>{{end}}</tr>
{{range .Summary.Agents}}<tr><td>{{.Name}}</td><td>{{f2 .MeanPerTaskReward}}</td><td>± {{f2 .CI95}}</td>{{if $.Baseline}}<td>{{deref .Advantage}}</td><td>{{if .AdvantageCI95}}± {{deref .AdvantageCI95}}{{end}}</td>{{end}}</tr>
{{end}}</table>
{{with .Summary.Tuning}}<p class="note">Tuning: {{.Describe}}{{if .AllowDesignSeeds}}; run with --allow-design-seeds, so no verdict{{end}}. Design score ({{.Objective}}) of each agent's chosen setting: {{range $i, $a := .Agents}}{{if $i}}, {{end}}{{$a.Name}} {{f2 $a.Score}} (searched {{join $a.Searched}}){{end}}.</p>{{end}}

{{with .Summary.Optimal}}<h2>Distance to optimal</h2>
<p class="note">The optimal policy of each task's true model earns {{f2 .MeanPerTaskReward.Mean}} ± {{f2 .MeanPerTaskReward.CI95}} per task (finite-horizon optimum from the episodes' start states). Regret is optimal − obtained per task; an ε-mistake is a step whose action's Q* is more than ε = {{g3 .Epsilon}}·V_max below V*; the regret is split by the agent's phase at each step (oracle.csv, regret.csv).</p>
<table><tr><th>agent</th><th>share of optimal</th><th>mean regret</th><th>ε-mistakes per task</th><th>regret: exploring</th><th>misidentified</th><th>known model</th><th>unclassified</th></tr>
{{range $a := $.Summary.Agents}}{{with $o := $a.Oracle}}<tr><td>{{$a.Name}}</td><td>{{with $o.ShareOfOptimal}}{{printf "%.3f ± %.3f" .Mean .CI95}}{{end}}</td><td>{{f2 $o.MeanRegret.Mean}} ± {{f2 $o.MeanRegret.CI95}}</td><td>{{f2 $o.MeanEpsMistakes.Mean}} ± {{f2 $o.MeanEpsMistakes.CI95}}</td>{{range $p := phases}}<td>{{with index $o.RegretByPhase $p}}{{f2 .Mean}}{{end}}</td>{{end}}</tr>{{end}}
{{end}}</table>{{end}}

{{if .Comparisons}}<h2>Paired comparison{{if .Tested.Named}}s named in the spec (output.verdicts){{else if .Tested.AllPairs}}s: every pair of agents{{else}} with {{.Baseline}}{{end}}</h2>
<p class="note">Two-sided paired t-test on the runs' mean per-task rewards (A − B, run by run); Cohen's d_z is the mean difference over the standard deviation of the differences; p-values adjusted together by Holm's method{{if .Tested.Named}} over the comparisons named alone{{end}}; a verdict is significant below p (Holm) = 0.05, otherwise the agents are not distinguishable. These are the verdicts temple run prints.</p>
<div class="scroll"><table><tr><th>A</th><th>B</th><th>A − B</th><th>95% CI</th><th>t</th><th>p</th><th>p (Holm)</th><th>d_z</th><th>runs A won</th><th>verdict</th></tr>
{{range .Comparisons}}<tr><td>{{.A}}</td><td>{{.B}}</td><td>{{f2 .MeanDiff}}</td><td>± {{f2 .CI95}}</td><td>{{g3 .T}}</td><td>{{g3 .P}}</td><td>{{g3 .PAdjusted}}</td><td>{{f2 .EffectSize}}</td><td>{{.Wins}}/{{.N}}</td><td class="verdict">{{.Verdict}}</td></tr>
{{end}}</table></div>{{end}}

<h2>Figures</h2>
<div class="figures">{{range .Figures}}<div class="figure" id="{{.Name}}">{{.SVG}}</div>{{end}}</div>
{{if .Foreign}}<p class="note">Not shown, as temple did not write them (no checksum in checksums.json): {{range $i, $f := .Foreign}}{{if $i}}, {{end}}{{$f}}{{end}}.</p>{{end}}

{{if .Diagnostics}}<h2>Diagnostics</h2>
<p class="note">Each agent's per-task diagnostics (metrics.csv), averaged over runs and tasks; docs/reference/results-format.md says what each one counts.</p>
<div class="scroll"><table><tr><th>metric</th>{{range .Agents}}<th>{{.}}</th>{{end}}</tr>
{{range .Diagnostics}}<tr><td>{{.Metric}}</td>{{range .Values}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table></div>{{end}}

<h2>Resolved spec</h2>
<pre>{{.Spec}}</pre>
<p class="note">Files: per_task.csv, metrics.csv, summary.json, tasks.json, figures/ (PNG and SVG), cells/.</p>
</body></html>
`))
