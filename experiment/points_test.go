package experiment

import (
	"context"
	"testing"

	"github.com/temple-rl/temple/cluster"
)

// runPoints runs every point of s into dir as study.ExecuteSweep does (package study imports this
// one, so its tests are there), without the sweep's own files (sweep.json, sweep.csv).
func runPoints(s Spec, dir string) error {
	s = s.ReadInputsOnce()
	points, err := Points(s)
	if err != nil {
		return err
	}
	d, release, err := Claim(dir, s, nil)
	if err != nil {
		return err
	}
	defer release()
	for _, pt := range points {
		if _, _, _, err := RunPoint(context.Background(), d, pt.Dir, pt.Spec, 2, nil); err != nil {
			return err
		}
	}
	return nil
}

// runShard runs shard sh of s, an experiment of one point, into dir on one worker, as
// study.ExecuteShard does.
func runShard(s Spec, dir string, sh cluster.Shard) error {
	s = s.ReadInputsOnce()
	if err := Check(s); err != nil {
		return err
	}
	d, release, err := Claim(dir, s, nil)
	if err != nil {
		return err
	}
	defer release()
	_, _, err = RunShardPoint(context.Background(), s, d, "", 1, nil, sh)
	return err
}

// twoShards runs shards 0/2 and 1/2 of s, each into a directory of its own, and returns them.
func twoShards(t *testing.T, s Spec) []string {
	t.Helper()
	var shards []string
	for i := range 2 {
		d := t.TempDir()
		if err := runShard(s, d, cluster.Shard{Index: i, Count: 2}); err != nil {
			t.Fatal(err)
		}
		shards = append(shards, d)
	}
	return shards
}
