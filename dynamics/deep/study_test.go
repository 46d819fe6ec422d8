package deep

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/temple-rl/temple/dynamics"
)

func tiny() Spec {
	s := Default(Available()[:1]) // CartPole-v1
	s.Seeds, s.Sizes, s.Test = 2, []int{60, 120}, 300
	s.Config.Steps, s.Config.KMax = 60, 3
	return s
}

// TestWorkersDoNotChangeResults: the losses are a function of the spec alone.
func TestWorkersDoNotChangeResults(t *testing.T) {
	a, b := tiny(), tiny()
	a.Jobs, b.Jobs = 1, 2
	ra, err := Run(context.Background(), a, nil)
	if err != nil {
		t.Fatal(err)
	}
	rb, err := Run(context.Background(), b, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := 1 * 2 * 2 * 4; len(ra) != want {
		t.Fatalf("%d records, want %d", len(ra), want)
	}
	for i := range ra {
		if ra[i].Loss != rb[i].Loss || ra[i].K != rb[i].K || ra[i].Series != rb[i].Series {
			t.Fatalf("record %d: %+v with 1 worker, %+v with 2", i, ra[i], rb[i])
		}
	}
}

func TestWrite(t *testing.T) {
	s := tiny()
	calls := 0
	recs, err := Run(context.Background(), s, func(done, total int) { calls++ })
	if err != nil {
		t.Fatal(err)
	}
	if calls != len(recs) {
		t.Errorf("progress called %d times for %d models", calls, len(recs))
	}
	sum, err := Summarise(s, recs)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := Write(dir, s, recs, sum); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"deep.csv", "deep_summary.json", "table.md", "figures/deep_cartpole_v1.png", "figures/deep_cartpole_v1.svg"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("missing %s", f)
		}
	}
	var tab bytes.Buffer
	WriteTable(&tab, sum)
	for _, want := range []string{"| CartPole-v1 | absolute |", "0.05893", "relative+augment (λ=0.1)", "relative+augment (λ=0)"} {
		if !strings.Contains(tab.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, tab.String())
		}
	}
}

func TestValidate(t *testing.T) {
	bad := []func(*Spec){
		func(s *Spec) { s.Envs = nil },
		func(s *Spec) { s.Seeds = 1 },
		func(s *Spec) { s.Sizes = nil },
		func(s *Spec) { s.Sizes = []int{100, 50} },
		func(s *Spec) { s.Test = 0 },
		func(s *Spec) { s.Lambdas = []float64{-1} },
		func(s *Spec) { s.Jobs = -2 },
		func(s *Spec) { s.Config.Steps = 0 },
	}
	for i, f := range bad {
		s := tiny()
		f(&s)
		if _, err := Run(context.Background(), s, nil); err == nil {
			t.Errorf("bad spec %d: no error", i)
		}
	}
}

// TestEveryEnvironment runs a tiny study on every environment built in (with the tags box2d and
// mujoco, LunarLander and Hopper too).
func TestEveryEnvironment(t *testing.T) {
	s := tiny()
	s.Envs = Available()
	s.Lambdas = []float64{0}
	recs, err := Run(context.Background(), s, nil)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := Summarise(s, recs)
	if err != nil {
		t.Fatal(err)
	}
	for _, es := range sum.Envs {
		for _, ss := range es.Series {
			for _, m := range ss.Mean {
				if !(m > 0) {
					t.Errorf("%s %s: mean loss %v", es.Env, ss.Name, m)
				}
			}
		}
		t.Logf("%s: absolute %.3g, relative %.3g, augment %.3g", es.Env, es.Series[0].Mean[1], es.Series[1].Mean[1], es.Series[2].Mean[1])
	}
}

// TestVerdict: the comparison of augment with relative follows the paired difference's own 95%
// CI. Hand-made losses over 3 seeds (exact binary fractions), relative 0.25, 0.5, 0.75: λ=0.1 is
// 0.125 below it in every run (CI of zero width: lower, best); λ=0 differs by −0.125, +0.125, 0
// (mean 0, CI t₂·0.125/√3 = 0.31: not distinguishable); λ=0.5 is 0.0625 above it in every run
// (higher).
func TestVerdict(t *testing.T) {
	s := Default(Available()[:1])
	s.Seeds, s.Sizes, s.Lambdas = 3, []int{100}, []float64{0.1, 0, 0.5}
	rel := []float64{0.25, 0.5, 0.75}
	offset := map[float64][]float64{0.1: {-0.125, -0.125, -0.125}, 0: {-0.125, 0.125, 0}, 0.5: {0.0625, 0.0625, 0.0625}}
	var recs []Record
	for r := range s.Seeds {
		for _, se := range s.Series() {
			loss := 1.0
			switch se.Method {
			case dynamics.Relative:
				loss = rel[r]
			case dynamics.RelativeAugment:
				loss = rel[r] + offset[se.Lambda][r]
			}
			recs = append(recs, Record{Env: "CartPole-v1", Series: se, Run: r, N: 100, Loss: loss})
		}
	}
	sum, err := Summarise(s, recs)
	if err != nil {
		t.Fatal(err)
	}
	es := sum.Envs[0]
	want := map[string]string{"0.1": "lower", "0": "not distinguishable", "0.5": "higher"}
	for key, v := range want {
		if es.AugmentVsRelative[key] != v || es.AugmentBest[key] != (v == "lower") {
			t.Errorf("λ=%s: %q, best %v; want %q", key, es.AugmentVsRelative[key], es.AugmentBest[key], v)
		}
	}
	var tab bytes.Buffer
	if err := WriteTable(&tab, sum); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{
		"Augment (λ=0.1) best: true (paired difference from relative -0.12 ± 0)",
		"Augment (λ=0) best: not distinguishable from relative (paired difference from relative 0 ± 0.31)",
		"Augment (λ=0.5) best: false (above relative, paired difference from relative 0.062 ± 0)",
	} {
		if !strings.Contains(tab.String(), line) {
			t.Errorf("table lacks %q:\n%s", line, tab.String())
		}
	}
}
