package cli

import (
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/temple-rl/temple/experiment"
)

// longRun is the estimated time past which a run needs --yes (or batch mode).
const longRun = time.Hour

// confirmWork estimates the time of s (experiment.EstimateWork) before anything runs: past
// longRun it needs --yes, unless temple runs in batch mode — standard input not a terminal (a
// script, a pipe, cron, a Slurm or Kubernetes job) — where it starts, with the estimate printed.
func confirmWork(cmd *cobra.Command, s experiment.Spec, o overrides) error {
	w, err := experiment.EstimateWork(s, o.jobs)
	if err != nil || w.Time <= longRun {
		return err
	}
	switch {
	case o.yes:
		fmt.Fprintf(cmd.OutOrStdout(), "Estimated: %v.\n", w)
	case !stdinIsTerminal():
		fmt.Fprintf(cmd.OutOrStdout(), "Estimated: %v. Starting without --yes: batch mode (standard input is not a terminal).\n", w)
	default:
		return fmt.Errorf("estimated: %v; that is more than %v: give --yes to start it, or make it smaller (runs, episodes, steps, tasks: count)", w, longRun)
	}
	return nil
}

// stdinIsTerminal reports whether standard input is a terminal, someone there to be asked; when it
// is not, temple runs in batch mode.
var stdinIsTerminal = func() bool { return term.IsTerminal(int(os.Stdin.Fd())) }
