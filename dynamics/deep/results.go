package deep

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/temple-rl/temple/dynamics"
	"github.com/temple-rl/temple/plots"
	"github.com/temple-rl/temple/stats"
)

// Summary is the study's statistics across runs.
type Summary struct {
	// Version is the tool's version and WallSeconds the study's wall time, both set by the
	// caller (the command) for the record.
	Version     string  `json:"version,omitempty"`
	WallSeconds float64 `json:"wall_seconds,omitempty"`

	Seed    uint64          `json:"seed"`
	Seeds   int             `json:"seeds"`
	Sizes   []int           `json:"sizes"`
	Test    int             `json:"test_transitions"`
	Config  dynamics.Config `json:"config"`
	Lambdas []float64       `json:"lambdas"`
	Envs    []EnvSummary    `json:"envs"`
}

// EnvSummary holds one environment's curves and the comparison at the largest training size.
type EnvSummary struct {
	Env    string          `json:"env"`
	Series []SeriesSummary `json:"series"`
	// Paper are the paper's losses (absolute, relative, relative+augment), if it gives them.
	Paper *[3]float64 `json:"paper,omitempty"`
	// AbsoluteWorst checks the paper's first ordering on the mean losses at the largest size:
	// Absolute above every other series.
	AbsoluteWorst bool `json:"absolute_worst"`
	// AugmentVsRelative[λ] reads the paired difference loss(augment) − loss(relative) at the
	// largest size against its own 95% CI: "lower" or "higher" when the interval excludes 0,
	// else "not distinguishable". AugmentBest[λ] is the paper's second ordering, Relative +
	// augment below Relative and Absolute, held only when it is "lower" (and its mean below
	// Absolute's).
	AugmentVsRelative map[string]string `json:"augment_vs_relative"`
	AugmentBest       map[string]bool   `json:"augment_best"`
	// AugmentMinusRelative[λ] is the paired difference loss(augment) − loss(relative) per
	// training size: mean and 95% CI half-width across runs (the same data and network stream).
	AugmentMinusRelative map[string]Paired `json:"augment_minus_relative"`
}

// Paired is a per-size mean difference and its 95% CI half-width.
type Paired struct {
	Mean []float64 `json:"mean"`
	CI95 []float64 `json:"ci95"`
}

// SeriesSummary is one learner's loss per training size: arithmetic mean and 95% CI
// half-width across runs, and the mean number of mixture components.
type SeriesSummary struct {
	Name   string    `json:"name"`
	Method string    `json:"method"`
	Lambda float64   `json:"lambda"`
	Mean   []float64 `json:"mean"`
	CI95   []float64 `json:"ci95"`
	MeanK  []float64 `json:"mean_k,omitempty"`
	runs   [][]float64
}

