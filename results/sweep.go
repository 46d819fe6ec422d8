package results

import (
	"bufio"
	"fmt"
	"html/template"
	"os"
	"strconv"
	"strings"

	"github.com/temple-rl/temple/internal/atomicfile"
	"github.com/temple-rl/temple/plots"
)

// A sweep's directory holds one experiment directory per point, and at its top sweep.json (its
// SweepSetup), sweep.csv (a SweepPoint a row), figures/sweep.{png,svg} and report.html.

// SweepSetup is the layout of a sweep as sweep.json holds it: what its top-level files need that
// the points' own directories do not say.
type SweepSetup struct {
	Name   string   `json:"name"`
	Runs   int      `json:"runs"`
	Params []string `json:"params"` // the swept parameters, in spec order
	Agents []string `json:"agents"` // every agent of the sweep, in spec order
	// Points are the points in order (the last parameter changing fastest).
	Points []SweepPointSetup `json:"points"`
	// TrueValue is the environment's true value of the one swept parameter where it has one (the
	// template gap for tau, the model gap for model_gap), marked on the figure.
	TrueValue *float64 `json:"true_value,omitempty"`
}

// SweepPointSetup is one point of a sweep: its directory below the sweep's, and the value of each
// swept parameter as written.
type SweepPointSetup struct {
	Dir    string   `json:"dir"`
	Values []string `json:"values"`
}

// SweepPoint is the result of one agent at one point of the sweep.
type SweepPoint struct {
	Values            []string `json:"values"` // the value of each swept parameter, as written
	Agent             string   `json:"agent"`
	MeanPerTaskReward float64  `json:"mean_per_task_reward"`
	CI95              float64  `json:"ci95"`
}

// WriteSweepSetup writes sw as dir/sweep.json.
func WriteSweepSetup(dir Dir, sw SweepSetup) error {
	if err := os.MkdirAll(dir.path, 0o755); err != nil {
		return fmt.Errorf("results: %w", err)
	}
	if err := writeJSON(dir.Path(sweepFile), sw); err != nil {
		return err
	}
	return record(dir, sweepFile)
}

// SweepPoints are the rows of sweep.csv from the summaries of the points (in order). An agent that
// depends on no swept parameter runs at the first point only and appears at every point with that
// result.
func SweepPoints(sw SweepSetup, sums []Summary) []SweepPoint {
	var points []SweepPoint
	first := map[string]SweepPoint{} // results of the agents that ran at the first point
	for k, sum := range sums {
		for _, name := range sw.Agents {
			sp, ran := SweepPoint{Values: sw.Points[k].Values, Agent: name}, false
			for _, a := range sum.Agents {
				if a.Name == name {
					sp.MeanPerTaskReward, sp.CI95, ran = a.MeanPerTaskReward, a.CI95, true
				}
			}
			if !ran {
				sp.MeanPerTaskReward, sp.CI95 = first[name].MeanPerTaskReward, first[name].CI95
			} else if _, ok := first[name]; !ok {
				first[name] = sp
			}
			points = append(points, sp)
		}
	}
	return points
}

// WriteSweep writes the top-level files of a sweep: sweep.csv, for a sweep of one numeric
// parameter figures/sweep.{png,svg} with each agent's mean per-task reward and 95% CI, and
// report.html with its table, its figure and a link to the report of every point.
func WriteSweep(dir Dir, sw SweepSetup, points []SweepPoint) error {
	header := make([]string, len(sw.Params))
	for k, p := range sw.Params {
		header[k] = CSVField(p)
	}
	if len(sw.Params) == 1 {
		header = []string{"value"}
	}
	if err := WriteCSV(dir.Path(SweepFile), strings.Join(header, ",")+",agent,mean_per_task_reward,ci95", func(w *bufio.Writer) {
		for _, p := range points {
			vs := make([]string, len(p.Values))
			for k, v := range p.Values {
				vs[k] = CSVField(v)
			}
			fmt.Fprintf(w, "%s,%s,%s,%s\n", strings.Join(vs, ","), CSVField(p.Agent), Num(p.MeanPerTaskReward), Num(p.CI95))
		}
	}); err != nil {
		return err
	}
	figure, err := writeSweepFigure(dir, sw, points)
	if err != nil {
		return err
	}
	if err := record(dir, append([]string{SweepFile}, figure...)...); err != nil {
		return err
	}
	return writeSweepReport(dir, sw, points)
}

