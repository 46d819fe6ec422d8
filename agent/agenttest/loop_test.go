package agenttest

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/temple-rl/temple/agent"
)

// chain is states 0 → 1 → 2 → …, one step a move paying the state moved to; state 3 is terminal.
type chain struct{}

func (chain) Step(s, _ int, _ *rand.Rand) (int, float64) { return s + 1, float64(s + 1) }
func (chain) Terminal(s int) bool                        { return s == 3 }

// recorder acts 0 and writes down what it is told.
type recorder struct{ log []string }

func (r *recorder) BeginTask(agent.Task) error { return nil }
func (r *recorder) Act(int) int                { return 0 }
func (r *recorder) Observe(s, _ int, _ float64, next int) {
	r.log = append(r.log, string(rune('0'+s))+">"+string(rune('0'+next)))
}
func (r *recorder) EndEpisode() { r.log = append(r.log, "end") }
func (r *recorder) EndTask()    {}

// Steps observes every transition, tells AfterStep each after the agent, sums the rewards and ends
// no episode; Episode ends its episode; StopAtTerminal ends it on the terminal state.
func TestLoop(t *testing.T) {
	ag := &recorder{}
	var after []float64
	loop := Loop{Agent: ag, Task: chain{}, AfterStep: func(_, _ int, r float64, _ int) { after = append(after, r) }}
	if last, total := loop.Steps(0, 5); last != 5 || total != 15 || !reflect.DeepEqual(after, []float64{1, 2, 3, 4, 5}) {
		t.Fatalf("Steps(0, 5) = %d, %v, AfterStep saw %v; want 5, 15, [1 2 3 4 5]", last, total, after)
	}
	if want := []string{"0>1", "1>2", "2>3", "3>4", "4>5"}; !reflect.DeepEqual(ag.log, want) {
		t.Fatalf("the agent observed %v, want %v", ag.log, want)
	}
	ag.log, loop.AfterStep, loop.StopAtTerminal = nil, nil, true
	if got := loop.Episode(1, 10); got != 5 {
		t.Fatalf("Episode(1, 10) stopping at the terminal state returned %v, want 2 + 3", got)
	}
	if want := []string{"1>2", "2>3", "end"}; !reflect.DeepEqual(ag.log, want) {
		t.Fatalf("the agent observed %v, want %v", ag.log, want)
	}
}
