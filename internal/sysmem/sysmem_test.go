package sysmem

import (
	"os"
	"testing"
)

// On Linux the machine's memory is read and plausible; elsewhere it is 0 (unknown).
func TestTotal(t *testing.T) {
	got := Total()
	if _, err := os.Stat("/proc/meminfo"); err != nil {
		if got != 0 {
			t.Errorf("Total() = %d without /proc/meminfo, want 0", got)
		}
		return
	}
	if got < 64<<20 || got > 1<<50 {
		t.Errorf("Total() = %d bytes, want a machine's memory", got)
	}
}
