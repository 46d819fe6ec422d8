package oracle

import (
	"sync"

	"github.com/temple-rl/temple/mdp"
)

// Cache shares each task's solution among the cells of one experiment: a task is solved when the
// first cell reaches it and dropped when the last cell that runs it has finished it (or was
// resumed from disk), so the solutions held at once are those of the tasks in progress. It is
// safe for concurrent use.
type Cache struct {
	mu      sync.Mutex
	entries map[Key]*entry
}

// Key names a solution: a stored model's is shared by every run and task that draws it (Run and
// K −1); one computed on demand is solved around the start states of task K of run Run.
type Key struct {
	Task   mdp.Dynamics
	Run, K int
}

type entry struct {
	once  sync.Once
	sol   *Solution
	err   error
	users int // cells still to finish the task, once per occurrence in a cell's sequence
}

// NewCache returns an empty cache.
func NewCache() *Cache { return &Cache{entries: map[Key]*entry{}} }

// Add counts one more cell that will run the task of key.
func (c *Cache) Add(key Key) {
	e := c.entries[key]
	if e == nil {
		e = &entry{}
		c.entries[key] = e
	}
	e.users++
}

// Len is the number of solutions the cache holds or will hold.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries)
}

// Solution is the solution of key's task, solved by solve for the first caller while the
// others wait for it; a key no cell still needs is solved afresh.
func (c *Cache) Solution(key Key, solve func() (*Solution, error)) (*Solution, error) {
	e := c.entry(key)
	if e == nil {
		return solve()
	}
	e.once.Do(func() { e.sol, e.err = solve() })
	return e.sol, e.err
}

// Prepare starts solving key's task by solve in a goroutine of its own, so that the tasks of a
// run are solved side by side; a solution solved already, or being solved, is left alone.
func (c *Cache) Prepare(key Key, solve func() (*Solution, error)) {
	if e := c.entry(key); e != nil {
		go e.once.Do(func() { e.sol, e.err = solve() })
	}
}

// entry is the entry of key, nil once every cell that runs its task is done with it.
func (c *Cache) entry(key Key) *entry {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.entries[key]
}

// Release tells the cache that one cell is done with the task of key. A nil cache does nothing.
func (c *Cache) Release(key Key) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e := c.entries[key]; e != nil {
		if e.users--; e.users == 0 {
			delete(c.entries, key)
		}
	}
}
