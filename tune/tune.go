package tune

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/temple-rl/temple/experiment"
	"github.com/temple-rl/temple/internal/atomicfile"
	"github.com/temple-rl/temple/results"
)

// Record is search.json: every setting every agent tried, its runs and score, and the budget.
type Record struct {
	Seed        uint64  `json:"seed"`
	DesignSeed  uint64  `json:"design_seed"`
	JudgingSeed uint64  `json:"judging_seed"`
	Objective   string  `json:"objective"`
	Budget      Budget  `json:"budget"`
	Agents      []Agent `json:"agents"`
}

// Budget is what every agent got: Settings settings, drawn as Draws says (absent: PerAgent),
// successive halving over Stages, TrialRuns cells (setting × run) in all.
type Budget struct {
	Settings  int     `json:"settings"`
	Draws     Draws   `json:"draws,omitempty"`
	Stages    []stage `json:"stages"`
	TrialRuns int     `json:"trial_runs"`
}

// Agent is one agent's search.
type Agent struct {
	Name  string `json:"name"`
	Type  string `json:"type"`
	Space []Dim  `json:"space"`
	// Fixed are the parameters the config's search: block fixed.
	Fixed []param `json:"fixed,omitempty"`
	// Trials are its settings in order: setting 0 is the agent as the config gives it.
	Trials    []Trial `json:"trials"`
	Chosen    int     `json:"chosen"`
	Score     float64 `json:"score"`
	TrialRuns int     `json:"trial_runs"`
}

// Dim is one searched parameter as the record shows it.
type Dim struct {
	Key     string   `json:"key"`
	Low     float64  `json:"low,omitempty"`
	High    float64  `json:"high,omitempty"`
	Log     bool     `json:"log,omitempty"`
	Int     bool     `json:"integer,omitempty"`
	Choices []string `json:"choices,omitempty"`
}

// Trial is one setting: its parameters, its objective on each of its runs (runs 0 to Runs − 1
// of the design seed) and their mean, and the last stage it reached (0 first).
type Trial struct {
	Setting int       `json:"setting"`
	Params  []param   `json:"params"`
	Runs    int       `json:"runs"`
	PerRun  []float64 `json:"per_run"`
	Score   float64   `json:"score"`
	Stage   int       `json:"stage"`
}

// Tune searches every agent's parameters of config s with the same budget on design seeds, the
// trials being cells under dir/trials (reused when there, so an interrupted search resumes),
// and writes dir/search.json and dir/tuned.yaml. It returns the tuned spec. Everything is checked
// before anything is written. The tuned config and record depend on s and o but not on o.Jobs.
func Tune(ctx context.Context, s experiment.Spec, dir string, o Options) (experiment.Spec, *Record, error) {
	if s.Tuning != nil {
		return s, nil, fmt.Errorf("the config is already tuned (it has a tuning: block, tuned with seed %d); tune the config it was made from", s.Tuning.Seed)
	}
	s = s.ReadInputsOnce() // every agent's search reads the task files' same bytes
	searches, objective, err := prepare(s, o)
	if err != nil {
		return s, nil, err
	}
	st := schedule(o.Settings, o.Runs)
	claimed, err := claimYAML(s, o, objective)
	if err != nil {
		return s, nil, err
	}
	for _, from := range o.From { // a directory of another search would give no trial, silently
		if _, err := os.Lstat(filepath.Join(from, results.SpecFile)); errors.Is(err, os.ErrNotExist) {
			continue // no search there yet (the merged directory, before the first merge)
		}
		if err := results.SameSpec(results.At(from), claimed); err != nil {
			return s, nil, fmt.Errorf("tune: --from %w; give the directories of this search (its config and options: seed, budget, runs, objective)", err)
		}
	}
	prog := newStageProgress(o.Progress)
	d, release, err := results.Claim(dir, claimName(s), claimed, results.ClaimOptions{Note: prog.note, Force: o.Dir.Force, OtherVersions: o.Dir.OtherVersions})
	if err != nil {
		return s, nil, err
	}
	defer release()
	for _, sr := range searches { // the trials' cells are below the directory claimed, each with its record
		sr.trials = trialsOf(d, sr.agent.Name)
		if err := results.RemoveTemporaries(sr.trials); err != nil {
			return s, nil, err
		}
		if err := results.RecordParts(d, trialsName(sr.agent.Name)); err != nil {
			return s, nil, err
		}
	}
	tasks := 0 // every stage's cells, those read back from earlier stages too
	for _, sr := range searches {
		for _, stg := range st {
			tasks += stg.Settings * stg.Runs * len(sr.plan.Runs[0])
		}
	}
	prog.start(tasks)
	rec := &Record{Seed: o.Seed, DesignSeed: DesignSeed(o.Seed), JudgingSeed: JudgingSeed(o.Seed), Objective: objective,
		Budget: Budget{Settings: o.Settings, Draws: recorded(o.Draws), Stages: st, TrialRuns: trialRuns(st)}}
	tuned := s
	tuned.Agents = slices.Clone(s.Agents)
	tuned.Name, tuned.Seed = s.Name+"-tuned", rec.JudgingSeed
	designTasks, err := designTasks(s, searches[0].plan, rec.JudgingSeed)
	if err != nil {
		return s, nil, err
	}
	tuning := &results.Tuning{Seed: o.Seed, DesignSeeds: []uint64{rec.DesignSeed}, DesignTasks: designTasks, Objective: objective, Settings: o.Settings,
		Draws: string(recorded(o.Draws))}
	for _, stg := range st {
		tuning.Runs = append(tuning.Runs, stg.Runs)
	}
	var pending PendingError
	for k, sr := range searches {
		trials, chosen, waiting, err := sr.run(ctx, st, objective, o, prog)
		if err != nil {
			return s, nil, err
		}
		if waiting != nil {
			pending.Waiting = append(pending.Waiting, *waiting)
			continue
		}
		ar, ta := sr.record(trials, chosen, trialRuns(st))
		rec.Agents = append(rec.Agents, ar)
		tuning.Agents = append(tuning.Agents, ta)
		tuned.Agents[k] = sr.settings[chosen]
		tuned.Agents[k].Name = sr.agent.Name
	}
	if len(pending.Waiting) > 0 {
		return s, nil, &pending
	}
	tuned.Tuning = tuning
	if err := tuned.Validate(); err != nil {
		return s, nil, fmt.Errorf("tune: the tuned config does not validate: %w", err)
	}
	if err := write(d, tuned, rec); err != nil {
		return s, nil, err
	}
	return tuned, rec, nil
}

