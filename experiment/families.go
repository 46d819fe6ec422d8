// Task families of a config's tasks: block: one typed parameter struct per family (the
// simulator families are in simfamilies.go). Longer than ~400 lines because every family's
// parameters, defaults and validation live together, as the registry of the families.

package experiment

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/temple-rl/temple/env"
	"github.com/temple-rl/temple/env/custom"
	"github.com/temple-rl/temple/env/published"
	"github.com/temple-rl/temple/env/toytext"
	"github.com/temple-rl/temple/internal/yamlkeys"
)

// Task families of a config's tasks: block. A family makes each run's task sequence from its own
// parameter block; several families make mazes, others single named MDPs.
const (
	FamilyOnlineMaze  = "online-maze"  // random landform mazes drawn from a pool (Figure 2 "Online MTRL")
	FamilyFiniteModel = "finite-model" // gridTasks worlds that differ only in their goal (decision 20)
	FamilyVaryingSize = "varying-size" // mazes of growing size (decision 21)
	FamilyGaussian    = "gaussian"     // landforms from a mixture of normals (decision 22)
	// FamilyVaryingActions is online mazes whose first source_tasks tasks have the 4 moves and
	// the rest 8 actions (moves and diagonals; paper Appendix F.4).
	FamilyVaryingActions = "varying-actions"
	FamilyGrid           = "grid"               // an open gridTasks world with a terminal goal (Appendix F.5)
	FamilyFourRoom       = "fourroom"           // the four-room gridTasks (Appendix F.5)
	FamilyFrozenLake     = env.FamilyFrozenLake // Gymnasium's FrozenLake-v1 (Appendix F.5)
	FamilyTaxi           = env.FamilyTaxi       // Gymnasium's Taxi-v3 (Appendix F.5)
	FamilyRiverSwim      = env.FamilyRiverSwim  // Strehl & Littman's RiverSwim (Appendix F.5)
	FamilySixArms        = env.FamilySixArms    // Strehl & Littman's SixArms (Appendix F.5)
	FamilyCustom         = env.FamilyCustom     // a user's own MDPs from a file (env/custom)
	FamilyMixed          = "mixed"              // parts of other families one after another, repeated
	FamilyFile           = "file"               // task sequences read from a JSON file
)

// FamilyParams are the parameters of one task family, decoded from the tasks: block with their
// yaml keys and nothing else.
type FamilyParams interface {
	// Validate names the first parameter out of range.
	Validate() error
	// Sequence makes the task sequence of run number run, drawing only from rng.
	Sequence(run int, rng *rand.Rand) (env.Sequence, error)
}

// families maps each family to its default parameters (the paper's settings where it has them).
var families = map[string]func() FamilyParams{
	FamilyOnlineMaze: func() FamilyParams {
		return &onlineMazeTasks{env.OnlineConfig{Width: 4, Height: 4, Pool: 100, Tasks: 100, Actions: 4,
			Landforms: paperLandforms(), Goals: []env.Cell{{X: 4, Y: 4}}, Lava: []env.Cell{{X: 2, Y: 2}},
			StepCost: 0.2, GoalReward: 1, LavaCost: 1}}
	},
	FamilyFiniteModel: func() FamilyParams {
		return &finiteModelTasks{env.FiniteModelConfig{Width: 4, Height: 4, Models: 2, Tasks: 50, Actions: 4, Slip: 0.4,
			StepCost: 0.2, GoalReward: 1, LavaCost: 1}}
	},
	FamilyVaryingSize: func() FamilyParams {
		return &varyingSizeTasks{env.VaryingSizeConfig{Sizes: []int{3, 4, 5, 6}, PerSize: 20, Actions: 4,
			Landforms: paperLandforms(), StepCost: 0.2, GoalReward: 1, LavaCost: 1}}
	},
	FamilyGaussian: func() FamilyParams {
		return &gaussianTasks{env.GaussianConfig{Width: 4, Height: 4, Tasks: 100, Actions: 4,
			Means: []float64{0.2, 0.4, 0.6}, SD: 0.05, Goals: []env.Cell{{X: 4, Y: 4}}, Lava: []env.Cell{{X: 2, Y: 2}},
			StepCost: 0.2, GoalReward: 1, LavaCost: 1}}
	},
	FamilyVaryingActions: func() FamilyParams {
		return &varyingActionsTasks{SourceTasks: 5, OnlineConfig: env.OnlineConfig{Width: 4, Height: 4, Pool: 10, Tasks: 10,
			Actions: 4, Landforms: paperLandforms(), Goals: []env.Cell{{X: 4, Y: 4}}, Lava: []env.Cell{{X: 2, Y: 2}},
			StepCost: 0.2, GoalReward: 1, LavaCost: 1}}
	},
	FamilyGrid: func() FamilyParams {
		return &gridTasks{env.GridConfig{Width: 10, Height: 10, Tasks: 1, Actions: 4, Goals: []env.Cell{{X: 10, Y: 10}},
			GoalReward: 1, LavaCost: 1, TerminalGoals: true}}
	},
	FamilyFourRoom: func() FamilyParams {
		return &fourRoomTasks{env.FourRoomConfig{Size: 9, Tasks: 1, Actions: 4, GoalReward: 1, TerminalGoals: true}}
	},
	FamilyFrozenLake: func() FamilyParams {
		return &frozenLakeTasks{Map: "4x4", Slippery: true, Count: 1}
	},
	FamilyTaxi:      func() FamilyParams { return &namedTasks{family: env.FamilyTaxi, Count: 1} },
	FamilyRiverSwim: func() FamilyParams { return &namedTasks{family: env.FamilyRiverSwim, Count: 1} },
	FamilySixArms:   func() FamilyParams { return &namedTasks{family: env.FamilySixArms, Count: 1} },
	FamilyCustom:    func() FamilyParams { return &customTasks{Repeat: 1} },
	FamilyMixed:     func() FamilyParams { return &mixedTasks{Repeat: 1} },
	FamilyFile:      func() FamilyParams { return &fileTasks{} },
}

