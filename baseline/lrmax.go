package baseline

import (
	"fmt"
	"math"
	"slices"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/agenttypes"
	"github.com/temple-rl/temple/learners"
	"github.com/temple-rl/temple/mdp"
)

// LRMaxType is LRMax's agent type: the name a config gives it (type: lrmax) and its errors begin
// with.
const LRMaxType = "lrmax"

// LRMaxParams are LRMax's parameters; the yaml tags are the config keys.
type LRMaxParams struct {
	M             int64               `yaml:"m" doc:"known threshold m: a pair is known after m samples" range:">= 1"`                                                  // known threshold m
	RMax          float64             `yaml:"r_max" doc:"R_max: rewards are at most R_max"`                                                                             // R_max: rewards are at most R_max
	ActionRule    learners.ActionRule `yaml:"action_rule" doc:"how the RMax underneath acts (the published LRMax: optimistic)" range:"optimistic | balanced-wandering"` // optimistic | balanced-wandering
	PlanTolerance float64             `yaml:"plan_tolerance" doc:"bound on ‖V − V*‖∞ of each plan and fixed point" range:"> 0"`                                         // ‖V − V*‖∞ of each plan and fixed point
	Planning      learners.Planning   `yaml:"planning" doc:"how a plan is brought up to date (see rmax)" range:"delta | incremental | full"`                            // full, incremental or delta re-planning
	// RMin is a lower bound on the rewards: the bounds need V_lo = min(0, r_min/(1−γ)) to be a
	// lower bound on every V*. The paper takes rewards in [0, R_max] (r_min = 0); r_min = 0 is
	// also valid for tasks with negative rewards whose V* is never negative (the online mazes).
	RMin float64 `yaml:"r_min" doc:"a lower bound on the rewards (the paper: 0)" range:"<= r_max"`
	// DMax is the paper's prior knowledge D_max: an upper bound, over every pair of tasks M, M̄ of
	// the sequence and every (s,a), on the local model distance D^{sa}_{MM̄}(γ(V*_M̄ − V_lo)) (the
	// paper's D^{sa}_{MM̄}(γV*_M̄) when r_min = 0). The bounds are upper bounds on Q* only if it is
	// one. The published code's value without a prior, R_max + 2γ·V_max, transfers nothing alone.
	DMax float64 `yaml:"d_max" doc:"D_max, the prior bound on the local model distance between any two tasks of the sequence" range:">= 0"`
	// EpsilonM is ε_m, the L1 accuracy the known pairs' estimates are taken to have; it widens
	// the bounds by B = ε_m·((R_max − r_min) + γ·(V_max − V_lo)) per model and ε_m·γ·D_max/(1−γ)
	// per recursion step (0: the estimates are taken as exact).
	EpsilonM float64 `yaml:"epsilon_m" doc:"ε_m, the L1 accuracy taken for the known pairs' estimates (0: exact)" range:">= 0"`
	// MaxMemory is the number of finished tasks kept in memory: the first MaxMemory ones, as the
	// published code keeps them; 0 keeps every task (the published default).
	MaxMemory int `yaml:"max_memory" doc:"finished tasks kept in memory, the first ones (0: all)" range:">= 0"`
	// PMin is p_min, a lower bound on the probability with which the sequence draws each of its
	// distinct tasks, for the online estimation of D_max per pair (see LRMax); 0 turns the
	// estimation off.
	PMin float64 `yaml:"p_min" doc:"p_min, a lower bound on the probability of drawing each distinct task, for the online estimation of D_max (0: off)" range:"0 <= p_min <= 0.5"`
	// Delta is δ of the online estimation: a pair's estimate is made from tasks enough that both
	// tasks of every pair of distinct tasks were among them with probability at least 1 − δ.
	Delta float64 `yaml:"delta" doc:"δ of the online estimation of D_max" range:"0 < delta < 1"`
}

