package sim

import (
	"fmt"
	"math/rand/v2"
	"strconv"
)

// Start selects when each worker starts its first step.
//
// Why it matters: under processor sharing, W ≥ 3 workers in exact lockstep
// sit on an unstable equilibrium. Take three equal transfers of size D on
// a link of rate B, one started δ before the other two: the early one
// finishes at 3D/B − 2δ, the late ones at 3D/B, so the offset δ between
// them grows to 2δ in one pass (for W = 2 it stays δ: neutral). Any
// perturbation, however small (a 1 ns difference in a start, a rounding
// in another implementation), therefore grows until the workers spread
// out, while a simulator that keeps every tie exact stays in lockstep
// forever: its answer depends on the arithmetic of simultaneous events,
// not on the model. Staggered removes that dependence (see doc.go,
// "Order independence").
type Start uint8

const (
	// Together starts every worker's first step at time 0, the paper's
	// procedure (icpe20 Fig. 15(a)). On a trace with little step-to-step
	// variation the workers can stay in exact lockstep.
	Together Start = iota
	// Staggered starts worker w's first step at U_w·T̄, U_w uniform on
	// [0, 1) from a PCG stream of Config.Seed of its own (startStream) and
	// T̄ the mean profiled step time (the mean over profiled steps of the
	// last op end): workers launched independently, as real ones are.
	Staggered
)

var startNames = [...]string{"together", "staggered"}

// String returns "together" or "staggered".
func (s Start) String() string {
	if int(s) < len(startNames) {
		return startNames[s]
	}
	return "start(" + strconv.Itoa(int(s)) + ")"
}

// ParseStart parses a name written by Start.String.
func ParseStart(s string) (Start, error) {
	for i, n := range startNames {
		if s == n {
			return Start(i), nil
		}
	}
	return 0, fmt.Errorf("sim: unknown start %q (want together or staggered)", s)
}

// startStream is the PCG stream of the Staggered start offsets, separate
// from step sampling (stream w) and the Random order (orderStream).
const startStream = 0x7374617274 // "start"

// startOffsets returns each worker's first-step start time in seconds, or
// nil when every worker starts at 0.
func (s *sim) startOffsets(cfg *Config) ([]float64, error) {
	if cfg.StartOffsets != nil {
		if len(cfg.StartOffsets) != s.W {
			return nil, fmt.Errorf("sim: Config.StartOffsets: %d offsets for %d workers", len(cfg.StartOffsets), s.W)
		}
		for w, t := range cfg.StartOffsets {
			if !finite(t) || t < 0 {
				return nil, fmt.Errorf("sim: Config.StartOffsets[%d]: %g s; want finite and ≥ 0", w, t)
			}
		}
		return cfg.StartOffsets, nil
	}
	if s.p.start != Staggered {
		return nil, nil
	}
	r := rand.New(rand.NewPCG(s.p.seed, startStream))
	off := make([]float64, s.W)
	for w := range off {
		off[w] = r.Float64() * s.g.meanStep
	}
	return off, nil
}

// startEvent is the compute-heap slot of the delayed first step of worker
// w: below every receive-thread delay slot −(k+1), k < W·n.
func (s *sim) startEvent(w int) int32 { return int32(-(s.W*s.n + w) - 1) }
