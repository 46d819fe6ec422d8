package results

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/temple-rl/temple/internal/regular"
)

// MetricRow is one line of metrics.csv: the value of one agent.Metric of one task of a cell.
type MetricRow struct {
	Run    int
	Agent  string
	Task   int
	Metric string
	Value  float64
}

// ReadMetrics reads dir's metrics.csv (run,agent,task,metric,value), in file order. A line that
// is not five fields with whole numbers for run and task and a number for value is refused
// (*DamagedError naming the line).
func ReadMetrics(dir Dir) ([]MetricRow, error) {
	path := dir.Path(MetricsFile)
	held, err := regular.ReadFile(path, maxTableBytes)
	if err != nil {
		return nil, fmt.Errorf("results: %w", err)
	}
	if _, err := parseMetrics(bytes.NewReader(held), path); err != nil { // first: a damaged line is named
		return nil, err
	}
	b, err := readVerified(dir, MetricsFile, maxTableBytes) // the bytes parsed are the bytes checked
	if err != nil {
		return nil, err
	}
	return parseMetrics(bytes.NewReader(b), path)
}

// maxTableBytes bounds a CSV file a reader holds whole (metrics.csv): 4 GiB.
const maxTableBytes = 4 << 30

// parseMetrics reads the content of metrics.csv, whose path names it in errors.
func parseMetrics(in io.Reader, path string) ([]MetricRow, error) {
	r := csv.NewReader(in)
	r.FieldsPerRecord = -1 // checked below, with the line named
	if _, err := r.Read(); err != nil && !errors.Is(err, io.EOF) {
		return nil, &DamagedError{Path: path, Problem: fmt.Sprintf("its header is not CSV (%v)", err)}
	}
	var rows []MetricRow
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			return rows, nil
		}
		var line int
		var parse *csv.ParseError
		switch {
		case errors.As(err, &parse):
			line = parse.StartLine
		case err != nil:
			return nil, fmt.Errorf("results: %s: %w", path, err)
		default:
			line, _ = r.FieldPos(0) // FieldPos is only defined after a successful Read
		}
		var row MetricRow
		if err == nil && len(rec) == 5 {
			row.Agent, row.Metric = rec[1], rec[3]
			var e1, e2, e3 error
			row.Run, e1 = strconv.Atoi(rec[0])
			row.Task, e2 = strconv.Atoi(rec[2])
			row.Value, e3 = strconv.ParseFloat(rec[4], 64)
			err = errors.Join(e1, e2, e3)
		} else if err == nil {
			err = fmt.Errorf("%d fields", len(rec))
		}
		if err != nil {
			return nil, &DamagedError{Path: path, Problem: fmt.Sprintf("line %d is not run,agent,task,metric,value with whole numbers for run and task and a number for value (%v)", line, err)}
		}
		rows = append(rows, row)
	}
}
