package timeline

import (
	"fmt"
	"math"
	"strings"

	"pslab/engine/trace"
)

// finish turns the buffered ops into a step and resets the buffer.
func (s *StepReader) finish() (trace.Step, error) {
	ops, byName := s.cur, s.byName
	defer func() { // reuse the buffers for the next step
		clear(ops)
		s.cur = ops[:0]
		clear(byName)
	}()
	deps := make([][]int, len(ops))
	for i := range ops {
		deps[i] = s.resolve(ops, byName, i)
	}
	kept := keptOps(ops, deps)
	newIndex := make([]int32, len(ops))
	firstDown := int32(-1)
	n := int32(0)
	for i := range ops {
		newIndex[i] = -1
		if !kept[i] {
			s.counts.Dropped++
			continue
		}
		newIndex[i] = n
		if firstDown < 0 && ops[i].kind == trace.Downlink {
			firstDown = n
		}
		n++
	}
	if firstDown < 0 {
		return trace.Step{}, fmt.Errorf("%s: step ending at event %d has no downlink (a _Recv on the worker's Compute lane)",
			s.name, ops[len(ops)-1].index)
	}
	origin := s.origin
	if !s.marked {
		origin = math.MaxInt64
		for i := range ops {
			if kept[i] {
				origin = min(origin, ops[i].start)
			}
		}
	}
	closure := passThrough(deps, kept)
	step := trace.Step{Ops: make([]trace.Op, 0, n)}
	for i := range ops {
		if !kept[i] {
			continue
		}
		p := &ops[i]
		start := p.start - origin
		if start < 0 {
			return trace.Step{}, fmt.Errorf("%s: event %d: op %q starts %d ns before its step marker", s.name, p.index, p.name, -start)
		}
		var d []int32
		for _, j := range closure(i) {
			d = appendUnique(d, newIndex[j])
		}
		if len(d) == 0 && p.kind != trace.Downlink {
			d = []int32{firstDown}
			s.counts.Gated++
		}
		step.Ops = append(step.Ops, trace.Op{Name: p.name, Resource: trace.Resource{Kind: p.kind, PS: p.ps},
			Start: start, End: start + p.dur, Bytes: p.bytes, Deps: d})
	}
	return step, nil
}

// resolve returns the ops that op i waits for, by name: each args.inputN
// (a leading "^" marks a control dependency, which is a dependency all
// the same), tried as written, without a ":slot" suffix, then without
// TensorFlow's partition suffix "/_N". A transfer without inputs named
// "X/_N" waits for op X when the step has one (TensorFlow names the
// send/recv pair it inserts between devices after the producer X).
// Inputs that name no op of the step are counted and ignored.
func (s *StepReader) resolve(ops []pendingOp, byName map[string]int, i int) []int {
	p := &ops[i]
	var out []int
	for _, in := range p.inputs {
		j, ok := byName[in] // exact first: pslab names may start with '^'
		if !ok {
			j, ok = lookup(byName, strings.TrimPrefix(in, "^"))
		}
		if !ok {
			s.counts.Unresolved++
			continue
		}
		out = append(out, j)
	}
	if p.recv && len(p.inputs) == 0 {
		if base, ok := cutPartitionSuffix(p.name); ok {
			if j, ok := byName[base]; ok && j != i {
				out = append(out, j)
			}
		}
	}
	return out
}

// lookup finds an op by input name: exact, without ":slot", then without
// "/_N".
func lookup(byName map[string]int, name string) (int, bool) {
	if j, ok := byName[name]; ok {
		return j, true
	}
	if k := strings.LastIndexByte(name, ':'); k > 0 && k+1 < len(name) && digits(name[k+1:]) {
		name = name[:k]
		if j, ok := byName[name]; ok {
			return j, true
		}
	}
	if base, ok := cutPartitionSuffix(name); ok {
		j, ok := byName[base]
		return j, ok
	}
	return 0, false
}

// cutPartitionSuffix splits "X/_12" into "X".
func cutPartitionSuffix(name string) (string, bool) {
	k := strings.LastIndex(name, "/_")
	if k <= 0 || k+2 >= len(name) || !digits(name[k+2:]) {
		return "", false
	}
	return name[:k], true
}

// keptOps drops send-type ops and the PS computations that no transfer of
// the step leads to (variable reads before the step's downlinks).
func keptOps(ops []pendingOp, deps [][]int) []bool {
	dependents := make([][]int, len(ops))
	for i, ds := range deps {
		for _, d := range ds {
			dependents[d] = append(dependents[d], i)
		}
	}
	reached := make([]bool, len(ops))
	var stack []int
	for i := range ops {
		if ops[i].recv {
			reached[i] = true
			stack = append(stack, i)
		}
	}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, j := range dependents[i] {
			if !reached[j] {
				reached[j] = true
				stack = append(stack, j)
			}
		}
	}
	kept := make([]bool, len(ops))
	for i := range ops {
		kept[i] = !ops[i].pass && (ops[i].kind != trace.PS || reached[i])
	}
	return kept
}

// passThrough returns, for a kept op, its dependencies with every dropped
// op replaced by that op's own dependencies, recursively.
func passThrough(deps [][]int, kept []bool) func(i int) []int {
	memo := make(map[int][]int)
	var through func(i int, visiting map[int]bool) []int
	through = func(i int, visiting map[int]bool) []int {
		if r, ok := memo[i]; ok {
			return r
		}
		visiting[i] = true
		var out []int
		for _, d := range deps[i] {
			switch {
			case kept[d]:
				out = append(out, d)
			case !visiting[d]:
				out = append(out, through(d, visiting)...)
			}
		}
		visiting[i] = false
		memo[i] = out
		return out
	}
	return func(i int) []int {
		var out []int
		for _, d := range deps[i] {
			if kept[d] {
				out = append(out, d)
			} else {
				for _, x := range through(d, map[int]bool{i: true}) {
					if x != i {
						out = append(out, x)
					}
				}
			}
		}
		return out
	}
}

func appendUnique(s []int32, x int32) []int32 {
	for _, y := range s {
		if y == x {
			return s
		}
	}
	return append(s, x)
}