func paperLandforms() []float64 { return []float64{0, 0.2, 0.4} }

// Families lists the task families in name order.
func Families() []string {
	out := make([]string, 0, len(families))
	for f := range families {
		out = append(out, f)
	}
	slices.Sort(out)
	return out
}

// TaskSpec says how each run's task sequence is made: a family and that family's parameters.
type TaskSpec struct {
	Family string
	Params FamilyParams
}

// NewTaskSpec is the given family with its default parameters.
func NewTaskSpec(family string) (TaskSpec, error) {
	def, ok := families[family]
	if !ok {
		return TaskSpec{}, fmt.Errorf("family = %q, want one of %s", family, strings.Join(Families(), ", "))
	}
	return TaskSpec{Family: family, Params: def()}, nil
}

// FileTasks is the file family reading the task sequences of path, every task of every run; path
// "published:NAME" is a published sequence shipped with temple (env/published).
func FileTasks(path string) TaskSpec {
	return TaskSpec{Family: FamilyFile, Params: &fileTasks{File: path}}
}

func (t TaskSpec) validate() error {
	if t.Params == nil {
		return fmt.Errorf("family %q has no parameters", t.Family)
	}
	return t.Params.Validate()
}

// UnmarshalYAML reads a tasks: block. With a family key it starts from that family's defaults;
// without one it changes the parameters already there. Keys the family does not have fail with
// their line number.
func (t *TaskSpec) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.MappingNode {
		return fmt.Errorf("line %d: tasks is a mapping with at least family: NAME", n.Line)
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == "family" {
			spec, err := NewTaskSpec(n.Content[i+1].Value)
			if err != nil {
				return fmt.Errorf("line %d: %w", n.Content[i+1].Line, err)
			}
			*t = spec
		}
	}
	if t.Params == nil {
		return fmt.Errorf("line %d: tasks needs family: NAME (one of %s)", n.Line, strings.Join(Families(), ", "))
	}
	keys := yamlkeys.Of(reflect.TypeOf(t.Params).Elem())
	for i := 0; i+1 < len(n.Content); i += 2 {
		key := n.Content[i]
		if key.Value != "family" && !slices.Contains(keys, key.Value) {
			return fmt.Errorf("line %d: family %s has no parameter %q (it has %s)", key.Line, t.Family, key.Value,
				strings.Join(keys, ", "))
		}
	}
	return n.Decode(t.Params)
}

// MarshalYAML writes the family and then its parameters.
func (t TaskSpec) MarshalYAML() (any, error) {
	var params yaml.Node
	if err := params.Encode(t.Params); err != nil {
		return nil, err
	}
	out := &yaml.Node{Kind: yaml.MappingNode}
	out.Content = append(out.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: "family"},
		&yaml.Node{Kind: yaml.ScalarNode, Value: t.Family})
	out.Content = append(out.Content, params.Content...)
	return out, nil
}

// MarshalJSON writes the family and its parameters for summary.json.
func (t TaskSpec) MarshalJSON() ([]byte, error) {
	b, err := yaml.Marshal(t)
	if err != nil {
		return nil, err
	}
	var generic map[string]any
	if err := yaml.Unmarshal(b, &generic); err != nil {
		return nil, err
	}
	return json.Marshal(generic)
}

