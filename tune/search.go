package tune

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"

	"go.yaml.in/yaml/v3"

	"github.com/temple-rl/temple/agenttypes"
	"github.com/temple-rl/temple/cluster"
	"github.com/temple-rl/temple/experiment"
	"github.com/temple-rl/temple/internal/atomicfile"
	"github.com/temple-rl/temple/internal/regular"
	"github.com/temple-rl/temple/results"
)

// Objectives of a search.
const (
	// Regret is the mean per-task regret against the oracle (optimal − obtained): lower is better.
	Regret = "regret"
	// Reward is the mean per-task reward: higher is better.
	Reward = "reward"
)

// Options are a search's settings besides the config.
type Options struct {
	// Seed is the tuning's seed: the design seed the trials run on and the scrambling of every
	// agent's quasi-random settings derive from it.
	Seed uint64
	// Settings is the budget: the settings every agent tries (at least 1).
	Settings int
	// Runs are the runs of every setting at the first stage of successive halving (at least 1).
	Runs int
	// Draws is how the settings after the config's own are drawn: PerAgent ("" too) or Shared.
	Draws Draws
	// Objective is Regret, Reward or "" (regret when the config's oracle is on and its tasks
	// have models, reward otherwise).
	Objective string
	// Jobs is the number of parallel workers (0: one per core); results do not depend on it.
	Jobs int
	// Progress is told of every stage and every finished task (nil: silent).
	Progress Progress
	// Shard runs only a share of each stage's trials (cluster.Shard); a stage whose other
	// trials are not there yet ends the agent's search for this invocation (PendingError).
	Shard cluster.Shard
	// From are directories of the same search (shards' or a merged one) whose finished trials
	// are gathered into this one before each stage.
	From []string
	// Merge gathers trials from From and runs none: it joins the shards' trials, and writes the
	// tuned config when every stage is complete.
	Merge bool
	// Dir says how the search treats what its directory holds already (--force,
	// --allow-other-version).
	Dir experiment.DirOptions
}

// Progress follows a search: Stage when an agent's stage begins, then experiment.Progress's
// TaskDone for every task of its cells. Start is called once, with the tasks of the whole search.
type Progress interface {
	experiment.Progress
	Stage(agent string, stage, stages, settings, runs int)
}

// stage is one round of successive halving: this many settings, each on this many runs.
type stage struct {
	Settings int `json:"settings"`
	Runs     int `json:"runs"`
}

// schedule is successive halving over settings, starting with runs runs each: every stage keeps
// the better half (rounded up) and doubles their runs, until two are left; the better of those is
// chosen. Every agent gets the same schedule, so the same budget.
func schedule(settings, runs int) []stage {
	out := []stage{{settings, runs}}
	for n, r := settings, runs; n > 2; {
		n, r = (n+1)/2, 2*r
		out = append(out, stage{n, r})
	}
	return out
}

// trialRuns is the cells (setting × run) a schedule runs: every stage's survivors run only their
// new runs.
func trialRuns(st []stage) int {
	total, prev := 0, 0
	for _, s := range st {
		total += s.Settings * (s.Runs - prev)
		prev = s.Runs
	}
	return total
}

// derive is a seed derived from the tuning's seed for a purpose (a hash: never the seed itself).
func derive(seed uint64, purpose string) uint64 {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], seed)
	sum := sha256.Sum256(append(append([]byte("temple tune "), purpose...), b[:]...))
	return binary.LittleEndian.Uint64(sum[:8])
}

// DesignSeed is the experiment seed the trials of a tuning with seed seed run on.
func DesignSeed(seed uint64) uint64 { return derive(seed, "design") }

// JudgingSeed is the seed the tuned config is written with: derived from the tuning's seed, and
// neither it nor its design seed.
func JudgingSeed(seed uint64) uint64 {
	j := derive(seed, "judging")
	for j == seed || j == DesignSeed(seed) {
		j++
	}
	return j
}

