package sim

import (
	"math/bits"

	"pslab/engine/trace"
)

// TICPriority returns, for every op of a validated step, the TIC priority of
// TicTac (Hashemi, Jyothi, Campbell, SysML 2019), implemented from its
// description: the communication dependency of an op o, D(o), is the set of
// transfers o depends on directly or transitively; the priority of a
// transfer c is
//
//	P(c) = min{ |D(o)| : o a computation op (worker or PS) with c ∈ D(o) }
//
// so a transfer needed by a computation that waits for few transfers goes
// first (lower is earlier). For the chain of Fig. 5 this is the order
// conv0 → conv1 → fc0 → fc1 of Fig. 8(d). D is computed separately per
// direction (downlinks and uplinks of all PSs form one set each), so for
// uplinks, each needed only by its own PS update, every P is 1 and the order
// falls back to FIFO. A transfer that no computation depends on gets
// |direction| + 1 (last). Entries for computation ops are 0. It is the one
// definition of the TIC order in pslab: the testbed orders its transfers
// by it too.
func TICPriority(step *trace.Step) []int32 {
	ops := step.Ops
	n := len(ops)
	// number the transfers per direction
	idx := make([]int, n)
	var count [2]int
	dir := func(k trace.Kind) int {
		if k == trace.Uplink {
			return 1
		}
		return 0
	}
	for i := range ops {
		if ops[i].IsComm() {
			d := dir(ops[i].Resource.Kind)
			idx[i] = count[d]
			count[d]++
		}
	}
	words := [2]int{(count[0] + 63) / 64, (count[1] + 63) / 64}
	sets := [2][]uint64{make([]uint64, n*words[0]), make([]uint64, n*words[1])}
	row := func(d, i int) []uint64 { return sets[d][i*words[d] : (i+1)*words[d]] }
	for _, i := range topoOrder(step) {
		for d := range 2 {
			ri := row(d, i)
			for _, dep := range ops[i].Deps {
				for k, w := range row(d, int(dep)) {
					ri[k] |= w
				}
			}
		}
		if ops[i].IsComm() {
			d := dir(ops[i].Resource.Kind)
			row(d, i)[idx[i]/64] |= 1 << (idx[i] % 64)
		}
	}
	best := [2][]int32{make([]int32, count[0]), make([]int32, count[1])}
	for d := range 2 {
		for k := range best[d] {
			best[d][k] = int32(count[d] + 1)
		}
	}
	for i := range ops {
		if ops[i].IsComm() {
			continue
		}
		for d := range 2 {
			ri := row(d, i)
			size := int32(0)
			for _, w := range ri {
				size += int32(bits.OnesCount64(w))
			}
			for k, w := range ri {
				for w != 0 {
					b := k*64 + bits.TrailingZeros64(w)
					w &= w - 1
					best[d][b] = min(best[d][b], size)
				}
			}
		}
	}
	out := make([]int32, n)
	for i := range ops {
		if ops[i].IsComm() {
			out[i] = best[dir(ops[i].Resource.Kind)][idx[i]]
		}
	}
	return out
}

// topoOrder returns the ops of a validated (acyclic) step in a topological
// order (Kahn's algorithm, ties by index).
func topoOrder(step *trace.Step) []int {
	n := len(step.Ops)
	indeg := make([]int, n)
	for i := range step.Ops {
		indeg[i] = len(step.Ops[i].Deps)
	}
	dependents := step.Dependents()
	order := make([]int, 0, n)
	for i, d := range indeg {
		if d == 0 {
			order = append(order, i)
		}
	}
	for h := 0; h < len(order); h++ {
		for _, j := range dependents[order[h]] {
			indeg[j]--
			if indeg[j] == 0 {
				order = append(order, int(j))
			}
		}
	}
	return order
}
