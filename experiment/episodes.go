package experiment

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
)

// episodeWriter streams one cell's episode returns to CSV as they happen — a line per task:
// the task number, then the return of every episode — so no run holds them in memory.
type episodeWriter struct {
	path string
	f    *os.File
	w    *bufio.Writer
	line []byte
}

func newEpisodeWriter(path string, episodes int) (*episodeWriter, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("experiment: %w", err)
	}
	w := &episodeWriter{path: path, f: f, w: bufio.NewWriterSize(f, 1<<16)}
	w.w.WriteString("task")
	for e := 1; e <= episodes; e++ {
		w.w.WriteString(",e" + strconv.Itoa(e))
	}
	w.w.WriteByte('\n')
	return w, nil
}

func (w *episodeWriter) add(ret float64) {
	w.line = append(w.line, ',')
	w.line = strconv.AppendFloat(w.line, ret, 'g', -1, 64)
}

func (w *episodeWriter) endTask(task int) error {
	w.w.WriteString(strconv.Itoa(task))
	w.w.Write(w.line)
	w.line = w.line[:0]
	if err := w.w.WriteByte('\n'); err != nil {
		return fmt.Errorf("experiment: writing %s: %w", w.path, err)
	}
	return nil
}

func (w *episodeWriter) close() error {
	if err := w.w.Flush(); err != nil {
		w.f.Close()
		return fmt.Errorf("experiment: writing %s: %w", w.path, err)
	}
	return w.f.Close()
}
