package main

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/temple-rl/temple/stats"
)

// The statistics of temple compare for Python (temple.results.paired_tests and mean_ci): the same
// code, so the same numbers.

// pairedRequest is temple_paired_tests's request: each agent's value per run (the runs paired by
// index: the same task sequences), the pairs A:B to test, and the equivalence margin as temple
// compare's --margin takes it ("" for its default), a percentage of each agent's reference
// (References; an agent without one: the mean of its values, temple compare's reference without
// the oracle) or an absolute margin.
type pairedRequest struct {
	PerRun     map[string][]float64 `json:"per_run"`
	Pairs      [][2]string          `json:"pairs"`
	Margin     string               `json:"margin"`
	References map[string]float64   `json:"references"`
}

// comparison is one stats.Comparison as JSON, with its verdict in words.
type comparison struct {
	A          string  `json:"a"`
	B          string  `json:"b"`
	N          int     `json:"n"`
	MeanDiff   float64 `json:"mean_diff"`
	CI95       float64 `json:"ci95"`
	T          float64 `json:"t"`
	P          float64 `json:"p"`
	PAdjusted  float64 `json:"p_adjusted"`
	EffectSize float64 `json:"effect_size"`
	Wins       int     `json:"wins"`
	Verdict    string  `json:"verdict"`
	Margin     float64 `json:"margin"`
	PTOST      float64 `json:"p_tost"`
	PTOSTAdj   float64 `json:"p_tost_adjusted"`
	MDE        float64 `json:"mde"`
}

// pairedTests is the JSON of the paired t-tests and equivalence tests (TOST at the margin) of
// the request's pairs, adjusted together, as temple compare makes them; t and the effect size are
// null where infinite (every difference the same and not 0), the TOST's p-values where the
// margin is 0 (no equivalence test).
func pairedTests(request string) (string, error) {
	var req pairedRequest
	if err := json.Unmarshal([]byte(request), &req); err != nil {
		return "", fmt.Errorf("the request is not {\"per_run\": {agent: [numbers]}, \"pairs\": [[a, b]]}: %v", err)
	}
	if len(req.Pairs) == 0 {
		return "", fmt.Errorf("no pairs to test")
	}
	if req.Margin == "" {
		req.Margin = stats.DefaultMargin
	}
	margin, err := stats.ParseMargin(req.Margin)
	if err != nil {
		return "", err
	}
	reference := func(name string) float64 {
		if r, ok := req.References[name]; ok {
			return r
		}
		mean, _ := stats.MeanCI(req.PerRun[name])
		return mean
	}
	cs := make([]stats.Comparison, len(req.Pairs))
	for i, p := range req.Pairs {
		for _, name := range p {
			if _, ok := req.PerRun[name]; !ok {
				return "", fmt.Errorf("pair %s:%s: no values of %q", p[0], p[1], name)
			}
		}
		if p[0] == p[1] {
			return "", fmt.Errorf("pair %s:%s compares an agent with itself", p[0], p[1])
		}
		c, err := stats.PairedTest(p[0], p[1], req.PerRun[p[0]], req.PerRun[p[1]])
		if err != nil {
			return "", err
		}
		if delta := margin.Of(reference(p[0]), reference(p[1])); delta > 0 {
			if err := c.TestEquivalence(delta); err != nil {
				return "", err
			}
		}
		cs[i] = c
	}
	stats.HolmWithEquivalence(cs)
	out := make([]map[string]any, len(cs))
	for i, c := range cs {
		b, _ := json.Marshal(comparison{A: c.A, B: c.B, N: c.N, MeanDiff: c.MeanDiff, CI95: c.CI95, T: finite(c.T), P: c.P,
			PAdjusted: c.PAdjusted, EffectSize: finite(c.EffectSize), Wins: c.Wins, Verdict: c.Verdict(),
			Margin: c.Margin, PTOST: c.PTOST, PTOSTAdj: c.PTOSTAdjusted, MDE: c.MDE})
		json.Unmarshal(b, &out[i])
		if math.IsInf(c.T, 0) {
			out[i]["t"], out[i]["effect_size"] = nil, nil
		}
		if c.Margin == 0 {
			out[i]["p_tost"], out[i]["p_tost_adjusted"] = nil, nil
		}
	}
	b, err := json.Marshal(out)
	return string(b), err
}

// finite is x, or 0 for an infinite x (written as null by pairedTests).
func finite(x float64) float64 {
	if math.IsInf(x, 0) {
		return 0
	}
	return x
}

// meanCI is the JSON {"mean": m, "ci95": h} of values, a JSON list of numbers: the mean and the
// half-width of its 95% confidence interval (Student's t), as every ± of temple's.
func meanCI(values string) (string, error) {
	var xs []float64
	if err := json.Unmarshal([]byte(values), &xs); err != nil {
		return "", fmt.Errorf("the values are not a JSON list of numbers: %v", err)
	}
	if len(xs) == 0 {
		return "", fmt.Errorf("no values")
	}
	m, h := stats.MeanCI(xs)
	b, err := json.Marshal(map[string]float64{"mean": m, "ci95": h})
	return string(b), err
}