// DefaultLRMax are the project's RMax settings (m = 500, R_max = 1, plan tolerance 1e-4, full
// planning; the published experiment used m = 10 on its own grid) with the published LRMax values
// of the paper's experiment (SuReLI/llrl, tight.py):
// the prior D_max = 0.1 of "LRMax(0.1)", ε_m = 0.01, rewards in [0, R_max] (r_min = 0), the whole
// memory kept (the code's default), the online estimation with p_min = 0.1 (the code's default)
// and δ = 0.1, and the optimistic action rule: the published LRMax acts greedily on its upper
// bound with ties broken at random.
func DefaultLRMax() LRMaxParams {
	r := learners.DefaultRMax()
	return LRMaxParams{M: r.M, RMax: r.RMax, ActionRule: learners.Optimistic, PlanTolerance: r.PlanTolerance,
		Planning: r.Planning, RMin: 0, DMax: 0.1, EpsilonM: 0.01, MaxMemory: 0, PMin: 0.1, Delta: 0.1}
}

// rmax are the parameters of the RMax learner underneath.
func (p LRMaxParams) rmax() learners.RMaxParams {
	return learners.RMaxParams{M: p.M, RMax: p.RMax, Rule: p.ActionRule, PlanTolerance: p.PlanTolerance, Planning: p.Planning}
}

// Validate names the first parameter out of range by its config key.
func (p LRMaxParams) Validate() error {
	switch {
	case p.M < 1:
		return fmt.Errorf("lrmax: m = %d, want at least 1", p.M)
	case !finite(p.RMax):
		return fmt.Errorf("lrmax: r_max = %v, want a finite number", p.RMax)
	case p.ActionRule != learners.Optimistic && p.ActionRule != learners.BalancedWandering:
		return fmt.Errorf("lrmax: action_rule %q, want %q or %q", p.ActionRule, learners.Optimistic, learners.BalancedWandering)
	case !(p.PlanTolerance > 0) || math.IsInf(p.PlanTolerance, 0):
		return fmt.Errorf("lrmax: plan_tolerance = %v, want a finite number > 0", p.PlanTolerance)
	case !p.Planning.Valid():
		return fmt.Errorf("lrmax: planning %q, want %s", p.Planning, learners.Plannings)
	case !finite(p.RMin) || p.RMin > p.RMax:
		return fmt.Errorf("lrmax: r_min = %v, want a finite number <= r_max = %v", p.RMin, p.RMax)
	case !(p.DMax >= 0) || math.IsInf(p.DMax, 0):
		return fmt.Errorf("lrmax: d_max = %v, want a finite number >= 0", p.DMax)
	case !(p.EpsilonM >= 0) || math.IsInf(p.EpsilonM, 0):
		return fmt.Errorf("lrmax: epsilon_m = %v, want a finite number >= 0", p.EpsilonM)
	case p.MaxMemory < 0:
		return fmt.Errorf("lrmax: max_memory = %d, want 0 (keep every task) or more", p.MaxMemory)
	case !(p.PMin >= 0 && p.PMin <= 0.5):
		return fmt.Errorf("lrmax: p_min = %v, want 0 (no online estimation) <= p_min <= 0.5", p.PMin)
	case p.PMin > 0 && !(p.Delta > 0 && p.Delta < 1):
		return fmt.Errorf("lrmax: delta = %v, want 0 < delta < 1", p.Delta)
	case p.PMin > 0 && confidentTasks(p.PMin, p.Delta) < 0:
		return fmt.Errorf("lrmax: p_min = %v and delta = %v need more than %d tasks", p.PMin, p.Delta, maxConfidentTasks)
	}
	return nil
}

// LRMax registers with RMax's search space and its Lipschitz constant's bound d_max.
func init() {
	agenttypes.Register(agenttypes.Type{Name: LRMaxType, Display: "LRMax", Summary: "Lipschitz lifelong RMax (Lecarpentier et al. 2021), transferring bounds on Q* between tasks",
		Defaults: func() agenttypes.Params { p := DefaultLRMax(); return &p }, PairBytes: 160,
		Search: agenttypes.Join(learners.RMaxSearch, agenttypes.LinReal("d_max", 0, 2)),
		Scales: agenttypes.Dims(agenttypes.LogReal("epsilon_m", 0.001, 1)),
		Needs:  agenttypes.Needs{SameStates: true, SameActions: true, Why: "it transfers bounds on Q* between tasks pair by pair"}, Rank: 90})
}

