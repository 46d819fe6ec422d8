package results

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/temple-rl/temple/internal/atomicfile"
	"github.com/temple-rl/temple/internal/regular"
)

// Merge joins the results directories of the shards of one experiment (a plain one, a sweep or a
// scaling study) into out: it checks that they ran the same spec, gathers their cells (and
// episode and template files), checks that every cell is there, whole and of that spec, and
// writes the results — byte for byte those of an unsharded run but timings.json. It needs
// nothing of the runner: each experiment directory's setup.json and tasks.json, and a sweep's
// sweep.json or a scaling study's scaling.json, say what to write. Everything is read and checked
// before anything is written: a missing or damaged file is refused, named, and out is left as it
// was (removed if the merge made it). Shards written by another temple version are refused, and
// so is a cell that two shards hold with different contents.
func Merge(out string, shards []string) error { return MergeWith(out, shards, MergeOptions{}) }

// MergeOptions are a merge's settings besides its directories.
type MergeOptions struct {
	// OtherVersions merges shards written by other temple versions (of this results format):
	// the merged results record them (temple merge --allow-other-version).
	OtherVersions bool
}

// MergeWith is Merge with options.
func MergeWith(out string, shards []string, o MergeOptions) error {
	dirs := make([]Dir, len(shards))
	for k, d := range shards {
		dirs[k] = At(d)
	}
	m, err := readShards(dirs, o)
	if err != nil {
		return err
	}
	return m.write(out, dirs)
}

// merger is what Merge has read and checked of the shards: the layout, and every point's setup
// and cells.
type merger struct {
	spec    []byte
	sweep   *SweepSetup
	scaling *ScalingSetup
	subdirs []string // the points' directories ("" for a plain experiment)
	setups  []Setup
	cells   [][]CellResult
	from    [][]Dir // the shard each cell is read from
	// others are the versions of the shards that are not this temple's (MergeOptions).
	others []string
}