// recorded is d as records write it: the default left out, so that a record of a search from
// before the option is what it was.
func recorded(d Draws) Draws {
	if d == PerAgent {
		return ""
	}
	return d
}

// record is the search's record (search.json) and its line of the tuned config's tuning: block.
func (sr *search) record(trials []trial, chosen, trialRuns int) (Agent, results.TunedAgent) {
	ar := Agent{Name: sr.agent.Name, Type: sr.agent.Type, Fixed: sr.space.fixed, Chosen: chosen, Score: trials[chosen].score, TrialRuns: trialRuns}
	ta := results.TunedAgent{Name: sr.agent.Name, Settings: len(trials), TrialRuns: trialRuns, Score: ar.Score}
	for _, d := range sr.space.dims {
		ar.Space = append(ar.Space, Dim{Key: d.Key, Low: d.Low, High: d.High, Log: d.Log, Int: d.Int, Choices: d.Choices})
		ta.Searched = append(ta.Searched, d.Key)
	}
	for i, t := range trials {
		ar.Trials = append(ar.Trials, Trial{Setting: i, Params: sr.params[i], Runs: len(t.perRun), PerRun: t.perRun, Score: t.score, Stage: t.stage})
	}
	return ar, ta
}

// designTasks are the digests of the task sequences of the design runs of plan (the trials'),
// but those that the judging seed draws too (a family whose tasks do not depend on the seed, such
// as a custom MDP file): the tasks that identify the design seed (results.Tuning.DesignTasks).
func designTasks(s experiment.Spec, plan *experiment.Plan, judging uint64) ([]string, error) {
	design, err := plan.SequenceDigests()
	if err != nil {
		return nil, err
	}
	js := s
	js.Seed, js.Runs, js.Tuning = judging, len(plan.Runs), nil
	judged, err := experiment.SequenceDigests(js)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, d := range design {
		if !slices.Contains(judged, d) {
			out = append(out, d)
		}
	}
	return out, nil
}

// PendingError is a sharded search, or a merge of shards, that cannot finish yet: a stage of
// some agent's search waits for the trials of other shards. Nothing but trials was written.
type PendingError struct{ Waiting []Waiting }

func (e *PendingError) Error() string {
	var parts []string
	for _, w := range e.Waiting {
		parts = append(parts, fmt.Sprintf("%s waits for stage %d/%d (%d trials not here)", w.Agent, w.Stage+1, w.Stages, w.Missing))
	}
	return "the search is not finished: " + strings.Join(parts, "; ")
}

// trialsOf is the directory of the trials of agent name below the tuning directory dir.
func trialsOf(dir results.Dir, name string) results.Dir { return dir.Sub(trialsName(name)) }

// trialsName is the name of the directory of the trials of agent name below a tuning's:
// trials/<agent>.
func trialsName(name string) string { return results.TrialsDir + "/" + results.SafeName(name) }

// write writes the record and the tuned config into dir, each atomically.
func write(dir results.Dir, tuned experiment.Spec, rec *Record) error {
	b, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return fmt.Errorf("tune: %w", err)
	}
	if err := atomicfile.Write(dir.Path(results.SearchFile), append(b, '\n')); err != nil {
		return fmt.Errorf("tune: %w", err)
	}
	// Its relative paths (task files, learners' sources) are read from its own directory.
	here, err := tuned.Relocated(dir.String())
	if err != nil {
		return fmt.Errorf("tune: %w", err)
	}
	y, err := yaml.Marshal(here)
	if err != nil {
		return fmt.Errorf("tune: %w", err)
	}
	head := fmt.Sprintf("# Tuned by temple tune (record: %s). Judge it on a seed never used to tune:\n# this seed, or any but %d and %d.\n",
		results.SearchFile, rec.Seed, rec.DesignSeed)
	if err := atomicfile.Write(dir.Path(results.TunedFile), append([]byte(head), y...)); err != nil {
		return fmt.Errorf("tune: %w", err)
	}
	return results.Record(dir, results.SearchFile, results.TunedFile)
}

