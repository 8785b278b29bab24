package sched

// chunkBits sets the block size of chunked: 4096 elements.
const chunkBits = 12

// chunked is an append-only sequence stored in fixed-size blocks, so that
// growing it never copies or re-zeroes what it holds. A 10⁵-job run used to
// append its 10 MB of Job records through ~50 MB of slice growth, which
// dominated the run time (page faults and memmove under GC).
type chunked[T any] struct {
	blocks [][]T
	n      int
}

// add appends a zero element and returns a pointer to it; the pointer stays
// valid for the life of c.
func (c *chunked[T]) add() *T {
	if c.n>>chunkBits == len(c.blocks) {
		c.blocks = append(c.blocks, make([]T, 1<<chunkBits))
	}
	p := &c.blocks[c.n>>chunkBits][c.n&(1<<chunkBits-1)]
	c.n++
	return p
}

// at returns a pointer to element i (0 ≤ i < c.len()).
func (c *chunked[T]) at(i int) *T { return &c.blocks[i>>chunkBits][i&(1<<chunkBits-1)] }

func (c *chunked[T]) len() int { return c.n }

// flatten returns the elements as one slice of length and capacity c.len()
// (nil when empty).
func (c *chunked[T]) flatten() []T {
	if c.n == 0 {
		return nil
	}
	out := make([]T, c.n)
	for i := 0; i < c.n; i += 1 << chunkBits {
		copy(out[i:], c.blocks[i>>chunkBits])
	}
	return out
}