// readShards reads and checks every file of the shards that the merge uses.
func readShards(shards []Dir, o MergeOptions) (*merger, error) {
	if len(shards) == 0 {
		return nil, errors.New("results: merge: no shard directories given")
	}
	m := &merger{subdirs: []string{""}}
	var err error
	if m.others, err = shardVersions(shards, o); err != nil {
		return nil, err
	}
	if m.spec, err = readVerified(shards[0], SpecFile, maxSpecBytes); err != nil {
		return nil, fmt.Errorf("results: merge: %w", err)
	}
	for _, d := range shards[1:] {
		other, err := readVerified(d, SpecFile, maxSpecBytes)
		if err != nil {
			return nil, fmt.Errorf("results: merge: %w", err)
		}
		if !bytes.Equal(other, m.spec) {
			return nil, fmt.Errorf("results: merge: shard %s ran another spec than shard %s: spec.yaml differs in %s%s",
				d, shards[0], strings.Join(differingKeysOrText(m.spec, other), ", "), describeInputs(changedInputs(m.spec, other)))
		}
	}
	for _, layout := range []string{sweepFile, scalingFile} {
		for _, d := range shards {
			if exists(d.Path(layout)) {
				if err := verifyFile(d, layout); err != nil {
					return nil, err
				}
			}
		}
	}
	switch {
	case exists(shards[0].Path(sweepFile)):
		m.sweep = new(SweepSetup)
		if err := readLayout(shards[0], sweepFile, m.sweep); err != nil {
			return nil, err
		}
		m.subdirs = m.subdirs[:0]
		for _, pt := range m.sweep.Points {
			m.subdirs = append(m.subdirs, pt.Dir)
		}
		if err := checkSweep(shards[0].Path(sweepFile), *m.sweep); err != nil {
			return nil, err
		}
	case exists(shards[0].Path(scalingFile)):
		m.scaling = new(ScalingSetup)
		if err := readLayout(shards[0], scalingFile, m.scaling); err != nil {
			return nil, err
		}
		m.subdirs = m.subdirs[:0]
		for _, pt := range m.scaling.Points {
			m.subdirs = append(m.subdirs, pt.Dir)
		}
		if err := checkScaling(shards[0].Path(scalingFile), *m.scaling); err != nil {
			return nil, err
		}
	}

	m.setups = make([]Setup, len(m.subdirs))
	m.cells = make([][]CellResult, len(m.subdirs))
	m.from = make([][]Dir, len(m.subdirs))
	var missing []string
	for k, sub := range m.subdirs {
		dir := shards[0].Sub(sub)
		if err := sameLayoutFiles(shards, sub, len(m.others) > 0); err != nil {
			return nil, err
		}
		if m.setups[k], err = ReadSetup(dir); err != nil {
			return nil, err
		}
		tasks, err := readTaskCounts(dir, m.setups[k].Runs)
		if err != nil {
			return nil, err
		}
		s := m.setups[k]
		want := CellWant{Fingerprint: Fingerprint(s.SpecYAML), Episodes: s.Episodes, Oracle: s.Oracle, PolicyMistakes: s.PolicyMistakes}
		for run := range s.Runs {
			for _, agent := range s.Agents {
				want.Run, want.Agent, want.Tasks = run, agent, tasks[run]
				name := filepath.Join(sub, filepath.FromSlash(cellFile(run, agent)))
				var found *CellResult
				var foundIn Dir
				for _, d := range shards {
					c, err := ReadCell(d.Sub(sub).Cell(run, agent), want)
					if isNotExist(err) {
						continue
					}
					if err != nil {
						return nil, fmt.Errorf("results: merge: %w; run that shard again (it runs the cell again), or remove the file", err)
					}
					if found != nil && !sameCell(*found, c) {
						return nil, fmt.Errorf("results: merge: %s and %s hold the same cell (run %d, agent %s) with different results; "+
							"the shards did not run the same experiment the same way: remove the file of the one that is wrong, or run its shard again",
							foundIn.Path(name), d.Path(name), run, agent)
					}
					c.Resumed = true // run elsewhere: no seconds of this invocation
					found, foundIn = &c, d
				}
				if found == nil {
					missing = append(missing, name)
					continue
				}
				m.cells[k] = append(m.cells[k], *found)
				m.from[k] = append(m.from[k], foundIn)
			}
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("results: merge: %d cells are missing (%s…); merge the directories of every shard, after each has finished",
			len(missing), missing[0])
	}
	return m, nil
}

// write writes the merged results into out; when it fails after it has claimed out, it removes
// out if out did not exist before (a refused claim leaves out to the process that holds it).
func (m *merger) write(path string, shards []Dir) (err error) {
	_, statErr := os.Stat(path)
	made := isNotExist(statErr)
	out, release, err := Claim(path, specName(m.spec), m.spec, ClaimOptions{})
	if err != nil {
		return err
	}
	defer func() {
		if err != nil && made {
			os.RemoveAll(path)
		}
		release()
	}()
	sums := make([]Summary, len(m.subdirs))
	for k, sub := range m.subdirs {
		dir := out
		if sub != "" {
			point, releasePoint, err := out.ClaimPoint(sub, m.setups[k].Name, m.setups[k].SpecYAML, ClaimOptions{})
			if err != nil {
				return err
			}
			defer releasePoint()
			dir = point
		}
		if err := copyFile(shards[0].Sub(sub).Path(TasksFile), dir.Path(TasksFile)); err != nil {
			return fmt.Errorf("results: merge: %w", err)
		}
		if err := record(dir, TasksFile); err != nil {
			return err
		}
		if len(m.others) > 0 {
			if err := stampOthers(dir, m.others); err != nil {
				return err
			}
		}
		if err := WriteSetup(dir, m.setups[k]); err != nil { // the bytes of the shards' own when their version is this one
			return err
		}
		if err := m.copyCells(k, dir); err != nil {
			return err
		}
		if sums[k], err = Write(dir, m.setups[k], m.cells[k]); err != nil {
			return err
		}
	}
	if len(m.others) > 0 {
		if err := stampOthers(out, m.others); err != nil {
			return err
		}
	}
	switch {
	case m.sweep != nil:
		if err := WriteSweepSetup(out, *m.sweep); err != nil {
			return err
		}
		return WriteSweep(out, *m.sweep, SweepPoints(*m.sweep, sums))
	case m.scaling != nil:
		if err := WriteScalingSetup(out, *m.scaling); err != nil {
			return err
		}
		rows, fits := Scaling(*m.scaling, m.cells)
		return WriteScaling(out, *m.scaling, rows, fits)
	}
	return nil
}

func isNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// copyCells copies into dir the files of the cells of point k, each from the shard it was read
// from — its cell, its episodes/ and templates/ files — and records them: another file of a
// shard's cells/ is not the experiment's.
func (m *merger) copyCells(k int, dir Dir) error {
	if err := MakeCellDirs(dir, false, false); err != nil {
		return err
	}
	for i, c := range m.cells[k] {
		from := m.from[k][i].Sub(m.subdirs[k])
		names := append([]string{cellFile(c.Run, c.Agent)}, cellStreams(from, []CellResult{c})...)
		for _, name := range names {
			if err := os.MkdirAll(filepath.Dir(dir.Path(name)), 0o755); err != nil {
				return fmt.Errorf("results: merge: %w", err)
			}
			if err := copyFile(from.Path(name), dir.Path(name)); err != nil {
				return fmt.Errorf("results: merge: %w", err)
			}
		}
		if err := record(dir, names...); err != nil {
			return err
		}
	}
	return nil
}

// copyFile copies the file from to the file to, atomically.
func copyFile(from, to string) error {
	src, _, err := regular.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	return atomicfile.WriteWith(to, func(w *bufio.Writer) error {
		_, err := io.Copy(w, src)
		return err
	})
}

// sameCell reports whether two cells, each checked by ReadCell, hold the same results.
func sameCell(a, b CellResult) bool { return a.Checksum == b.Checksum }

// shardVersions are the temple versions, other than this one, that wrote the shards' directories
// or results they resumed (their records say); refused unless o.OtherVersions.
func shardVersions(shards []Dir, o MergeOptions) ([]string, error) {
	var out []string
	for _, d := range shards {
		sums, err := checksumsOf(d)
		if err != nil {
			return nil, fmt.Errorf("results: merge: %w", err)
		}
		var theirs []string
		if sums.ToolVersion != Version {
			theirs = append(theirs, describeVersion(sums.ToolVersion, sums.FormatVersion))
		}
		theirs = append(theirs, sums.OtherVersions...)
		if len(theirs) > 0 && !o.OtherVersions {
			return nil, fmt.Errorf("results: merge: shard %s holds results of temple %s, not only of this temple (%s, format %d); "+
				"give --allow-other-version to merge them all the same (the merged results then record those versions), "+
				"or run that shard again with this temple", d, strings.Join(theirs, " and "), Version, FormatVersion)
		}
		for _, v := range theirs {
			if !slices.Contains(out, v) {
				out = append(out, v)
			}
		}
	}
	return out, nil
}

// stampOthers records in dir's record the other versions whose results a merge into it joined.
func stampOthers(dir Dir, others []string) error {
	for _, v := range others {
		if err := stamp(dir, v); err != nil {
			return err
		}
	}
	return nil
}