// New builds LRMax.
func (p *LRMaxParams) New(agenttypes.Context) (agent.Agent, error) { return NewLRMax(*p) }

// MemoryBytes is RMax's and, per task it keeps (max_memory, 0: all), a model of every pair.
func (p *LRMaxParams) MemoryBytes(typeBytes, S, A, tasks int64) int64 {
	kept := tasks
	if p.MaxMemory > 0 {
		kept = min(kept, int64(p.MaxMemory))
	}
	return (typeBytes + kept*agenttypes.RecordPairBytes) * S * A
}

// maxConfidentTasks bounds the search of confidentTasks.
const maxConfidentTasks = 1_000_000

// confidentTasks is the smallest number n of tasks among which, with probability at least 1 − δ,
// both tasks of any pair of distinct tasks appear when each is drawn with probability at least
// p_min: 1 − 2(1 − p_min)^n + (1 − 2p_min)^n ≥ 1 − δ (inclusion–exclusion, as the published
// code); −1 beyond maxConfidentTasks. The probability grows with n, so n is found by doubling and
// bisection.
func confidentTasks(pMin, delta float64) int {
	ok := func(n int) bool {
		fn := float64(n)
		return 1-2*math.Pow(1-pMin, fn)+math.Pow(1-2*pMin, fn) >= 1-delta
	}
	hi := 1
	for !ok(hi) {
		if hi >= maxConfidentTasks {
			return -1
		}
		hi = min(2*hi, maxConfidentTasks)
	}
	lo := hi / 2 // ok(lo) is false, or lo = 0 < 1 = hi
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if ok(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

// partialModel is what LRMax knows of one task, the current one or one in memory: the estimates
// R̂ and T̂ of its known pairs and an upper bound Ū on its Q*.
type partialModel struct {
	known []bool     // per pair; the pairs of terminal states are not known
	model mdp.Sparse // R̂ and T̂ of the known pairs; the other rows are empty
	u     []float64  // Ū(s,a) ≥ Q*(s,a), 0 in terminal states
}

// setFromCounts fills pm with the known pairs of l and the upper bound u.
func (pm *partialModel) setFromCounts(l *learners.RMax, u []float64) {
	c := l.Stats().Counts()
	pm.known = pm.known[:0]
	pm.model.Reset(c.S, c.A)
	for i := 0; i < c.S*c.A; i++ {
		k := l.Stats().Known(i)
		pm.known = append(pm.known, k)
		if !k {
			pm.model.AppendPair(0)
		} else {
			n := float64(c.N(i))
			pm.model.AppendPair(c.R(i) / n)
			for _, x := range c.Successors(i) {
				pm.model.AppendSuccessor(int(x.State), float64(x.N)/n)
			}
		}
		pm.model.EndPair()
	}
	pm.u = append(pm.u[:0], u...)
}

// memoryTask is a finished task in memory, with the warm start of its fixed point.
type memoryTask struct {
	partialModel
	w    []float64 // its weights γ(max_a Ū(s′,a) + tol − V_lo), per state
	diss []float64 // d̂_{M̄M} of the last bound, M the current task
}

// lipschitz computes the Lipschitz upper bound of the current task from one task in memory.
// Notation: M is the current task, M̄ the one in memory, V_lo = min(0, r_min/(1−γ)) a lower bound
// on every V* (terminal states have value 0), V_max = R_max/(1−γ).
type lipschitz struct {
	S, A     int
	terminal []bool
	gamma    float64
	dMax     float64 // D_max
	dFar     float64 // D_max/(1−γ): no local dissimilarity d^{sa} exceeds it
	vLo      float64
	vMax     float64 // R_max/(1−γ)
	b        float64 // B = ε_m·((R_max − r_min) + γ·(V_max − V_lo)), the error of one model's D term
	epsStep  float64 // ε_m·γ·D_max/(1−γ), the error of one recursion step through an estimated T̂
	tol      float64 // the fixed points' tolerance, added to the bound so rounding never lowers it
	stop     float64

	w        []float64  // weights γ(max_a Ū(s′,a) + tol − V_lo) of M, per state
	estimate []float64  // the online estimate of D_max per pair, +Inf where there is none
	dHat     []float64  // D̂_{M̄M} per pair
	acc      []float64  // T̂(·|s,a) − T̄̂(·|s,a), dense, zero between pairs
	rec      mdp.Sparse // the recursion model of one fixed point
	v        []float64  // Iterate's scratch
}

func newLipschitz(p LRMaxParams, S, A int, g float64, terminal []bool) *lipschitz {
	vMax := p.RMax / (1 - g)
	vLo := math.Min(0, p.RMin/(1-g))
	z := &lipschitz{
		S: S, A: A, terminal: terminal, gamma: g, dMax: p.DMax, dFar: p.DMax / (1 - g), vLo: vLo, vMax: vMax,
		b:       p.EpsilonM * ((p.RMax - p.RMin) + g*(vMax-vLo)),
		epsStep: p.EpsilonM * g * p.DMax / (1 - g),
		tol:     p.PlanTolerance, stop: mdp.StopFor(g, p.PlanTolerance),
		w: make([]float64, S), acc: make([]float64, S), v: make([]float64, S), estimate: make([]float64, S*A),
		dHat: make([]float64, S*A),
	}
	for i := range z.estimate {
		z.estimate[i] = math.Inf(1)
	}
	return z
}

// remember makes the memory record of a finished task's partial model.
func (z *lipschitz) remember(pm partialModel) *memoryTask {
	m := &memoryTask{partialModel: pm, w: make([]float64, z.S), diss: make([]float64, z.S*z.A)}
	z.weights(m.w, m.u)
	return m
}

// weights writes γ(max_a u(s′,a) + tol − V_lo) ≥ γ(V*(s′) − V_lo) ≥ 0 into w.
func (z *lipschitz) weights(w, u []float64) {
	for s := range w {
		w[s] = z.gamma * math.Max(0, mdp.Max(u[s*z.A:s*z.A+z.A])+z.tol-z.vLo)
	}
}

// bound writes into out the Lipschitz upper bound on Q*_M of every pair unknown in the current
// task cur, from the task mem in memory (Lecarpentier et al., AAAI-21, Props. 1–3), and reports
// whether it did: when no unknown pair's bound can be below V_max it skips the fixed point,
// leaves out alone and returns false,
//
//	U(s,a) = Ū_M̄(s,a) + min(d̂_{MM̄}(s,a), d̂_{M̄M}(s,a)) + tol.
//
// The local model distance is D^{sa}_{MM̄}(f) = |R(s,a) − R̄(s,a)| + Σ_{s′} f(s′)|T(s′|s,a) − T̄(s′|s,a)|
// and the local dissimilarity d_{MM̄} is the fixed point of
//
//	d^{sa} = D^{sa}_{MM̄}(γV*_M̄) + γ Σ_{s′} T(s′|s,a) max_{a′} d^{s′a′},
//
// which bounds |Q*_M − Q*_M̄|; so does d_{M̄M}, with the roles swapped. From partial models,
// D^{sa}(γV*_M̄) is bounded by D̂^{sa} = min(D_max, D^{sa}_{M̂M̄̂}(weights) + 2B) on pairs known in
// both tasks and by D_max on the others, D_max lowered to the pair's online estimate where there
// is one. The recursion of d̂_{M̄M} runs through T̄̂ on the pairs known in M̄ (plus
// ε_m·γ·D_max/(1−γ) for T̄̂'s error) and ends on the others with γ·D_max/(1−γ), the largest d.
// The recursion of d̂_{MM̄} would run through M's known pairs, but on a pair unknown in M it is
// closed: D_max + γ·D_max/(1−γ) (such a pair is not known in both), so it is not solved. Pairs
// known in M are planned on their estimates; out holds for them the bound through d̂_{M̄M} alone.
// Weights: as T and T̄ both sum to 1, Σ f|ΔT| may use f = γ(V* − V_lo) ≥ 0, which is the paper's
// γV* for rewards in [0, R_max]; V* is bounded by the tasks' Ū. Terminal states (the same in
// both tasks) have Q* = 0 in both: their d is 0.
func (z *lipschitz) bound(cur *partialModel, mem *memoryTask, out []float64) bool {
	z.weights(z.w, cur.u)
	n := z.S * z.A
	for i := 0; i < n; i++ {
		switch {
		case z.isTerminal(i):
			z.dHat[i] = 0
		case cur.known[i] && mem.known[i]:
			_, from := z.distance(&cur.model, &mem.model, i, mem.w, z.w)
			z.dHat[i] = math.Min(z.dMaxOf(i), from+2*z.b)
		default:
			z.dHat[i] = z.dMaxOf(i)
		}
	}
	// Every term of d̂_{M̄M} is ≥ 0, so d̂_{M̄M} ≥ D̂, and D̂ ≤ d̂_{MM̄} on the unknown pairs: then
	// U ≥ Ū_M̄ + D̂ + tol, and if that is V_max or more for every unknown pair, nothing is tightened.
	useful := false
	for i := 0; i < n && !useful; i++ {
		useful = !cur.known[i] && !z.isTerminal(i) && mem.u[i]+z.dHat[i]+z.tol < z.vMax
	}
	if !useful {
		return false
	}
	z.fixedPoint(z.dHat, &mem.partialModel, mem.diss)
	for i := 0; i < n; i++ {
		switch {
		case z.isTerminal(i):
			out[i] = 0
		case cur.known[i]:
			out[i] = mem.u[i] + mem.diss[i] + z.tol
		default:
			out[i] = mem.u[i] + math.Min(z.dMaxOf(i)+z.gamma*z.dFar, mem.diss[i]) + z.tol
		}
	}
	return true
}

// dMaxOf is D_max of pair i: the prior, or the pair's online estimate if it is smaller.
func (z *lipschitz) dMaxOf(i int) float64 { return math.Min(z.dMax, z.estimate[i]) }

func (z *lipschitz) isTerminal(i int) bool { return z.terminal != nil && z.terminal[i/z.A] }

// distance returns D^{sa} of pair i between the estimates x and y, |R̂_x − R̂_y| +
// Σ_{s′} w(s′)|T̂_x(s′) − T̂_y(s′)|, with the weights wy of y (to) and wx of x (from).
func (z *lipschitz) distance(x, y *mdp.Sparse, i int, wy, wx []float64) (to, from float64) {
	for k := x.Start[i]; k < x.Start[i+1]; k++ {
		z.acc[x.Next[k]] += x.Prob[k]
	}
	for k := y.Start[i]; k < y.Start[i+1]; k++ {
		z.acc[y.Next[k]] -= y.Prob[k]
	}
	// Each successor is summed once: its entry is cleared when first read.
	for _, rows := range [2]*mdp.Sparse{x, y} {
		for k := rows.Start[i]; k < rows.Start[i+1]; k++ {
			s := rows.Next[k]
			d := math.Abs(z.acc[s])
			to += wy[s] * d
			from += wx[s] * d
			z.acc[s] = 0
		}
	}
	dr := math.Abs(x.R[i] - y.R[i])
	return dr + to, dr + from
}

// fixedPoint solves d^{sa} = D̂^{sa} + γ Σ_{s′} T̂(s′|s,a) max_{a′} d^{s′a′} + ε_m·γ·D_max/(1−γ) on
// the pairs known in pm, d^{sa} = D̂^{sa} + γ·D_max/(1−γ) on the others and 0 in terminal states,
// by value iteration on d warm-started from its contents.
func (z *lipschitz) fixedPoint(dHat []float64, pm *partialModel, d []float64) {
	r := &z.rec
	r.Reset(z.S, z.A)
	for i := 0; i < z.S*z.A; i++ {
		switch {
		case z.isTerminal(i):
			r.AppendPair(0)
		case pm.known[i]:
			r.AppendPair(dHat[i] + z.epsStep)
			for k := pm.model.Start[i]; k < pm.model.Start[i+1]; k++ {
				r.AppendSuccessor(int(pm.model.Next[k]), pm.model.Prob[k])
			}
		default:
			r.AppendPair(dHat[i] + z.gamma*z.dFar)
		}
		r.EndPair()
	}
	r.Iterate(d, z.v, z.gamma, z.stop, maxFixedPointSweeps)
}

// maxFixedPointSweeps bounds one fixed point; with γ < 1 value iteration converges long before.
const maxFixedPointSweeps = 1_000_000

// LRMax is Lipschitz RMax (Lecarpentier, Abel, Asadi, Jinnai, Rachelson & Littman, "Lipschitz
// Lifelong Reinforcement Learning", AAAI-21; public code SuReLI/llrl): RMax whose optimistic value
// of an unknown pair is tightened by the Lipschitz continuity of Q* in a pseudo-metric between
// MDPs, so that it explores less of what earlier tasks make look bad.
//
// Each task runs RMax with known threshold m. At the end of a task its known pairs' estimates
// R̂, T̂ and its final plan Ū (an upper bound on its Q*) go to memory, the first MaxMemory tasks
// (or all). In a later task, whenever the set of known pairs changes (and at its start), every
// task M̄ in memory gives the Lipschitz upper bound U_M̄(s,a) = Ū_M̄(s,a) + d̂(s,a) on Q*(s,a) of the
// current task (lipschitz.bound: d̂ bounds |Q*_M − Q*_M̄| from the pairs known in both tasks and
// the prior D_max for the others), and RMax plans every unknown pair at the terminal value
//
//	min(R_max/(1−γ), min over M̄ in memory of U_M̄(s,a))
//
// instead of its R_max self-loop; known pairs are planned on their estimates as in RMax. Before
// anything is in memory LRMax is exactly RMax. The bounds are upper bounds on Q* — no negative
// transfer — as long as D_max and r_min hold for the task sequence and the estimates are ε_m-accurate.
//
// Online estimation of D_max (the published code's, with p_min > 0): the sequence is taken to draw
// its tasks from a finite set, each with probability at least p_min. Once a pair is known in n
// tasks of memory, n the smallest number with 1 − 2(1−p_min)^n + (1−2p_min)^n ≥ 1 − δ (then with
// probability 1 − δ both tasks of the farthest pair of distinct tasks are among them), its D_max
// is lowered to the largest local model distance between two of those tasks, both ways, plus 2B;
// the estimates are refreshed after every task stored.
//
// Differences from the published code, which we take to follow the paper over the code: the
// memory holds only known pairs (the code also kept the rewards of pairs that were merely
// visited, treating them as known); d̂_{M̄M} uses the distances weighted by the current task's
// bound (the code computed them and then used the other direction's); pairs known in only one
// task get D_max (the code has a further bound for them that assumes rewards in [0, R_max]); the
// online estimates include the 2B of estimated models, which the code leaves out.
type LRMax struct {
	p        LRMaxParams
	l        learners.RMax
	S, A     int
	gamma    float64
	vMax     float64 // R_max/(1−γ)
	terminal []bool
	tasks    int // tasks begun
	memory   []*memoryTask
	z        *lipschitz
	cur      partialModel
	bound    []float64 // one memory task's bound
	unknown  []float64 // the values unknown pairs are planned at
	known    int       // known pairs when the values were last computed
	truth    *mdp.Model
	nConf    int // tasks a pair must be known in for an online estimate, 0 without estimation

	// per-task diagnostics
	memoryAtStart   int
	startValues     []float64 // the values at the start of the task, nil before any memory
	updates         int       // computations of the bounds
	tightUnknownMax int       // the most unknown pairs planned below R_max/(1−γ) at once
	estimatedStart  int       // pairs with an online estimate of D_max at the start
}

// NewLRMax validates p and returns the agent.
func NewLRMax(p LRMaxParams) (*LRMax, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	x := &LRMax{p: p, l: learners.RMax{P: p.rmax()}}
	if p.PMin > 0 {
		x.nConf = confidentTasks(p.PMin, p.Delta)
	}
	return x, nil
}

// Memory is the number of tasks in memory.
func (x *LRMax) Memory() int { return len(x.memory) }

// UnknownValues are the values the current task plans its unknown pairs at (R_max/(1−γ) where no
// bound is tighter), or nil while the memory is empty. They are owned by the agent.
func (x *LRMax) UnknownValues() []float64 {
	if len(x.memory) == 0 {
		return nil
	}
	return x.unknown
}

// Learner is the current task's RMax learner.
func (x *LRMax) Learner() *learners.RMax { return &x.l }

func (x *LRMax) BeginTask(t agent.Task) error {
	if t.S < 1 || t.A < 1 {
		return fmt.Errorf("lrmax: task %d has S=%d A=%d, want at least one state and one action", t.Index, t.S, t.A)
	}
	if t.Rand == nil {
		return fmt.Errorf("lrmax: task %d has no random stream", t.Index)
	}
	if !(t.Gamma >= 0 && t.Gamma < 1) {
		return fmt.Errorf("lrmax: task %d has discount %v, want 0 <= gamma < 1", t.Index, t.Gamma)
	}
	if x.tasks > 0 {
		switch {
		case t.S != x.S || t.A != x.A:
			return fmt.Errorf("lrmax: task %d has S=%d A=%d, the earlier tasks have S=%d A=%d; LRMax needs one state and action space", t.Index, t.S, t.A, x.S, x.A)
		case t.Gamma != x.gamma:
			return fmt.Errorf("lrmax: task %d has discount %v, the earlier tasks %v", t.Index, t.Gamma, x.gamma)
		case !sameTerminal(t.Terminal, x.terminal):
			return fmt.Errorf("lrmax: task %d has other terminal states than the earlier tasks", t.Index)
		}
	} else {
		x.S, x.A, x.gamma, x.terminal = t.S, t.A, t.Gamma, slices.Clone(t.Terminal)
		x.vMax = x.p.RMax / (1 - t.Gamma)
		x.z = newLipschitz(x.p, t.S, t.A, t.Gamma, x.terminal)
		x.bound = make([]float64, t.S*t.A)
		x.unknown = make([]float64, t.S*t.A)
	}
	x.tasks++
	x.truth = t.Truth
	x.l.Begin(t)
	x.memoryAtStart, x.updates, x.tightUnknownMax, x.startValues = len(x.memory), 0, 0, nil
	x.estimatedStart = 0
	for _, e := range x.z.estimate {
		if !math.IsInf(e, 1) {
			x.estimatedStart++
		}
	}
	if len(x.memory) > 0 {
		x.tighten()
		x.startValues = append(x.startValues, x.unknown...)
	}
	return nil
}

func sameTerminal(a, b []bool) bool {
	for s := range max(len(a), len(b)) {
		if (s < len(a) && a[s]) != (s < len(b) && b[s]) {
			return false
		}
	}
	return true
}

// tighten recomputes the values of the unknown pairs from every task in memory and hands them to
// the learner.
func (x *LRMax) tighten() {
	x.cur.setFromCounts(&x.l, x.l.Q())
	for i := range x.unknown {
		x.unknown[i] = x.vMax
	}
	for _, m := range x.memory {
		if !x.z.bound(&x.cur, m, x.bound) {
			continue // no bound below V_max from m
		}
		for i, u := range x.bound {
			x.unknown[i] = math.Min(x.unknown[i], u)
		}
	}
	x.l.SetUnknownValues(x.unknown)
	x.known = x.l.Stats().KnownPairs()
	x.updates++
	tight := 0
	for i, u := range x.unknown {
		if !x.l.Stats().Known(i) && !x.z.isTerminal(i) && u < x.vMax {
			tight++
		}
	}
	x.tightUnknownMax = max(x.tightUnknownMax, tight)
}

func (x *LRMax) Act(s int) int { return x.l.Act(s) }

// ObserveTerminal marks s terminal in the RMax learner, which plans it at 0 for the rest of the
// task (agent.TerminalObserver). The terminal states the sequence declares, which every task must
// share, are unchanged: a driver that learns terminal states from steps declares none.
func (x *LRMax) ObserveTerminal(s int) { x.l.ObserveTerminal(s) }

// Observe records the transition in RMax and recomputes the bounds when a pair became known.
func (x *LRMax) Observe(s, a int, r float64, next int) {
	x.l.Record(s*x.A+a, next, r)
	if len(x.memory) > 0 && x.l.Stats().KnownPairs() != x.known {
		x.tighten()
	}
}

func (x *LRMax) EndEpisode() {}

// EndTask puts the task's known pairs and final plan in memory, unless the memory is full, and
// refreshes the online estimates of D_max.
func (x *LRMax) EndTask() {
	if x.p.MaxMemory > 0 && len(x.memory) >= x.p.MaxMemory {
		return
	}
	var pm partialModel
	pm.setFromCounts(&x.l, x.l.Q())
	x.memory = append(x.memory, x.z.remember(pm))
	if x.nConf > 0 && len(x.memory) >= x.nConf {
		x.estimate()
	}
}

// estimate sets the online estimate of D_max of every pair known in at least nConf tasks of
// memory: the largest D^{sa} between two of them, both ways, plus 2B.
func (x *LRMax) estimate() {
	var in []*memoryTask
	for i := range x.z.estimate {
		in = in[:0]
		for _, m := range x.memory {
			if m.known[i] {
				in = append(in, m)
			}
		}
		if x.z.isTerminal(i) || len(in) < x.nConf {
			continue
		}
		d := 0.0
		for a, ma := range in {
			for _, mb := range in[a+1:] {
				to, from := x.z.distance(&ma.model, &mb.model, i, mb.w, ma.w)
				d = math.Max(d, math.Max(to, from))
			}
		}
		x.z.estimate[i] = d + 2*x.z.b
	}
}

// Phase is its RMax learner's phase of s: exploring while an action of s is unknown — planned at
// its Lipschitz bound or R_max/(1−γ) — known model otherwise (agent.StepInfo).
func (x *LRMax) Phase(s int) agent.Phase { return x.l.Stats().Phase(s) }

// PolicyVersion and Policy are its RMax learner's (agent.PolicyInfo): the bounds reach the policy
// only through the learner's unknown values, which change its version.
func (x *LRMax) PolicyVersion() uint64       { return x.l.PolicyVersion() }
func (x *LRMax) Policy(s int, dst []float64) { x.l.Policy(s, dst) }

// TaskMetrics reports the tasks in memory at the start of the task; at the start, the pairs
// (terminal states aside) planned below R_max/(1−γ) and the mean of their planned values over all
// those pairs; the most unknown pairs planned below R_max/(1−γ) at once; how often the bounds were
// computed; the pairs with an online estimate of D_max at the start; the start values below the
// true Q* by more than 1e-6 — negative transfer, from a D_max or r_min that does not hold — when
// the task's true model is given (−1 otherwise, and 0 while the memory is empty); and RMax's
// diagnostics.
func (x *LRMax) TaskMetrics() []agent.Metric {
	tight, sum, pairs := 0, 0.0, 0
	for i := 0; i < x.S*x.A; i++ {
		if x.z.isTerminal(i) {
			continue
		}
		v := x.vMax
		if x.startValues != nil {
			v = x.startValues[i]
		}
		pairs++
		sum += v
		if v < x.vMax {
			tight++
		}
	}
	mean := 0.0
	if pairs > 0 {
		mean = sum / float64(pairs)
	}
	out := []agent.Metric{
		{Name: "memory", Value: float64(x.memoryAtStart)},
		{Name: "tight_pairs_start", Value: float64(tight)},
		{Name: "mean_bound_start", Value: mean},
		{Name: "tight_unknown_max", Value: float64(x.tightUnknownMax)},
		{Name: "bound_updates", Value: float64(x.updates)},
		{Name: "estimated_pairs_start", Value: float64(x.estimatedStart)},
		{Name: "start_bound_violations", Value: float64(x.violations())},
	}
	return append(out, x.l.Stats().Metrics()...)
}

// violations counts the pairs whose start value is below the true Q* of the task, −1 without
// the true model.
func (x *LRMax) violations() int {
	if x.startValues == nil {
		return 0
	}
	if x.truth == nil {
		return -1
	}
	sol, err := mdp.ValueIteration(x.truth, x.gamma, exactTolerance)
	if err != nil {
		return -1
	}
	n := 0
	for i, v := range x.startValues {
		if !x.z.isTerminal(i) && v < sol.Q[i]-1e-6 {
			n++
		}
	}
	return n
}
