package external

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/temple-rl/temple/agent"
)

// The test binary is also the learners of these tests: with TEMPLE_TEST_LEARNER=MODE set it
// answers the protocol as MODE says and exits (see learn).
func TestMain(m *testing.M) {
	if mode := os.Getenv("TEMPLE_TEST_LEARNER"); mode != "" {
		os.Exit(learn(mode))
	}
	os.Exit(m.Run())
}

// learn is a learner speaking the protocol: it acts (s + task) mod A and counts its steps. Modes
// that fail: "raise" answers an error in task 2, "exit" exits in task 1, "junk" answers junk,
// "hang" never answers act, "action" answers an action out of range, "protocol" answers hello
// with another version, "stderr" writes to standard error and exits at the first act.
func learn(mode string) int {
	in := bufio.NewScanner(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	say := func(v any) {
		b, _ := json.Marshal(v)
		out.Write(append(b, '\n'))
		out.Flush()
	}
	var task, A, steps int
	for in.Scan() {
		var m map[string]any
		if err := json.Unmarshal(in.Bytes(), &m); err != nil {
			return 2
		}
		num := func(k string) int { return int(m[k].(float64)) }
		switch m["type"] {
		case "hello":
			if mode == "protocol" {
				say(map[string]any{"type": "ready", "protocol": 99})
				continue
			}
			say(map[string]any{"type": "ready", "protocol": Version})
		case "begin_task":
			task, A, steps = num("index"), num("n_actions"), 0
		case "act", "observe_act":
			s := num("state")
			if m["type"] == "observe_act" {
				s = num("next_state")
				steps++
			}
			switch {
			case mode == "raise" && task == 2:
				say(map[string]any{"type": "error", "message": "ValueError: boom in task 2"})
			case mode == "exit" && task == 1:
				return 7
			case mode == "junk":
				out.WriteString("this is not JSON\n")
				out.Flush()
			case mode == "hang":
				time.Sleep(time.Hour)
			case mode == "action":
				say(map[string]any{"action": A})
			case mode == "stderr":
				fmt.Fprintln(os.Stderr, "Traceback (most recent call last):\nKeyError: 7")
				return 1
			default:
				say(map[string]any{"action": (s + task) % A})
			}
		case "observe":
			steps++
		case "end_task":
			say(map[string]any{"metrics": map[string]any{"steps_seen": steps}})
		case "close":
			return 0
		}
	}
	return 0
}

// start starts the test binary as a learner of mode.
func start(t *testing.T, mode string, timeout time.Duration) (*Process, error) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return Start(Command{Args: []string{exe}, Env: append(os.Environ(), "TEMPLE_TEST_LEARNER="+mode), Timeout: timeout},
		"Mine", 1, map[string]any{"alpha": 0.5})
}

// drive runs l through tasks of 3 states and 2 actions, 2 episodes of 4 steps each, as the runner
// does (Act, Observe, EndEpisode, EndTask), and returns the actions it took.
func drive(l *Learner, tasks int) []int {
	var actions []int
	for k := range tasks {
		if err := l.BeginTask(agent.Task{Index: k, S: 3, A: 2, Gamma: 0.9, Rand: rand.New(rand.NewPCG(1, uint64(k)))}); err != nil {
			return actions
		}
		for range 2 {
			s := 0
			for range 4 {
				a := l.Act(s)
				actions = append(actions, a)
				next := (s + 1) % 3
				l.Observe(s, a, 1, next)
				s = next
			}
			l.EndEpisode()
		}
		l.EndTask()
	}
	return actions
}

func TestAProcessLearnerActsAndReports(t *testing.T) {
	p, err := start(t, "good", 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	l := NewLearner("Mine", p)
	actions := drive(l, 3)
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	// (s + task) mod 2 along s = 0, 1, 2, 0 in each episode.
	want := []int{0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 1, 1, 1, 0, 1, 1, 0, 1, 0, 0, 0, 1, 0, 0}
	if fmt.Sprint(actions) != fmt.Sprint(want) {
		t.Errorf("actions %v, want %v", actions, want)
	}
	// 8 steps a task, told by observe_act (6) and observe (the last of each episode, 2).
	if m := l.TaskMetrics(); len(m) != 1 || m[0] != (agent.Metric{Name: "steps_seen", Value: 8}) {
		t.Errorf("metrics %v, want steps_seen 8", m)
	}
}

// TestAFailingLearnerFailsWithItsError: each way a learner can fail is its error, naming the
// call and the task; from then on it acts 0 without asking, and nothing hangs.
func TestAFailingLearnerFailsWithItsError(t *testing.T) {
	for _, c := range []struct{ mode, want string }{
		{"raise", "act of task 2: the learner's error: ValueError: boom in task 2"},
		{"exit", "act of task 1: the process ended (exit status 7)"},
		{"junk", `answered act with "this is not JSON", not a JSON object`},
		{"hang", "no answer to act within 300ms (timeout; the process was stopped)"},
		{"action", "answered action 2 in state 0, want one of 0..1"},
		{"stderr", "its last lines on standard error:\n    Traceback (most recent call last):\n    KeyError: 7"},
	} {
		t.Run(c.mode, func(t *testing.T) {
			p, err := start(t, c.mode, 300*time.Millisecond)
			if err != nil {
				t.Fatal(err)
			}
			l := NewLearner("Mine", p)
			began := time.Now()
			drive(l, 4)
			l.Close()
			if l.Err() == nil || !strings.Contains(l.Err().Error(), c.want) {
				t.Fatalf("error %v, want one containing %q", l.Err(), c.want)
			}
			if !strings.HasPrefix(l.Err().Error(), "learner Mine, ") {
				t.Errorf("error %q does not name the learner", l.Err())
			}
			if d := time.Since(began); d > 5*time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
}

func TestAnotherProtocolVersionIsRefused(t *testing.T) {
	_, err := start(t, "protocol", 5*time.Second)
	if err == nil || !strings.Contains(err.Error(), `want type "ready" and protocol 1`) {
		t.Fatalf("error %v, want a refusal of protocol 99", err)
	}
}

func TestAMissingProgramIsNamed(t *testing.T) {
	_, err := Start(Command{Args: []string{"/nonexistent/learner"}, Timeout: time.Second}, "Mine", 1, nil)
	if err == nil || !strings.Contains(err.Error(), "starting /nonexistent/learner") {
		t.Fatalf("error %v", err)
	}
}
