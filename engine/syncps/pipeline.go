package syncps

import (
	"fmt"
	"math"
)

// LayerTimes are the durations of one layer's processes in one iteration for
// one worker, in seconds. FC, AG and BC are the layer's gradient message
// (Eq. 10–18); FP and BP its computation.
type LayerTimes struct {
	Name string
	FP   float64 // forward propagation, seconds
	BP   float64 // backward propagation, seconds
	FC   float64 // forward communication worker→PS, seconds
	AG   float64 // aggregation incl. aggregation delay (Eq. 18), seconds
	BC   float64 // backward communication PS→worker, seconds
}

// Step is the input of one iteration of the pipelines: the IO time, the
// update time and the per-layer durations in forward order (seconds).
type Step struct {
	IO     float64      // data loading t_io^m, seconds
	UP     float64      // parameter update t_up^m, seconds
	Layers []LayerTimes // forward order
}

// IterationTrace holds the completion times τ (seconds since the start of
// the epoch) and exposed durations of one iteration computed by Pipeline.Next.
type IterationTrace struct {
	Iteration int     // m, 1-based
	IODone    float64 // τ_io^m, type I (Eq. 3)
	Start     float64 // start of the training part: max{τ_io^m, τ_DT^{m−1}} (Eq. 4)
	FPDone    float64 // end of the forward pass
	// BPDone, FCDone, AGDone and BCDone are indexed by layer (forward order).
	// The layer pipeline runs from the last layer to layer 0, so layer 0
	// completes each process last.
	BPDone, FCDone, AGDone, BCDone []float64
	UPDone                         float64 // τ_DT^m: completion of the iteration's training part
	Time                           float64 // t_iter^m = τ_DT^m − τ_DT^{m−1}, seconds
	// Exposed are the explicit durations (Eq. 5, 6) that Eq. 1 sums; they
	// add up to Time.
	Exposed Iteration
}

// Pipeline carries the IO pipeline and layer pipeline of one worker from one
// iteration to the next (Eq. 3–6). The zero value is a worker before its
// first iteration.
//
// IO pipeline: IO is a type I process (Eq. 3), prefetching continuously, so
// τ_io^m = Σ_{i≤m} t_io^i. The training part DT (FP, the layer pipeline, UP)
// is type II (Eq. 4): it starts at max{τ_io^m, τ_DT^{m−1}}.
//
// Layer pipeline, visiting layers l = L−1 … 0: BP is type I (Eq. 3),
// τ_bp[l] = τ_bp[l+1] + t_bp[l]; FC, AG and BC are type II (Eq. 4),
// τ_X[l] = max{τ_prev[l], τ_X[l+1]} + t_X[l] with prev = BP, FC, AG for
// X = FC, AG, BC. UP follows the last BC.
type Pipeline struct {
	m      int
	ioDone float64 // τ_io^{m}
	dtDone float64 // τ_DT^{m}
}

// Next runs one iteration with inputs s and writes the result into tr,
// reusing tr's slices (no allocation once they are large enough). It returns
// an error, and leaves the pipeline unchanged, if s has no layers or holds a
// negative, NaN or infinite duration.
func (p *Pipeline) Next(s Step, tr *IterationTrace) error {
	if err := s.validate(p.m + 1); err != nil {
		return err
	}
	p.advance(s, tr)
	return nil
}

// advance is Next without validation.
func (p *Pipeline) advance(s Step, tr *IterationTrace) {
	p.m++
	tr.Iteration = p.m

	// IO pipeline, Eq. 3 and Eq. 5 (Z-3: τ_DT is the completion of the
	// previous iteration's training part).
	p.ioDone += s.IO
	tr.IODone = p.ioDone
	if p.m == 1 {
		tr.Exposed.IO = s.IO
	} else {
		tr.Exposed.IO = math.Max(0, p.ioDone-p.dtDone)
	}
	tr.Start = p.dtDone + tr.Exposed.IO

	// Forward pass: the layers run one after another.
	t := tr.Start
	for _, l := range s.Layers {
		t += l.FP
	}
	tr.FPDone = t

	// Layer pipeline.
	n := len(s.Layers)
	tr.BPDone = resize(tr.BPDone, n)
	tr.FCDone = resize(tr.FCDone, n)
	tr.AGDone = resize(tr.AGDone, n)
	tr.BCDone = resize(tr.BCDone, n)
	bp, fc, ag, bc := tr.FPDone, math.Inf(-1), math.Inf(-1), math.Inf(-1)
	for l := n - 1; l >= 0; l-- {
		lt := s.Layers[l]
		bp += lt.BP                   // type I
		fc = math.Max(bp, fc) + lt.FC // type II after BP
		ag = math.Max(fc, ag) + lt.AG // type II after FC
		bc = math.Max(ag, bc) + lt.BC // type II after AG
		tr.BPDone[l], tr.FCDone[l], tr.AGDone[l], tr.BCDone[l] = bp, fc, ag, bc
	}
	tr.UPDone = bc + s.UP

	// Eq. 6: exposed communication is what finishes after its predecessor.
	tr.Exposed.FP = tr.FPDone - tr.Start
	tr.Exposed.BP = bp - tr.FPDone
	tr.Exposed.FC = fc - bp
	tr.Exposed.AG = ag - fc
	tr.Exposed.BC = bc - ag
	tr.Exposed.UP = s.UP

	tr.Time = tr.UPDone - p.dtDone
	p.dtDone = tr.UPDone
}

// RunPipeline runs the steps as consecutive iterations of one worker,
// starting at time 0, and returns one trace per step.
func RunPipeline(steps []Step) ([]IterationTrace, error) {
	var p Pipeline
	out := make([]IterationTrace, len(steps))
	for i, s := range steps {
		if err := p.Next(s, &out[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (s Step) validate(m int) error {
	if len(s.Layers) == 0 {
		return fmt.Errorf("syncps: iteration %d: no layers", m)
	}
	if err := checkNonNegative("IO", s.IO); err != nil {
		return fmt.Errorf("syncps: iteration %d: %w", m, err)
	}
	if err := checkNonNegative("UP", s.UP); err != nil {
		return fmt.Errorf("syncps: iteration %d: %w", m, err)
	}
	for i, l := range s.Layers {
		fields := [...]struct {
			name string
			v    float64
		}{{"FP", l.FP}, {"BP", l.BP}, {"FC", l.FC}, {"AG", l.AG}, {"BC", l.BC}}
		for _, f := range fields {
			if err := checkNonNegative(f.name, f.v); err != nil {
				return fmt.Errorf("syncps: iteration %d layer %d %q: %w", m, i, l.Name, err)
			}
		}
	}
	return nil
}

// resize returns a slice of length n, reusing s's storage when possible.
func resize(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}
