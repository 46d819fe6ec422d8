package experiment

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/agenttypes"
	"github.com/temple-rl/temple/external"
	"github.com/temple-rl/temple/results"
)

// Learners written outside temple (type: python, type: external; package external) run as any
// agent: the same tasks, streams, oracle and files. Their source is part of the experiment's
// identity (its files' SHA-256 under inputs:, fingerprint.go); a Python learner's cells run in a
// Python worker, which builds the cell from the resolved spec with this package's own code
// (Host) and stores it where the runner reads it back.

// checkOutside checks an outside learner before any cell runs: its parameters, its source files
// (they exist and are read), and for a program that it can be found.
func checkOutside(a AgentSpec) error {
	if err := a.Params.Validate(); err != nil {
		return err
	}
	files, err := a.Params.(agenttypes.Sourced).SourceFiles()
	if err != nil {
		return err
	}
	for _, f := range files {
		if _, err := digestFile(f); err != nil {
			return fmt.Errorf("a file of the learner's source: %w", err)
		}
	}
	if ext, ok := a.Params.(*agenttypes.External); ok {
		if _, err := exec.LookPath(ext.Program()); err != nil {
			return fmt.Errorf("external: command: %w", err)
		}
	}
	return nil
}

// agentInputs are the files of the outside learners' sources, by path, in order; a file that
// cannot be found is left out (Build names it).
func agentInputs(s Spec) []string {
	var out []string
	for _, a := range s.Agents {
		if src, ok := a.Params.(agenttypes.Sourced); ok {
			files, _ := src.SourceFiles()
			out = append(out, files...)
		}
	}
	return out
}

// pythonCell runs the cell of Python learner fac in run in a worker and reads back what it wrote.
func (p *Plan) pythonCell(ctx context.Context, dir results.Dir, run int, fac AgentFactory, progress Progress) (results.CellResult, error) {
	fail := func(err error) (results.CellResult, error) {
		return results.CellResult{}, fmt.Errorf("experiment: agent %s, run %d: %w", fac.Name, run, err)
	}
	module, err := fac.Python.ModuleFile()
	if err != nil {
		return fail(err)
	}
	abs, err := filepath.Abs(dir.String())
	if err != nil {
		return fail(err)
	}
	s, err := Parse(p.spec)
	if err != nil {
		return fail(err)
	}
	req := external.CellRequest{Version: results.Version, Spec: string(p.spec), Fingerprint: p.Fingerprint, Run: run, Agent: fac.Name,
		Dir: abs, Class: fac.Python.Class, ModuleFile: module, Digest: s.Inputs[module], Params: fac.Python.Params,
		Timeout: fac.Python.Timeout}
	if req.Params == nil {
		req.Params = map[string]any{}
	}
	if err := p.workers.RunPythonCell(ctx, req, func(k int) { progress.TaskDone(run, fac.Name, k) }); err != nil {
		if ctx.Err() != nil {
			return results.CellResult{}, ctx.Err()
		}
		return fail(err)
	}
	res, err := results.ReadCell(dir.Cell(run, fac.Name), p.cellWant(run, fac.Name))
	if err != nil {
		return results.CellResult{}, err
	}
	return res, results.RecordCell(dir, res)
}

// cellWant is what the stored cell of agent name in run must be.
func (p *Plan) cellWant(run int, name string) results.CellWant {
	return results.CellWant{Fingerprint: p.Fingerprint, Run: run, Agent: name, Tasks: len(p.Runs[run]),
		Episodes: p.Episodes, Oracle: p.Oracle, PolicyMistakes: p.PolicyMistakes}
}

// Host runs cells of experiments in this process for a Python worker (through temple's C
// library), keeping the tasks it built for the last spec: a worker runs cell after cell of one
// experiment.
type Host struct {
	fingerprint string
	spec        Spec
	plan        *Plan
}

// RunCell runs one cell of the resolved spec specYAML — run's cell of the agent named name, a
// Python learner, built by learner — in this process and writes it to the runner's results
// directory at path (which the runner claimed: results.At), as Run would. The
// spec's fingerprint, computed here with the content of its inputs now, must be fingerprint: a
// task file or the learner's source changed since the experiment started is refused, naming the
// difference.
func (h *Host) RunCell(ctx context.Context, specYAML []byte, fingerprint, path string, run int, name string,
	learner func(agenttypes.Context) (agent.Agent, error), taskDone func(task int)) error {
	if h.plan == nil || h.fingerprint != fingerprint {
		h.plan = nil
		s, err := Parse(specYAML)
		if err != nil {
			return err
		}
		recorded := s.Inputs
		p, err := BuildTasks(s)
		if err != nil {
			return err
		}
		if p.Fingerprint != fingerprint {
			return fmt.Errorf("experiment: the spec's inputs changed since the experiment started (fingerprint %s, now %s): %w",
				fingerprint, p.Fingerprint, changedInputs(recorded, digestInputs(s)))
		}
		h.fingerprint, h.spec, h.plan = fingerprint, s, p
	}
	p := h.plan
	if run < 0 || run >= len(p.Runs) {
		return fmt.Errorf("experiment: run %d, want one of 0..%d", run, len(p.Runs)-1)
	}
	if !slices.ContainsFunc(h.spec.Agents, func(a AgentSpec) bool { return a.Name == name }) {
		return fmt.Errorf("experiment: no agent named %q in the spec", name)
	}
	fac := AgentFactory{Name: name, New: func(ctx RunContext) (agent.Agent, error) {
		return learner(agenttypes.Context{Models: models(ctx), Gamma: ctx.Gamma, Name: name,
			Seed: learnerSeed(ctx.Seed, ctx.Run, name)})
	}}
	if p.Oracle {
		p.oracles = newOracleCache(p)
		defer func() { p.oracles = nil }()
	}
	dir := results.At(path)
	if err := results.MakeCellDirs(dir, p.EpisodeReturns, p.TemplateSnapshots); err != nil {
		return err
	}
	res, err := runCell(ctx, p, dir, run, fac, progressFunc(taskDone))
	if err != nil {
		return err
	}
	return results.StoreCell(dir, res) // the runner records it (pythonCell): one process writes checksums.json
}

// changedInputs names the input files whose digest differs between was and now.
func changedInputs(was, now map[string]string) error {
	var errs []error
	for path, d := range now {
		if was[path] != d {
			errs = append(errs, fmt.Errorf("%s has another content (SHA-256 %s, recorded %s)", path, d, orNone(was[path])))
		}
	}
	for path := range was {
		if _, ok := now[path]; !ok {
			errs = append(errs, fmt.Errorf("%s can no longer be read", path))
		}
	}
	return errors.Join(errs...)
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// progressFunc is a Progress that calls f for every finished task.
type progressFunc func(task int)

func (progressFunc) Start(int)                         {}
func (f progressFunc) TaskDone(_ int, _ string, k int) { f(k) }
