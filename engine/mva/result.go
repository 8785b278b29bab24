package mva

// Result holds the steady-state metrics of a Model at its full population.
// Per-station slices are indexed [station][class] in Model order.
type Result struct {
	// Throughput is X_k per class, in jobs (cycles) per second. With visit
	// ratio 1 it is also the class throughput at every visited station.
	Throughput []float64
	// System is Σ_k X_k in jobs per second; for the mascots18 model it is
	// X(K), mini-batches (SGD steps) per second at the parameter server.
	System float64
	// ResponseTime is T_k^l in seconds per visit (waiting plus service).
	ResponseTime [][]float64
	// QueueLength is N_k^l = X_k·T_k^l, mean jobs at the station.
	QueueLength [][]float64
	// Utilization is ρ_k^l = X_k·S_k^l (dimensionless); at a Delay station
	// it is the mean number of busy servers and may exceed 1.
	Utilization [][]float64
	// Iterations is the number of BardSchweitzer iterations (0 for the
	// Recursive method).
	Iterations int
}

// StationUtilization returns Σ_k ρ_k^l at station l (dimensionless).
func (r Result) StationUtilization(l int) float64 {
	s := 0.0
	for _, u := range r.Utilization[l] {
		s += u
	}
	return s
}

// StationQueueLength returns Σ_k N_k^l at station l (jobs).
func (r Result) StationQueueLength(l int) float64 {
	s := 0.0
	for _, n := range r.QueueLength[l] {
		s += n
	}
	return s
}

// expand turns per-type response times and throughputs (at full counts)
// into per-class results. Identical classes share response times; a type's
// throughput is split in proportion to class populations. Classes of
// population 0 get zero throughput, response time and queue length.
func expand(m Model, nw *network, resp, x []float64, iterations int) Result {
	L, K := len(m.Stations), len(m.Classes)
	r := Result{
		Throughput:   make([]float64, K),
		ResponseTime: make2(L, K),
		QueueLength:  make2(L, K),
		Utilization:  make2(L, K),
		Iterations:   iterations,
	}
	for t, members := range nw.members {
		for _, k := range members {
			c := m.Classes[k]
			xk := x[t] * float64(c.Population) / float64(nw.count[t])
			r.Throughput[k] = xk
			r.System += xk
			for l := 0; l < L; l++ {
				T := resp[t*L+l]
				r.ResponseTime[l][k] = T
				r.QueueLength[l][k] = xk * T
				r.Utilization[l][k] = xk * c.Demands[l]
			}
		}
	}
	return r
}

func make2(rows, cols int) [][]float64 {
	flat := make([]float64, rows*cols)
	out := make([][]float64, rows)
	for i := range out {
		out[i] = flat[i*cols : (i+1)*cols : (i+1)*cols]
	}
	return out
}