// search is one agent's search, ready to run: its space, its settings, and the plan of every
// setting on the design seed's runs.
type search struct {
	agent    experiment.AgentSpec
	space    space
	settings []experiment.AgentSpec
	params   [][]param
	plan     *experiment.Plan
	// trials is the directory of its trials' cells: trials/<agent> below the tuning's (trialsOf).
	trials results.Dir
}

// prepare checks everything and builds every agent's search before anything is written: a bad
// space, budget or objective is refused with nothing on disk.
func prepare(s experiment.Spec, o Options) ([]*search, string, error) {
	switch {
	case o.Settings < 1:
		return nil, "", fmt.Errorf("budget = %d settings per agent, want at least 1", o.Settings)
	case o.Runs < 1:
		return nil, "", fmt.Errorf("runs = %d per setting at the first stage, want at least 1", o.Runs)
	case o.Objective != "" && o.Objective != Regret && o.Objective != Reward:
		return nil, "", fmt.Errorf("objective = %q, want %s or %s", o.Objective, Regret, Reward)
	case o.Draws.Check() != nil:
		return nil, "", o.Draws.Check()
	case len(s.Agents) == 0:
		return nil, "", errors.New("the config lists no agents: nothing to tune")
	case len(s.Sweep) > 0 || s.Scaling != nil:
		return nil, "", errors.New("the config has a sweep: or scaling: block; tune a plain experiment, then sweep the tuned config")
	}
	if err := experiment.Check(s); err != nil { // the config's own agents, named by its file and line
		return nil, "", err
	}
	if o.Merge && len(o.From) == 0 {
		return nil, "", errors.New("a merge gathers the trials of the directories From; none given")
	}
	st := schedule(o.Settings, o.Runs)
	var out []*search
	for _, a := range s.Agents { // names alike as files are refused by Validate
		sr, err := newSearch(s, a, o, st[len(st)-1].Runs)
		if err != nil {
			return nil, "", err
		}
		out = append(out, sr)
	}
	objective, err := objectiveOf(s, o.Objective, out[0].plan)
	return out, objective, err
}

// newSearch builds agent a's settings — the config's own first, then the points of its space
// o.Draws gives (draw) — and their plan on the design seed with runs runs.
func newSearch(s experiment.Spec, a experiment.AgentSpec, o Options, runs int) (*search, error) {
	sp, err := spaceOf(a, s.Search[a.Name])
	if err != nil {
		return nil, err
	}
	sr := &search{agent: a, space: sp}
	points := draw(sp, a.Name, o)
	for i := range o.Settings {
		var values []any
		if i > 0 {
			for k, u := range points[i-1] {
				values = append(values, value(sp.dims[k], u))
			}
		}
		set, ps, err := sp.setting(a, values)
		if err != nil {
			return nil, fmt.Errorf("search: %s: %w (narrow its range under search:)", a.Name, err)
		}
		if i == 0 {
			ps = sp.current(set)
		}
		set.Name = settingName(i)
		sr.settings = append(sr.settings, set)
		sr.params = append(sr.params, ps)
	}
	ts := s
	ts.Seed, ts.Runs, ts.Agents, ts.Output.Baseline = DesignSeed(o.Seed), runs, sr.settings, ""
	// A trial names its agents setting-NNN: the config's verdicts are of the tuned config, not of a trial.
	ts.Search, ts.Tuning, ts.Output.Episodes, ts.Output.Templates, ts.Output.Verdicts = nil, nil, false, false, nil
	if sr.plan, err = experiment.Build(ts); err != nil {
		return nil, fmt.Errorf("agent %s: %w", a.Name, err)
	}
	return sr, nil
}

