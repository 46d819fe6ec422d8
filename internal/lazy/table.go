// Package lazy holds Table, a learner's table of one value per state-action pair that, on a large
// task, allocates its storage only where it is written: a learner on a maze of millions of states
// meets a few hundred of them in a short task, and a plain table would cost it a gigabyte and the
// time to clear it at every task.
package lazy

// FlatMax is the largest table kept flat: one slice, allocated and filled at Reset, as a plain
// table (every task of the paper's presets). Larger tables are kept in blocks.
const FlatMax = 1 << 20

// blockBits sets the entries per block, BlockEntries = 2^blockBits: a block of float64 is 32 KB.
const blockBits = 12

// BlockEntries is the number of entries of a block.
const BlockEntries = 1 << blockBits

// Table holds n values of type T, indexed from 0, each initially a fill value. A flat table is
// one block holding every entry. A blocked one starts with every block the same read-only block
// of fill values, and gives a block its own storage when one of its entries is first written.
// Reading entry i is two loads either way (At inlines), so a learner's hot loops pay little for
// the blocks.
type Table[T any] struct {
	blocks [][]T
	owned  []bool // blocked: the blocks with their own storage; nil when flat
	shift  uint   // entry i is blocks[i>>shift][i&mask]
	mask   int
	fill   T
	n      int
}

// Reset makes t a table of n entries, each fill, dropping every value it held; a flat table
// reuses its storage.
func (t *Table[T]) Reset(n int, fill T) {
	t.n, t.fill = n, fill
	if n > FlatMax {
		shared := make([]T, BlockEntries)
		for j := range shared {
			shared[j] = fill
		}
		t.blocks = make([][]T, (n+BlockEntries-1)>>blockBits)
		for k := range t.blocks {
			t.blocks[k] = shared
		}
		t.owned = make([]bool, len(t.blocks))
		t.shift, t.mask = blockBits, BlockEntries-1
		return
	}
	var flat []T
	if t.owned == nil && len(t.blocks) == 1 && cap(t.blocks[0]) >= n {
		flat = t.blocks[0][:n]
	} else {
		flat = make([]T, n)
	}
	for j := range flat {
		flat[j] = fill
	}
	t.setFlat(flat)
}

// setFlat makes t the flat table of the entries of flat: every index selects block 0 and keeps
// all its bits.
func (t *Table[T]) setFlat(flat []T) {
	t.blocks, t.owned = append(t.blocks[:0], flat), nil
	t.shift, t.mask = 63, -1
}

// Reuse is Reset to zero values that keeps what it can of a flat table's storage: each entry of a
// flat table that fits becomes keep(its value) (a slice truncated to length 0, say), so that a
// learner starting a task allocates only when the task is larger than any before.
func (t *Table[T]) Reuse(n int, keep func(T) T) {
	var zero T
	if n > FlatMax || t.owned != nil || len(t.blocks) != 1 || cap(t.blocks[0]) < n {
		t.Reset(n, zero)
		return
	}
	t.n, t.fill = n, zero
	flat := t.blocks[0][:n]
	for j := range flat {
		flat[j] = keep(flat[j])
	}
	t.setFlat(flat)
}

// Len is the number of entries.
func (t *Table[T]) Len() int { return t.n }

// At is entry i, for 0 <= i < Len.
func (t *Table[T]) At(i int) T { return t.blocks[i>>t.shift][i&t.mask] }

// View is the address of entry i for reading only, valid until the next write or Reset: an entry
// never written shares its storage with every other (reading a large entry through it copies
// nothing).
func (t *Table[T]) View(i int) *T { return &t.blocks[i>>t.shift][i&t.mask] }

// Ptr is the address of entry i, valid until the next Reset; its block gets its own storage if it
// had none.
func (t *Table[T]) Ptr(i int) *T {
	k := i >> t.shift
	if t.owned != nil && !t.owned[k] {
		t.own(k)
	}
	return &t.blocks[k][i&t.mask]
}

// own gives block k its own storage, filled.
func (t *Table[T]) own(k int) {
	b := make([]T, min(BlockEntries, t.n-k<<blockBits))
	for j := range b {
		b[j] = t.fill
	}
	t.blocks[k], t.owned[k] = b, true
}

// Set writes x to entry i.
func (t *Table[T]) Set(i int, x T) { *t.Ptr(i) = x }
