package env

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzParseSequences feeds arbitrary bytes to the task-sequence reader: it must return a valid
// set or an error, never panic. The seeds are this package's own formats and the published
// layouts.
func FuzzParseSequences(f *testing.F) {
	for _, seed := range []string{
		`{"format":"temple-task-sequences/v2","runs":[[{"family":"maze","width":2,"height":1,"slip":[0,0.2],"actions":4,"goals":[[2,1]],"terminal_goals":true},{"family":"taxi"},{"family":"frozenlake","map":"4x4","slippery":true}]]}`,
		`{"format":"temple-task-sequences/v1","runs":[[{"width":2,"height":1,"slip":[0,0],"step_cost":0.2,"goal_reward":1,"lava_cost":1,"actions":4}]]}`,
		`{"width":2,"height":2,"runs":[[[0,0.2,0.4,0]]]}`,
		`{"width":4,"height":4,"slip":0.4,"runs":[[[1,1],[4,4]]]}`,
		`{"runs":[[[0,0,0,0]]]}`,
	} {
		f.Add([]byte(seed))
	}
	if b, err := os.ReadFile(filepath.Join(publishedDir, "finite-model-grid-4x4.json")); err == nil {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		set, err := ParseSequences(data)
		if err != nil {
			return
		}
		if err := set.check(); err != nil {
			t.Fatalf("ParseSequences accepted an invalid set: %v", err)
		}
	})
}
