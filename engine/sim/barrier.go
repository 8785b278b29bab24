package sim

import (
	"fmt"
	"slices"
	"strconv"
)

// Sync selects how workers synchronize with the parameter servers.
type Sync uint8

const (
	// ASP is asynchronous SGD (icpe20, the default): each worker starts its
	// next step as soon as its own step completes.
	ASP Sync = iota
	// BSP is bulk synchronous parallel SGD with a barrier per step: no
	// worker starts step k+1 (its downlinks, the pull of the new
	// parameters) before every worker has completed step k, i.e. before
	// every uplink of step k has reached its PS and been applied there.
	// Each worker's uplink still carries its own gradient and each PS
	// still runs one update op per worker and tensor, read as the
	// accumulation of the gradients the PS averages; the averaged update
	// itself costs nothing more (an assumption: summing dominates).
	BSP
)

var syncNames = [...]string{"asp", "bsp"}

// String returns "asp" or "bsp".
func (s Sync) String() string {
	if int(s) < len(syncNames) {
		return syncNames[s]
	}
	return "sync(" + strconv.Itoa(int(s)) + ")"
}

// ParseSync parses a name written by Sync.String.
func ParseSync(s string) (Sync, error) {
	for i, n := range syncNames {
		if s == n {
			return Sync(i), nil
		}
	}
	return 0, fmt.Errorf("sim: unknown synchronization %q (want asp or bsp)", s)
}

// barrier holds the workers that completed the current BSP step (their
// next steps start together when the last one arrives).
type barrier struct {
	waiting []int // workers that completed step k, in completion order
}

// newBarrier returns the barrier of sync mode y for W workers, nil for ASP.
func newBarrier(y Sync, workers int) (*barrier, error) {
	switch y {
	case ASP:
		return nil, nil
	case BSP:
		return &barrier{waiting: make([]int, 0, workers)}, nil
	}
	return nil, fmt.Errorf("sim: Config.Sync: unknown %s", y)
}

// arrive records that worker w completed its step at s.now; the last of
// the W workers to arrive starts every worker's next step, in worker
// order, at that instant. Workers that ran all their steps never arrive
// (every worker runs the same number of steps, so they finish together).
func (b *barrier) arrive(s *sim, w int) {
	b.waiting = append(b.waiting, w)
	if len(b.waiting) < s.W-s.finished {
		return
	}
	s.st.release(s.now)
	slices.Sort(b.waiting) // worker order, whatever the arrival order
	for _, v := range b.waiting {
		s.startStep(v)
	}
	b.waiting = b.waiting[:0]
}
