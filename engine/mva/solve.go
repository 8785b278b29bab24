package mva

// Solve computes the steady state of m at its full population with the
// method and hybrid settings of opt. It returns an error naming the field
// for an invalid model or options, when a fixed point does not converge, or
// when the recursion would visit more than opt.MaxVectors vectors.
func Solve(m Model, opt Options) (Result, error) {
	if err := m.Validate(); err != nil {
		return Result{}, err
	}
	o, err := opt.resolve()
	if err != nil {
		return Result{}, err
	}
	nw := buildNetwork(m, o.arg.perClass())
	s := newSolver(nw, o)
	iterations := 0
	if o.method == BardSchweitzer {
		iterations, err = s.schweitzer(nw.count, false)
	} else {
		err = s.recursive(nil)
	}
	if err != nil {
		return Result{}, err
	}
	return expand(m, nw, s.resp, s.x, iterations), nil
}

// recursive runs the MVA recursion over all vectors 0 ≤ n ≤ counts, level by
// level in total population, keeping two levels of states. On return s.resp
// and s.x hold the full-population solution. If perLevel is not nil, it
// receives Σ_t X_t of the last vector of each level s ≥ 1 at index s−1; for
// a single type that is the system throughput with population s.
func (s *solver) recursive(perLevel []float64) error {
	counts := s.nw.count
	lt, err := newLattice(counts, s.o.maxVectors)
	if err != nil {
		return err
	}
	T, width := len(counts), lt.maxSize()*s.stride
	prevBuf, curBuf := make([]float64, width), make([]float64, width)
	v, idx := make([]int, T), make([]int, T)
	prev := make([][]float64, T)
	for level := 1; level <= lt.total; level++ {
		lt.first(level, v)
		for pos := 0; ; pos++ {
			lt.predecessors(v, level, idx)
			for t, i := range idx {
				prev[t] = nil
				if i >= 0 {
					prev[t] = prevBuf[i*s.stride : (i+1)*s.stride]
				}
			}
			if err := s.vector(v, prev, curBuf[pos*s.stride:(pos+1)*s.stride]); err != nil {
				return err
			}
			if !lt.next(v) {
				break
			}
		}
		if perLevel != nil {
			sum := 0.0
			for _, x := range s.x {
				sum += x
			}
			perLevel[level-1] = sum
		}
		prevBuf, curBuf = curBuf, prevBuf
	}
	return nil
}
