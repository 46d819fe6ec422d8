package agent

import "testing"

func BenchmarkMBIEEBMaze4x4(b *testing.B) {
	for _, replan := range []Replan{ReplanDoubling, ReplanEverySample} {
		b.Run(string(replan), func(b *testing.B) {
			p := DefaultMBIEEB()
			p.Replan = replan
			l, err := NewMBIEEB(p)
			if err != nil {
				b.Fatal(err)
			}
			benchTasks(b, Single{B: l})
			b.ReportMetric(float64(l.Plans()), "plans/task")
		})
	}
}
