package experiment

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/temple-rl/temple/results"
)

// FuzzNames: any experiment and agent names: Validate never panics, and what it accepts is safe
// as the file names made of it: the experiment's name a single local path component (runs/NAME
// stays below runs/), each agent's cell file a single component below cells/, distinct agents'
// files distinct, and within the length limit.
func FuzzNames(f *testing.F) {
	for _, seed := range [][3]string{{"..", "A", "B"}, {"../../x", "A/B", "A_B"}, {"ok", "A B", "A_B"}, {"x", strings.Repeat("a", 235), "b"},
		{"τ sweep", "O-TempLe", "RMax"}, {".hidden", "a\x00b", "c"}, {"a\\b", "..", "."}} {
		f.Add(seed[0], seed[1], seed[2])
	}
	f.Fuzz(func(t *testing.T, name, a, b string) {
		s := small(1, 1, 1)
		s.Name = name
		s.Agents = s.Agents[:2]
		s.Agents[0].Name, s.Agents[1].Name = a, b
		s.Output.Baseline = ""
		if s.Validate() != nil {
			return
		}
		if len(name) > MaxNameBytes || filepath.Base(name) != name || !filepath.IsLocal(name) || strings.HasPrefix(name, ".") {
			t.Fatalf("accepted the experiment name %q", name)
		}
		dir := filepath.Join("runs", name)
		if filepath.Dir(dir) != "runs" {
			t.Fatalf("runs/%s is not a directory of runs/", name)
		}
		ca, cb := results.At("d").Cell(0, a), results.At("d").Cell(0, b)
		for _, p := range []string{ca, cb} {
			if filepath.Dir(p) != filepath.Join("d", "cells") || len(filepath.Base(p)) > 255 {
				t.Fatalf("agent names %q, %q: cell file %s", a, b, p)
			}
		}
		if ca == cb {
			t.Fatalf("agents %q and %q share the cell file %s", a, b, ca)
		}
	})
}