// Summarise computes the statistics of the records of s.
func Summarise(s Spec, recs []Record) (Summary, error) {
	sum := Summary{Seed: s.Seed, Seeds: s.Seeds, Sizes: s.Sizes, Test: s.Test, Config: s.Config, Lambdas: s.Lambdas}
	series := s.Series()
	sizeIdx := map[int]int{}
	for i, n := range s.Sizes {
		sizeIdx[n] = i
	}
	for _, env := range s.Envs {
		es := EnvSummary{Env: env.Name, Paper: env.Paper, AugmentVsRelative: map[string]string{},
			AugmentBest: map[string]bool{}, AugmentMinusRelative: map[string]Paired{}}
		for _, se := range series {
			ss := SeriesSummary{Name: se.String(), Method: se.Method.String(), Lambda: se.Lambda, runs: make([][]float64, s.Seeds)}
			for r := range ss.runs {
				ss.runs[r] = make([]float64, len(s.Sizes))
				for k := range ss.runs[r] {
					ss.runs[r][k] = math.NaN()
				}
			}
			ks := make([]float64, len(s.Sizes))
			for _, rec := range recs {
				if rec.Env == env.Name && rec.Series == se {
					ss.runs[rec.Run][sizeIdx[rec.N]] = rec.Loss
					ks[sizeIdx[rec.N]] += float64(rec.K) / float64(s.Seeds)
				}
			}
			b, err := stats.BandAcross(ss.runs)
			if err != nil {
				return Summary{}, err
			}
			ss.Mean = b.Mean
			for k := range b.Mean {
				ss.CI95 = append(ss.CI95, b.Hi[k]-b.Mean[k])
			}
			if se.Method == dynamics.RelativeAugment {
				ss.MeanK = ks
			}
			es.Series = append(es.Series, ss)
		}
		last := len(s.Sizes) - 1
		abs, rel := es.Series[0], es.Series[1]
		es.AbsoluteWorst = true
		for _, o := range es.Series[1:] {
			es.AbsoluteWorst = es.AbsoluteWorst && abs.Mean[last] > o.Mean[last]
		}
		for _, aug := range es.Series[2:] {
			key := strconv.FormatFloat(aug.Lambda, 'g', -1, 64)
			var p Paired
			diff := make([]float64, s.Seeds)
			for k := range s.Sizes {
				for r := range diff {
					diff[r] = aug.runs[r][k] - rel.runs[r][k]
				}
				m, h := stats.MeanCI(diff)
				p.Mean, p.CI95 = append(p.Mean, m), append(p.CI95, h)
			}
			es.AugmentMinusRelative[key] = p
			es.AugmentVsRelative[key] = compare(p.Mean[last], p.CI95[last])
			es.AugmentBest[key] = es.AugmentVsRelative[key] == "lower" && aug.Mean[last] < abs.Mean[last]
		}
		sum.Envs = append(sum.Envs, es)
	}
	return sum, nil
}

// compare reads a paired difference of mean m and 95% CI half-width h: "lower" or "higher"
// than zero when the interval m ± h excludes it, else "not distinguishable".
func compare(m, h float64) string {
	switch {
	case m+h < 0:
		return "lower"
	case m-h > 0:
		return "higher"
	}
	return "not distinguishable"
}

// Write saves the study in dir: deep.csv (one row per model), deep_summary.json, table.md and
// one figure per environment (figures/deep_<env>.png and .svg).
func Write(dir string, s Spec, recs []Record, sum Summary) error {
	if err := os.MkdirAll(filepath.Join(dir, "figures"), 0o755); err != nil {
		return fmt.Errorf("study: %w", err)
	}
	if err := writeFile(filepath.Join(dir, "deep.csv"), func(w io.Writer) error { return WriteCSV(w, recs) }); err != nil {
		return err
	}
	if err := writeFile(filepath.Join(dir, "deep_summary.json"), func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(sum)
	}); err != nil {
		return err
	}
	if err := writeFile(filepath.Join(dir, "table.md"), func(w io.Writer) error { return WriteTable(w, sum) }); err != nil {
		return err
	}
	for _, es := range sum.Envs {
		if err := Figure(sum, es).Save(filepath.Join(dir, "figures", "deep_"+fileName(es.Env))); err != nil {
			return err
		}
	}
	return nil
}

func fileName(env string) string {
	return strings.ToLower(strings.NewReplacer("-", "_", " ", "_").Replace(env))
}

func writeFile(name string, write func(io.Writer) error) error {
	f, err := os.Create(name)
	if err != nil {
		return fmt.Errorf("study: %w", err)
	}
	if err := write(f); err != nil {
		f.Close()
		return fmt.Errorf("study: writing %s: %w", name, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("study: %w", err)
	}
	return nil
}

// WriteCSV writes one row per model: env, method, lambda, run, n, loss, k, seconds.
func WriteCSV(w io.Writer, recs []Record) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"env", "method", "lambda", "run", "n", "loss", "k", "seconds"})
	for _, r := range recs {
		cw.Write([]string{r.Env, r.Series.Method.String(), strconv.FormatFloat(r.Series.Lambda, 'g', -1, 64),
			strconv.Itoa(r.Run), strconv.Itoa(r.N), strconv.FormatFloat(r.Loss, 'g', -1, 64),
			strconv.Itoa(r.K), strconv.FormatFloat(r.Seconds, 'f', 3, 64)})
	}
	cw.Flush()
	return cw.Error()
}

