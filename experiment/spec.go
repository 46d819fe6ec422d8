// Package experiment turns an experiment spec (a YAML file or a preset) into a plan, runs its
// (run × agent) cells in parallel with seeded streams, and writes the results directory.
package experiment

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/temple-rl/temple/env"
)

// Spec is an experiment as written in a config file. Every field has a default (see Default and
// the README's configuration reference); a file states only what it changes.
type Spec struct {
	Name      string      `yaml:"name"`
	Seed      uint64      `yaml:"seed"`
	Runs      int         `yaml:"runs"`
	Episodes  int         `yaml:"episodes"`
	Steps     int         `yaml:"steps"`
	Gamma     float64     `yaml:"gamma"`
	Start     StartRule   `yaml:"start"`
	StartCell [2]int      `yaml:"start_cell"`
	Tasks     TaskSpec    `yaml:"tasks"`
	Agents    []AgentSpec `yaml:"agents"`
	Output    OutputSpec  `yaml:"output"`
}

// Task families.
const (
	FamilyOnlineMaze  = "online-maze"  // random landform mazes drawn from a pool (protocol 2)
	FamilyFiniteModel = "finite-model" // grid worlds that differ only in their goal (decision 20)
	FamilyVaryingSize = "varying-size" // mazes of growing size (decision 21)
	FamilyGaussian    = "gaussian"     // landforms from a mixture of normals (decision 22)
	// FamilyVaryingActions is online mazes whose first source_tasks tasks have the 4 moves and
	// the rest 8 actions (moves and diagonals; paper Appendix F.4).
	FamilyVaryingActions = "varying-actions"
	FamilyFile           = "file" // task sequences read from a JSON file
)

// TaskSpec says how each run's task sequence is made.
type TaskSpec struct {
	Family string `yaml:"family"`
	// File is read with family "file": our task-sequence JSON or a published sequence file.
	File   string `yaml:"file"`
	Count  int    `yaml:"count"` // tasks per run (online-maze, finite-model, gaussian)
	Width  int    `yaml:"width"`
	Height int    `yaml:"height"`
	// Actions is 4 (moves) or 8 (moves and diagonals).
	Actions    int       `yaml:"actions"`
	Pool       int       `yaml:"pool"`      // online-maze and gaussian: distinct mazes to draw tasks from
	Landforms  []float64 `yaml:"landforms"` // slip probabilities a cell can have
	Slip       float64   `yaml:"slip"`      // finite-model: the slip of every cell
	Models     int       `yaml:"models"`    // finite-model: number of distinct goals
	Goals      [][2]int  `yaml:"goals"`
	Lava       [][2]int  `yaml:"lava"`
	StepCost   float64   `yaml:"step_cost"`
	GoalReward float64   `yaml:"goal_reward"`
	LavaCost   float64   `yaml:"lava_cost"`
	Sizes      []int     `yaml:"sizes"`    // varying-size: side lengths, in order
	PerSize    int       `yaml:"per_size"` // varying-size: tasks of each size
	Means      []float64 `yaml:"means"`    // gaussian: mixture means
	SD         float64   `yaml:"sd"`       // gaussian: mixture standard deviation
	// SourceTasks is the number of 4-action tasks before the 8-action ones (varying-actions).
	SourceTasks int `yaml:"source_tasks"`
}

// OutputSpec says what the results directory holds besides the per-task results.
type OutputSpec struct {
	// Episodes writes every episode's return (one CSV per cell under episodes/).
	Episodes bool `yaml:"episodes"`
	// Smoothing is the weight of the exponential moving average in per-task figures (0 = raw;
	// the paper's figures use 0.9).
	Smoothing float64 `yaml:"smoothing"`
	// Baseline is the agent the advantage figure subtracts; by default the agent named RMax if
	// there is one, else none (no advantage figure).
	Baseline string `yaml:"baseline"`
}

// Default is the built-in experiment of `temple run`: the online 4×4 maze setting, sized to
// finish in seconds — 3 runs of 20 tasks of 3000 episodes × 30 steps with RMax, Q-learning and
// O-TempLe.
func Default() Spec {
	s := Spec{
		Name: "online-maze-small", Seed: 1, Runs: 3, Episodes: 3000, Steps: 30, Gamma: 0.95,
		Start: StartPerTask, StartCell: [2]int{1, 1},
		Tasks:  familyDefaults(FamilyOnlineMaze),
		Output: OutputSpec{Smoothing: 0.9, Baseline: "RMax"},
	}
	s.Tasks.Count = 20
	for _, typ := range []string{TypeOTempLe, TypeRMax, TypeQLearning} {
		s.Agents = append(s.Agents, defaultAgent(typ))
	}
	return s
}

// familyDefaults are the task settings of the paper for each family.
func familyDefaults(family string) TaskSpec {
	t := TaskSpec{Family: family, Width: 4, Height: 4, Actions: 4, StepCost: 0.2, GoalReward: 1, LavaCost: 1,
		Landforms: []float64{0, 0.2, 0.4}}
	switch family {
	case FamilyOnlineMaze:
		t.Count, t.Pool = 100, 100
		t.Goals, t.Lava = [][2]int{{4, 4}}, [][2]int{{2, 2}}
	case FamilyFiniteModel:
		t.Count, t.Models, t.Slip = 50, 2, 0.4
		t.Landforms = nil
	case FamilyVaryingSize:
		t.Sizes, t.PerSize = []int{3, 4, 5, 6}, 20
	case FamilyGaussian:
		t.Count, t.Pool = 100, 0
		t.Means, t.SD = []float64{0.2, 0.4, 0.6}, 0.05
		t.Goals, t.Lava = [][2]int{{4, 4}}, [][2]int{{2, 2}}
		t.Landforms = nil
	case FamilyVaryingActions:
		t.Count, t.SourceTasks, t.Pool = 10, 5, 10
		t.Goals, t.Lava = [][2]int{{4, 4}}, [][2]int{{2, 2}}
	}
	return t
}