// The families' parameter types: each wraps the env configuration it makes tasks with.

type onlineMazeTasks struct {
	env.OnlineConfig `yaml:",inline"`
}

func (p *onlineMazeTasks) Sequence(_ int, rng *rand.Rand) (env.Sequence, error) {
	return mazes(env.OnlineMazes(rng, p.OnlineConfig))
}

type finiteModelTasks struct {
	env.FiniteModelConfig `yaml:",inline"`
}

func (p *finiteModelTasks) Sequence(_ int, rng *rand.Rand) (env.Sequence, error) {
	return mazes(env.FiniteModelGrids(rng, p.FiniteModelConfig))
}

type varyingSizeTasks struct {
	env.VaryingSizeConfig `yaml:",inline"`
}

func (p *varyingSizeTasks) Sequence(_ int, rng *rand.Rand) (env.Sequence, error) {
	return mazes(env.VaryingSizeMazes(rng, p.VaryingSizeConfig))
}

type gaussianTasks struct {
	env.GaussianConfig `yaml:",inline"`
}

func (p *gaussianTasks) Sequence(_ int, rng *rand.Rand) (env.Sequence, error) {
	return mazes(env.GaussianMazes(rng, p.GaussianConfig))
}

// varyingActionsTasks are online mazes whose tasks from source_tasks on have 8 actions.
type varyingActionsTasks struct {
	env.OnlineConfig `yaml:",inline"`
	// SourceTasks is the number of 4-action tasks before the 8-action ones.
	SourceTasks int `yaml:"source_tasks"`
}

func (p *varyingActionsTasks) Validate() error {
	if err := p.OnlineConfig.Validate(); err != nil {
		return err
	}
	if p.SourceTasks < 0 || p.SourceTasks > p.Tasks {
		return fmt.Errorf("source_tasks = %d, want 0 <= source_tasks <= count (%d)", p.SourceTasks, p.Tasks)
	}
	return nil
}

func (p *varyingActionsTasks) Sequence(_ int, rng *rand.Rand) (env.Sequence, error) {
	seq, err := env.OnlineMazes(rng, p.OnlineConfig)
	if err != nil {
		return nil, err
	}
	for k := p.SourceTasks; k < len(seq); k++ {
		seq[k].Actions = 8
	}
	return env.Mazes(seq...), nil
}

type gridTasks struct {
	env.GridConfig `yaml:",inline"`
}

func (p *gridTasks) Sequence(int, *rand.Rand) (env.Sequence, error) {
	return mazes(env.Grids(p.GridConfig))
}

type fourRoomTasks struct {
	env.FourRoomConfig `yaml:",inline"`
}

func (p *fourRoomTasks) Sequence(int, *rand.Rand) (env.Sequence, error) {
	return mazes(env.FourRooms(p.FourRoomConfig))
}

// frozenLakeTasks are Count copies of one FrozenLake.
type frozenLakeTasks struct {
	Map      string   `yaml:"map"`            // "4x4" or "8x8", or empty with desc
	Desc     []string `yaml:"desc,omitempty"` // a map of one's own, top row first, letters S F H G
	Slippery bool     `yaml:"slippery"`       // Gymnasium's is_slippery
	Count    int      `yaml:"count"`
}

func (p *frozenLakeTasks) task() (env.Task, error) {
	return env.FrozenLake{FrozenLakeParams: toytext.FrozenLakeParams{Map: p.Map, Desc: p.Desc, Slippery: p.Slippery}}, nil
}

func (p *frozenLakeTasks) Validate() error { return checkCopies(p.task, p.Count) }

func (p *frozenLakeTasks) Sequence(int, *rand.Rand) (env.Sequence, error) {
	return copiesOf(p.task, p.Count)
}

// namedTasks are Count copies of the MDP of a family without parameters.
type namedTasks struct {
	family string
	Count  int `yaml:"count"`
}

func (p *namedTasks) task() (env.Task, error) { return env.NewNamed(p.family) }

func (p *namedTasks) Validate() error { return checkCopies(p.task, p.Count) }

func (p *namedTasks) Sequence(int, *rand.Rand) (env.Sequence, error) {
	return copiesOf(p.task, p.Count)
}

// customTasks are the tasks of a user's MDP file (the temple-mdp/v1 format of env/custom, JSON
// or YAML), in the file's order, repeated Repeat times.
type customTasks struct {
	File   string `yaml:"file"`
	Repeat int    `yaml:"repeat"`
}

