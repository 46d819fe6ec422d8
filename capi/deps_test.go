package main

import (
	"os/exec"
	"strings"
	"testing"
)

// The C library carries the learners, not the runner: none of the packages that run or report
// experiments is among its dependencies (the package doc).
func TestNoRunnerInTheLibrary(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, banned := range []string{"github.com/temple-rl/temple/experiment", "github.com/temple-rl/temple/results",
			"github.com/temple-rl/temple/report", "gonum.org/v1/plot"} {
			if dep == banned || strings.HasPrefix(dep, banned+"/") {
				t.Errorf("capi depends on %s", dep)
			}
		}
	}
}
