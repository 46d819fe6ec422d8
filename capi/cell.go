package main

/*
#include "learner.h"
*/
import "C"

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/temple-rl/temple/agent"
	"github.com/temple-rl/temple/agenttypes"
	"github.com/temple-rl/temple/experiment"
	"github.com/temple-rl/temple/external"
	"github.com/temple-rl/temple/results"
)

// temple_cell_run runs one cell of an experiment whose learner is l, a Python learner (the
// worker of package external: python/temple/_cell.py), by the runner's own code
// (experiment.Host), and writes it into the results directory. request is an
// external.CellRequest as JSON. It writes its progress on the file descriptor fd — "task K" as
// each task ends, then "done", or "error TEXT" (TEXT a JSON string) — and returns 0 when the cell
// is written, 1 when it failed. A call of the learner that takes longer than the request's
// timeout ends the process (exit status 3) after writing "fatal TEXT".
//
// host keeps the tasks of the last experiment whose cell this process ran: a worker runs cell
// after cell of one experiment, one at a time.
var (
	host   experiment.Host
	hostMu sync.Mutex
	// progress are the files of the descriptors cells write their progress on, kept open: an
	// *os.File closes its descriptor when it is collected, and the worker's next cell writes there.
	progress = map[C.int]*os.File{}
)

//export temple_cell_run
func temple_cell_run(request *C.char, l *C.temple_learner, fd C.int) (status C.int) {
	hostMu.Lock()
	defer hostMu.Unlock()
	out := progress[fd]
	if out == nil {
		out = os.NewFile(uintptr(fd), "progress")
		progress[fd] = out
	}
	report := func(err error) C.int {
		msg, _ := json.Marshal(err.Error())
		fmt.Fprintf(out, "error %s\n", msg)
		return 1
	}
	defer func() {
		if r := recover(); r != nil {
			status = report(fmt.Errorf("%s", describe(r)))
		}
	}()
	var req external.CellRequest
	if err := json.Unmarshal([]byte(goString(request)), &req); err != nil {
		return report(fmt.Errorf("the cell's request: %v", err))
	}
	if req.Version != results.Version {
		return report(fmt.Errorf("the Python package's library is temple %s, the command temple %s: install one version of both (make python, or the wheel)",
			results.Version, req.Version))
	}
	if !(req.Timeout > 0) {
		return report(fmt.Errorf("the cell's request: timeout %v, want > 0", req.Timeout))
	}
	timeout := time.Duration(req.Timeout * float64(time.Second))
	watch := newWatchdog(timeout, func(call string, timeout time.Duration) {
		msg, _ := json.Marshal(timeoutError(req.Agent, call, timeout))
		fmt.Fprintf(out, "fatal %s\n", msg)
		os.Exit(3)
	})
	defer watch.Stop()
	learner := func(ctx agenttypes.Context) (agent.Agent, error) {
		py := newPyLearner(l, watch)
		if err := py.open(ctx.Seed); err != nil {
			return nil, fmt.Errorf("learner %s, __init__: %w", ctx.Name, err)
		}
		return external.NewLearner(ctx.Name, py), nil
	}
	err := host.RunCell(context.Background(), []byte(req.Spec), req.Fingerprint, req.Dir, req.Run, req.Agent, learner,
		func(k int) { fmt.Fprintf(out, "task %d\n", k) })
	if err != nil {
		return report(err)
	}
	fmt.Fprintln(out, "done")
	return 0
}