func (p *customTasks) Validate() error {
	switch {
	case p.File == "":
		return fmt.Errorf("family %q needs file: PATH (a temple-mdp/v1 file, .json or .yaml)", FamilyCustom)
	case p.Repeat < 1:
		return fmt.Errorf("repeat = %d, want at least 1", p.Repeat)
	}
	return nil
}

func (p *customTasks) Sequence(int, *rand.Rand) (env.Sequence, error) {
	tasks, err := custom.Read(p.File)
	if err != nil {
		return nil, err
	}
	var out env.Sequence
	for range p.Repeat {
		for _, t := range tasks {
			out = append(out, env.Custom{Task: t})
		}
	}
	return out, nil
}

// copiesOf is the sequence of count copies of the task that task makes, once its model builds.
func copiesOf(task func() (env.Task, error), count int) (env.Sequence, error) {
	if err := checkCopies(task, count); err != nil {
		return nil, err
	}
	t, err := task()
	if err != nil {
		return nil, err
	}
	out := make(env.Sequence, count)
	for k := range out {
		out[k] = t
	}
	return out, nil
}

// checkCopies checks count and that the task builds, without making the sequence (a count of a
// billion is for the memory estimate to refuse, not for validation to allocate).
func checkCopies(task func() (env.Task, error), count int) error {
	if count < 1 {
		return fmt.Errorf("count = %d, want at least 1", count)
	}
	t, err := task()
	if err == nil {
		_, err = t.Model()
	}
	return err
}

func mazes(ms []env.Maze, err error) (env.Sequence, error) {
	if err != nil {
		return nil, err
	}
	return env.Mazes(ms...), nil
}

// mixedTasks is a sequence of parts, each a tasks: block of another family, one after another; the
// whole is repeated Repeat times. Random parts draw afresh at every repetition, in order.
type mixedTasks struct {
	Parts  []TaskSpec `yaml:"parts"`
	Repeat int        `yaml:"repeat"`
}

func (p *mixedTasks) Validate() error {
	if len(p.Parts) == 0 {
		return errors.New("parts: none listed, want at least one tasks block")
	}
	if p.Repeat < 1 {
		return fmt.Errorf("repeat = %d, want at least 1", p.Repeat)
	}
	for k, part := range p.Parts {
		if err := part.validate(); err != nil {
			return fmt.Errorf("parts[%d] (%s): %w", k, part.Family, err)
		}
	}
	return nil
}

func (p *mixedTasks) Sequence(run int, rng *rand.Rand) (env.Sequence, error) {
	var out env.Sequence
	for range p.Repeat {
		for k, part := range p.Parts {
			seq, err := part.Params.Sequence(run, rng)
			if err != nil {
				return nil, fmt.Errorf("parts[%d] (%s): %w", k, part.Family, err)
			}
			out = append(out, seq...)
		}
	}
	return out, nil
}

// fileTasks reads each run's task sequence from a task-sequence file (ours, or one in a published
// layout) or from the published sequences shipped with temple ("published:NAME", env/published).
type fileTasks struct {
	File string `yaml:"file"`
	// Count, when > 0, keeps only the first Count tasks of each run.
	Count int `yaml:"count"`
}

func (p *fileTasks) Validate() error {
	if p.File == "" {
		return fmt.Errorf("family %q needs file: PATH (or file: %sNAME, NAME one of %s)", FamilyFile,
			published.Prefix, strings.Join(published.Names(), ", "))
	}
	if p.Count < 0 {
		return fmt.Errorf("count = %d, want at least 0 (0: every task)", p.Count)
	}
	if name, ok := strings.CutPrefix(p.File, published.Prefix); ok && !slices.Contains(published.Names(), name) {
		return fmt.Errorf("file = %q: no published task sequences %q; the published ones are %s", p.File, name,
			strings.Join(published.Names(), ", "))
	}
	return nil
}

// Sequence reads run number run of the file. Goals the file does not store (the published
// varying-size sequences) are drawn from rng.
func (p *fileTasks) Sequence(run int, rng *rand.Rand) (env.Sequence, error) {
	set, err := published.Open(p.File)
	if err != nil {
		return nil, err
	}
	if run >= len(set.Runs) {
		return nil, fmt.Errorf("file %s holds %d task sequences, but run %d needs one more", p.File, len(set.Runs), run)
	}
	seq := set.Runs[run]
	if p.Count > 0 {
		if p.Count > len(seq) {
			return nil, fmt.Errorf("count = %d, but run %d of %s has %d tasks", p.Count, run, p.File, len(seq))
		}
		seq = seq[:p.Count]
	}
	if seq.NeedsGoals() {
		seq = env.DrawGoals(rng, seq)
	}
	return seq, nil
}