// draw is the points in [0, 1)^dims of settings 1 to o.Settings − 1 of agent name's space sp:
// scrambled Halton points, scrambled per agent (PerAgent), or each parameter's shared draws
// (Shared).
func draw(sp space, name string, o Options) [][]float64 {
	n := max(o.Settings-1, 0)
	points := make([][]float64, n)
	if o.Draws != Shared {
		seq := newHalton(len(sp.dims), rand.New(rand.NewPCG(derive(o.Seed, "halton "+name), 0)))
		for i := range points {
			points[i] = seq.point(i + 1)
		}
		return points
	}
	for i := range points {
		points[i] = make([]float64, len(sp.dims))
	}
	for k, d := range sp.dims {
		for i, u := range sharedDraws(o.Seed, d.Key, n) {
			points[i][k] = u
		}
	}
	return points
}

// settingName is the name setting i's cells are stored under.
func settingName(i int) string { return fmt.Sprintf("setting-%03d", i) }

// current is the values of the searched parameters in a (the config's own setting), as the
// config writes them: an option that is off is not written (omitempty), and is not part of the
// setting.
func (sp space) current(a experiment.AgentSpec) []param {
	n, _ := agenttypes.Encode(a.Params)
	var out []param
	for _, d := range sp.dims {
		for i := 0; n != nil && i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == d.Key {
				var v any
				n.Content[i+1].Decode(&v)
				out = append(out, param{d.Key, v})
			}
		}
	}
	return out
}

// objectiveOf is the objective: the one asked for, or regret when the oracle can measure every
// task, reward otherwise.
func objectiveOf(s experiment.Spec, asked string, p *experiment.Plan) (string, error) {
	measured := s.Oracle.Enabled
	for _, tasks := range p.Runs {
		for _, t := range tasks {
			measured = measured && t.Sim == nil
		}
	}
	switch {
	case asked == Regret && !measured:
		return "", errors.New("objective regret needs the oracle: set oracle: {enabled: true} in the config (tasks given as simulators have no regret), or choose --objective reward")
	case asked != "":
		return asked, nil
	case measured:
		return Regret, nil
	}
	return Reward, nil
}

// trial is one setting's evaluation so far.
type trial struct {
	setting int
	perRun  []float64 // the objective of each run
	score   float64   // their mean
	stage   int       // the last stage it ran in
}

// run runs the search's schedule: every stage's settings on their runs (cells under sr.trials,
// reused when there, gathered from o.From), scored, the better half kept. It returns every
// setting's trial and the chosen one; or, when a stage's cells are not all there (a shard runs
// its share, a merge gathers the shards'), the stage it waits for.
func (sr *search) run(ctx context.Context, st []stage, objective string, o Options, prog *stageProgress) ([]trial, int, *Waiting, error) {
	trials := make([]trial, len(sr.settings))
	alive := make([]int, len(sr.settings))
	for i := range alive {
		alive[i] = i
		trials[i].setting = i
	}
	for k, stg := range st {
		prog.stage(sr.agent.Name, k, len(st), len(alive), stg.Runs)
		sub := *sr.plan
		sub.Runs = sr.plan.Runs[:stg.Runs]
		sub.Agents = nil
		for _, i := range alive {
			sub.Agents = append(sub.Agents, sr.plan.Agents[i])
		}
		if err := sr.gather(&sub, o.From); err != nil {
			return nil, 0, nil, err
		}
		var cells []results.CellResult
		if !o.Merge {
			sub.Shard = o.Shard
			var err error
			if cells, err = experiment.Run(ctx, &sub, sr.trials, o.Jobs, prog); err != nil {
				return nil, 0, nil, err
			}
		}
		if o.Merge || o.Shard.Count > 1 { // the stage's other cells are the other shards'
			var missing int
			if cells, missing = sr.read(&sub); missing > 0 {
				return nil, 0, &Waiting{Agent: sr.agent.Name, Stage: k, Stages: len(st), Missing: missing}, nil
			}
		}
		for _, i := range alive {
			trials[i].perRun, trials[i].stage = nil, k
		}
		for _, c := range cells { // in (run, setting) order
			i := slices.IndexFunc(sr.settings, func(a experiment.AgentSpec) bool { return a.Name == c.Agent })
			trials[i].perRun = append(trials[i].perRun, cellObjective(c, objective))
		}
		for _, i := range alive {
			trials[i].score = mean(trials[i].perRun)
		}
		slices.SortStableFunc(alive, func(x, y int) int { return compare(trials[x].score, trials[y].score, objective) })
		if k < len(st)-1 {
			alive = alive[:st[k+1].Settings]
			slices.Sort(alive)
		}
	}
	return trials, alive[0], nil, nil
}

