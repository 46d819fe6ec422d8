package main

import (
	"fmt"
	"maps"
	"sync"
	"sync/atomic"
)

// main is empty: the command is built as a C shared library (-buildmode=c-shared). This file and
// session.go need no cgo, so that the package's tests run without a C compiler.
func main() {}

// Return codes of the int calls.
const (
	codeError   = -1 // refused: temple_error(h) says why
	codeNoAgent = -2 // h is not an open handle
)

// describe turns a recovered panic into a message.
func describe(r any) string { return fmt.Sprintf("internal error: %v", r) }

// guard is what every object behind a handle carries: the lock that serializes its calls, the
// message of its last refused call, and why it is unusable after a panic.
type guard struct {
	mu     sync.Mutex
	err    string // the message of the last refused call
	broken string // set when a call panicked: the object's state is unknown, every later call fails
}

func (g *guard) guarded() *guard { return g }

// usable fails when a call panicked earlier.
func (g *guard) usable() error {
	if g.broken != "" {
		return fmt.Errorf("the handle is unusable: a call failed earlier (%s)", g.broken)
	}
	return nil
}

// handled is an object behind a handle: an agent (*session), a run's task sequence (*tasks) or
// one task's environment (*taskEnv).
type handled interface{ guarded() *guard }

// call runs f on the agent of h with its lock held (callOn).
func call(h int64, f func(s *session) (int64, error)) int64 { return callOn(h, f) }

// callOn runs f on the object of h, of type T, with its lock held: −2 without an object; −1 with
// the message kept when the object is of another kind, or f fails or panics (a panic also marks
// the object unusable).
func callOn[T handled](h int64, f func(T) (int64, error)) (ret int64) {
	x := lookupAny(h)
	if x == nil {
		return codeNoAgent
	}
	g := x.guarded()
	g.mu.Lock()
	defer g.mu.Unlock()
	defer func() {
		if r := recover(); r != nil {
			g.broken = describe(r)
			g.err = g.broken
			ret = codeError
		}
	}()
	t, ok := x.(T)
	if !ok {
		g.err = fmt.Sprintf("handle %d is %s, not %s", h, kind(x), kind(t))
		return codeError
	}
	if err := g.usable(); err != nil {
		g.err = err.Error()
		return codeError
	}
	v, err := f(t)
	if err != nil {
		g.err = err.Error()
		return codeError
	}
	return v
}

// kind names what a handle holds, for errors.
func kind(x handled) string {
	switch x.(type) {
	case *session:
		return "an agent"
	case *tasks:
		return "a task sequence"
	case *taskEnv:
		return "a task's environment"
	}
	return fmt.Sprintf("%T", x)
}

// registry maps handles to objects: handles, never Go pointers, cross the boundary. Handles
// count up from 1 and are never reused, so a closed handle stays invalid. Every call looks its
// handle up, and objects are opened and closed rarely: lookups read an immutable map without a
// lock, and opening or closing one copies the map.
var registry struct {
	mu      sync.Mutex // serializes the writers
	objects atomic.Pointer[map[int64]handled]
	next    int64
}

// update replaces the map by a copy changed by f.
func update(f func(m map[int64]handled)) {
	m := map[int64]handled{}
	if old := registry.objects.Load(); old != nil {
		maps.Copy(m, *old)
	}
	f(m)
	registry.objects.Store(&m)
}

func register(x handled) int64 {
	registry.mu.Lock()
	defer registry.mu.Unlock()
	registry.next++
	h := registry.next
	update(func(m map[int64]handled) { m[h] = x })
	return h
}

func lookupAny(h int64) handled {
	m := registry.objects.Load()
	if m == nil {
		return nil
	}
	return (*m)[h]
}

// lookup is the agent of h, nil when h is not an open agent's handle.
func lookup(h int64) *session {
	s, _ := lookupAny(h).(*session)
	return s
}

// unregister removes handle h and reports whether it was open.
func unregister(h int64) bool {
	registry.mu.Lock()
	defer registry.mu.Unlock()
	if lookupAny(h) == nil {
		return false
	}
	update(func(m map[int64]handled) { delete(m, h) })
	return true
}
