package sched

import (
	"fmt"
	"math/rand/v2"
)

// ChunkTrial is the outcome of one chunk size in BestChunk.
type ChunkTrial struct {
	Chunk        int     // nodes per chunk
	MeanResponse float64 // seconds; 0 when Unstable
	HalfWidth    float64 // seconds, 95% CI half-width
	Converged    bool
	Unstable     bool
}

// ChunkSearch is the result of BestChunk.
type ChunkSearch struct {
	// Best is the chunk size with the lowest mean response time among the
	// stable trials, 0 if every trial was unstable.
	Best int
	// Result is the full result of the best trial (Unstable and zero
	// otherwise).
	Result Result
	// Trials has one entry per chunk size, in increasing order.
	Trials []ChunkTrial
}

// BestChunk runs JSQ-Chunk with every chunk size lo..hi (clipped to
// [1, cfg.Nodes]; mascots18 searched 7..40) on cfg, whose Policy is ignored,
// and picks the size with the lowest mean response time, as the paper does
// ("we repeat simulations to select the optimal chunk size"). Every run gets
// a fresh generator from newRand, so with a fixed seed all sizes see the same
// arrivals (common random numbers); newRand may return nil for explicit
// arrivals. The search is by full simulation: its cost is (hi−lo+1) runs.
func BestChunk(cfg Config, lo, hi int, newRand func() *rand.Rand) (ChunkSearch, error) {
	lo, hi = max(lo, 1), min(hi, cfg.Nodes)
	if lo > hi {
		return ChunkSearch{}, fmt.Errorf("sched: BestChunk: empty chunk range [%d, %d] for %d nodes", lo, hi, cfg.Nodes)
	}
	if newRand == nil {
		return ChunkSearch{}, fmt.Errorf("sched: BestChunk: nil newRand")
	}
	out := ChunkSearch{}
	for k := lo; k <= hi; k++ {
		cfg.Policy = JSQChunk{Chunk: k}
		r, err := Run(cfg, newRand())
		if err != nil {
			return ChunkSearch{}, err
		}
		out.Trials = append(out.Trials, ChunkTrial{Chunk: k, MeanResponse: r.MeanResponse,
			HalfWidth: r.HalfWidth, Converged: r.Converged, Unstable: r.Unstable})
		if !r.Unstable && (out.Best == 0 || r.MeanResponse < out.Result.MeanResponse) {
			out.Best, out.Result = k, r
		}
	}
	if out.Best == 0 {
		out.Result = Result{Policy: "JSQ-Chunk", Nodes: cfg.Nodes, Load: cfg.Load, Unstable: true,
			Reason: fmt.Sprintf("every chunk size in [%d, %d] unstable", lo, hi)}
	}
	return out, nil
}
