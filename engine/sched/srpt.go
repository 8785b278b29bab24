package sched

// SRPT is the SRPT-type baseline of mascots18 §IV-A/§V-B: all W nodes go to
// the one job with the shortest service time on all nodes, S_i^t(W) =
// J_i^t/X_i(W) (ties: earlier arrival); every other job waits.
type SRPT struct{}

// Name is "SRPT".
func (SRPT) Name() string { return "SRPT" }

// New returns the allocator.
func (SRPT) New(env Env) (Allocator, error) {
	return &srpt{cv: newCurves(env), nodes: env.Nodes}, nil
}

type srpt struct {
	cv    []curve
	nodes int
}

func (s *srpt) Allocate(_ float64, jobs []JobState, alloc []int) {
	best, bestS := -1, 0.0
	for i, j := range jobs {
		v := j.Remaining / s.cv[j.Type].x[s.nodes]
		if best < 0 || v < bestS {
			best, bestS = i, v
		}
	}
	if best >= 0 {
		alloc[best] = s.nodes
	}
}
