package kineto

import (
	"fmt"
	"io"
	"path"
	"sort"
	"strings"

	"pslab/engine/zoo"
)

// Options configures Read. The zero value reads the first profiler step
// with the default clock and an inferred batch.
type Options struct {
	// Model names the DNN (empty → the file's base name without
	// .json/.json.gz/.pt.trace).
	Model string
	// Batch is the examples per step (0 → inferred: the most common first
	// dimension of the first input of the step's forward layers).
	Batch int
	// Step is the index, in time order, of the ProfilerStep the layer list
	// is taken from (0-based).
	Step int
	// Clock is "gpu" (layer time = duration of the GPU kernels, memcpys and
	// memsets its CPU ops launched, NCCL excluded), "cpu" (layer time =
	// wall time of its CPU ops) or "" (gpu if the trace has GPU events,
	// else cpu).
	Clock string
}

// StepError is Read's error for an Options.Step that is not a step of
// the trace: negative, or not below the number of steps, so that a caller
// can name its own option (pslab import kineto: -step).
type StepError struct {
	Name  string // the trace
	Step  int    // the step asked for
	Steps int    // the steps of the trace (-1: not read, Step < 0)
}

// Error says which steps the trace has.
func (e *StepError) Error() string {
	if e.Steps < 0 {
		return fmt.Sprintf("kineto: %s: Options.Step %d: want a step index ≥ 0", e.Name, e.Step)
	}
	return fmt.Sprintf("kineto: %s: Options.Step %d, but the trace has %d profiler steps (indices 0 to %d)", e.Name, e.Step, e.Steps, e.Steps-1)
}

// Comm summarizes communication of one kind.
type Comm struct {
	Name    string
	Count   int
	Seconds float64 // total duration, s
	Bytes   int64   // total size of the first input (CPU-side calls only), bytes
}

// Report describes what Read found.
type Report struct {
	Events            int    // trace events read
	Backend           string // distributedInfo: backend, rank, world size
	Rank, WorldSize   int
	Steps             int    // ProfilerStep annotations (0: the whole trace is one step)
	Step              string // the step the layers come from
	Averaged          int    // steps with that step's layer sequence, averaged into the profile
	Clock             string // "gpu" or "cpu"
	Layers            int
	ForwardLayers     int     // layers from a forward op
	BackwardOnly      int     // layers from a backward op whose forward op is not in the trace
	MatchedBackward   int     // backward ops linked to their forward layer by sequence number
	Forward, Backward float64 // layer times summed, s per step
	UnattributedGPU   float64 // non-NCCL GPU time in the step outside every layer, s (gpu clock)
	UnattributedBwd   float64 // backward ops without a sequence number (AccumulateGrad), s
	ParamBytes        int64
	Batch             int
	BatchInferred     bool
	Kernels           []Comm // NCCL kernels by family, whole trace
	Collectives       []Comm // CPU-side nccl:* calls by name, whole trace
	NCCLKernels       int
	NCCLKernelSeconds float64
}

// layer is one layer of one step before averaging.
type layer struct {
	key          int64  // sequence number: forward order
	ts           int64  // start of the op, ns
	backwardOnly bool   // from a backward op whose forward op is not in the step
	name         string // op name
	desc         string
	fwd, bwd     float64 // s
	params       int64
	lead         int64
}

