package kineto

import (
	"sort"
)

// attribution links every cpu_op to the root that owns it and every GPU
// work item to the root whose subtree launched it.
type attribution struct {
	// owner[i] is the index (into ops) of the outermost op on i's
	// ancestor-or-self path that is a forward root (an op with a sequence
	// number that is not a backward op) or a backward root (an autograd
	// evaluate_function); -1 if none.
	owner []int32
	// params[i] is the parameter bytes of the parametric ops owned by root
	// i that have no parametric ancestor within the root.
	params []int64
	// gpu[i] is the non-NCCL GPU time (ns) launched from root i's subtree.
	gpu []int64
	// loose is the non-NCCL GPU work owned by no root: (ts, dur) pairs.
	loose [][2]int64
}

func isRoot(op *cpuOp) bool { return op.backward || op.seq >= 0 }

// attribute nests each thread's cpu_ops by time (an op contains another
// that starts and ends within it), finds each op's owning root, and
// assigns each kernel to the owner of the innermost op that contains its
// launch on the same thread (linked by the correlation id).
func attribute(c *collected) attribution {
	a := attribution{owner: make([]int32, len(c.ops)), params: make([]int64, len(c.ops)), gpu: make([]int64, len(c.ops))}
	// Per thread: ops and launches sorted by time; at equal start an op
	// comes before a launch and a longer op before a shorter one.
	type item struct {
		ts, end int64
		op      int32 // index into ops, or -1 for a launch
		launch  int32
	}
	byThread := map[string][]item{}
	for i := range c.ops {
		op := &c.ops[i]
		byThread[op.thread] = append(byThread[op.thread], item{ts: op.ts, end: op.end, op: int32(i), launch: -1})
	}
	for i := range c.launches {
		l := &c.launches[i]
		byThread[l.thread] = append(byThread[l.thread], item{ts: l.ts, end: l.ts, op: -1, launch: int32(i)})
	}
	corrOwner := make(map[int64]int32, len(c.launches))
	type frame struct {
		end       int64
		owner     int32
		paramSeen bool
	}
	for _, items := range byThread {
		sort.SliceStable(items, func(i, j int) bool {
			x, y := items[i], items[j]
			if x.ts != y.ts {
				return x.ts < y.ts
			}
			if (x.op < 0) != (y.op < 0) {
				return x.op >= 0
			}
			return x.end > y.end
		})
		var stack []frame
		for _, it := range items {
			if it.op < 0 {
				for len(stack) > 0 && it.ts > stack[len(stack)-1].end {
					stack = stack[:len(stack)-1]
				}
				owner := int32(-1)
				if len(stack) > 0 {
					owner = stack[len(stack)-1].owner
				}
				corrOwner[c.launches[it.launch].corr] = owner
				continue
			}
			for len(stack) > 0 && it.end > stack[len(stack)-1].end {
				stack = stack[:len(stack)-1]
			}
			op := &c.ops[it.op]
			f := frame{end: it.end, owner: -1}
			if len(stack) > 0 {
				f.owner, f.paramSeen = stack[len(stack)-1].owner, stack[len(stack)-1].paramSeen
			}
			if f.owner < 0 && isRoot(op) {
				f.owner = it.op
			}
			if _, isParam := paramArgs[op.name]; isParam {
				if f.owner >= 0 && !f.paramSeen {
					a.params[f.owner] += paramBytes(op.name, op.dims, op.types)
				}
				f.paramSeen = true
			}
			a.owner[it.op] = f.owner
			stack = append(stack, f)
		}
	}
	for _, w := range c.gpu {
		if w.nccl {
			continue
		}
		owner, ok := corrOwner[w.corr]
		if ok && owner >= 0 {
			a.gpu[owner] += w.dur
		} else {
			a.loose = append(a.loose, [2]int64{w.ts, w.dur})
		}
	}
	return a
}
