package mva

import "fmt"

// Curve returns the system throughput X(K) in steps (mini-batches) per
// second for K = 1..maxWorkers homogeneous workers with profile p and the
// given number of parameter servers, element K−1 for K workers. The
// recursive variants compute all K in one pass of the single-class
// recursion; Schweitzer solves one fixed point per K. Hybrid variants use
// g = Eq4.
func Curve(p Phases, maxWorkers, servers int, v Variant) ([]float64, error) {
	return CurveWith(p, maxWorkers, servers, v, Options{})
}

// CurveWith is Curve with solver options: opt.G, Tolerance, MaxIterations,
// Damping and MaxVectors are honoured (maxWorkers must be below
// MaxVectors), while the variant overrides Method and Argument.
func CurveWith(p Phases, maxWorkers, servers int, v Variant, opt Options) ([]float64, error) {
	link, opt, err := v.setup(opt)
	if err != nil {
		return nil, err
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if maxWorkers < 1 {
		return nil, fmt.Errorf("mva: curve: maxWorkers %d < 1", maxWorkers)
	}
	q, err := p.WithServers(servers)
	if err != nil {
		return nil, err
	}
	o, err := opt.resolve()
	if err != nil {
		return nil, err
	}
	if maxWorkers >= o.maxVectors {
		return nil, fmt.Errorf("mva: curve: maxWorkers %d needs more than MaxVectors = %d population vectors", maxWorkers, o.maxVectors)
	}
	stations := stationsFor(link)
	nw := &network{
		kinds:     make([]Kind, len(stations)),
		stations:  len(stations),
		demand:    []float64{q.Worker, q.Uplink, q.Server, q.Downlink},
		count:     []int{maxWorkers},
		unit:      []bool{true},
		anyHybrid: link == HybridLink,
	}
	for l, st := range stations {
		nw.kinds[l] = st.Kind
	}
	s := newSolver(nw, o)
	out := make([]float64, maxWorkers)
	if o.method == BardSchweitzer {
		counts := []int{0}
		for k := 1; k <= maxWorkers; k++ {
			counts[0] = k
			if _, err := s.schweitzer(counts, k > 1); err != nil {
				return nil, err
			}
			out[k-1] = s.x[0]
		}
		return out, nil
	}
	if err := s.recursive(out); err != nil {
		return nil, err
	}
	return out, nil
}
