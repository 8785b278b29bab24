package placement

import (
	"fmt"
	"math"
)

// Variable is one tensor held by a parameter server.
type Variable struct {
	Name  string
	Bytes int64 // size in bytes
}

// Partition is the result of assigning variables to servers.
type Partition struct {
	// Server[i] is the server (0-based) that holds variable i.
	Server []int
	// Load[s] is the number of bytes held by server s.
	Load []int64
}

// MaxServers caps the servers of a placement: 4096, as many as the worker
// counts one pslab predict run simulates (predict.MaxWorkerCounts; a PS job
// has fewer servers than workers). A larger count is a mistake (pslab
// predict -ps 1000000000) and is refused before the per-server loads are
// allocated; Greedy's work is len(vars)·servers.
const MaxServers = 4096

// Greedy assigns vars in order, each to the server with the smallest current
// load, ties to the lowest index. It returns an error for servers < 1 or
// above MaxServers, or a negative size.
func Greedy(vars []Variable, servers int) (Partition, error) {
	if servers < 1 {
		return Partition{}, fmt.Errorf("placement: %d servers, need at least 1", servers)
	}
	if servers > MaxServers {
		return Partition{}, fmt.Errorf("placement: %d servers exceed the limit of %d (placement.MaxServers)", servers, MaxServers)
	}
	p := Partition{Server: make([]int, len(vars)), Load: make([]int64, servers)}
	for i, v := range vars {
		if v.Bytes < 0 {
			return Partition{}, fmt.Errorf("placement: variable %d %q: negative size %d bytes", i, v.Name, v.Bytes)
		}
		best, min := 0, int64(math.MaxInt64)
		for s, l := range p.Load {
			if l < min {
				best, min = s, l
			}
		}
		p.Server[i] = best
		p.Load[best] += v.Bytes
	}
	return p, nil
}

// Heaviest returns the index of the server with the largest load (lowest
// index on ties).
func (p Partition) Heaviest() int {
	best := 0
	for s, l := range p.Load {
		if l > p.Load[best] {
			best = s
		}
	}
	return best
}
