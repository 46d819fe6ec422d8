package main

/*
#include "learner.h"

static int64_t call_new(temple_learner *l, uint64_t seed) { return l->new_learner(seed); }
static int64_t call_begin_task(temple_learner *l, int64_t index, int64_t n_states, int64_t n_actions, double gamma,
                               int64_t *terminal, int64_t n_terminal, uint64_t seed) {
	return l->begin_task(index, n_states, n_actions, gamma, terminal, n_terminal, seed);
}
static int64_t call_act(temple_learner *l, int64_t s) { return l->act(s); }
static int64_t call_observe_act(temple_learner *l, int64_t s, int64_t a, double r, int64_t s2, int64_t t) {
	return l->observe_act(s, a, r, s2, t);
}
static int64_t call_observe(temple_learner *l, int64_t s, int64_t a, double r, int64_t s2, int64_t t) {
	return l->observe(s, a, r, s2, t);
}
static int64_t call_end_episode(temple_learner *l) { return l->end_episode(); }
static int64_t call_end_task(temple_learner *l, char *buf, int64_t cap) { return l->end_task(buf, cap); }
static int64_t call_error(temple_learner *l, char *buf, int64_t cap) { return l->error(buf, cap); }
static int64_t call_close(temple_learner *l) { return l->close(); }
*/
import "C"

import (
	"encoding/json"
	"errors"
	"fmt"
	"unsafe"

	"github.com/temple-rl/temple/external"
)

// pyLearner is a Python learner behind the function pointers of a temple_learner, as an
// external.Conn: every call is timed by the watchdog, and a call that returns -1 fails with the
// learner's own error text.
type pyLearner struct {
	l     *C.temple_learner
	watch *watchdog
	buf   []byte // the metrics and errors the learner writes
}

func newPyLearner(l *C.temple_learner, w *watchdog) *pyLearner {
	return &pyLearner{l: l, watch: w, buf: make([]byte, 64<<10)}
}

func (p *pyLearner) bufPtr() (*C.char, C.int64_t) {
	return (*C.char)(unsafe.Pointer(&p.buf[0])), C.int64_t(len(p.buf))
}

// result is ret, or the learner's error when it is -1.
func (p *pyLearner) result(ret C.int64_t) (int, error) {
	if ret >= 0 {
		return int(ret), nil
	}
	buf, n := p.bufPtr()
	k := C.call_error(p.l, buf, n)
	if k <= 0 {
		return 0, errors.New("the learner failed and gave no error text")
	}
	return 0, errors.New(string(p.buf[:min(int(k), len(p.buf))]))
}

func (p *pyLearner) open(seed uint64) error {
	defer p.watch.begin(callNew)()
	_, err := p.result(C.call_new(p.l, C.uint64_t(seed)))
	return err
}

func (p *pyLearner) BeginTask(t external.Task) error {
	defer p.watch.begin(callBeginTask)()
	terminal := make([]C.int64_t, len(t.Terminal)+1) // +1: a pointer to an element even when there is none
	for i, s := range t.Terminal {
		terminal[i] = C.int64_t(s)
	}
	_, err := p.result(C.call_begin_task(p.l, C.int64_t(t.Index), C.int64_t(t.States), C.int64_t(t.Actions), C.double(t.Gamma),
		&terminal[0], C.int64_t(len(t.Terminal)), C.uint64_t(t.Seed)))
	return err
}

func (p *pyLearner) Act(s int) (int, error) {
	defer p.watch.begin(callAct)()
	return p.result(C.call_act(p.l, C.int64_t(s)))
}

func (p *pyLearner) ObserveAct(st external.Step) (int, error) {
	defer p.watch.begin(callObserveAct)()
	return p.result(C.call_observe_act(p.l, C.int64_t(st.State), C.int64_t(st.Action), C.double(st.Reward), C.int64_t(st.Next),
		boolInt(st.Terminated)))
}

func (p *pyLearner) Observe(st external.Step) error {
	defer p.watch.begin(callObserve)()
	_, err := p.result(C.call_observe(p.l, C.int64_t(st.State), C.int64_t(st.Action), C.double(st.Reward), C.int64_t(st.Next),
		boolInt(st.Terminated)))
	return err
}

func (p *pyLearner) EndEpisode() error {
	defer p.watch.begin(callEndEpisode)()
	_, err := p.result(C.call_end_episode(p.l))
	return err
}

func (p *pyLearner) EndTask() (map[string]float64, error) {
	defer p.watch.begin(callEndTask)()
	buf, n := p.bufPtr()
	k, err := p.result(C.call_end_task(p.l, buf, n))
	if err != nil || k == 0 {
		return nil, err
	}
	var m map[string]float64
	if err := json.Unmarshal(p.buf[:min(k, len(p.buf))], &m); err != nil {
		return nil, fmt.Errorf("end_task's metrics are not an object of numbers: %v", err)
	}
	return m, nil
}

func (p *pyLearner) Close() error {
	defer p.watch.begin(callClose)()
	_, err := p.result(C.call_close(p.l))
	return err
}

func boolInt(b bool) C.int64_t {
	if b {
		return 1
	}
	return 0
}
