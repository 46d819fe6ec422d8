// Package deep runs the comparison of the paper's deep extension (Appendix F.6, Figure 7): the
// held-out loss of dynamics models learned by Absolute, Relative and Relative + augment, against
// the number of training transitions, over independent seeds, with 95% confidence intervals.
//
// One run (an environment and a seed) collects one stream of transitions under the uniformly
// random policy; the model at size n is trained from scratch on its first n transitions, so the
// training sets of a run are nested, as they are for an agent gathering experience. Every method
// at (run, n) sees the same transitions and the same network stream (paired comparison), and all
// are scored on the same held-out transitions of that run, drawn from independent episodes.
package deep

import (
	"context"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/temple-rl/temple/continuous"
	"github.com/temple-rl/temple/dynamics"
)

// Spec is a study.
type Spec struct {
	Envs []Env
	// Seed derives every random stream; Seeds is the number of independent runs per environment.
	Seed  uint64
	Seeds int
	// Sizes are the training-set sizes n (transitions), increasing; Test is the size of each
	// run's held-out set.
	Sizes []int
	Test  int
	// Config is the learners' configuration. Lambdas are the weights λ of the MSE(Δ̂, Δ̄) term
	// with which Relative + augment is run (one series each); Config.Lambda is ignored.
	Config  dynamics.Config
	Lambdas []float64
	// Jobs is the number of parallel workers (0: one per core).
	Jobs int
}

// Default is the command's default study: 10 seeds, n ∈ {250, 500, 1000, 2000, 4000}, 5000 test
// transitions, the default learner, and Relative + augment with λ = 0.1 (steps (2) and (3)) and
// with λ = 0 (step (3) alone).
func Default(envs []Env) Spec {
	return Spec{Envs: envs, Seed: 1, Seeds: 10, Sizes: []int{250, 500, 1000, 2000, 4000}, Test: 5000,
		Config: dynamics.DefaultConfig(), Lambdas: []float64{0.1, 0}}
}

// Validate names the first field out of range.
func (s Spec) Validate() error {
	if len(s.Envs) == 0 {
		return fmt.Errorf("study: no environments")
	}
	if s.Seeds < 2 {
		return fmt.Errorf("study: seeds = %d, want >= 2 (a confidence interval needs two runs)", s.Seeds)
	}
	if len(s.Sizes) == 0 {
		return fmt.Errorf("study: no training sizes")
	}
	for i, n := range s.Sizes {
		if n < 2 || i > 0 && n <= s.Sizes[i-1] {
			return fmt.Errorf("study: sizes[%d] = %d, want increasing sizes >= 2", i, n)
		}
	}
	if s.Test < 1 {
		return fmt.Errorf("study: test = %d, want >= 1", s.Test)
	}
	for i, l := range s.Lambdas {
		if !(l >= 0) {
			return fmt.Errorf("study: lambdas[%d] = %v, want >= 0", i, l)
		}
	}
	if s.Jobs < 0 {
		return fmt.Errorf("study: jobs = %d, want >= 0", s.Jobs)
	}
	return s.Config.Validate()
}

// Series is one learner of the study: a method, and λ for Relative + augment.
type Series struct {
	Method dynamics.Method
	Lambda float64
}

func (s Series) String() string {
	if s.Method == dynamics.RelativeAugment {
		return fmt.Sprintf("%v (λ=%g)", s.Method, s.Lambda)
	}
	return s.Method.String()
}

// Series lists the learners of s: Absolute, Relative, then Relative + augment per λ.
func (s Spec) Series() []Series {
	out := []Series{{Method: dynamics.Absolute}, {Method: dynamics.Relative}}
	for _, l := range s.Lambdas {
		out = append(out, Series{Method: dynamics.RelativeAugment, Lambda: l})
	}
	return out
}

// Record is the result of one model.
type Record struct {
	Env    string
	Series Series
	Run, N int
	Loss   float64
	// K is the number of mixture components chosen by BIC (Relative + augment), else 0.
	K int
	// Seconds is the time to train and score the model; the preparation of its training set
	// (standardisation, the mixture fit), shared by the series, is not included.
	Seconds float64
}

