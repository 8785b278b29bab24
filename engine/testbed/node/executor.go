package node

import (
	"container/heap"
	"context"
	"errors"
	"time"

	"pslab/engine/testbed/training"
)

var errStalled = errors.New("testbed: worker ops wait for ops that never run (invalid plan)")

// arrival is a downlink tensor available at the worker (parsed), or an
// error of its transfer.
type arrival struct {
	k   int
	at  time.Time
	err error
}

// executor emulates the worker's processor: it runs the forward and
// backward ops of one step one at a time (CATALOGUE I-11), ready ops first
// come first served with ties in program order, each for its emulated
// duration. Sleeps aim at absolute deadlines chained from op to op, so the
// oversleep of one op (tens of µs) is absorbed by the next instead of
// accumulating over hundreds of small ops.
type executor struct {
	plan       *training.Plan
	pending0   []int   // per worker op position: number of dependencies
	dependents [][]int // per op index (downlinks and worker ops): worker op positions waiting for it
}

func newExecutor(p *training.Plan) *executor {
	nT, nW := p.NT(), len(p.Compute)
	e := &executor{plan: p, pending0: make([]int, nW), dependents: make([][]int, nT+nW)}
	for pos := range nW {
		for _, d := range p.Ops[nT+pos].Deps {
			e.pending0[pos]++
			e.dependents[d] = append(e.dependents[d], pos)
		}
	}
	return e
}

// readyQueue orders worker op positions by (ready time, position).
type readyQueue struct {
	pos   []int
	ready []time.Time // by position
}

func (q *readyQueue) Len() int { return len(q.pos) }
func (q *readyQueue) Less(i, j int) bool {
	a, b := q.pos[i], q.pos[j]
	if !q.ready[a].Equal(q.ready[b]) {
		return q.ready[a].Before(q.ready[b])
	}
	return a < b
}
func (q *readyQueue) Swap(i, j int) { q.pos[i], q.pos[j] = q.pos[j], q.pos[i] }
func (q *readyQueue) Push(x any)    { q.pos = append(q.pos, x.(int)) }
func (q *readyQueue) Pop() any {
	x := q.pos[len(q.pos)-1]
	q.pos = q.pos[:len(q.pos)-1]
	return x
}

// run executes one step. arrivals delivers every downlink once;
// onGradient is called when a backward op that produces tensor k's
// gradient ends. It returns the actual start and end of every worker op
// (by position).
func (e *executor) run(ctx context.Context, arrivals <-chan arrival, onGradient func(k int, at time.Time) error) (start, end []time.Time, err error) {
	nT, nW := e.plan.NT(), len(e.plan.Compute)
	pending := append([]int(nil), e.pending0...)
	q := &readyQueue{ready: make([]time.Time, nW)}
	start, end = make([]time.Time, nW), make([]time.Time, nW)
	release := func(op int, at time.Time) {
		for _, pos := range e.dependents[op] {
			pending[pos]--
			if pending[pos] == 0 {
				q.ready[pos] = at
				heap.Push(q, pos)
			}
		}
	}
	got := 0
	take := func(a arrival) error {
		if a.err != nil {
			return a.err
		}
		got++
		release(a.k, a.at)
		return nil
	}
	var nominal time.Time // nominal end of the previous op
	for done := 0; done < nW; {
		for got < nT && q.Len() == 0 {
			select {
			case a := <-arrivals:
				if err := take(a); err != nil {
					return nil, nil, err
				}
			case <-ctx.Done():
				return nil, nil, ctx.Err()
			}
		}
	drain:
		for got < nT {
			select {
			case a := <-arrivals:
				if err := take(a); err != nil {
					return nil, nil, err
				}
			default:
				break drain
			}
		}
		if q.Len() == 0 {
			if got == nT {
				return nil, nil, errStalled
			}
			continue
		}
		pos := heap.Pop(q).(int)
		now := time.Now()
		begin := q.ready[pos]
		if nominal.After(begin) {
			begin = nominal
		}
		deadline := begin.Add(e.plan.Compute[pos])
		start[pos] = now
		sleepUntil(deadline)
		end[pos] = time.Now()
		nominal = deadline
		done++
		release(nT+pos, deadline)
		if k := e.plan.GradientOf(nT + pos); k >= 0 {
			if err := onGradient(k, end[pos]); err != nil {
				return nil, nil, err
			}
		}
	}
	return start, end, nil
}
