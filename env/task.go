package env

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/temple-rl/temple/internal/suggest"
	"github.com/temple-rl/temple/mdp"
)

// Task is one tabular task of a sequence, as a task-sequence file stores it: its kind and the
// parameters that build its MDP. Any tabular MDP can be a task — a maze, RiverSwim, FrozenLake, a
// user's own model — and a sequence may mix kinds, sizes and numbers of actions. A task given
// as a simulator instead of a table (a discretized continuous environment) is also Simulated, and
// its Model fails with ErrNoTable.
//
// A task's kind says what a task object is (KindMaze: a maze with these fields). It is not the
// task family of a config's tasks: block, which is one way of drawing a run's sequence (package
// families): the families online-maze, finite-model, fourroom and others all make mazes.
type Task interface {
	// Kind is what the task is, written as the "family" key of its JSON form (KindMaze, …; the
	// key keeps its name from format v2).
	Kind() string
	// Name is a short human-readable description, e.g. "maze 4x4" or "FrozenLake 8x8 slippery".
	Name() string
	// Model builds and validates the task's MDP: transitions, rewards, start distribution and
	// terminal states.
	Model() (*mdp.Model, error)
}

// Sized is a task that knows the size of its model before building it; the experiment runner
// estimates an experiment's memory from it before building any model.
type Sized interface {
	Size() (states, actions int)
}

// Task kinds, as written in task-sequence files.
const (
	KindMaze = "maze" // Maze: a slippery grid with landforms, goals, lava and walls
)

// CellTask is a task on a grid whose states are cells; a fixed start cell is given as a cell.
type CellTask interface {
	Task
	// StateOfCell is the state of cell c, false when c is not an open cell of the grid.
	StateOfCell(c Cell) (int, bool)
}

// decodeAs decodes the parameters of a task of type T, rejecting unknown keys.
func decodeAs[T Task](data []byte) (Task, error) {
	var t T
	err := decodeStrict(data, &t)
	return t, err
}

// kindDecoders reads the parameters of a task of each kind: the maze, FrozenLake, a user's own
// MDP, the kinds without parameters (namedModels) and the simulators (simulatorKinds).
var kindDecoders = func() map[string]func([]byte) (Task, error) {
	out := map[string]func([]byte) (Task, error){
		KindMaze:       decodeAs[Maze],
		KindFrozenLake: decodeAs[FrozenLake],
		KindCustom: func(data []byte) (Task, error) {
			var c Custom
			err := c.Task.UnmarshalJSON(data)
			return c, err
		},
	}
	for kind := range namedModels {
		out[kind] = func(data []byte) (Task, error) {
			if err := decodeStrict(data, &struct{}{}); err != nil {
				return nil, err
			}
			return Named{kind: kind}, nil
		}
	}
	for kind, sim := range simulatorKinds {
		out[kind] = sim.decode
	}
	return out
}()

// kinds lists the kinds a task-sequence file may hold.
func kinds() []string { return slices.Sorted(maps.Keys(kindDecoders)) }

// Sequence is the ordered list of tasks one run of an experiment faces.
type Sequence []Task

// encodeTask writes t as one compact JSON object whose first key is "family".
func encodeTask(t Task) ([]byte, error) {
	body, err := json.Marshal(t)
	if err != nil {
		return nil, err
	}
	kind, _ := json.Marshal(t.Kind())
	out := append([]byte(`{"family":`), kind...)
	if inner := bytes.TrimSpace(body[1 : len(body)-1]); len(inner) > 0 {
		out = append(append(out, ','), inner...)
	}
	return append(out, '}'), nil
}

// decodeTask reads one JSON task object: its "family" key names its kind, which chooses the type,
// whose other keys must all be known.
func decodeTask(data []byte) (Task, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		return nil, fmt.Errorf("a task is a JSON object with a \"family\" key: %w", err)
	}
	var kind string
	if raw, ok := fields["family"]; !ok {
		return nil, fmt.Errorf("task has no \"family\" key, want one of %s", strings.Join(kinds(), ", "))
	} else if err := json.Unmarshal(raw, &kind); err != nil {
		return nil, fmt.Errorf("task family %s is not a string", abbreviate(raw))
	}
	decode, ok := kindDecoders[kind]
	if !ok {
		return nil, fmt.Errorf("task family %q, want one of %s%s", kind, strings.Join(kinds(), ", "), suggest.DidYouMean(kind, kinds()))
	}
	delete(fields, "family")
	rest, err := json.Marshal(fields)
	if err != nil {
		return nil, err
	}
	t, err := decode(rest)
	if err != nil {
		return nil, fmt.Errorf("%s task: %w", kind, err)
	}
	return t, nil
}

// MarshalJSON writes the sequence as a JSON array of task objects, each with its "family".
func (s Sequence) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('[')
	for k, t := range s {
		if k > 0 {
			b.WriteByte(',')
		}
		enc, err := encodeTask(t)
		if err != nil {
			return nil, fmt.Errorf("task %d: %w", k, err)
		}
		b.Write(enc)
	}
	b.WriteByte(']')
	return b.Bytes(), nil
}

// UnmarshalJSON reads a JSON array of task objects; errors name the task (0-based).
func (s *Sequence) UnmarshalJSON(data []byte) error {
	var raw []json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return fmt.Errorf("a task sequence is a JSON array of tasks: %w", err)
	}
	out := make(Sequence, len(raw))
	for k, r := range raw {
		t, err := decodeTask(r)
		if err != nil {
			return fmt.Errorf("task %d: %w", k, err)
		}
		out[k] = t
	}
	*s = out
	return nil
}

// Mazes returns the sequence of the given mazes.
func Mazes(ms ...Maze) Sequence {
	out := make(Sequence, len(ms))
	for k := range ms {
		out[k] = ms[k]
	}
	return out
}
