package experiment

import (
	"fmt"
	"html/template"
	"os"
	"path/filepath"
	"strconv"

	"github.com/temple-rl/temple/results"
)

// sweepPage is what the report.html of a sweep shows.
type sweepPage struct {
	Name, Version string
	Params        []string
	Points        []SweepPoint
	Figures       []results.SVGFigure
	Dirs          []string
}

// writeSweepReport writes report.html of a sweep: its table, its figure and a link to the report
// of every point.
func writeSweepReport(dir string, s Spec, points []SweepPoint) error {
	page := sweepPage{Name: s.Name, Version: results.Version, Points: points}
	for _, p := range s.Sweep {
		page.Params = append(page.Params, p.Param)
	}
	for _, pt := range sweepPoints(s.Sweep) {
		page.Dirs = append(page.Dirs, pointDir(s, pt))
	}
	var err error
	if page.Figures, err = results.ReadFigures(filepath.Join(dir, "figures")); err != nil {
		return err
	}
	f, err := os.Create(filepath.Join(dir, "report.html"))
	if err != nil {
		return fmt.Errorf("experiment: report: %w", err)
	}
	err = sweepTemplate.Execute(f, page)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("experiment: report: %w", err)
	}
	return nil
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
<h2>Mean per-task reward at every point (95% CI across runs)</h2>
<table><tr>{{range .Params}}<th>{{.}}</th>{{end}}<th>agent</th><th>mean per-task reward</th><th>95% CI</th></tr>
{{range .Points}}<tr>{{range .Values}}<td>{{.}}</td>{{end}}<td>{{.Agent}}</td><td>{{f2 .MeanPerTaskReward}}</td><td>± {{f2 .CI95}}</td></tr>
{{end}}</table>
<h2>Points</h2><ul>{{range .Dirs}}<li><a href="{{.}}/report.html">{{.}}</a></li>{{end}}</ul>
</body></html>
`))
