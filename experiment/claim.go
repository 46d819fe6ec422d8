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

// Noter is a Progress that also takes notes for the user, such as a stale lock taken over.
type Noter interface {
	Note(text string)
}

// Claim takes the directory at path for experiment s (results.Claim); the caller calls release
// when done.
func Claim(path string, s Spec, progress Progress) (dir results.Dir, release func(), err error) {
	b, o, err := claimOf(s, progress)
	if err != nil {
		return results.Dir{}, nil, err
	}
	return results.Claim(path, s.Name, b, o)
}

// claimPoint takes the directory sub below top, the directory of a sweep or scaling study, for
// the experiment s of one of its points (results.Dir.ClaimPoint).
func claimPoint(top results.Dir, sub string, s Spec, progress Progress) (dir results.Dir, release func(), err error) {
	b, o, err := claimOf(s, progress)
	if err != nil {
		return results.Dir{}, nil, err
	}
	return top.ClaimPoint(sub, s.Name, b, o)
}

// claimOf is what claims a directory for s: its resolved spec and the options.
func claimOf(s Spec, progress Progress) ([]byte, results.ClaimOptions, error) {
	b, err := s.resolvedYAML()
	if err != nil {
		return nil, results.ClaimOptions{}, err
	}
	o := results.ClaimOptions{Force: s.dir.Force, OtherVersions: s.dir.OtherVersions}
	if n, ok := progress.(Noter); ok {
		o.Note = n.Note
	}
	return b, o, nil
}
