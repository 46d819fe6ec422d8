// Command capi is temple's C ABI: every learner of the agent registry (package agenttypes) that can be
// driven step by step, and every task family of the registry (package families) as environments
// stepped as the runner steps them, behind integer handles, for callers in other languages — the
// Python package python/temple loads it with ctypes. Build it as a shared library:
//
//	go build -buildmode=c-shared -o libtemple.so ./capi
//
// which also writes libtemple.h. It imports the learners (agent, agenttypes, template), the seeded
// streams (stream), the episodes as the runner steps them (episode.Env), the task families
// (families, and the tasks they make: env, mdp, the simulators), the machine's memory
// (internal/sysmem), and the runner (experiment) for one use: temple_cell_run (cell.go) runs a
// cell of an experiment whose learner is a Python class, by the runner's own code, in the Python
// process (package external says why), and returns its record (results.CellResult). That doubles
// the library (7 to 15 MB); the commands
// (cli, tune) stay out
// (the import rules' test, internal/importrules). The functions:
//
//	int64_t temple_agent_new(char *type, char *params_json, uint64_t seed, int64_t run, char *name, char **err)
//	int     temple_begin_task(int64_t h, int64_t index, int64_t n_states, int64_t n_actions, double gamma,
//	                          int64_t *terminal, int64_t n_terminal)
//	int64_t temple_act(int64_t h, int64_t s)
//	int     temple_observe(int64_t h, int64_t s, int64_t a, double r, int64_t s2, int terminated)
//	int64_t temple_observe_act(int64_t h, int64_t s, int64_t a, double r, int64_t s2) // observe, then act in s2
//	int     temple_end_episode(int64_t h)
//	int     temple_end_task(int64_t h)
//	char   *temple_metrics(int64_t h)      // JSON object of the last ended task's diagnostics
//	char   *temple_templates(int64_t h)    // JSON template snapshot, "null" without templates
//	char   *temple_error(int64_t h)        // the message of h's last failed call
//	int     temple_close(int64_t h)
//	char   *temple_agent_types(void)       // JSON list of the registered types
//
// and temple's task families as environments: a run's task sequence drawn as the runner draws it,
// each task stepped as the runner steps it for a named agent:
//
//	int64_t temple_tasks_new(char *family, char *params_json, char *settings_json, uint64_t seed, int64_t run,
//	                         char *agent, char **err)          // a run's task sequence
//	char   *temple_tasks_info(int64_t h)                       // JSON: settings, and per task its name, sizes, terminal states
//	int     temple_optimal_value(int64_t h, int64_t k, int64_t s, double *value) // V_T(s) of task k
//	int64_t temple_env_new(int64_t h, int64_t k, uint64_t seed) // an environment of task k
//	int64_t temple_env_reset(int64_t e)                        // the start state of a new episode
//	int64_t temple_env_step(int64_t e, int64_t a, double *reward) // next state | TEMPLE_TERMINATED | TEMPLE_TRUNCATED
//	void    temple_free(char *p)           // frees every char * returned above
//
// the statistics of temple compare, for Python's temple.results (JSON in and out; NULL with *err
// set on failure):
//
//	char   *temple_paired_tests(char *request, char **err) // {"per_run": {...}, "pairs": [[a, b]], "margin": "5%", "references": {...}}
//	char   *temple_mean_ci(char *values, char **err)       // [x, ...] → {"mean": m, "ci95": h}
//
// and one cell of an experiment whose learner is a Python object behind C function pointers
// (learner.h), for the Python worker of a type: python agent (python/temple/_cell.py):
//
//	int     temple_cell_run(char *request, temple_learner *learner, int fd)
//
// temple_close and temple_error take every kind of handle.
//
// temple_agent_new returns a handle > 0, or 0 with *err set to the message (free it with
// temple_free). The other calls return >= 0 on success, TEMPLE_ERROR (−1) when the call was
// refused — temple_error(h) says why — and TEMPLE_NO_AGENT (−2) when h is not an open handle
// (closed, or never opened). The char * calls return NULL where the int calls return an error.
// Every argument is checked before the learner sees it (a state >= n_states, an action out of
// range, a non-finite reward, a call before begin_task), so a refused call leaves the learner as
// it was (observe_act checks both halves before the step is observed); a panic inside a learner is recovered at the boundary, reported as an error, and makes
// the handle unusable from then on. Calls on one handle are serialized by a lock of the handle;
// different handles run in parallel.
//
// begin_task gives the learner the random stream that the Go runner gives the agent of the same
// name in run run, task index of an experiment of seed seed (stream.ForAgent); with the
// same observations and the task's terminal states declared up front (terminal), as the runner
// declares them, the learner acts exactly as it does in the runner.
package main

