// Writing a results directory: spec.yaml, every CSV, summary.json and timings.json (the figures
// are figures.go's, the summary summary.go's; the format is documented in doc.go).

package results

import (
	"bufio"
	"encoding/json"
	"fmt"
	"iter"
	"os"
	"strconv"
	"strings"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/internal/atomicfile"
	"github.com/temple-rl/temple/internal/regular"
)

// Write writes the results directory: spec.yaml, per_task.csv, metrics.csv, with the oracle
// oracle.csv and regret.csv, summary.json, timings.json, the figures and report.html. Everything
// but timings.json (and the seconds report.html shows from it) is a function of the spec and seed.
func Write(dir Dir, s Setup, cells []CellResult) (sum Summary, err error) {
	s.OtherVersions = OtherVersions(dir)
	sum = Summarize(s, cells)
	if err := os.MkdirAll(dir.path, 0o755); err != nil {
		return sum, fmt.Errorf("results: %w", err)
	}
	top := []string{PerTaskFile, MetricsFile, SummaryFile, TimingsFile, ReportFile}
	if s.Oracle {
		top = append(top, OracleFile, RegretFile)
	}
	if err := beginWriting(dir, top...); err != nil { // temple's own, should this process be killed before recording them
		return sum, err
	}
	defer func() {
		if err != nil { // not killed but failed: the record as it was (best effort on a full disk)
			endWriting(dir, top...)
		}
	}()
	if err := atomicfile.Write(dir.Path(SpecFile), s.SpecYAML); err != nil {
		return sum, fmt.Errorf("results: %w", err)
	}
	if err := WriteCSV(dir.Path(PerTaskFile), "run,agent,task,reward,steps,states,actions,start", func(w *bufio.Writer) {
		for _, c := range cells {
			for _, t := range c.Tasks {
				fmt.Fprintf(w, "%d,%s,%d,%s,%d,%d,%d,%d\n", c.Run, CSVField(c.Agent), t.Task, Num(t.Reward), t.Steps, t.States, t.Actions, t.Start)
			}
		}
	}); err != nil {
		return sum, err
	}
	if err := WriteCSV(dir.Path(MetricsFile), "run,agent,task,metric,value", func(w *bufio.Writer) {
		for m := range MetricsOf(cells) {
			fmt.Fprintf(w, "%d,%s,%d,%s,%s\n", m.Run, CSVField(m.Agent), m.Task, m.Metric, Num(m.Value))
		}
	}); err != nil {
		return sum, err
	}
	if s.Oracle {
		if err := writeOracle(dir, s, cells); err != nil {
			return sum, err
		}
	}
	if err := writeJSON(dir.Path(SummaryFile), sum); err != nil {
		return sum, err
	}
	// A cell read back from an earlier invocation keeps the time that invocation measured, so a
	// rerun that reuses every cell does not report 0 s.
	var earlier struct {
		Cells map[string]float64 `json:"cell_seconds"`
	}
	if b, err := regular.ReadFile(dir.Path(TimingsFile), maxLayoutBytes); err == nil {
		json.Unmarshal(b, &earlier) // unreadable: the reused cells' times are unknown, left out
	}
	timings := map[string]any{}
	total, reused := 0.0, 0
	for _, c := range cells {
		seconds, known := c.Seconds, !c.Resumed
		if c.Resumed {
			reused++
			seconds, known = earlier.Cells[CellName(c.Run, c.Agent)]
		}
		if known {
			timings[CellName(c.Run, c.Agent)] = seconds
			total += seconds
		}
	}
	if err := writeJSON(dir.Path(TimingsFile), map[string]any{"cell_seconds": timings, "total_cell_seconds": total, "reused_cells": reused}); err != nil {
		return sum, err
	}
	figures, err := writeFigures(dir, s, cells)
	if err != nil {
		return sum, err
	}
	written := []string{SpecFile, PerTaskFile, MetricsFile, SummaryFile, TimingsFile}
	if s.Oracle {
		written = append(written, OracleFile, RegretFile)
	}
	written = append(written, figures...)
	written = append(written, cellStreams(dir, cells)...)
	if err := record(dir, written...); err != nil { // temple's files alone: a user's own in figures/ is not
		return sum, err
	}
	// The report from what was just written, in memory (WriteReport reads it back, for temple report).
	page, err := newReportPage(dir, sum, s.SpecYAML)
	if err != nil {
		return sum, err
	}
	page.Diagnostics = diagnosticRows(MetricsOf(cells), page.Agents)
	page.Seconds, page.Reused = total, reused
	return sum, writeReport(dir, page)
}

