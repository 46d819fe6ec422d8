package measures

import (
	"fmt"
	"testing"
)

// BenchmarkDiameterOfMazes times the exact diameter of slippery mazes (slip 0.1, the paper's
// rewards, goal in the far corner), the cost docs/reference/measures.md quotes.
func BenchmarkDiameterOfMazes(b *testing.B) {
	for _, w := range []int{8, 16, 32} {
		m := slipperyMaze(b, w, 0.1)
		b.Run(fmt.Sprintf("%dx%d", w, w), func(b *testing.B) {
			for range b.N {
				d, err := DiameterOf(m, DiameterOptions{})
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(d.D, "D")
				b.ReportMetric(float64(d.Sweeps)/float64(d.Targets), "sweeps/target")
			}
		})
	}
}