/*
#include <stdint.h>
#include <stdlib.h>

#define TEMPLE_ERROR (-1)    // the call was refused: temple_error(h) says why
#define TEMPLE_NO_AGENT (-2) // h is not an open handle
#define TEMPLE_TERMINATED (INT64_C(1) << 32) // temple_env_step: the step reached a terminal state
#define TEMPLE_TRUNCATED (INT64_C(1) << 33)  // temple_env_step: the episode was cut at its length
*/
import "C"

import (
	"errors"
	"fmt"
	"unsafe"
)

// callString is call for the calls that return text: NULL on failure.
func callString(h C.int64_t, f func(s *session) (string, error)) *C.char {
	var out string
	if call(int64(h), func(s *session) (int64, error) {
		v, err := f(s)
		out = v
		return 0, err
	}) < 0 {
		return nil
	}
	return C.CString(out)
}

//export temple_agent_new
func temple_agent_new(typ, params *C.char, seed C.uint64_t, run C.int64_t, name *C.char, errOut **C.char) C.int64_t {
	return open(errOut, func() (handled, error) {
		if typ == nil {
			return nil, errors.New("agent type is NULL")
		}
		return newSession(C.GoString(typ), goString(params), uint64(seed), int(run), goString(name))
	})
}

// open registers the object that build makes and returns its handle, or 0 with *errOut set to
// why it could not be made (a panic included).
func open(errOut **C.char, build func() (handled, error)) (h C.int64_t) {
	fail := func(msg string) {
		if errOut != nil {
			*errOut = C.CString(msg)
		}
	}
	defer func() {
		if r := recover(); r != nil {
			h = 0
			fail(describe(r))
		}
	}()
	x, err := build()
	if err != nil {
		fail(err.Error())
		return 0
	}
	return C.int64_t(register(x))
}

// goString is C.GoString with NULL read as "".
func goString(p *C.char) string {
	if p == nil {
		return ""
	}
	return C.GoString(p)
}

//export temple_begin_task
func temple_begin_task(h, index, nStates, nActions C.int64_t, gamma C.double, terminal *C.int64_t, nTerminal C.int64_t) C.int {
	return C.int(call(int64(h), func(s *session) (int64, error) {
		if nTerminal < 0 || nTerminal > 0 && terminal == nil {
			return 0, fmt.Errorf("begin_task: %d terminal states at %p", nTerminal, terminal)
		}
		var term []int64
		if nTerminal > 0 {
			term = unsafe.Slice((*int64)(unsafe.Pointer(terminal)), int(nTerminal))
		}
		return 0, s.beginTask(int(index), int(nStates), int(nActions), float64(gamma), term)
	}))
}

//export temple_act
func temple_act(h, st C.int64_t) C.int64_t {
	return C.int64_t(call(int64(h), func(s *session) (int64, error) {
		a, err := s.act(int64(st))
		return int64(a), err
	}))
}

//export temple_observe
func temple_observe(h, st, a C.int64_t, r C.double, next C.int64_t, terminated C.int) C.int {
	return C.int(call(int64(h), func(s *session) (int64, error) {
		return 0, s.observe(int64(st), int64(a), float64(r), int64(next), terminated != 0)
	}))
}

// temple_observe_act observes a step that did not terminate and returns the action in its next
// state: one crossing of the boundary per step of an episode that goes on.
//
//export temple_observe_act
func temple_observe_act(h, st, a C.int64_t, r C.double, next C.int64_t) C.int64_t {
	return C.int64_t(call(int64(h), func(s *session) (int64, error) {
		a, err := s.observeAct(int64(st), int64(a), float64(r), int64(next))
		return int64(a), err
	}))
}

//export temple_end_episode
func temple_end_episode(h C.int64_t) C.int {
	return C.int(call(int64(h), func(s *session) (int64, error) { return 0, s.endEpisode() }))
}

