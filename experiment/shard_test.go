package experiment

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/temple-rl/temple/cluster"
	"github.com/temple-rl/temple/results"
)

// A shard directory written before setup.json existed, or of another spec, is refused with a
// message that says what to do; nothing is merged.
func TestMergeRefusesOldAndForeignShards(t *testing.T) {
	shards := twoShards(t, small(2, 2, 20))
	if err := os.Remove(filepath.Join(shards[0], "setup.json")); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	if err := results.Merge(out, shards); err == nil || !strings.Contains(err.Error(), "has no setup.json") ||
		!strings.Contains(err.Error(), "again with this version") {
		t.Errorf("merging a shard without setup.json: %v", err)
	}
	if _, err := os.Stat(filepath.Join(out, "summary.json")); err == nil {
		t.Error("a refused merge wrote summary.json")
	}
	other := small(2, 2, 20)
	other.Seed = 7
	d := t.TempDir()
	if err := runShard(other, d, cluster.Shard{Index: 1, Count: 2}); err != nil {
		t.Fatal(err)
	}
	if err := results.Merge(t.TempDir(), []string{shards[1], d}); err == nil || !strings.Contains(err.Error(), "ran another spec") ||
		!strings.Contains(err.Error(), "differs in seed") {
		t.Errorf("merging shards of two specs: %v", err)
	}
}
