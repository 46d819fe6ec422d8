package benchmark

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The time a benchmark took is each family's, summed over the invocations that worked on it: an
// interrupted run's and the resumed run's seconds add, a family without a record counts nothing,
// and a damaged record is refused by its path.
func TestMeasuredSecondsAddAcrossInvocations(t *testing.T) {
	dir := t.TempDir()
	s := Spec{Families: []FamilySpec{{Name: "a"}, {Name: "b"}, {Name: "never-run"}}}
	for _, add := range []struct {
		family string
		sec    float64
	}{{"a", 100}, {"a", 20.5}, {"b", 3}} {
		if err := addSeconds(dir, add.family, add.sec); err != nil {
			t.Fatal(err)
		}
	}
	got, err := MeasuredSeconds(dir, s)
	if err != nil || got != 123.5 {
		t.Errorf("MeasuredSeconds = %v, %v; want 123.5 (100 + 20.5 + 3)", got, err)
	}
	bad := filepath.Join(dir, "families", "b", secondsFile)
	if err := os.WriteFile(bad, []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := MeasuredSeconds(dir, s); err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("a damaged record: error %v, want one naming %s", err, bad)
	}
}