//export temple_end_task
func temple_end_task(h C.int64_t) C.int {
	return C.int(call(int64(h), func(s *session) (int64, error) { return 0, s.endTask() }))
}

//export temple_metrics
func temple_metrics(h C.int64_t) *C.char {
	return callString(h, (*session).metrics)
}

//export temple_templates
func temple_templates(h C.int64_t) *C.char {
	return callString(h, (*session).templates)
}

//export temple_error
func temple_error(h C.int64_t) *C.char {
	x := lookupAny(int64(h))
	if x == nil {
		return C.CString(fmt.Sprintf("no agent, task sequence or environment with handle %d: it was closed or never opened", int64(h)))
	}
	g := x.guarded()
	g.mu.Lock()
	defer g.mu.Unlock()
	return C.CString(g.err)
}

//export temple_close
func temple_close(h C.int64_t) C.int {
	if !unregister(int64(h)) {
		return codeNoAgent
	}
	return 0
}

//export temple_tasks_new
func temple_tasks_new(family, params, set *C.char, seed C.uint64_t, run C.int64_t, name *C.char, errOut **C.char) C.int64_t {
	return open(errOut, func() (handled, error) {
		if family == nil {
			return nil, errors.New("family is NULL")
		}
		return newTasks(C.GoString(family), goString(params), goString(set), uint64(seed), int(run), goString(name))
	})
}

//export temple_tasks_info
func temple_tasks_info(h C.int64_t) *C.char {
	var out string
	if callOn(int64(h), func(ts *tasks) (int64, error) {
		v, err := ts.info()
		out = v
		return 0, err
	}) < 0 {
		return nil
	}
	return C.CString(out)
}

//export temple_optimal_value
func temple_optimal_value(h, k, st C.int64_t, value *C.double) C.int {
	return C.int(callOn(int64(h), func(ts *tasks) (int64, error) {
		v, err := ts.optimalValue(int(k), int64(st))
		if err == nil && value != nil {
			*value = C.double(v)
		}
		return 0, err
	}))
}

// temple_env_new opens the environment of task k of the sequence h, its streams those of an
// experiment with seed seed: a handle > 0, or TEMPLE_ERROR with temple_error(h) saying why.
//
//export temple_env_new
func temple_env_new(h, k C.int64_t, seed C.uint64_t) C.int64_t {
	return C.int64_t(callOn(int64(h), func(ts *tasks) (int64, error) {
		e, err := ts.newEnv(int(k), uint64(seed))
		if err != nil {
			return 0, err
		}
		return register(e), nil
	}))
}

//export temple_env_reset
func temple_env_reset(h C.int64_t) C.int64_t {
	return C.int64_t(callOn(int64(h), (*taskEnv).reset))
}

// temple_env_step takes action a: the next state | TEMPLE_TERMINATED | TEMPLE_TRUNCATED, and the
// reward in *reward.
//
//export temple_env_step
func temple_env_step(h, a C.int64_t, reward *C.double) C.int64_t {
	return C.int64_t(callOn(int64(h), func(e *taskEnv) (int64, error) {
		x, r, err := e.step(int64(a))
		if reward != nil {
			*reward = C.double(r)
		}
		return x, err
	}))
}

//export temple_paired_tests
func temple_paired_tests(request *C.char, errOut **C.char) *C.char {
	return jsonCall(request, errOut, pairedTests)
}

//export temple_mean_ci
func temple_mean_ci(values *C.char, errOut **C.char) *C.char {
	return jsonCall(values, errOut, meanCI)
}

// jsonCall is f of the text in, as a C string, or NULL with *errOut set to its error.
func jsonCall(in *C.char, errOut **C.char, f func(string) (string, error)) (out *C.char) {
	defer func() {
		if r := recover(); r != nil {
			*errOut, out = C.CString(describe(r)), nil
		}
	}()
	res, err := f(goString(in))
	if err != nil {
		*errOut = C.CString(err.Error())
		return nil
	}
	return C.CString(res)
}

//export temple_agent_types
func temple_agent_types() *C.char { return C.CString(agentTypes()) }

//export temple_free
func temple_free(p *C.char) { C.free(unsafe.Pointer(p)) }
