package temple

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/agenttypes"
	"github.com/temple-rl/temple/learners"
	"github.com/temple-rl/temple/mdp"
)

// The family's reward noise by hand. Task one: pair 0 paid 1 and 3 (SS 2, one degree of freedom),
// pair 1 paid 5 once (none), pair 2 paid 0, 0 and 3 (SS 6, two). Task two: pair 0 paid 2 and 2
// (SS 0, one). With the guess σ_g = 2 and ν₀ = 1: σ² = (4 + 8)/(1 + 3) = 3 after task one and
// 12/5 after task two; before any task it is the guess.
func TestFamilyNoiseByHand(t *testing.T) {
	var f familyNoise
	if got := f.sd(2); got != 2 {
		t.Fatalf("before any task σ = %v, want the guess 2", got)
	}
	var own mdp.Counts
	own.Reset(3, 1)
	sq := make([]float64, 3)
	for _, s := range []struct {
		i int
		r float64
	}{{0, 1}, {0, 3}, {1, 5}, {2, 0}, {2, 0}, {2, 3}} {
		own.Add(s.i, 0, 1, s.r)
		sq[s.i] += s.r * s.r
	}
	f.add(&own, sq)
	if got := f.sd(2); math.Abs(got-math.Sqrt(3)) > 1e-12 {
		t.Errorf("after task one σ = %v, want √3", got)
	}
	own.Reset(3, 1)
	clear(sq)
	own.Add(0, 0, 1, 2)
	own.Add(0, 0, 1, 2)
	sq[0] = 8
	f.add(&own, sq)
	if got := f.sd(2); math.Abs(got-math.Sqrt(12.0/5)) > 1e-12 {
		t.Errorf("after task two σ = %v, want √(12/5)", got)
	}
}

// Under normal-shared-noise a learner's components take the family's σ on a task; under the
// Normal posterior of known noise they keep reward_noise whatever the family's spread.
func TestForTaskTakesTheFamilysNoise(t *testing.T) {
	family := familyNoise{ss: 8, dof: 3}
	task := agent.Task{S: 3, A: 1}
	for _, c := range []struct {
		posterior learners.RewardPosterior
		want      float64
	}{{learners.NormalReward, 2}, {learners.SharedNoiseReward, math.Sqrt(3)}} {
		p := learners.DefaultPSRL()
		p.RewardPosterior, p.RewardNoise = c.posterior, 2
		r, err := psrlModel(p).forTask(HybridPriorType, task, family)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(r.RewardNoise-c.want) > 1e-12 {
			t.Errorf("%s: σ on the task %v, want %v", c.posterior, r.RewardNoise, c.want)
		}
	}
}

// Each learner over PSRL pools a finished task's rewards into the family's noise under
// normal-shared-noise: after a task whose every pair paid a constant, the next task's components
// take σ far below the guess 1; under the Normal posterior of known noise they keep it.
func TestLearnersPoolTheFamilysNoise(t *testing.T) {
	for _, posterior := range []learners.RewardPosterior{learners.NormalReward, learners.SharedNoiseReward} {
		p := learners.DefaultPSRL()
		p.RewardPosterior, p.Schedule = posterior, learners.PerEpisode
		specs := map[string]agenttypes.Params{
			TemplatePriorType: &TemplatePriorSpec{PSRLParams: p, PriorParams: DefaultPriorParams()},
			LatentPSRLType:    &LatentPSRLSpec{PSRLParams: p, LatentParams: DefaultLatentParams()},
			HybridPriorType:   &HybridPriorSpec{PSRLParams: p, HybridParams: DefaultHybridParams()},
		}
		for typ, spec := range specs {
			a, err := spec.(interface {
				New(agenttypes.Context) (agent.Agent, error)
			}).New(agenttypes.Context{})
			if err != nil {
				t.Fatal(err)
			}
			l := a.(interface {
				BeginTask(agent.Task) error
				Observe(s, a int, r float64, next int)
				EndTask()
			})
			for k := range 2 {
				if err := l.BeginTask(agent.Task{Index: k, S: 2, A: 2, Gamma: 0.9, Rand: rand.New(rand.NewPCG(1, uint64(k)))}); err != nil {
					t.Fatal(err)
				}
				if k == 1 {
					break
				}
				for j := range 40 {
					s, act := j%2, (j/2)%2
					l.Observe(s, act, 0.25*float64(s+act), (s+1)%2)
				}
				l.EndTask()
			}
			var sigma float64
			switch x := l.(type) {
			case *TemplatePrior:
				sigma = x.r.RewardNoise
			case *LatentPrior:
				sigma = x.r.RewardNoise
			case *HybridPrior:
				sigma = x.r.RewardNoise
			}
			// 40 rewards on 4 pairs: 36 degrees of freedom, SS 0, so σ = 1/√37
			want := 1.0
			if posterior == learners.SharedNoiseReward {
				want = 1 / math.Sqrt(37)
			}
			if math.Abs(sigma-want) > 1e-12 {
				t.Errorf("%s, %s: σ on the second task %v, want %v", typ, posterior, sigma, want)
			}
		}
	}
}
