package experiment

import (
	"context"

	"github.com/temple-rl/temple/cluster"
	"github.com/temple-rl/temple/results"
)

// ExecuteShard runs the shard's share of the cells of s (of every point of a sweep) into dir,
// with the spec, task sequences and layout files, and returns how many cells the shard holds. It
// writes no summary or figures: `temple merge` (results.Merge) joins the shards' directories and
// writes them.
func ExecuteShard(ctx context.Context, s Spec, dir string, jobs int, progress Progress, sh cluster.Shard) (int, error) {
	s = s.ReadInputsOnce()
	if err := Check(s); err != nil {
		return 0, err
	}
	points, subdirs, err := s.experiments()
	if err != nil {
		return 0, err
	}
	d, release, err := claim(dir, s, progress)
	if err != nil {
		return 0, err
	}
	defer release()
	if len(s.Sweep) > 0 {
		if _, err := writeSweepSetup(s, d); err != nil {
			return 0, err
		}
	}
	var scalingPoints []scalingPoint
	if s.Scaling != nil {
		scalingPoints = s.Scaling.points(s) // in the order of points
	}
	var scaling []results.ScalingPointSetup
	cells := 0
	for k, ps := range points {
		n, pt, err := runShardPoint(ctx, ps, d, subdirs[k], jobs, progress, sh)
		cells += n
		if err != nil {
			return cells, err
		}
		if s.Scaling != nil {
			setup, err := scalingPoints[k].setup(pt)
			if err != nil {
				return cells, err
			}
			scaling = append(scaling, setup)
		}
	}
	if s.Scaling != nil {
		if _, err := writeScalingSetup(s, d, scaling); err != nil {
			return cells, err
		}
	}
	return cells, nil
}

// runShardPoint runs the shard's cells of one experiment into top, the directory claimed for the
// shard, or, for a point of a sweep or scaling study, into its directory sub below top, which it
// claims first; it returns how many cells it ran and its plan.
func runShardPoint(ctx context.Context, ps Spec, top results.Dir, sub string, jobs int, progress Progress, sh cluster.Shard) (int, *Plan, error) {
	p, err := Build(ps)
	if err != nil {
		return 0, nil, err
	}
	dir := top
	if sub != "" {
		point, release, err := claimPoint(top, sub, ps, progress)
		if err != nil {
			return 0, nil, err
		}
		defer release()
		dir = point
	}
	if err := prepare(ps, p, dir); err != nil {
		return 0, nil, err
	}
	p.Shard = sh
	res, err := Run(ctx, p, dir, jobs, progress)
	return len(res), p, err
}