// Load reads a spec file: defaults first (those of the file's task family), then the file on
// top. Unknown or misspelt keys fail with their line number.
func Load(path string) (Spec, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Spec{}, fmt.Errorf("config: %w", err)
	}
	s, err := Parse(b)
	if err != nil {
		return Spec{}, fmt.Errorf("config %s: %w", path, err)
	}
	return s, nil
}

// Parse decodes a spec from YAML onto the defaults and validates it.
func Parse(b []byte) (Spec, error) {
	// The task family chooses the task defaults, so read it first.
	var head struct {
		Tasks struct {
			Family string `yaml:"family"`
		} `yaml:"tasks"`
	}
	if err := yaml.Unmarshal(b, &head); err != nil {
		return Spec{}, cleanYAMLError(err)
	}
	s := Default()
	s.Name, s.Output.Baseline = "", ""
	if f := head.Tasks.Family; f != "" {
		s.Tasks = familyDefaults(f)
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&s); err != nil && !errors.Is(err, io.EOF) {
		return Spec{}, cleanYAMLError(err)
	}
	if s.Name == "" {
		s.Name = "experiment"
	}
	if s.Output.Baseline == "" && slices.Contains(s.AgentNames(), "RMax") {
		s.Output.Baseline = "RMax"
	}
	if err := s.Validate(); err != nil {
		return Spec{}, err
	}
	return s, nil
}

func cleanYAMLError(err error) error {
	return errors.New(strings.TrimPrefix(err.Error(), "yaml: "))
}

// Validate names the first field out of range.
func (s *Spec) Validate() error {
	switch {
	case s.Runs < 1:
		return fmt.Errorf("runs = %d, want at least 1", s.Runs)
	case s.Episodes < 1:
		return fmt.Errorf("episodes = %d, want at least 1", s.Episodes)
	case s.Steps < 1:
		return fmt.Errorf("steps = %d, want at least 1", s.Steps)
	case !(s.Gamma >= 0 && s.Gamma < 1):
		return fmt.Errorf("gamma = %v, want 0 <= gamma < 1", s.Gamma)
	case s.Start != StartPerTask && s.Start != StartPerEpisode && s.Start != StartFixed:
		return fmt.Errorf("start = %q, want %q, %q or %q", s.Start, StartPerTask, StartPerEpisode, StartFixed)
	case !(s.Output.Smoothing >= 0 && s.Output.Smoothing < 1):
		return fmt.Errorf("output.smoothing = %v, want 0 <= smoothing < 1", s.Output.Smoothing)
	case len(s.Agents) == 0:
		return fmt.Errorf("agents: none listed, want at least one")
	}
	if err := s.Tasks.validate(); err != nil {
		return fmt.Errorf("tasks: %w", err)
	}
	names := map[string]bool{}
	for k, a := range s.Agents {
		if names[a.Name] {
			return fmt.Errorf("agents[%d]: name %q used twice; give each agent its own name", k, a.Name)
		}
		names[a.Name] = true
	}
	if b := s.Output.Baseline; b != "" && !names[b] {
		return fmt.Errorf("output.baseline = %q is not the name of an agent (have %s)", b, strings.Join(s.AgentNames(), ", "))
	}
	return nil
}

// AgentNames lists the agents' names in spec order.
func (s *Spec) AgentNames() []string {
	var out []string
	for _, a := range s.Agents {
		out = append(out, a.Name)
	}
	return out
}

func (t *TaskSpec) validate() error {
	positive := func(name string, v int) error {
		if v < 1 {
			return fmt.Errorf("%s = %d, want at least 1", name, v)
		}
		return nil
	}
	finite := func(name string, v float64) error {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%s = %v, want a finite number", name, v)
		}
		return nil
	}
	for _, err := range []error{finite("step_cost", t.StepCost), finite("goal_reward", t.GoalReward), finite("lava_cost", t.LavaCost)} {
		if err != nil {
			return err
		}
	}
	switch t.Family {
	case FamilyFile:
		if t.File == "" {
			return fmt.Errorf("family %q needs file: PATH", FamilyFile)
		}
		return nil
	case FamilyOnlineMaze, FamilyGaussian, FamilyFiniteModel, FamilyVaryingActions:
		for _, err := range []error{positive("count", t.Count), positive("width", t.Width), positive("height", t.Height)} {
			if err != nil {
				return err
			}
		}
		if t.Family == FamilyVaryingActions && (t.SourceTasks < 0 || t.SourceTasks > t.Count) {
			return fmt.Errorf("source_tasks = %d, want 0 <= source_tasks <= count (%d)", t.SourceTasks, t.Count)
		}
	case FamilyVaryingSize:
		if len(t.Sizes) == 0 {
			return fmt.Errorf("sizes: none listed")
		}
		if err := positive("per_size", t.PerSize); err != nil {
			return err
		}
	default:
		return fmt.Errorf("family = %q, want one of %s, %s, %s, %s, %s, %s", t.Family,
			FamilyOnlineMaze, FamilyFiniteModel, FamilyVaryingSize, FamilyGaussian, FamilyVaryingActions, FamilyFile)
	}
	if t.Actions != 4 && t.Actions != 8 {
		return fmt.Errorf("actions = %d, want 4 or 8", t.Actions)
	}
	return nil
}

func cells(xs [][2]int) []env.Cell {
	out := make([]env.Cell, len(xs))
	for i, x := range xs {
		out[i] = env.Cell{X: x[0], Y: x[1]}
	}
	return out
}
