package main

import "fmt"

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

// call runs f on the session of h with its lock held: −2 without a session; −1 with the message
// kept when f fails or panics (a panic also marks the session unusable).
func call(h int64, f func(s *session) (int64, error)) (ret int64) {
	s := lookup(h)
	if s == nil {
		return codeNoAgent
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	defer func() {
		if r := recover(); r != nil {
			s.broken = describe(r)
			s.err = s.broken
			ret = codeError
		}
	}()
	v, err := f(s)
	if err != nil {
		s.err = err.Error()
		return codeError
	}
	return v
}
