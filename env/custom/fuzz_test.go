package custom

import "testing"

// FuzzParse checks that Parse never panics and returns either an error or valid tasks, which
// the writer then carries through a round trip unchanged. The seed corpus
// (testdata/fuzz/FuzzParse) holds valid files in both syntaxes and one of each kind of malformed
// file. Run it with go test -fuzz=FuzzParse -fuzztime=60s ./env/custom/.
func FuzzParse(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte, isYAML bool) {
		format := "json"
		if isYAML {
			format = "yaml"
		}
		tasks, err := Parse(data, format)
		if err != nil {
			if tasks != nil {
				t.Fatalf("Parse returned tasks and the error %v", err)
			}
			return
		}
		if len(tasks) == 0 {
			t.Fatal("Parse returned no tasks and no error")
		}
		for i, task := range tasks {
			m := task.Model
			if m == nil || checkName(task.Name) != nil ||
				task.StateNames != nil && len(task.StateNames) != m.S || task.ActionNames != nil && len(task.ActionNames) != m.A {
				t.Fatalf("task %d: invalid task %+v", i, task)
			}
		}
		text, err := encode(tasks)
		if err != nil {
			t.Fatalf("encode: %v", err)
		}
		back, err := Parse(text, "json")
		if err != nil {
			t.Fatalf("the written tasks do not read back: %v\n%s", err, text)
		}
		sameTasks(t, back, tasks)
	})
}
