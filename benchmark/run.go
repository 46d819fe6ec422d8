package benchmark

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/temple-rl/temple/agenttypes"
	"github.com/temple-rl/temple/experiment"
	"github.com/temple-rl/temple/internal/atomicfile"
	"github.com/temple-rl/temple/mdp"
	"github.com/temple-rl/temple/measures"
	"github.com/temple-rl/temple/results"
	"github.com/temple-rl/temple/stats"
	"github.com/temple-rl/temple/tune"
)

// Options say how to run a benchmark.
type Options struct {
	// Seed is the benchmark's seed: every family's tuning seed derives from it and the family's
	// name (FamilySeed).
	Seed uint64
	// Dir is the output directory: DIR/families/NAME/{tuning,judged,result.json}.
	Dir string
	// Jobs is the number of parallel workers of every tuning and run (0: one per core).
	Jobs int
	// Families, when given, are the only families run (by name).
	Families []string
	// Progress, when set, makes the follower of each family's tuning and of its judged run, given
	// what it follows ("" for a tuning, whose stages name themselves).
	Progress func(doing string) tune.Progress
	// Note is told what the benchmark starts (nil: silent).
	Note func(string)
}

// FamilySeed is family name's tuning seed under benchmark seed seed: the first 8 bytes, little
// endian, of SHA-256("temple benchmark " + seed in decimal + " " + name). The design seed and the
// judging seed are temple tune's of it (tune.DesignSeed, tune.JudgingSeed), so no family's judging
// seed is any family's design seed by construction of the hash, and --seed N gives every family
// fresh seeds.
func FamilySeed(seed uint64, name string) uint64 {
	sum := sha256.Sum256([]byte("temple benchmark " + strconv.FormatUint(seed, 10) + " " + name))
	return binary.LittleEndian.Uint64(sum[:8])
}

// SecondTuningSeed is family name's second tuning seed under benchmark seed seed (a spec's
// tuning: seeds: 2): the first 8 bytes, little endian, of SHA-256("temple benchmark " + seed +
// " " + name + " tuning 2"), and if that seed, its design seed or its judging seed were the
// family's first tuning seed, first design seed or judging seed, the next hash with " tuning 2 K"
// (K = 1, 2, …) appended instead. Its design seed is then never the family's judging seed, which
// the second tuning is judged at too, nor the first tuning's design seed.
func SecondTuningSeed(seed uint64, name string) uint64 {
	first := FamilySeed(seed, name)
	used := []uint64{first, tune.DesignSeed(first), tune.JudgingSeed(first)}
	text := "temple benchmark " + strconv.FormatUint(seed, 10) + " " + name + " tuning 2"
	for k := 0; ; k++ {
		t := text
		if k > 0 {
			t += " " + strconv.Itoa(k)
		}
		sum := sha256.Sum256([]byte(t))
		second := binary.LittleEndian.Uint64(sum[:8])
		if !slices.Contains(used, second) && !slices.Contains(used, tune.DesignSeed(second)) && !slices.Contains(used, tune.JudgingSeed(second)) {
			return second
		}
	}
}

