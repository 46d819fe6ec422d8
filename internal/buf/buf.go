// Package buf holds the one helper the learners share for reusing their per-task tables.
package buf

// Zeroed returns x with length n and every element zero, reusing its storage when it fits, so a
// learner starting a task allocates only when the task is larger than any before.
func Zeroed[T any](x []T, n int) []T {
	if cap(x) < n {
		return make([]T, n)
	}
	x = x[:n]
	clear(x)
	return x
}
