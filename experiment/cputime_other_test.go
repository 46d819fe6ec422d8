//go:build !unix

package experiment

import "time"

// cpuTime is not measured here; benchmarks then report no CPU rate.
func cpuTime() time.Duration { return 0 }
