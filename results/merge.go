package results

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Merge joins the results directories of the shards of one experiment (a plain one, a sweep or a
// scaling study) into out: it checks that they ran the same spec, gathers their cells (and
// episode and template files), checks that every cell is there and is of that spec, and writes
// the results — byte for byte those of an unsharded run but timings.json. It needs nothing of the
// runner: each experiment directory's setup.json, and a sweep's sweep.json or a scaling study's
// scaling.json, say what to write.
func Merge(out string, shards []string) error {
	if len(shards) == 0 {
		return errors.New("results: merge: no shard directories given")
	}
	spec, err := os.ReadFile(filepath.Join(shards[0], "spec.yaml"))
	if err != nil {
		return fmt.Errorf("results: merge: %w", err)
	}
	for _, d := range shards[1:] {
		other, err := os.ReadFile(filepath.Join(d, "spec.yaml"))
		if err != nil {
			return fmt.Errorf("results: merge: %w", err)
		}
		if !bytes.Equal(other, spec) {
			return fmt.Errorf("results: merge: %s and %s ran different specs (their spec.yaml differ)", shards[0], d)
		}
	}
	release, err := Claim(out, specName(spec), spec, nil)
	if err != nil {
		return err
	}
	defer release()

	var sweep *SweepSetup
	var scaling *ScalingSetup
	subdirs := []string{""}
	switch {
	case exists(filepath.Join(shards[0], sweepFile)):
		sweep = new(SweepSetup)
		if err := readLayout(shards[0], sweepFile, sweep); err != nil {
			return err
		}
		subdirs = subdirs[:0]
		for _, pt := range sweep.Points {
			subdirs = append(subdirs, pt.Dir)
		}
	case exists(filepath.Join(shards[0], scalingFile)):
		scaling = new(ScalingSetup)
		if err := readLayout(shards[0], scalingFile, scaling); err != nil {
			return err
		}
		subdirs = subdirs[:0]
		for _, pt := range scaling.Points {
			subdirs = append(subdirs, pt.Dir)
		}
	}

	// Every point's cells first, so that nothing is written when one is missing.
	setups := make([]Setup, len(subdirs))
	cells := make([][]CellResult, len(subdirs))
	var missing []string
	for k, sub := range subdirs {
		if setups[k], err = ReadSetup(filepath.Join(shards[0], sub)); err != nil {
			return err
		}
		dir := filepath.Join(out, sub)
		if sub != "" {
			releasePoint, err := Claim(dir, setups[k].Name, setups[k].SpecYAML, nil)
			if err != nil {
				return err
			}
			defer releasePoint()
		}
		for _, name := range []string{setupFile, "tasks.json"} {
			if err := copyFile(filepath.Join(shards[0], sub, name), filepath.Join(dir, name)); err != nil {
				return fmt.Errorf("results: merge: %w", err)
			}
		}
		for _, d := range shards {
			for _, kind := range CellKinds {
				if err := copyFiles(filepath.Join(d, sub, kind), filepath.Join(dir, kind)); err != nil {
					return fmt.Errorf("results: merge: %w", err)
				}
			}
		}
		fp := Fingerprint(setups[k].SpecYAML)
		for run := range setups[k].Runs {
			for _, agent := range setups[k].Agents {
				path := CellPath(sub, run, agent)
				c, ok := ReadCell(filepath.Join(out, path), fp)
				if !ok {
					missing = append(missing, path)
					continue
				}
				c.Resumed = true // run elsewhere: no seconds of this invocation
				cells[k] = append(cells[k], c)
			}
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("results: merge: %d cells are missing or of another spec (%s…); merge the directories of every shard, after each has finished",
			len(missing), missing[0])
	}

	sums := make([]Summary, len(subdirs))
	for k, sub := range subdirs {
		if sums[k], err = Write(filepath.Join(out, sub), setups[k], cells[k]); err != nil {
			return err
		}
	}
	switch {
	case sweep != nil:
		if err := WriteSweepSetup(out, *sweep); err != nil {
			return err
		}
		return WriteSweep(out, *sweep, SweepPoints(*sweep, sums))
	case scaling != nil:
		if err := WriteScalingSetup(out, *scaling); err != nil {
			return err
		}
		rows, fits := Scaling(*scaling, cells)
		return WriteScaling(out, *scaling, rows, fits)
	}
	return nil
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// copyFiles copies every file of from into to (a missing from is no error).
func copyFiles(from, to string) error {
	entries, err := os.ReadDir(from)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := os.MkdirAll(to, 0o755); err != nil {
		return err
	}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		if err := copyFile(filepath.Join(from, e.Name()), filepath.Join(to, e.Name())); err != nil {
			return err
		}
	}
	return nil
}

// copyFile copies the file from to the file to.
func copyFile(from, to string) error {
	src, err := os.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.Create(to)
	if err != nil {
		return err
	}
	_, err = io.Copy(dst, src)
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	return err
}
