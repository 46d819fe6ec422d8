package results

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Dir is a results directory: where its files are, each named by Layout. Every reader and writer
// of this package takes one, and computes the path of a file from it (Path, Cell), so that no
// file's name is joined to a directory by hand. A Dir is had by claiming a directory for an
// experiment (Claim, ClaimPoint), by opening one to read (Open), or, for a writer working in a
// directory that another process claimed, as it is (At).
type Dir struct{ path string }

// At is the results directory at path, as it is: nothing is read, checked or written. It is for
// a writer in a directory another process claimed (a Python learner's worker stores its cell in
// the runner's directory) and for a library's run into a directory of its own
// (experiment.Run); a command that reads results opens the directory (Open), one that runs an
// experiment claims it (Claim).
func At(path string) Dir { return Dir{path: path} }

// Open is the results directory at path, to read. It is refused, with a message that says what
// is there instead, when path is missing, is not a directory, or holds no spec.yaml (Claim writes
// one first into every results directory: an experiment's, a sweep's, a scaling study's, a
// shard's, a tuning's). Each reader checks what it reads against the directory's checksums.json.
func Open(path string) (Dir, error) {
	info, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return Dir{}, fmt.Errorf("%s: no such directory (a results directory is what temple run writes, runs/NAME by default)", path)
	case err != nil:
		return Dir{}, err
	case !info.IsDir():
		return Dir{}, fmt.Errorf("%s is a file, not a results directory", path)
	}
	d := At(path)
	if _, err := os.Stat(d.Path(SpecFile)); err != nil {
		return Dir{}, fmt.Errorf("%s is not a results directory: it holds no %s (temple run writes one into each)", path, SpecFile)
	}
	return d, nil
}

// String is the directory's path, as it was given.
func (d Dir) String() string { return d.path }

// Path is the path of name below the directory: a file or directory of Layout, or a path below
// one, with / ("figures/sweep.svg").
func (d Dir) Path(name string) string { return filepath.Join(d.path, filepath.FromSlash(name)) }

// Sub is the results directory sub below d: a point's of a sweep or scaling study (ClaimPoint), a
// trial's of a tuning.
func (d Dir) Sub(sub string) Dir { return Dir{path: filepath.Join(d.path, filepath.FromSlash(sub))} }

// Cell is the path of the file of the cell of run and agentName: cells/<CellName>.json.
func (d Dir) Cell(run int, agentName string) string { return d.Path(cellFile(run, agentName)) }

// cellFile is the name of the file of the cell of run and agentName below a results directory;
// episodesFile and templatesFile those of its streamed files.
func cellFile(run int, agentName string) string {
	return CellsDir + "/" + CellName(run, agentName) + ".json"
}

func episodesFile(run int, agentName string) string {
	return EpisodesDir + "/" + CellName(run, agentName) + ".csv"
}

func templatesFile(run int, agentName string) string {
	return TemplatesDir + "/" + CellName(run, agentName) + ".jsonl"
}
