package continuous

import (
	"fmt"
	"math"
)

// Discrete is an environment whose actions are the indices 0 … NumActions()−1, each written as
// the single number of an action vector (ActionDim 1), as Gymnasium's Discrete spaces.
type Discrete interface {
	NumActions() int
}

// CheckParam is the range check of a physics parameter: it fails, naming key and value, unless
// lo < v ≤ hi (a NaN fails too). Every environment's Params.Validate uses it, so that a sequence
// that varies the physics gets one kind of error for a value out of range.
func CheckParam(key string, v, lo, hi float64) error {
	if math.IsNaN(v) || v <= lo || v > hi {
		return fmt.Errorf("%s = %v, want %v < %s <= %v", key, v, lo, key, hi)
	}
	return nil
}

// CheckSteps checks a time limit: 1 ≤ max_steps ≤ 10⁷.
func CheckSteps(key string, n int) error {
	if n < 1 || n > 10_000_000 {
		return fmt.Errorf("%s = %d, want 1 <= %s <= 10000000", key, n, key)
	}
	return nil
}

// Episodic is an environment that says whether its episodes can terminate (reach a terminal
// state) rather than only be truncated by the time limit. An environment that does not implement
// it is taken to terminate.
type Episodic interface {
	Terminates() bool
}
