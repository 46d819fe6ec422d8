package experiment

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"

	"go.yaml.in/yaml/v3"

	"github.com/temple-rl/temple/env"
)

// Build resolves a validated spec into a plan: every run's task sequence (generated from the seed
// or read from a file) with its models, and a factory per agent whose parameters were checked.
func Build(s Spec) (*Plan, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	specYAML, err := yaml.Marshal(s)
	if err != nil {
		return nil, fmt.Errorf("experiment: %w", err)
	}
	digest := sha256.Sum256(specYAML)
	p := &Plan{Seed: s.Seed, Episodes: s.Episodes, Steps: s.Steps, Gamma: s.Gamma, Start: s.Start,
		StartCell: env.Cell{X: s.StartCell[0], Y: s.StartCell[1]}, EpisodeReturns: s.Output.Episodes,
		Fingerprint: hex.EncodeToString(digest[:8])}
	sequences, err := sequencesOf(s)
	if err != nil {
		return nil, err
	}
	for run, seq := range sequences {
		var tasks []Task
		for k, mz := range seq {
			m, err := mz.Model()
			if err != nil {
				return nil, fmt.Errorf("tasks: run %d, task %d: %w", run, k, err)
			}
			if s.Start == StartFixed && (p.StartCell.X < 1 || p.StartCell.X > mz.Width || p.StartCell.Y < 1 || p.StartCell.Y > mz.Height || mz.IsWall(mz.Index(p.StartCell))) {
				return nil, fmt.Errorf("start_cell = %v is not an open cell of the %dx%d maze of run %d, task %d", p.StartCell, mz.Width, mz.Height, run, k)
			}
			tasks = append(tasks, Task{Maze: mz, Model: m})
		}
		p.Runs = append(p.Runs, tasks)
	}
	for k, a := range s.Agents {
		fac := a.factory()
		if _, err := fac.New(RunContext{Run: 0, Tasks: p.Runs[0], Gamma: s.Gamma}); err != nil {
			return nil, fmt.Errorf("agents[%d] (%s): %w", k, a.Name, err)
		}
		p.Agents = append(p.Agents, fac)
	}
	return p, nil
}

// sequencesOf returns the task sequence of every run.
func sequencesOf(s Spec) ([]env.Sequence, error) {
	t := s.Tasks
	seqRand := func(run int) *rand.Rand { return stream(s.Seed, run, "", 0, purposeSequence) }
	var out []env.Sequence
	if t.Family == FamilyFile {
		set, err := env.ReadSequences(t.File)
		if err != nil {
			return nil, fmt.Errorf("tasks: %w", err)
		}
		if len(set.Runs) < s.Runs {
			return nil, fmt.Errorf("tasks: file %s holds %d task sequences, but runs = %d", t.File, len(set.Runs), s.Runs)
		}
		for run := 0; run < s.Runs; run++ {
			seq := set.Runs[run]
			if t.Count > 0 {
				if t.Count > len(seq) {
					return nil, fmt.Errorf("tasks: count = %d, but run %d of %s has %d tasks", t.Count, run, t.File, len(seq))
				}
				seq = seq[:t.Count]
			}
			if seq.NeedsGoals() {
				// Goals not stored in the file are drawn from the seed (and written to tasks.json).
				seq = env.DrawGoals(seqRand(run), seq)
			}
			out = append(out, seq)
		}
		return out, nil
	}
	for run := 0; run < s.Runs; run++ {
		var seq env.Sequence
		var err error
		rng := seqRand(run)
		switch t.Family {
		case FamilyOnlineMaze, FamilyVaryingActions:
			seq, err = env.OnlineMazes(rng, env.OnlineConfig{Width: t.Width, Height: t.Height, Pool: t.Pool, Tasks: t.Count,
				Actions: t.Actions, Landforms: t.Landforms, Goals: cells(t.Goals), Lava: cells(t.Lava),
				StepCost: t.StepCost, GoalReward: t.GoalReward, LavaCost: t.LavaCost})
			if t.Family == FamilyVaryingActions {
				for k := t.SourceTasks; k < len(seq); k++ {
					seq[k].Actions = 8
				}
			}
		case FamilyFiniteModel:
			seq, err = env.FiniteModelGrids(rng, env.FiniteModelConfig{Width: t.Width, Height: t.Height, Models: t.Models,
				Tasks: t.Count, Actions: t.Actions, Slip: t.Slip, Lava: cells(t.Lava),
				StepCost: t.StepCost, GoalReward: t.GoalReward, LavaCost: t.LavaCost})
		case FamilyVaryingSize:
			seq, err = env.VaryingSizeMazes(rng, env.VaryingSizeConfig{Sizes: t.Sizes, PerSize: t.PerSize, Actions: t.Actions,
				Landforms: t.Landforms, StepCost: t.StepCost, GoalReward: t.GoalReward, LavaCost: t.LavaCost})
		case FamilyGaussian:
			seq, err = env.GaussianMazes(rng, env.GaussianConfig{Width: t.Width, Height: t.Height, Pool: t.Pool, Tasks: t.Count,
				Actions: t.Actions, Means: t.Means, SD: t.SD, Goals: cells(t.Goals), Lava: cells(t.Lava),
				StepCost: t.StepCost, GoalReward: t.GoalReward, LavaCost: t.LavaCost})
		}
		if err != nil {
			return nil, fmt.Errorf("tasks: %w", err)
		}
		out = append(out, seq)
	}
	return out, nil
}