// Run runs the families of s (those of o.Families when given), each in DIR/families/NAME, and
// returns their results in the order of s. A family's tuning and judged run resume from what
// DIR holds, so a second Run with the same options runs nothing and returns the same results.
func Run(ctx context.Context, s Spec, o Options) ([]Family, error) {
	for _, name := range o.Families {
		if !slices.ContainsFunc(s.Families, func(f FamilySpec) bool { return f.Name == name }) {
			var names []string
			for _, f := range s.Families {
				names = append(names, f.Name)
			}
			return nil, fmt.Errorf("benchmark: --family %q: no such family in %s (it has %v)", name, s.Name, names)
		}
	}
	margin, err := stats.ParseMargin(s.Margin)
	if err != nil {
		return nil, err
	}
	var out []Family
	for _, f := range s.Families {
		if len(o.Families) > 0 && !slices.Contains(o.Families, f.Name) {
			continue
		}
		if o.Note != nil {
			o.Note("family " + f.Name)
		}
		began := time.Now()
		r, err := runFamily(ctx, s, f, margin, o)
		if serr := addSeconds(o.Dir, f.Name, time.Since(began).Seconds()); err == nil {
			err = serr
		}
		if err != nil {
			return nil, fmt.Errorf("benchmark: family %s: %w", f.Name, err)
		}
		if err := writeJSON(filepath.Join(o.Dir, "families", f.Name, "result.json"), r); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// entry is one learner or reference of a family: its agent and config node.
type entry struct {
	agent     experiment.AgentSpec
	node      *yaml.Node
	reference bool
}

// entries are the learners and references of family f, with f's keys for them.
func entries(s Spec, f FamilySpec) ([]entry, error) {
	var out []entry
	for k, list := range [][]yaml.Node{s.Learners, s.References} {
		for i := range list {
			a, err := decodeAgent(&list[i])
			if err != nil {
				return nil, err
			}
			var override *yaml.Node
			if n, ok := f.Learners[a.Name]; ok {
				override = &n
			}
			node := merged(&list[i], override)
			if a, err = decodeAgent(node); err != nil {
				return nil, fmt.Errorf("learners: %s with the family's keys: %w", a.Name, err)
			}
			out = append(out, entry{agent: a, node: node, reference: k == 1})
		}
	}
	return out, nil
}

// searchOf is s's search: block restricted to the agents named.
func searchOf(s Spec, names []string) map[string]map[string]any {
	out := map[string]map[string]any{}
	for _, n := range names {
		if keys, ok := s.Search[n]; ok {
			out[n] = keys
		}
	}
	return out
}

func runFamily(ctx context.Context, s Spec, f FamilySpec, margin stats.Margin, o Options) (Family, error) {
	seed := FamilySeed(o.Seed, f.Name)
	es, err := entries(s, f)
	if err != nil {
		return Family{}, err
	}
	r := Family{Name: f.Name, TuningSeed: seed, DesignSeeds: []uint64{tune.DesignSeed(seed)}, JudgingSeed: tune.JudgingSeed(seed),
		Runs: f.Runs, NotApplicable: []Excluded{}, NotTuned: []Excluded{}}
	var kept []entry
	for _, e := range es {
		if outside(e.agent) && len(s.Search[e.agent.Name]) == 0 {
			r.NotTuned = append(r.NotTuned, Excluded{Name: e.agent.Name, Type: e.agent.Type,
				Reason: "not tuned: declare its search space (a search: block for " + e.agent.Name + " in the --add file)"})
			continue
		}
		// Applicability: the family's config with this agent alone, one run, built as temple run
		// builds it; a refusal is the reason it does not apply.
		one, err := config(f, f.Name, seed, 1, []*yaml.Node{e.node}, searchOf(s, []string{e.agent.Name}))
		if err == nil {
			err = applies(ctx, one)
		}
		if err != nil {
			r.NotApplicable = append(r.NotApplicable, Excluded{Name: e.agent.Name, Type: e.agent.Type, Reason: err.Error()})
			continue
		}
		kept = append(kept, e)
	}
	if !slices.ContainsFunc(kept, func(e entry) bool { return !untunable(s, e) }) {
		return r, nil // nothing to tune: no learner applies
	}
	dir := filepath.Join(o.Dir, "families", f.Name)
	tuned, rec, sum, err := tuneAndJudge(ctx, s, f, kept, seed, r.JudgingSeed, filepath.Join(dir, "tuning"), filepath.Join(dir, "judged"), o)
	if err != nil {
		return Family{}, err
	}
	r.Objective = rec.Objective
	if err := r.fill(tuned, rec, sum, kept, margin); err != nil {
		return Family{}, err
	}
	r.Measures, r.MeasuresNote = familyMeasures(tuned)
	if s.Tuning.Tunings() < 2 {
		return r, nil
	}
	// The second tuning: the learners alone (references are never ranked), tuned at the second
	// tuning seed and judged at the family's judging seed, so that only the tuning differs.
	var learners []entry
	for _, e := range kept {
		if !e.reference {
			learners = append(learners, e)
		}
	}
	if len(learners) == 0 {
		return r, nil
	}
	seed2 := SecondTuningSeed(o.Seed, f.Name)
	tuned2, rec2, sum2, err := tuneAndJudge(ctx, s, f, learners, seed2, r.JudgingSeed, filepath.Join(dir, "tuning-2"), filepath.Join(dir, "judged-2"), o)
	if err != nil {
		return Family{}, fmt.Errorf("second tuning: %w", err)
	}
	second := Family{JudgingSeed: r.JudgingSeed, Objective: rec2.Objective}
	if err := second.fill(tuned2, rec2, sum2, learners, margin); err != nil {
		return Family{}, err
	}
	r.Stability = newStability(r.Learners, second, seed2)
	return r, nil
}

// tuneAndJudge tunes the entries es of family f by temple tune at tuning seed seed into dir
// tuning, then runs the tuned config at judging seed judging into dir judged: the tuned config
// (its agents in the order of es), the search's record and the judged run's summary. A reference
// with nothing to search (the identification oracle, known-models) is not tuned: it runs as
// given beside the tuned learners.
func tuneAndJudge(ctx context.Context, s Spec, f FamilySpec, es []entry, seed, judging uint64, tuning, judged string, o Options) (experiment.Spec, *tune.Record, results.Summary, error) {
	var nodes []*yaml.Node
	var names []string
	for _, e := range es {
		if !untunable(s, e) {
			nodes, names = append(nodes, e.node), append(names, e.agent.Name)
		}
	}
	spec, err := config(f, f.Name, seed, f.Runs, nodes, searchOf(s, names))
	if err != nil {
		return experiment.Spec{}, nil, results.Summary{}, err
	}
	var tp tune.Progress
	var progress experiment.Progress
	if o.Progress != nil {
		tp = o.Progress("")
		progress = o.Progress("benchmark: " + f.Name + ", the judged run (" + filepath.Base(judged) + ")")
	}
	tuned, rec, err := tune.Tune(ctx, spec, tuning, tune.Options{Seed: seed, Settings: s.Tuning.Settings,
		Runs: s.Tuning.Runs, Draws: s.Tuning.Draws, Jobs: o.Jobs, Progress: tp})
	if err != nil {
		return experiment.Spec{}, nil, results.Summary{}, fmt.Errorf("tuning: %w", err)
	}
	// The first tuning's judging seed is temple tune's own; a second tuning's tuned config is
	// judged at the first's (its tuning: block still refuses the second tuning's design seed).
	tuned.Seed = judging
	if len(nodes) < len(es) {
		searched := tuned.Agents
		tuned.Agents = nil
		for _, e := range es {
			if untunable(s, e) {
				tuned.Agents = append(tuned.Agents, e.agent)
			} else {
				tuned.Agents, searched = append(tuned.Agents, searched[0]), searched[1:]
			}
		}
	}
	sum, err := experiment.Execute(ctx, tuned, judged, o.Jobs, progress)
	if err != nil {
		return experiment.Spec{}, nil, results.Summary{}, fmt.Errorf("judged run: %w", err)
	}
	return tuned, rec, sum, nil
}

// untunable says that e is a reference with nothing to search (no parameter, and no search:
// block for it): it runs as given, and its budget is 0 settings.
func untunable(s Spec, e entry) bool {
	return e.reference && len(agenttypes.SearchSpace(e.agent.Type, e.agent.Params)) == 0 && len(s.Search[e.agent.Name]) == 0
}

// applies says whether the one agent of config one applies to its family's tasks: nil when the
// config builds (experiment.Build: its parameters and run 0's tasks) and one step of one episode
// of every task of run 0 runs (a refusal that only a later task meets, such as latent-psrl's of a
// task of another size); else the refusal.
func applies(ctx context.Context, one experiment.Spec) error {
	if _, err := experiment.Build(one); err != nil {
		return err
	}
	probe := one
	probe.Episodes, probe.Steps, probe.Oracle.Enabled = 1, 1, false
	dir, err := os.MkdirTemp("", "temple-benchmark-probe-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	_, err = experiment.Execute(ctx, probe, filepath.Join(dir, "probe"), 1, nil)
	return err
}

// fill sets the learners' and references' results of the judged run sum of tuned config tuned.
func (r *Family) fill(tuned experiment.Spec, rec *tune.Record, sum results.Summary, kept []entry, margin stats.Margin) error {
	byName := results.AgentsByName(sum)
	records := map[string]tune.Agent{}
	for _, a := range rec.Agents {
		records[a.Name] = a
	}
	for k, e := range kept {
		a := byName[e.agent.Name]
		setting, err := json.Marshal(tuned.Agents[k])
		if err != nil {
			return err
		}
		l := Learner{Name: e.agent.Name, Type: e.agent.Type, SingleTask: singleTask(e.agent.Type) && !e.reference,
			Setting: setting, Budget: TunedBudget{Settings: len(records[e.agent.Name].Trials), TrialRuns: records[e.agent.Name].TrialRuns},
			Reward: estimate(a.MeanPerTaskReward, a.CI95)}
		if rec, tuned := records[e.agent.Name]; tuned {
			score := num(rec.Score)
			l.DesignScore = &score
		}
		if a.Oracle != nil {
			x := estimate(a.Oracle.MeanRegret.Mean, a.Oracle.MeanRegret.CI95)
			l.Regret = &x
		}
		if e.reference {
			r.References = append(r.References, l)
		} else {
			r.Learners = append(r.Learners, l)
		}
	}
	if sum.Optimal != nil {
		x := estimate(sum.Optimal.MeanPerTaskReward.Mean, sum.Optimal.MeanPerTaskReward.CI95)
		r.Optimum = &x
	}
	r.rank()
	return r.judge(sum, margin)
}

// loss is what a rank orders by: the mean regret, else minus the mean per-task reward.
func (l Learner) loss() float64 {
	if l.Regret != nil {
		return float64(l.Regret.Mean)
	}
	return -float64(l.Reward.Mean)
}

// rank orders the learners by mean regret (mean reward without the oracle), least first; equal
// means share a rank (1, 2, 2, 4).
func (r *Family) rank() {
	slices.SortStableFunc(r.Learners, func(a, b Learner) int {
		switch {
		case a.loss() < b.loss():
			return -1
		case a.loss() > b.loss():
			return 1
		}
		return 0
	})
	for i := range r.Learners {
		r.Learners[i].Rank = i + 1
		if i > 0 && r.Learners[i].loss() == r.Learners[i-1].loss() {
			r.Learners[i].Rank = r.Learners[i-1].Rank
		}
	}
}

// judge compares every learner with the family's best single-task learner as temple compare
// --baseline BEST --margin M does, over the ranked learners alone: paired t-tests on the runs'
// mean per-task rewards, a TOST at the margin, Holm over them all, and each test's MDE. BEST is
// chosen on the design seed (bestOnDesign), so that the verdicts' other side is not the
// single-task learner the judged runs happened to favour (a winner's curse against every
// learner compared with it).
func (r *Family) judge(sum results.Summary, margin stats.Margin) error {
	r.BestSingleTask = r.bestOnDesign()
	if r.BestSingleTask == "" || len(r.Learners) < 2 {
		return nil
	}
	ranked := sum
	ranked.Agents = nil
	for _, a := range sum.Agents {
		if slices.ContainsFunc(r.Learners, func(l Learner) bool { return l.Name == a.Name }) {
			ranked.Agents = append(ranked.Agents, a)
		}
	}
	cs, err := results.Compare(ranked, r.BestSingleTask)
	if err != nil {
		return err
	}
	if _, err := results.Judge(cs, results.AgentsByName(ranked), margin); err != nil {
		return err
	}
	for _, c := range cs {
		for i := range r.Learners {
			if r.Learners[i].Name == c.A {
				r.Learners[i].Verdict = &Verdict{Against: c.B, Text: c.Verdict(), Runs: c.N, MeanDifference: num(c.MeanDiff),
					CI95: num(c.CI95), PHolm: num(c.PAdjusted), Margin: num(c.Margin), PTOSTHolm: num(c.PTOSTAdjusted), MDE: num(c.MDE)}
			}
		}
	}
	return nil
}

// bestOnDesign is the single-task learner of best design score (least regret, or most reward
// when the family's objective is reward), the first in rank order of equal ones; "" when there
// is none.
func (r *Family) bestOnDesign() string {
	best, bestScore := "", math.Inf(1)
	for _, l := range r.Learners {
		if !l.SingleTask || l.DesignScore == nil {
			continue
		}
		loss := float64(*l.DesignScore)
		if r.Objective == tune.Reward {
			loss = -loss
		}
		if best == "" || loss < bestScore {
			best, bestScore = l.Name, loss
		}
	}
	return best
}

// familyMeasures are the measures of the judged run 0's tasks (measures.FamilyOf), or nil with
// the reason when they have no models (simulators) or cannot be measured.
func familyMeasures(tuned experiment.Spec) (*Measures, string) {
	one := tuned
	one.Runs = 1 // run 0's tasks do not depend on the number of runs
	one.Tuning = nil
	p, err := experiment.BuildTasks(one)
	if err != nil {
		return nil, "not measured: " + err.Error()
	}
	var models []*mdp.Model
	for _, t := range p.Runs[0] {
		if t.Sim != nil {
			return nil, "not measured: the tasks are simulators, with no model to measure"
		}
		m, err := t.Table()
		if err != nil {
			return nil, "not measured: " + err.Error()
		}
		models = append(models, m)
	}
	opt := measures.DiameterOptions{}
	for _, m := range models {
		if m.S > measures.ExactStates {
			opt = measures.DiameterOptions{Targets: 64, Seed: tuned.Seed}
		}
	}
	fam, err := measures.FamilyOf(models, tuned.Gamma, opt)
	if err != nil {
		return nil, "not measured: " + err.Error()
	}
	return newMeasures(fam), ""
}

// writeJSON writes v indented, atomically.
func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return atomicfile.Write(path, append(b, '\n'))
}
