package mva

import (
	"fmt"
	"math"
)

// reference is a deliberately plain transcription of mascots18 Eq. 1–3 for
// tests: ungrouped (one recursion dimension per class), memoised over full
// population vectors, with no aggregates and no lattice ranking.
type reference struct {
	m    Model
	g    func(float64) float64
	arg  Argument
	memo map[string]refState
}

type refState struct {
	x   []float64   // [k] jobs/s
	t   [][]float64 // [l][k] seconds
	n   [][]float64 // [l][k] jobs
	rho [][]float64 // [l][k]
}

func newReference(m Model, o Options) *reference {
	g := o.G
	if g == nil {
		g = Eq4
	}
	return &reference{m: m, g: g, arg: o.Argument, memo: map[string]refState{}}
}

func (r *reference) solve() refState {
	pop := make([]int, len(r.m.Classes))
	for k, c := range r.m.Classes {
		pop[k] = c.Population
	}
	return r.at(pop)
}

func (r *reference) at(pop []int) refState {
	key := fmt.Sprint(pop)
	if st, ok := r.memo[key]; ok {
		return st
	}
	L, K := len(r.m.Stations), len(r.m.Classes)
	st := refState{x: make([]float64, K), t: make2(L, K), n: make2(L, K), rho: make2(L, K)}
	empty := true
	for _, p := range pop {
		empty = empty && p == 0
	}
	if empty {
		r.memo[key] = st
		return st
	}
	// The state seen at arrival by class k.
	arrive := make([]refState, K)
	for k := range pop {
		if pop[k] > 0 {
			pop[k]--
			arrive[k] = r.at(pop)
			pop[k]++
		}
	}
	// gammaArg[l][k]: starts at zero for the fixed-point choices.
	gammaArg := make2(L, K)
	evaluate := func() {
		for k, c := range r.m.Classes {
			st.x[k] = 0
			if pop[k] == 0 {
				continue
			}
			a := arrive[k]
			cycle := 0.0
			for l, s := range r.m.Stations {
				S := c.Demands[l]
				var T float64
				if S > 0 {
					ps, fcfs := S, S
					for j := range r.m.Classes {
						ps += S * a.n[l][j]
						fcfs += r.m.Classes[j].Demands[l] * (a.n[l][j] - 0.5*a.rho[l][j])
					}
					switch s.Kind {
					case Delay:
						T = S
					case PS, FCFS:
						T = ps
					case DeterministicFCFS:
						T = fcfs
					case HybridLink:
						var rho float64
						switch r.arg {
						case TotalAtArrival:
							for j := range r.m.Classes {
								rho += a.rho[l][j]
							}
						case ClassAtArrival:
							rho = a.rho[l][k]
						default:
							rho = gammaArg[l][k]
						}
						g := math.Min(1, math.Max(0, r.g(rho)))
						T = g*ps + (1-g)*fcfs
					}
				}
				st.t[l][k] = T
				cycle += T
			}
			st.x[k] = float64(pop[k]) / cycle
		}
	}
	evaluate()
	if r.arg == TotalFixedPoint || r.arg == ClassFixedPoint {
		for it := 0; it < 200000; it++ {
			diff := 0.0
			for l := range r.m.Stations {
				total := 0.0
				for j, c := range r.m.Classes {
					total += st.x[j] * c.Demands[l]
				}
				for k, c := range r.m.Classes {
					next := total
					if r.arg == ClassFixedPoint {
						next = st.x[k] * c.Demands[l]
					}
					diff = math.Max(diff, math.Abs(next-gammaArg[l][k]))
					gammaArg[l][k] += 0.25 * (next - gammaArg[l][k])
				}
			}
			evaluate()
			if diff < 1e-14 {
				break
			}
		}
	}
	for l := range r.m.Stations {
		for k, c := range r.m.Classes {
			st.n[l][k] = st.x[k] * st.t[l][k]
			st.rho[l][k] = st.x[k] * c.Demands[l]
		}
	}
	r.memo[key] = st
	return st
}
