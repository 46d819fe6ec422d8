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
	var note func(string)
	if n, ok := progress.(Noter); ok {
		note = n.Note
	}
	return results.Claim(dir, s.Name, b, note)
}
