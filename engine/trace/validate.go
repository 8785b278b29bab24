package trace

import (
	"errors"
	"fmt"
)

// Validate checks one step: durations are non-negative, communication
// operations carry bytes, dependencies exist, the graph is acyclic and every
// operation is reachable from a downlink. The error names the first bad
// operation.
func (s *Step) Validate() error {
	n := len(s.Ops)
	if n == 0 {
		return errors.New("trace: step has no operations")
	}
	indeg := make([]int, n)
	for i := range s.Ops {
		op := &s.Ops[i]
		if op.Start < 0 || op.End < op.Start {
			return fmt.Errorf("trace: op %d %q: negative duration (start %d ns, end %d ns)", i, op.Name, op.Start, op.End)
		}
		if op.IsComm() && op.Bytes <= 0 {
			return fmt.Errorf("trace: op %d %q: %s transfer with %d bytes", i, op.Name, op.Resource, op.Bytes)
		}
		if op.Bytes < 0 {
			return fmt.Errorf("trace: op %d %q: negative bytes %d", i, op.Name, op.Bytes)
		}
		if op.Resource.Kind > PS {
			return fmt.Errorf("trace: op %d %q: unknown resource %s", i, op.Name, op.Resource)
		}
		for _, d := range op.Deps {
			if d < 0 || int(d) >= n {
				return fmt.Errorf("trace: op %d %q: dangling dependency %d (step has %d ops)", i, op.Name, d, n)
			}
			if int(d) == i {
				return fmt.Errorf("trace: op %d %q: depends on itself", i, op.Name)
			}
			indeg[i]++
		}
	}
	// Kahn's algorithm: ops never released are on or behind a cycle.
	dependents := s.Dependents()
	queue := make([]int32, 0, n)
	for i, d := range indeg {
		if d == 0 {
			queue = append(queue, int32(i))
		}
	}
	seen := 0
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		seen++
		for _, j := range dependents[i] {
			indeg[j]--
			if indeg[j] == 0 {
				queue = append(queue, j)
			}
		}
	}
	if seen < n {
		for i, d := range indeg {
			if d > 0 {
				return fmt.Errorf("trace: op %d %q: dependency cycle", i, s.Ops[i].Name)
			}
		}
	}
	// Reachability from operations without dependencies that are downlinks.
	reached := make([]bool, n)
	stack := make([]int32, 0, n)
	for i := range s.Ops {
		if len(s.Ops[i].Deps) == 0 {
			if s.Ops[i].Resource.Kind != Downlink {
				return fmt.Errorf("trace: op %d %q: %s op with no dependencies cannot start (only downlinks start a step, CATALOGUE I-10)", i, s.Ops[i].Name, s.Ops[i].Resource)
			}
			reached[i] = true
			stack = append(stack, int32(i))
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
	for i, r := range reached {
		if !r {
			return fmt.Errorf("trace: op %d %q: not reachable from the step's downlinks", i, s.Ops[i].Name)
		}
	}
	return nil
}

// Dependents returns, for each operation, the indices of the operations that
// wait for it.
func (s *Step) Dependents() [][]int32 {
	out := make([][]int32, len(s.Ops))
	for i := range s.Ops {
		for _, d := range s.Ops[i].Deps {
			if d >= 0 && int(d) < len(s.Ops) {
				out[d] = append(out[d], int32(i))
			}
		}
	}
	return out
}

// Validate checks every step and that all steps share one operation
// structure (same count, names, resources and dependencies), as Algorithm 3.1
// assumes (icpe20 §3.4: "the dependencies are identical for all steps").
func (t *Trace) Validate() error {
	if len(t.Steps) == 0 {
		return errors.New("trace: no steps")
	}
	if t.Meta.Servers < 0 {
		return fmt.Errorf("trace: negative number of parameter servers %d", t.Meta.Servers)
	}
	for _, m := range []struct {
		name, field string
		v           float64
	}{{"bandwidth", "Bandwidth", t.Meta.Bandwidth}, {"window", "Window", float64(t.Meta.Window)},
		{"overhead alpha", "Alpha", t.Meta.Alpha}, {"overhead beta", "Beta", t.Meta.Beta}} {
		if m.v < 0 {
			return fmt.Errorf("trace: negative %s %g in metadata (Meta.%s)", m.name, m.v, m.field)
		}
	}
	first := &t.Steps[0]
	for si := range t.Steps {
		s := &t.Steps[si]
		if err := s.Validate(); err != nil {
			return fmt.Errorf("step %d: %w", si, err)
		}
		if si == 0 {
			continue
		}
		if len(s.Ops) != len(first.Ops) {
			return fmt.Errorf("trace: step %d has %d ops, step 0 has %d", si, len(s.Ops), len(first.Ops))
		}
		for i := range s.Ops {
			a, b := &first.Ops[i], &s.Ops[i]
			if a.Name != b.Name || a.Resource != b.Resource || !sameDeps(a.Deps, b.Deps) {
				return fmt.Errorf("trace: step %d op %d %q differs in structure from step 0 op %q", si, i, b.Name, a.Name)
			}
		}
	}
	return nil
}

func sameDeps(a, b []int32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