// writeSweepFigure draws the sweep of one numeric parameter; a grid has no single x axis and a
// sweep of other values no numeric one: sweep.csv holds them. It returns the files it wrote.
func writeSweepFigure(dir Dir, sw SweepSetup, points []SweepPoint) ([]string, error) {
	if len(sw.Params) != 1 {
		return nil, nil
	}
	xs := make([]float64, len(sw.Points))
	for i, pt := range sw.Points {
		x, err := strconv.ParseFloat(pt.Values[0], 64)
		if err != nil {
			return nil, nil
		}
		xs[i] = x
	}
	param := sw.Params[0]
	symbol, label := param, "Value of "+param
	switch param {
	case "tau":
		symbol, label = "τ̂", "User-specified template gap τ̂"
	case "model_gap":
		symbol, label = "Γ", "User-specified model gap Γ"
	}
	fig := plots.Figure{Title: fmt.Sprintf("%s: mean per-task reward against %s, %d runs, 95%% CI", sw.Name, symbol, sw.Runs),
		XLabel: label, YLabel: "Mean per-task reward", Points: true, VLine: sw.TrueValue}
	for _, name := range sw.Agents {
		ser := plots.Series{Label: name}
		k := 0
		for _, p := range points {
			if p.Agent == name {
				ser.X = append(ser.X, xs[k])
				ser.Band.Mean = append(ser.Band.Mean, p.MeanPerTaskReward)
				ser.Band.Lo = append(ser.Band.Lo, p.MeanPerTaskReward-p.CI95)
				ser.Band.Hi = append(ser.Band.Hi, p.MeanPerTaskReward+p.CI95)
				k++
			}
		}
		fig.Series = append(fig.Series, ser)
	}
	if err := os.MkdirAll(dir.Path(FiguresDir), 0o755); err != nil {
		return nil, fmt.Errorf("results: %w", err)
	}
	return figureFiles("sweep"), fig.Save(dir.Path(FiguresDir + "/sweep"))
}

// sweepPage is what the report.html of a sweep shows.
type sweepPage struct {
	Name, Version string
	Params        []string
	Points        []SweepPoint
	Figures       []SVGFigure
	Foreign       []string // SVG files under figures/ that temple did not write: named, not shown
	Dirs          []string
}

// writeSweepReport writes report.html of a sweep.
func writeSweepReport(dir Dir, sw SweepSetup, points []SweepPoint) error {
	page := sweepPage{Name: sw.Name, Version: Version, Params: sw.Params, Points: points}
	for _, pt := range sw.Points {
		page.Dirs = append(page.Dirs, pt.Dir)
	}
	var err error
	if page.Figures, page.Foreign, err = ReadFigures(dir); err != nil {
		return err
	}
	err = atomicfile.WriteWith(dir.Path(ReportFile), func(w *bufio.Writer) error {
		return sweepTemplate.Execute(w, page)
	})
	if err != nil {
		return fmt.Errorf("results: report: %w", err)
	}
	return record(dir, ReportFile)
}

var sweepTemplate = template.Must(template.New("sweep").Funcs(template.FuncMap{
	"f2": func(x float64) string { return strconv.FormatFloat(x, 'f', 2, 64) },
}).Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{{.Name}} — temple sweep report</title>
<style>
body { font-family: "Liberation Sans", Arial, sans-serif; max-width: 1100px; margin: 2em auto; color: #222; padding: 0 1em; }
table { border-collapse: collapse; font-size: 0.92em; } th, td { border: 1px solid #ddd; padding: 0.3em 0.6em; text-align: right; }
th { background: #f4f4f4; } .figure svg { width: 640px; height: auto; } .note { color: #666; font-size: 0.9em; }
</style></head><body>
<h1>{{.Name}}</h1>
<p class="note">temple {{.Version}} · a sweep over {{range $i, $p := .Params}}{{if $i}} × {{end}}{{$p}}{{end}}</p>
{{range .Figures}}<div class="figure">{{.SVG}}</div>{{end}}
{{if .Foreign}}<p class="note">Not shown, as temple did not write them (no checksum in checksums.json): {{range $i, $f := .Foreign}}{{if $i}}, {{end}}{{$f}}{{end}}.</p>{{end}}
<h2>Mean per-task reward at every point (95% CI across runs)</h2>
<table><tr>{{range .Params}}<th>{{.}}</th>{{end}}<th>agent</th><th>mean per-task reward</th><th>95% CI</th></tr>
{{range .Points}}<tr>{{range .Values}}<td>{{.}}</td>{{end}}<td>{{.Agent}}</td><td>{{f2 .MeanPerTaskReward}}</td><td>± {{f2 .CI95}}</td></tr>
{{end}}</table>
<h2>Points</h2><ul>{{range .Dirs}}<li><a href="{{.}}/report.html">{{.}}</a></li>{{end}}</ul>
</body></html>
`))
