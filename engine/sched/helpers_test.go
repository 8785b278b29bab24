package sched

import "testing"

// mvaSteps is a test fixture (not the pslab mva package): exact single-class
// MVA of the mascots18 network with one IS worker station (S^W) and
// queueing stations U, S, D, for K = 1..workers; steps/s.
func mvaSteps(ph Phases, workers int) []float64 {
	st := []float64{ph.Uplink, ph.Server, ph.Downlink}
	q := make([]float64, len(st))
	out := make([]float64, workers)
	for n := 1; n <= workers; n++ {
		r := make([]float64, len(st))
		sum := ph.Worker
		for l, s := range st {
			r[l] = s * (1 + q[l])
			sum += r[l]
		}
		x := float64(n) / sum
		for l := range st {
			q[l] = x * r[l]
		}
		out[n-1] = x
	}
	return out
}

// tableIIIWith returns TableIII with X from mvaSteps for a cluster of nodes.
func tableIIIWith(tb testing.TB, nodes int) Workload {
	tb.Helper()
	wl := TableIII()
	for i := range wl.Types {
		x, err := NodeThroughput(mvaSteps(wl.Types[i].Phases, nodes-1), wl.Types[i].Batch)
		if err != nil {
			tb.Fatal(err)
		}
		wl.Types[i].X = x
	}
	return wl
}

// Hand-made curves on W = 8 nodes (X[1] = X[2] as under M-4).
var (
	curveA = []float64{0, 1, 1, 2, 3, 3.5, 3.6, 3.6, 3.6}
	curveB = []float64{0, 2, 2, 3, 3.2, 3.3, 3.3, 3.3, 3.3}
)

func handEnv() Env {
	return Env{Nodes: 8, Load: 0.5, Types: []JobType{
		{Name: "A", Examples: 1, Epochs: 10, X: curveA},
		{Name: "B", Examples: 1, Epochs: 10, X: curveB},
	}}
}

// allocate runs one decision of p on jobs in env.
func allocate(tb testing.TB, p Policy, env Env, jobs []JobState) []int {
	tb.Helper()
	a, err := p.New(env)
	if err != nil {
		tb.Fatal(err)
	}
	alloc := make([]int, len(jobs))
	a.Allocate(0, jobs, alloc)
	return alloc
}

func job(id, typ int, remaining float64) JobState {
	return JobState{ID: id, Type: typ, Size: remaining, Remaining: remaining}
}
