// Package sysmem reads the machine's total memory, for the checks that refuse work which cannot
// fit before it starts: the runner's memory estimate (package memory) and the C ABI's (capi),
// where an allocation that exhausts the memory kills the caller's process.
package sysmem

import (
	"bufio"
	"os"
	"strconv"
	"strings"
)

// Total is the total memory of the machine in bytes, from /proc/meminfo; 0 where it is not there.
func Total() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && fields[0] == "MemTotal:" {
			kb, err := strconv.ParseInt(fields[1], 10, 64)
			if err != nil {
				return 0
			}
			return kb << 10
		}
	}
	return 0
}
