package experiment

import (
	"github.com/temple-rl/temple/results"
)

// A results directory belongs to one experiment (results.Claim): the first run into it writes
// its resolved spec, a run of another spec is refused and the same spec resumes; a lock file
// keeps a second process out while an experiment runs.
type (
	// OccupiedError is the refusal of a directory that holds results of another experiment.
	OccupiedError = results.OccupiedError
	// LockedError is the refusal of a directory in which another process runs an experiment.
	LockedError = results.LockedError
)

// DirOptions say how a run treats what its results directory holds already (results.ClaimOptions).
type DirOptions struct {
	// Force runs into a directory that holds files of temple's names that temple did not write
	// there (temple run --force, after results.Discard removed what the directory's record lists).
	Force bool
	// OtherVersions resumes results written by another temple version, the results then
	// recording it (temple run --allow-other-version).
	OtherVersions bool
}

// WithDir is s, run with the directory options o; they are no part of the spec.
func (s Spec) WithDir(o DirOptions) Spec {
	s.dir = o
	return s
}

// asPoint is s run as a point of the experiment whose directory holds its own (a sweep's, a
// scaling study's).
func (s Spec) asPoint() Spec {
	s.point = true
	return s
}

// Noter is a Progress that also takes notes for the user, such as a stale lock taken over.
type Noter interface {
	Note(text string)
}

// claim takes dir for experiment s (results.Claim); the caller calls release when done.
func claim(dir string, s Spec, progress Progress) (release func(), err error) {
	b, err := s.resolvedYAML()
	if err != nil {
		return nil, err
	}
	o := results.ClaimOptions{Force: s.dir.Force, OtherVersions: s.dir.OtherVersions, Point: s.point}
	if n, ok := progress.(Noter); ok {
		o.Note = n.Note
	}
	return results.Claim(dir, s.Name, b, o)
}
