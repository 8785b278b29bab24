package zoo

// serialMachine is a processor that runs its operations one at a time
// (CATALOGUE I-11): the worker's GPU/CPU, or one PS's update processor.
// Ready operations run in order of the time they became ready, ties by
// position (program order); a running operation is never preempted. This
// is the order in which the icpe20 simulator's per-resource scheduler
// queues them (Algorithm 3.1 lines 22–29).
type serialMachine struct {
	ops        []int   // step op indices, in program order
	pending0   []int   // per position: number of deps on this machine
	dependents [][]int // per position: positions that wait for it
	external   [][]int // per position: op indices of deps on other resources

	// scratch, reused between steps
	pending []int
	ready   []float64
	heap    []int
}

// newSerialMachine builds the machine for ops (in program order) of a step
// whose dependencies are deps (indexed by op).
func newSerialMachine(ops []int, deps [][]int32) *serialMachine {
	m := &serialMachine{
		ops:        ops,
		pending0:   make([]int, len(ops)),
		dependents: make([][]int, len(ops)),
		external:   make([][]int, len(ops)),
		pending:    make([]int, len(ops)),
		ready:      make([]float64, len(ops)),
		heap:       make([]int, 0, len(ops)),
	}
	local := make(map[int]int, len(ops))
	for p, op := range ops {
		local[op] = p
	}
	for p, op := range ops {
		for _, d := range deps[op] {
			if q, ok := local[int(d)]; ok {
				m.pending0[p]++
				m.dependents[q] = append(m.dependents[q], p)
			} else {
				m.external[p] = append(m.external[p], int(d))
			}
		}
	}
	return m
}

// run schedules the machine's ops. end must already hold the end times of
// every external dependency; dur gives each op's duration (indexed by op).
// It writes start and end of the machine's ops (seconds).
func (m *serialMachine) run(dur, start, end []float64) {
	copy(m.pending, m.pending0)
	m.heap = m.heap[:0]
	for p := range m.ops {
		r := 0.0
		for _, d := range m.external[p] {
			r = max(r, end[d])
		}
		m.ready[p] = r
		if m.pending[p] == 0 {
			m.push(p)
		}
	}
	t := 0.0
	for len(m.heap) > 0 {
		p := m.pop()
		op := m.ops[p]
		s := max(t, m.ready[p])
		t = s + dur[op]
		start[op], end[op] = s, t
		for _, q := range m.dependents[p] {
			m.ready[q] = max(m.ready[q], t)
			m.pending[q]--
			if m.pending[q] == 0 {
				m.push(q)
			}
		}
	}
}

func (m *serialMachine) less(a, b int) bool {
	if m.ready[a] != m.ready[b] {
		return m.ready[a] < m.ready[b]
	}
	return a < b
}

func (m *serialMachine) push(p int) {
	h := append(m.heap, p)
	i := len(h) - 1
	for i > 0 {
		up := (i - 1) / 2
		if !m.less(h[i], h[up]) {
			break
		}
		h[i], h[up] = h[up], h[i]
		i = up
	}
	m.heap = h
}

func (m *serialMachine) pop() int {
	h := m.heap
	top := h[0]
	last := len(h) - 1
	h[0] = h[last]
	h = h[:last]
	for i := 0; ; {
		l, r, small := 2*i+1, 2*i+2, i
		if l < len(h) && m.less(h[l], h[small]) {
			small = l
		}
		if r < len(h) && m.less(h[r], h[small]) {
			small = r
		}
		if small == i {
			break
		}
		h[i], h[small] = h[small], h[i]
		i = small
	}
	m.heap = h
	return top
}
