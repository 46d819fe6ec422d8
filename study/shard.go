package study

import (
	"context"

	"github.com/temple-rl/temple/cluster"
	"github.com/temple-rl/temple/experiment"
	"github.com/temple-rl/temple/results"
)

// ExecuteShard runs the shard's share of the cells of s (of every point of a sweep or scaling
// study) into dir, with the spec, task sequences and layout files, and returns how many cells the
// shard holds. It writes no summary or figures: `temple merge` (results.Merge) joins the shards'
// directories and writes them.
func ExecuteShard(ctx context.Context, s experiment.Spec, dir string, jobs int, progress experiment.Progress, sh cluster.Shard) (int, error) {
	s = s.ReadInputsOnce()
	if err := experiment.Check(s); err != nil {
		return 0, err
	}
	points, err := experiment.Points(s)
	if err != nil {
		return 0, err
	}
	d, release, err := experiment.Claim(dir, s, progress)
	if err != nil {
		return 0, err
	}
	defer release()
	if len(s.Sweep) > 0 {
		if _, err := writeSweepSetup(s, points, d); err != nil {
			return 0, err
		}
	}
	var scaling []results.ScalingPointSetup
	cells := 0
	for _, pt := range points {
		n, plan, err := experiment.RunShardPoint(ctx, pt.Spec, d, pt.Dir, jobs, progress, sh)
		cells += n
		if err != nil {
			return cells, err
		}
		if s.Scaling != nil {
			scaling = append(scaling, scalingPointSetup(pt, plan))
		}
	}
	if s.Scaling != nil {
		if _, err := writeScalingSetup(s, d, scaling); err != nil {
			return cells, err
		}
	}
	return cells, nil
}
