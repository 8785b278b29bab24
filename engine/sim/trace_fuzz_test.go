package sim

import (
	"math"
	"testing"

	"pslab/engine/trace"
)

// FuzzRunTrace: any trace that trace.Validate accepts (built here from
// the fuzz bytes: up to 12 ops of any resource, PS, duration, size and
// dependencies, self, dangling and cyclic ones included, over one or two
// steps) compiles or is refused with an error, and a compiled one runs
// under any worker count, synchronization, link mode and order to its
// last step with a finite throughput > 0, never a panic or a hang; so do
// its parsing overheads, on either placement, and a colocated cluster.
func FuzzRunTrace(f *testing.F) {
	// Downlink, forward+backward, uplink, update on one PS; two steps.
	f.Add([]byte{3, 0, 0, 10, 50, 0, 0, 1, 0, 20, 0, 1, 0, 2, 0, 5, 50, 5, 0, 3, 0, 3, 0, 9, 0, 12, 22, 6, 4}, uint8(0))
	// The same over two PSs, under BSP with TIC order.
	f.Add([]byte{3, 0, 1, 10, 50, 0, 0, 1, 0, 20, 0, 1, 0, 2, 0, 5, 50, 5, 0, 3, 1, 3, 0, 9, 0}, uint8(5+24))
	// A cycle: refused by Validate.
	f.Add([]byte{1, 1, 0, 10, 0, 5, 0, 1, 0, 10, 0, 1, 0}, uint8(7))
	f.Fuzz(func(t *testing.T, b []byte, knobs uint8) {
		tr, ok := fuzzTrace(b)
		if !ok || tr.Validate() != nil {
			return
		}
		pr, err := Compile(tr)
		if err != nil {
			return
		}
		cfg := Config{Workers: 1 + int(knobs%3), Steps: 4, Warmup: NoWarmup, Seed: uint64(knobs),
			Sync: Sync(knobs / 3 % 2), Link: Link{Mode: Mode(knobs / 6 % 2), Order: Order(knobs / 12 % 4)},
			OverheadOn: OverheadPlacement(knobs / 48 % 2)}
		if knobs/96%2 == 1 {
			cfg.Overhead = &Overhead{Alpha: 2e-6, Beta: 1e-9}
		}
		if knobs >= 192 { // one PS shard on every worker's node
			cfg.Workers, cfg.Colocated = max(tr.Meta.Servers, 1), true
		}
		res, err := pr.Run(cfg)
		if err != nil {
			return
		}
		if res.Steps != cfg.Workers*cfg.Steps {
			t.Fatalf("%d steps of %d", res.Steps, cfg.Workers*cfg.Steps)
		}
		if x := res.Throughput; !(x > 0) || math.IsInf(x, 0) {
			t.Fatalf("throughput %v", x)
		}
	})
}

// fuzzTrace reads a trace from b: the op count n (1–12), then per op its
// resource kind, PS (0–3), duration (µs), bytes (kB, for transfers) and
// two bytes of dependencies (none when a byte is a multiple of 4, else
// index byte/4 mod n + 2, so self, dangling and cyclic ones occur); a second step repeats the first with other
// durations when bytes are left. The trace's PS count is one more than
// the largest PS used, its link 1 Gbit/s.
func fuzzTrace(b []byte) (*trace.Trace, bool) {
	if len(b) < 1 {
		return nil, false
	}
	n := 1 + int(b[0])%12
	b = b[1:]
	tr := &trace.Trace{Meta: trace.Meta{Bandwidth: 125e6, Window: 1 << 20, Batch: 1}}
	var step trace.Step
	for i := range n {
		if len(b) < 6 {
			return nil, false
		}
		op := trace.Op{Name: string(rune('a' + i)), Resource: trace.Resource{Kind: trace.Kind(b[0] % 5), PS: int(b[1] % 4)},
			End: int64(b[2]) * 1000}
		if op.IsComm() {
			op.Bytes = int64(b[3]) * 1000
		}
		for _, d := range b[4:6] {
			if d%4 != 0 {
				op.Deps = append(op.Deps, int32(int(d/4)%(n+2)))
			}
		}
		if op.Resource.Kind.IsLink() || op.Resource.Kind == trace.PS {
			tr.Meta.Servers = max(tr.Meta.Servers, op.Resource.PS+1)
		}
		step.Ops = append(step.Ops, op)
		b = b[6:]
	}
	tr.Steps = append(tr.Steps, step)
	if len(b) >= n {
		again := trace.Step{Ops: append([]trace.Op(nil), step.Ops...)}
		for i := range again.Ops {
			again.Ops[i].End = int64(b[i]) * 1000
		}
		tr.Steps = append(tr.Steps, again)
	}
	return tr, true
}
