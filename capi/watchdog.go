package main

import (
	"fmt"
	"sync/atomic"
	"time"
)

// The calls of a Python learner, as the watchdog names them.
const (
	callNew = iota
	callBeginTask
	callAct
	callObserveAct
	callObserve
	callEndEpisode
	callEndTask
	callClose
)

var callNames = [...]string{"__init__", "begin_task", "act", "observe_act", "observe", "end_episode", "end_task", "close"}

// watchdog stops a call of a learner that takes longer than its timeout: a learner that hangs
// must fail its cell, not the run. Each call marks its start (two atomic stores a call); a
// goroutine looks at the mark a few times a timeout and, past it, calls expire, which ends the
// worker process (the call cannot be interrupted from Go).
type watchdog struct {
	timeout time.Duration
	since   atomic.Int64 // UnixNano of the running call's start; 0: none runs
	call    atomic.Int32
	stop    chan struct{}
	expire  func(call string, timeout time.Duration)
}

// newWatchdog starts a watchdog of calls of at most timeout; Stop ends it.
func newWatchdog(timeout time.Duration, expire func(call string, timeout time.Duration)) *watchdog {
	w := &watchdog{timeout: timeout, stop: make(chan struct{}), expire: expire}
	tick := min(max(timeout/8, time.Millisecond), time.Second)
	go func() {
		t := time.NewTicker(tick)
		defer t.Stop()
		for {
			select {
			case <-w.stop:
				return
			case now := <-t.C:
				if s := w.since.Load(); s != 0 && now.UnixNano()-s > int64(w.timeout) {
					w.expire(callNames[w.call.Load()], w.timeout)
					return
				}
			}
		}
	}()
	return w
}

// begin marks the start of a call and returns the function that marks its end.
func (w *watchdog) begin(call int32) func() {
	w.call.Store(call)
	w.since.Store(time.Now().UnixNano())
	return w.end
}

func (w *watchdog) end() { w.since.Store(0) }

// Stop ends the watchdog.
func (w *watchdog) Stop() { close(w.stop) }

// timeoutError is the error of a call past its timeout.
func timeoutError(learner, call string, timeout time.Duration) string {
	return fmt.Sprintf("learner %s: no return from %s within %v (its timeout); the worker was stopped", learner, call, timeout)
}