// Waiting says which stage of an agent's search waits for trials of other shards.
type Waiting struct {
	Agent         string
	Stage, Stages int
	Missing       int // trials of the stage not yet there
}

// want is what the cell of setting fac in run of plan p must be.
func want(p *experiment.Plan, run int, name string) results.CellWant {
	return results.CellWant{Fingerprint: p.Fingerprint, Run: run, Agent: name, Tasks: len(p.Runs[run]), Episodes: p.Episodes,
		Oracle: p.Oracle, PolicyMistakes: p.PolicyMistakes}
}

// gather copies into sr.trials the cells of plan p that it lacks and a tuning directory of from
// holds, whole and of this search (results.ReadCell checks them).
func (sr *search) gather(p *experiment.Plan, from []string) error {
	if len(from) == 0 {
		return nil
	}
	if err := results.MakeCellDirs(sr.trials, false, false); err != nil {
		return err
	}
	for run := range p.Runs {
		for _, fac := range p.Agents {
			w := want(p, run, fac.Name)
			dst := sr.trials.Cell(run, fac.Name)
			if _, err := results.ReadCell(dst, w); err == nil {
				continue
			}
			for _, d := range from {
				src := trialsOf(results.At(d), sr.agent.Name).Cell(run, fac.Name)
				if _, err := results.ReadCell(src, w); err != nil {
					continue
				}
				b, err := regular.ReadFile(src, maxTrialBytes)
				if err == nil {
					err = atomicfile.Write(dst, b)
				}
				if err == nil {
					err = results.Record(sr.trials, results.CellsDir+"/"+filepath.Base(dst))
				}
				if err != nil {
					return fmt.Errorf("tune: gathering %s: %w", src, err)
				}
				break
			}
		}
	}
	return nil
}

// maxTrialBytes bounds a trial's cell copied from another directory (read and checked first by
// results.ReadCell, which bounds it by its sizes).
const maxTrialBytes = 1 << 30

// read reads the cells of plan p from sr.trials, in (run, setting) order, and counts those
// missing or damaged.
func (sr *search) read(p *experiment.Plan) ([]results.CellResult, int) {
	var cells []results.CellResult
	missing := 0
	for run := range p.Runs {
		for _, fac := range p.Agents {
			c, err := results.ReadCell(sr.trials.Cell(run, fac.Name), want(p, run, fac.Name))
			if err != nil {
				missing++
				continue
			}
			cells = append(cells, c)
		}
	}
	return cells, missing
}

// compare orders two scores best first (ties keep the settings' order).
func compare(x, y float64, objective string) int {
	if objective == Reward {
		x, y = -x, -y
	}
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// cellObjective is a cell's mean per-task regret or reward.
func cellObjective(c results.CellResult, objective string) float64 {
	var xs []float64
	for _, t := range c.Tasks {
		if objective == Regret {
			xs = append(xs, t.Oracle.OptimalReward-t.Reward)
		} else {
			xs = append(xs, t.Reward)
		}
	}
	return mean(xs)
}

func mean(xs []float64) float64 {
	total := 0.0
	for _, x := range xs {
		total += x
	}
	return total / float64(len(xs))
}

// specYAML is the config as YAML (for the record and the claim of the directory).
func specYAML(s experiment.Spec) ([]byte, error) { return yaml.Marshal(s) }

// TrialRuns is the cells (setting × run) every agent's search runs with budget settings and runs
// runs at the first stage: what an estimate of a search's work counts.
func TrialRuns(settings, runs int) int { return trialRuns(schedule(settings, runs)) }