// Figure is one environment's loss curves: log10 of the held-out loss against the number of
// training transitions, mean and 95% CI across runs of log10(loss) (a geometric mean, as the
// losses span orders of magnitude).
func Figure(sum Summary, es EnvSummary) plots.Figure {
	f := plots.Figure{
		Title:  fmt.Sprintf("%s: dynamics model loss (%d seeds)", es.Env, sum.Seeds),
		XLabel: "training transitions (uniformly random policy)",
		YLabel: "log10 held-out MSE of the next state (standardised)",
		Points: true,
	}
	x := make([]float64, len(sum.Sizes))
	for i, n := range sum.Sizes {
		x[i] = float64(n)
	}
	for _, ss := range es.Series {
		logs := make([][]float64, len(ss.runs))
		for r, run := range ss.runs {
			logs[r] = make([]float64, len(run))
			for k, v := range run {
				logs[r][k] = math.Log10(v)
			}
		}
		b, err := stats.BandAcross(logs)
		if err != nil {
			continue
		}
		f.Series = append(f.Series, plots.Series{Label: ss.Name, X: x, Band: b})
	}
	return f
}

// WriteTable writes, per environment, the losses at the largest training size beside the
// paper's, as a Markdown table.
func WriteTable(w io.Writer, sum Summary) error {
	n := sum.Sizes[len(sum.Sizes)-1]
	fmt.Fprintf(w, "| environment | method | loss at n = %d (mean ± 95%% CI, %d seeds) | paper |\n", n, sum.Seeds)
	fmt.Fprintln(w, "|---|---|---|---|")
	for _, es := range sum.Envs {
		for _, ss := range es.Series {
			paper := "—"
			if es.Paper != nil {
				m, _ := dynamics.ParseMethod(ss.Method)
				paper = strconv.FormatFloat(es.Paper[m], 'f', 5, 64)
			}
			last := len(ss.Mean) - 1
			fmt.Fprintf(w, "| %s | %s | %.3g ± %.2g | %s |\n", es.Env, ss.Name, ss.Mean[last], ss.CI95[last], paper)
		}
	}
	fmt.Fprintln(w)
	for _, es := range sum.Envs {
		fmt.Fprintf(w, "%s at n = %d: Absolute worst: %v.", es.Env, n, es.AbsoluteWorst)
		for _, ss := range es.Series[2:] {
			key := strconv.FormatFloat(ss.Lambda, 'g', -1, 64)
			d, last := es.AugmentMinusRelative[key], len(sum.Sizes)-1
			diff := fmt.Sprintf("paired difference from relative %.2g ± %.2g", d.Mean[last], d.CI95[last])
			switch vs := es.AugmentVsRelative[key]; {
			case es.AugmentBest[key]:
				fmt.Fprintf(w, " Augment (λ=%s) best: true (%s).", key, diff)
			case vs == "lower":
				fmt.Fprintf(w, " Augment (λ=%s) best: false (below relative, %s, but not below absolute).", key, diff)
			case vs == "higher":
				fmt.Fprintf(w, " Augment (λ=%s) best: false (above relative, %s).", key, diff)
			default:
				fmt.Fprintf(w, " Augment (λ=%s) best: not distinguishable from relative (%s).", key, diff)
			}
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "\nPaired difference loss(relative+augment) − loss(relative), mean ± 95%% CI over %d seeds:\n\n", sum.Seeds)
	fmt.Fprint(w, "| environment | λ |")
	for _, size := range sum.Sizes {
		fmt.Fprintf(w, " n = %d |", size)
	}
	fmt.Fprint(w, "\n|---|---|")
	for range sum.Sizes {
		fmt.Fprint(w, "---|")
	}
	fmt.Fprintln(w)
	for _, es := range sum.Envs {
		for _, ss := range es.Series[2:] {
			key := strconv.FormatFloat(ss.Lambda, 'g', -1, 64)
			d := es.AugmentMinusRelative[key]
			fmt.Fprintf(w, "| %s | %s |", es.Env, key)
			for k := range d.Mean {
				fmt.Fprintf(w, " %.2g ± %.2g |", d.Mean[k], d.CI95[k])
			}
			fmt.Fprintln(w)
		}
	}
	return nil
}