// stream returns the random stream of (seed, env, run, n, purpose), a hash of them all, so that
// no stream depends on the order or number of workers.
func stream(seed uint64, parts ...any) *rand.Rand {
	h := fnv.New64a()
	fmt.Fprint(h, parts...)
	return rand.New(rand.NewPCG(seed, h.Sum64()))
}

// Run executes the study; progress, if not nil, is called after each model with the number of
// models done and the total. Records come back in a fixed order (environment, run, size,
// series) whatever the number of workers.
func Run(ctx context.Context, s Spec, progress func(done, total int)) ([]Record, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	series := s.Series()
	type runData struct{ train, test *continuous.Transitions }
	data := make([][]runData, len(s.Envs))
	for e, env := range s.Envs {
		data[e] = make([]runData, s.Seeds)
		for r := range s.Seeds {
			var sets [2]*continuous.Transitions
			for j, purpose := range []string{"train", "test"} {
				e, err := env.New()
				if err != nil {
					return nil, err
				}
				n := s.Test
				if purpose == "train" {
					n = s.Sizes[len(s.Sizes)-1]
				}
				if sets[j], err = continuous.CollectRandom(e, stream(s.Seed, env.Name, r, purpose), n); err != nil {
					return nil, err
				}
			}
			train, test := sets[0], sets[1]
			data[e][r] = runData{train, test}
		}
	}

	recs := make([]Record, 0, len(s.Envs)*s.Seeds*len(s.Sizes)*len(series))
	for _, env := range s.Envs {
		for r := range s.Seeds {
			for _, n := range s.Sizes {
				for _, se := range series {
					recs = append(recs, Record{Env: env.Name, Series: se, Run: r, N: n})
				}
			}
		}
	}
	jobs := s.Jobs
	if jobs == 0 {
		jobs = runtime.NumCPU()
	}

	// First every training set (env, run, n) is prepared once, with its mixture if a Relative +
	// augment series needs one; then every series trains from it. The stream of (env, run, n)
	// feeds Prepare alone, so the series at (run, n) are paired: the same data, the same network
	// stream, and the same mixture for every λ.
	cluster := len(s.Lambdas) > 0
	prepared := make([][][]*dynamics.Data, len(s.Envs))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(jobs)
	for e, env := range s.Envs {
		prepared[e] = make([][]*dynamics.Data, s.Seeds)
		for r := range s.Seeds {
			prepared[e][r] = make([]*dynamics.Data, len(s.Sizes))
			for k, n := range s.Sizes {
				g.Go(func() error {
					if err := gctx.Err(); err != nil {
						return err
					}
					d, err := dynamics.Prepare(s.Config, data[e][r].train.Head(n), stream(s.Seed, env.Name, r, n, "model"), cluster)
					if err != nil {
						return fmt.Errorf("study: %s run %d n %d: %w", env.Name, r, n, err)
					}
					prepared[e][r][k] = d
					return nil
				})
			}
		}
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}

	var mu sync.Mutex // serialises progress
	done := 0
	g, gctx = errgroup.WithContext(ctx)
	g.SetLimit(jobs)
	for i := range recs {
		g.Go(func() error {
			if err := gctx.Err(); err != nil {
				return err
			}
			rec := &recs[i]
			e := slices.IndexFunc(s.Envs, func(v Env) bool { return v.Name == rec.Env })
			t0 := time.Now()
			mod, err := prepared[e][rec.Run][slices.Index(s.Sizes, rec.N)].Train(rec.Series.Method, rec.Series.Lambda)
			if err != nil {
				return fmt.Errorf("study: %s run %d n %d %v: %w", rec.Env, rec.Run, rec.N, rec.Series, err)
			}
			if rec.Loss, err = mod.Loss(data[e][rec.Run].test); err != nil {
				return err
			}
			if mod.Mixture != nil {
				rec.K = len(mod.Mixture.Weights)
			}
			rec.Seconds = time.Since(t0).Seconds()
			if progress != nil {
				mu.Lock()
				done++
				progress(done, len(recs))
				mu.Unlock()
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return recs, nil
}