// Read streams a Kineto trace (.json or gzip-compressed .json.gz, by
// content) from r and derives a per-layer profile; name is used in errors
// and for the default model name. See the package documentation for the
// derivation.
func Read(r io.Reader, name string, opt Options) (*zoo.Profile, Report, error) {
	var rep Report
	c, err := collect(r, name)
	if err != nil {
		return nil, rep, err
	}
	rep.Events, rep.Backend, rep.Rank, rep.WorldSize = c.events, c.dist.Backend, c.dist.Rank, c.dist.WorldSize
	summarizeComm(c, &rep)
	switch opt.Clock {
	case "":
		rep.Clock = "cpu"
		if len(c.gpu) > 0 {
			rep.Clock = "gpu"
		}
	case "gpu", "cpu":
		rep.Clock = opt.Clock
	default:
		return nil, rep, fmt.Errorf("kineto: %s: Options.Clock %q (want gpu, cpu or empty)", name, opt.Clock)
	}
	if opt.Batch < 0 {
		return nil, rep, fmt.Errorf("kineto: %s: Options.Batch %d: want ≥ 0 examples (0: inferred)", name, opt.Batch)
	}
	if opt.Step < 0 {
		return nil, rep, &StepError{Name: name, Step: opt.Step, Steps: -1}
	}
	if len(c.ops) == 0 {
		return nil, rep, fmt.Errorf("kineto: %s: no cpu_op events", name)
	}
	a := attribute(c)
	steps := c.steps
	sort.Slice(steps, func(i, j int) bool { return steps[i].ts < steps[j].ts })
	rep.Steps = len(steps)
	if len(steps) == 0 {
		whole := span{name: "whole trace", ts: c.ops[0].ts, end: c.ops[0].end}
		for _, op := range c.ops {
			whole.ts, whole.end = min(whole.ts, op.ts), max(whole.end, op.end)
		}
		steps = []span{whole}
	}
	if opt.Step >= len(steps) {
		return nil, rep, &StepError{Name: name, Step: opt.Step, Steps: len(steps)}
	}
	perStep := stepLayers(c, a, steps, rep.Clock)
	ref := perStep[opt.Step]
	rep.Step = steps[opt.Step].name
	if len(ref.layers) == 0 {
		return nil, rep, fmt.Errorf("kineto: %s: step %q has no forward or backward op with a sequence number", name, rep.Step)
	}
	avg := averaged(perStep, opt.Step, &rep)
	rep.MatchedBackward, rep.UnattributedBwd = ref.matched, ref.unattributedBwd
	if rep.Clock == "gpu" {
		s := steps[opt.Step]
		for _, w := range a.loose {
			if w[0] >= s.ts && w[0] < s.end {
				rep.UnattributedGPU += float64(w[1]) / 1e9
			}
		}
	}
	p := &zoo.Profile{Model: opt.Model, Source: name, Batch: opt.Batch}
	if p.Model == "" {
		p.Model = modelName(name)
	}
	if p.Batch == 0 {
		b, ok := inferBatch(avg)
		if !ok {
			return nil, rep, fmt.Errorf("kineto: %s: cannot infer the batch (no forward op with an input shape); set Options.Batch", name)
		}
		p.Batch, rep.BatchInferred = int(b), true
	}
	rep.Batch = p.Batch
	for i, l := range avg {
		zl := zoo.Layer{Name: fmt.Sprintf("L%03d:%s", i, l.name), Description: l.desc,
			Forward: l.fwd, Backward: l.bwd, ParamBytes: l.params}
		if i > 0 {
			zl.Inputs = []int{i - 1}
		}
		p.Layers = append(p.Layers, zl)
		rep.Forward += l.fwd
		rep.Backward += l.bwd
		rep.ParamBytes += l.params
		if l.backwardOnly {
			rep.BackwardOnly++
		} else {
			rep.ForwardLayers++
		}
	}
	rep.Layers = len(p.Layers)
	if err := p.Validate(); err != nil {
		return nil, rep, fmt.Errorf("kineto: %s: %w", name, err)
	}
	return p, rep, nil
}

// averaged returns the reference step's layers with times averaged over
// every step with the same layer names in the same order.
func averaged(perStep []stepResult, ref int, rep *Report) []layer {
	out := append([]layer(nil), perStep[ref].layers...)
	for i := range out {
		out[i].fwd, out[i].bwd = 0, 0
	}
	for _, s := range perStep {
		if !sameNames(s.layers, perStep[ref].layers) {
			continue
		}
		rep.Averaged++
		for i := range out {
			out[i].fwd += s.layers[i].fwd
			out[i].bwd += s.layers[i].bwd
		}
	}
	for i := range out {
		out[i].fwd /= float64(rep.Averaged)
		out[i].bwd /= float64(rep.Averaged)
	}
	return out
}

func sameNames(a, b []layer) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].name != b[i].name {
			return false
		}
	}
	return true
}

// inferBatch is the most common positive first dimension of the forward
// layers' first inputs (ties: the larger count, then the smaller value).
func inferBatch(ls []layer) (int64, bool) {
	count := map[int64]int{}
	for _, l := range ls {
		if l.lead > 0 {
			count[l.lead]++
		}
	}
	best, n := int64(0), 0
	for v, k := range count {
		if k > n || (k == n && v < best) {
			best, n = v, k
		}
	}
	return best, n > 0 && best <= 1<<31
}

// modelName is the file's base name without trace suffixes.
func modelName(name string) string {
	base := path.Base(strings.ReplaceAll(name, "\\", "/"))
	for _, suf := range []string{".gz", ".json", ".pt.trace"} {
		base = strings.TrimSuffix(base, suf)
	}
	return base
}

// summarizeComm counts NCCL kernels by family and CPU-side nccl:* calls
// by name over the whole trace.
func summarizeComm(c *collected, rep *Report) {
	kernels := map[string]*Comm{}
	for _, w := range c.gpu {
		if !w.nccl {
			continue
		}
		k := kernels[w.name]
		if k == nil {
			k = &Comm{Name: w.name}
			kernels[w.name] = k
		}
		k.Count++
		k.Seconds += float64(w.dur) / 1e9
		rep.NCCLKernels++
		rep.NCCLKernelSeconds += float64(w.dur) / 1e9
	}
	calls := map[string]*Comm{}
	for _, s := range c.comms {
		k := calls[s.name]
		if k == nil {
			k = &Comm{Name: s.name}
			calls[s.name] = k
		}
		k.Count++
		k.Seconds += float64(s.end-s.ts) / 1e9
		k.Bytes += s.elems * elemSize(firstType(s.types))
	}
	rep.Kernels, rep.Collectives = sorted(kernels), sorted(calls)
}

func sorted(m map[string]*Comm) []Comm {
	out := make([]Comm, 0, len(m))
	for _, v := range m {
		out = append(out, *v)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
