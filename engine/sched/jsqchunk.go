package sched

import "fmt"

// JSQChunk is JSQ-Chunk (mascots18 [15], as described in §V-B): the W nodes
// are split into ⌊W/Chunk⌋ chunks of Chunk nodes (the W mod Chunk leftover
// nodes stay idle); an arriving job joins the chunk holding the fewest jobs
// (ties: lowest chunk index) and never moves; each chunk serves its jobs
// first-come first-served, one at a time, on all its nodes. [15]'s details
// are not given in the paper (CATALOGUE M-15): the in-chunk FCFS order and
// the idle leftover are assumptions. See BestChunk for the size search.
type JSQChunk struct {
	// Chunk is the number of nodes per chunk, 1 ≤ Chunk ≤ W.
	Chunk int
}

// Name is "JSQ-Chunk k=<Chunk>".
func (p JSQChunk) Name() string { return fmt.Sprintf("JSQ-Chunk k=%d", p.Chunk) }

// New returns the allocator; Chunk must be in [1, W].
func (p JSQChunk) New(env Env) (Allocator, error) {
	if p.Chunk < 1 || p.Chunk > env.Nodes {
		return nil, fmt.Errorf("sched: JSQ-Chunk Chunk %d, need 1 ≤ Chunk ≤ Nodes = %d", p.Chunk, env.Nodes)
	}
	n := env.Nodes / p.Chunk
	return &jsq{k: p.Chunk, chunkOf: map[int]int{}, queue: make([]int, n), head: make([]int, n)}, nil
}

type jsq struct {
	k       int
	chunkOf map[int]int // job ID → chunk
	queue   []int       // jobs present per chunk
	head    []int       // scratch: whether a chunk's head was served
}

func (q *jsq) Allocate(_ float64, jobs []JobState, alloc []int) {
	for c := range q.queue {
		q.queue[c], q.head[c] = 0, 0
	}
	// Departed jobs are simply absent from jobs; recount presence, then
	// dispatch new arrivals (in arrival order) to the shortest queue.
	if len(q.chunkOf) > 2*len(jobs)+64 {
		q.prune(jobs)
	}
	for _, j := range jobs {
		if c, ok := q.chunkOf[j.ID]; ok {
			q.queue[c]++
		}
	}
	for i, j := range jobs {
		c, ok := q.chunkOf[j.ID]
		if !ok {
			c = 0
			for d := range q.queue {
				if q.queue[d] < q.queue[c] {
					c = d
				}
			}
			q.chunkOf[j.ID] = c
			q.queue[c]++
		}
		if q.head[c] == 0 { // jobs are in arrival order: first seen is the FCFS head
			q.head[c] = 1
			alloc[i] = q.k
		}
	}
}

// prune forgets departed jobs so the map stays proportional to the system.
func (q *jsq) prune(jobs []JobState) {
	keep := make(map[int]int, len(jobs))
	for _, j := range jobs {
		if c, ok := q.chunkOf[j.ID]; ok {
			keep[j.ID] = c
		}
	}
	q.chunkOf = keep
}
