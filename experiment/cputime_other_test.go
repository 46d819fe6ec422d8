//go:build !unix

package experiment

import "time"

// cpuTime is not measured here; benchmarks then report no CPU rate.
func cpuTime() time.Duration { return 0 }

// resetPeakRSS and peakRSS: the peak resident memory is not measured here.
func resetPeakRSS()  {}
func peakRSS() int64 { return 0 }
