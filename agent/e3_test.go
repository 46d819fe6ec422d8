package agent

import "testing"

func BenchmarkE3Maze4x4(b *testing.B) {
	l, err := NewE3(DefaultE3())
	if err != nil {
		b.Fatal(err)
	}
	benchTasks(b, Single{B: l})
	b.ReportMetric(float64(l.Plans()), "plans/task")
}
