package cli

import (
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
