package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The summary says what the template learners learned, explains its terms, and says when the
// cells were reused from an earlier run into the same directory.
func TestSummaryExplainsItself(t *testing.T) {
	out := filepath.Join(t.TempDir(), "x")
	args := []string{"run", "--runs", "2", "--out", out}
	text, err := temple(t, args...)
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	for _, want := range []string{"What the template learners learned", "templates in the library after the last task",
		"pairs identified with a template", "augmented with its visits", "Holm-adjusted p = ", "ε-mistakes = ", "share of optimal = "} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "Reused") {
		t.Errorf("a fresh run says it reused cells:\n%s", text)
	}
	text, err = temple(t, args...)
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	if want := "Reused 8 of 8 cells stored in " + out + " by an earlier run of the same spec; --force to run them again."; !strings.Contains(text, want) {
		t.Errorf("second run's output lacks %q:\n%s", want, text)
	}
	text, err = temple(t, append(args, "--force")...)
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	if strings.Contains(text, "Reused") {
		t.Errorf("a run with --force says it reused cells:\n%s", text)
	}
}

// On MountainCar no template learner reaches the goal: the summary says so rather than print
// −200000.00 ± 0.00 without a word.
func TestSummaryFlagsRunsThatNeverReachTheGoal(t *testing.T) {
	text, err := temple(t, "reproduce", "mountaincar", "--runs", "2", "--out", filepath.Join(t.TempDir(), "mc"))
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	want := "note: O-TempLe: no episode of any run reached a terminal state (the goal, on tasks where reaching it ends the episode); every run earned the same, -200000.00 per task"
	if !strings.Contains(text, want) {
		t.Errorf("output lacks %q:\n%s", want, text)
	}
	if strings.Contains(text, "note: Q-learning") {
		t.Errorf("Q-learning, which reaches the goal, is flagged:\n%s", text)
	}
}

// A reward PSRL's Beta posterior clamps is named in the summary: on online mazes (rewards down to
// −1) with the range [0, 1] given, and not with the tasks' own range (the default).
func TestSummaryNamesClampedRewards(t *testing.T) {
	dir := t.TempDir()
	config := filepath.Join(dir, "clamps.yaml")
	if err := os.WriteFile(config, []byte(`runs: 2
episodes: 10
steps: 20
tasks: {family: online-maze, count: 2}
agents:
  - {type: psrl, name: PSRL-01, reward_min: 0, reward_max: 1}
  - {type: psrl}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	text, err := temple(t, "run", config, "--out", filepath.Join(dir, "out"))
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	if want := "note: PSRL-01: "; !strings.Contains(text, want) || !strings.Contains(text, "fell outside its Beta reward posterior's range (reward_min, reward_max) and were clamped into it (reward_clamps in metrics.csv)") {
		t.Errorf("output does not name PSRL-01's clamped rewards:\n%s", text)
	}
	if strings.Contains(text, "note: PSRL:") {
		t.Errorf("PSRL on the tasks' own range is flagged:\n%s", text)
	}
}