// claimYAML is what owns a tuning directory: the config, named as the claim names it (NAME
// (tuning), so that an experiment and a tuning never take each other's directory), and under the
// key tune: the search's options (a directory holding the trials of another config or options is
// refused, naming the keys that differ; the same resumes).
func claimYAML(s experiment.Spec, o Options, objective string) ([]byte, error) {
	s.Name = claimName(s)
	b, err := specYAML(s)
	if err != nil {
		return nil, err
	}
	draws := "" // the default is left out, so that a search from before the option resumes
	if o.Draws == Shared {
		draws = ", draws: " + string(Shared)
	}
	return append(b, fmt.Sprintf("tune: {seed: %d, budget: %d, runs: %d, objective: %s%s}\n", o.Seed, o.Settings, o.Runs, objective, draws)...), nil
}

// claimName is the name a tuning directory is claimed under.
func claimName(s experiment.Spec) string { return s.Name + " (tuning)" }

// Load reads a config for temple tune: as temple run does (experiment.Load), but a config must
// list its agents (the default experiment's would be tuned otherwise).
func Load(path string) (experiment.Spec, error) {
	b, err := experiment.ReadConfig(path) // read once, checked as temple run reads a config
	if err != nil {
		return experiment.Spec{}, err
	}
	var top map[string]yaml.Node
	if yaml.Unmarshal(b, &top) == nil {
		if _, ok := top["agents"]; !ok {
			return experiment.Spec{}, fmt.Errorf("config %s: no agents: list; temple tune tunes the agents a config lists", path)
		}
	}
	return experiment.LoadBytes(path, b)
}

// stageProgress adapts a Progress to the stages' runs: Start once for the whole search, notes
// passed on.
type stageProgress struct {
	mu sync.Mutex
	p  Progress
}

func newStageProgress(p Progress) *stageProgress { return &stageProgress{p: p} }

func (sp *stageProgress) start(tasks int) {
	if sp.p != nil {
		sp.p.Start(tasks)
	}
}

func (sp *stageProgress) stage(agent string, k, stages, settings, runs int) {
	if sp.p != nil {
		sp.p.Stage(agent, k, stages, settings, runs)
	}
}

// Start is the start of one stage's run: the whole search's was given.
func (sp *stageProgress) Start(int) {}

func (sp *stageProgress) TaskDone(run int, agent string, task int) {
	if sp.p != nil {
		sp.mu.Lock()
		defer sp.mu.Unlock()
		sp.p.TaskDone(run, agent, task)
	}
}

// Note passes the runner's notes on (a damaged cell run again).
func (sp *stageProgress) Note(text string) { sp.note(text) }

func (sp *stageProgress) note(text string) {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if n, ok := sp.p.(experiment.Noter); ok {
		n.Note(text)
	}
}

// Lines is a Progress that writes a line to w at most every interval: the agent, the stage,
// the tasks done and an estimate of the time left (from the pace so far).
type Lines struct {
	W        interface{ Write([]byte) (int, error) }
	Interval time.Duration
	// Doing names what the lines follow when it is a run without stages (a benchmark's judged
	// run); a search's lines name its agent and stage.
	Doing string
	total int
	done  int
	began time.Time
	last  time.Time
	where string
}

func (l *Lines) Start(total int) { l.total, l.began = total, time.Now() }

func (l *Lines) Stage(agent string, stage, stages, settings, runs int) {
	l.where = fmt.Sprintf("%s, stage %d/%d (%d settings x %d runs)", agent, stage+1, stages, settings, runs)
	l.print()
}

// TaskDone counts a finished task (a cell read back from disk counts its tasks too).
func (l *Lines) TaskDone(int, string, int) {
	l.done++
	if time.Since(l.last) >= l.Interval {
		l.print()
	}
}

// Note writes a note of the runner on its own line.
func (l *Lines) Note(text string) { fmt.Fprintf(l.W, "tune: note: %s\n", text) }

func (l *Lines) print() {
	l.last = time.Now()
	left := "time left unknown yet"
	if l.done > 0 && l.total > l.done {
		perTask := time.Since(l.began) / time.Duration(l.done)
		left = fmt.Sprintf("about %s left", (perTask * time.Duration(l.total-l.done)).Round(time.Second))
	}
	pct := 0
	if l.total > 0 {
		pct = 100 * l.done / l.total
	}
	switch {
	case l.where != "":
		fmt.Fprintf(l.W, "tune: %s: %d%% of the search, %s\n", l.where, pct, left)
	case l.Doing != "": // a run that is not a search: no stage
		fmt.Fprintf(l.W, "%s: %d%% done, %s\n", l.Doing, pct, left)
	default:
		fmt.Fprintf(l.W, "tune: %d%% of the search, %s\n", pct, left)
	}
}
