package results

import (
	"fmt"
	"strings"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/oracle"
)

// TaskRecord is the outcome of one task of one cell.
type TaskRecord struct {
	Task    int            `json:"task"`
	Reward  float64        `json:"reward"` // total undiscounted reward over all episodes of the task
	Steps   int            `json:"steps"`  // environment steps taken: episodes end early at a terminal state
	States  int            `json:"states"`
	Actions int            `json:"actions"`
	Start   int            `json:"start"` // start state (with random-per-episode: of the first episode)
	Metrics []agent.Metric `json:"metrics,omitempty"`
	// Oracle measures the task against its optimum (with oracle.enabled).
	Oracle *oracle.Record `json:"oracle,omitempty"`
	// Simulated: the task was a simulator, with no true model to measure against.
	Simulated bool `json:"simulated,omitempty"`
}

// CellResult is the outcome of one agent on one run's task sequence.
type CellResult struct {
	Fingerprint string       `json:"fingerprint"`
	Run         int          `json:"run"`
	Agent       string       `json:"agent"`
	Tasks       []TaskRecord `json:"tasks"`
	// EpisodeSums[e] is the return of episode e summed over all tasks; the cumulative-reward
	// curve is its running sum divided by the number of tasks.
	EpisodeSums []float64 `json:"episode_sums"`
	// Checksum is the SHA-256 of the cell's JSON without it (EncodeCell), checked by ReadCell.
	Checksum string `json:"checksum,omitempty"`
	// Seconds is the cell's wall time; it is stored apart from the results (timings.csv).
	Seconds float64 `json:"-"`
	Resumed bool    `json:"-"`
}

// CellName is the file name of a cell: run number and agent name.
func CellName(run int, agentName string) string {
	return fmt.Sprintf("run-%03d--%s", run, SafeName(agentName))
}

// SafeName makes an agent name safe for a file name.
func SafeName(name string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.' {
			return r
		}
		return '_'
	}, name)
}
