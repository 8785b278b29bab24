package sim

import (
	"fmt"
	"math"

	"pslab/engine/trace"
)

// stepBuilder builds one trace step by op name; durations in seconds.
type stepBuilder struct {
	ops []trace.Op
	idx map[string]int32
}

func newStep() *stepBuilder { return &stepBuilder{idx: map[string]int32{}} }

// op adds an operation. res is a trace resource name ("downlink", "ps:1").
// Communication ops take bytes; computation ops take dur seconds.
func (b *stepBuilder) op(name, res string, bytes int64, dur float64, deps ...string) *stepBuilder {
	r, err := trace.ParseResource(res)
	if err != nil {
		panic(err)
	}
	o := trace.Op{Name: name, Resource: r, Bytes: bytes, End: int64(math.Round(dur * 1e9))}
	for _, d := range deps {
		i, ok := b.idx[d]
		if !ok {
			panic(fmt.Sprintf("unknown dep %q", d))
		}
		o.Deps = append(o.Deps, i)
	}
	b.idx[name] = int32(len(b.ops))
	b.ops = append(b.ops, o)
	return b
}

func (b *stepBuilder) step() trace.Step { return trace.Step{Ops: b.ops} }

// oneStep wraps steps into a trace with bandwidth bw bytes/s, batch 1.
func traceOf(bw float64, win int64, steps ...trace.Step) *trace.Trace {
	return &trace.Trace{Meta: trace.Meta{Bandwidth: bw, Window: win, Batch: 1, Servers: 1}, Steps: steps}
}

// spans runs cfg and collects every span.
func spans(tr *trace.Trace, cfg Config) ([]Span, Result, error) {
	var out []Span
	cfg.OnSpan = func(s Span) { out = append(out, s) }
	r, err := Run(tr, cfg)
	return out, r, err
}

// endOf returns the end of the last chunk of op name on worker w, step k.
func endOf(ss []Span, w, k int, name string) float64 {
	for _, s := range ss {
		if s.Worker == w && s.Step == k && s.Name == name && s.Last {
			return s.End
		}
	}
	return math.NaN()
}