// MetricsOf are the rows of metrics.csv of cells, in its order: cell by cell, task by task.
func MetricsOf(cells []CellResult) iter.Seq[MetricRow] {
	return func(yield func(MetricRow) bool) {
		for _, c := range cells {
			for _, t := range c.Tasks {
				for _, m := range t.Metrics {
					if !yield(MetricRow{Run: c.Run, Agent: c.Agent, Task: t.Task, Metric: m.Name, Value: m.Value}) {
						return
					}
				}
			}
		}
	}
}

// Num is a number as the CSV files hold it: the shortest decimal that reads back exactly.
func Num(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// CSVField quotes a CSV field when it holds a comma, a quote or a newline (RFC 4180).
func CSVField(s string) string {
	if strings.ContainsAny(s, ",\"\n") {
		return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
	}
	return s
}

// WriteCSV writes the CSV file path, atomically: its header line, then the rows.
func WriteCSV(path, header string, rows func(*bufio.Writer)) error {
	err := atomicfile.WriteWith(path, func(w *bufio.Writer) error {
		w.WriteString(header + "\n")
		rows(w)
		return nil
	})
	if err != nil {
		return fmt.Errorf("results: writing %s: %w", path, err)
	}
	return nil
}

func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("results: encoding %s: %w", path, err)
	}
	if err := atomicfile.Write(path, append(b, '\n')); err != nil {
		return fmt.Errorf("results: writing %s: %w", path, err)
	}
	return nil
}

// writeOracle writes oracle.csv (the optimum of every task of every run) and regret.csv (every
// agent against it, with the regret decomposition).
func writeOracle(dir Dir, s Setup, cells []CellResult) error {
	if err := WriteCSV(dir.Path(OracleFile), "run,task,start,optimal_reward,optimal_discounted_start_value", func(w *bufio.Writer) {
		for _, c := range firstAgentCells(s, cells) {
			for _, t := range c.Tasks {
				fmt.Fprintf(w, "%d,%d,%d,%s,%s\n", c.Run, t.Task, t.Start, Num(t.Oracle.OptimalReward), Num(t.Oracle.OptimalDiscountedStart))
			}
		}
	}); err != nil {
		return err
	}
	header := "run,agent,task,reward,optimal_reward,regret,share_of_optimal,eps_mistakes"
	for ph := range agent.Phases {
		header += ",regret_" + ph.String()
	}
	policy := s.PolicyMistakes // a last column, empty for agents that give no policy
	if policy {
		header += ",policy_mistakes"
	}
	return WriteCSV(dir.Path(RegretFile), header, func(w *bufio.Writer) {
		for _, c := range cells {
			for _, t := range c.Tasks {
				o := t.Oracle
				share := ""
				if o.OptimalReward > 0 {
					share = Num(t.Reward / o.OptimalReward)
				}
				fmt.Fprintf(w, "%d,%s,%d,%s,%s,%s,%s,%d", c.Run, CSVField(c.Agent), t.Task, Num(t.Reward), Num(o.OptimalReward),
					Num(o.OptimalReward-t.Reward), share, o.Mistakes)
				for _, g := range o.Regret {
					fmt.Fprintf(w, ",%s", Num(g))
				}
				if policy {
					w.WriteByte(',')
					if o.PolicyMistakes != nil {
						fmt.Fprintf(w, "%d", *o.PolicyMistakes)
					}
				}
				w.WriteByte('\n')
			}
		}
	})
}
