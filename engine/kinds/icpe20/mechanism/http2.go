package mechanism

import (
	"context"
	"fmt"
	"math"
	"strings"

	"pslab/engine/experiment"
	"pslab/engine/measured"
	"pslab/engine/sim"
	"pslab/engine/trace"
	"pslab/engine/zoo"
)

// http2Stream is one explicit stream of the http2-chunks kind.
type http2Stream struct {
	Name string
	MB   float64 // size in MB (10⁶ bytes)
}

type http2ChunkParams struct {
	BandwidthGbps float64 `toml:"bandwidth_gbps"`
	WindowMB      float64 `toml:"window_mb"`
	// Streams are the downlink streams in request order; without them the
	// streams are the layer downlinks of the input "profile" (one step of
	// zoo.Synthesize, topological order).
	Streams []http2Stream
}

// http2Chunks runs icpe20's HTTP/2 multiplexing model (§3.2.2, B.1.4) on
// one worker's downlink streams, all requested at step start, with the
// simulator (1 worker, 1 step, no parsing overhead) and draws each
// stream's transmitted bytes over time from the simulated chunks (Figs. 11
// and 12). The bytes of a chunk are measured from the timeline as its
// duration × B (one worker: the link runs at full rate), not taken from
// the chunk rule. Metrics: chunks_max, small_split (streams ≤ WIN sent in
// more than one chunk), large and large_two (streams > WIN, and those sent
// in exactly 2 chunks), first_chunk_err_max (largest |first chunk − WIN|/WIN
// of a split stream), bytes_rel_err ((Σ sent − Σ sizes)/Σ sizes), end.<name>
// (arrival of the last byte, seconds) and, for a profile, zoo_end_diff_max:
// the largest difference between these arrivals and the downlink ends zoo
// records for the same step (seconds).
func http2Chunks(_ context.Context, env *experiment.Env) (*experiment.Result, error) {
	var p http2ChunkParams
	if err := env.Params(&p); err != nil {
		return nil, err
	}
	if !(p.BandwidthGbps > 0) || math.IsInf(p.BandwidthGbps, 0) || !(p.WindowMB > 0) || math.IsInf(p.WindowMB, 0) {
		return nil, env.Errorf("bandwidth_gbps", "bandwidth_gbps %v and window_mb %v must be > 0", p.BandwidthGbps, p.WindowMB)
	}
	bw, window := gbps(p.BandwidthGbps), int64(math.Round(p.WindowMB*1e6))
	tr, labels, err := http2Trace(env, p, bw, window)
	if err != nil {
		return nil, err
	}
	// One step of one worker: at most two chunks per stream, each two
	// points; a line per stream and its end metric; seven metrics.
	n := len(tr.Steps[0].Ops)
	events := experiment.SimEvents(n, 1, 1)
	if err := env.CheckEvents(events, "streams"); err != nil {
		return nil, err
	}
	key, synth := []string{"params", "streams"}, 0.0
	if len(p.Streams) == 0 { // the one step synthesized from the profile
		key, synth = []string{"inputs", "profile"}, experiment.SynthOpWork*float64(n)
	}
	if err := env.CheckRows(key, synth, 2*events+2*float64(n)+8,
		fmt.Sprintf("http2-chunks: %d streams", n)); err != nil {
		return nil, err
	}
	env.CountModelWork(synth)
	var spans []sim.Span
	_, err = sim.Run(tr, sim.Config{Workers: 1, Steps: 1, Warmup: sim.NoWarmup, Overhead: &sim.Overhead{}, Progress: env.EventCounter(),
		Link: sim.Link{Mode: sim.Multiplex, Window: window}, OnSpan: func(s sim.Span) {
			if s.Resource.Kind == trace.Downlink {
				spans = append(spans, s)
			}
		}})
	if err != nil {
		return nil, err
	}
	ops := tr.Steps[0].Ops
	res := experiment.NewResult()
	type stream struct {
		chunks     int
		first, got float64 // bytes
		end        float64 // seconds
	}
	st := make([]stream, len(ops))
	cum := make([]float64, len(ops))
	for i, op := range ops {
		if op.Resource.Kind == trace.Downlink {
			res.Point(labels[i], "http2-model", "derived", 0, 0)
		}
	}
	for _, s := range spans {
		b := (s.End - s.Start) * bw
		x := &st[s.Op]
		if x.chunks == 0 {
			x.first = b
		}
		x.chunks++
		x.got += b
		x.end = max(x.end, s.End)
		res.Point(labels[s.Op], "http2-model", "derived", s.Start, cum[s.Op]/1e6)
		cum[s.Op] += b
		res.Point(labels[s.Op], "http2-model", "derived", s.End, cum[s.Op]/1e6)
	}
	var chunksMax, smallSplit, large, largeTwo int
	var firstErr, sent, sizes float64
	for i, op := range ops {
		if op.Resource.Kind != trace.Downlink {
			continue
		}
		x := st[i]
		chunksMax = max(chunksMax, x.chunks)
		sent += x.got
		sizes += float64(op.Bytes)
		if op.Bytes <= window && x.chunks > 1 {
			smallSplit++
		}
		if op.Bytes > window {
			large++
			if x.chunks == 2 {
				largeTwo++
			}
			firstErr = max(firstErr, math.Abs(x.first-float64(window))/float64(window))
		}
		res.Metric("end."+strings.TrimSuffix(op.Name, "/down"), x.end)
	}
	res.Metric("chunks_max", float64(chunksMax))
	res.Metric("small_split", float64(smallSplit))
	res.Metric("large", float64(large))
	res.Metric("large_two", float64(largeTwo))
	res.Metric("first_chunk_err_max", firstErr)
	res.Metric("bytes_rel_err", (sent-sizes)/sizes)
	if len(p.Streams) == 0 {
		diff := 0.0
		for i, op := range ops {
			if op.Resource.Kind == trace.Downlink {
				diff = max(diff, math.Abs(float64(op.End)/1e9-st[i].end))
			}
		}
		res.Metric("zoo_end_diff_max", diff)
	}
	return res, nil
}

// http2Trace returns the one-step trace whose downlinks are the streams,
// and a legend label per op.
func http2Trace(env *experiment.Env, p http2ChunkParams, bw float64, window int64) (*trace.Trace, []string, error) {
	if len(p.Streams) > 0 {
		if env.HasInput("profile") {
			return nil, nil, env.Errorf("streams", "give either streams or the input \"profile\", not both")
		}
		step := trace.Step{}
		var labels []string
		for i, s := range p.Streams {
			bytes := int64(math.Round(s.MB * 1e6))
			if s.Name == "" || bytes < 1 || math.IsInf(s.MB, 0) {
				return nil, nil, env.Errorf("streams", "stream %d: needs a name and a size ≥ 1 byte (mb = %v)", i, s.MB)
			}
			step.Ops = append(step.Ops, trace.Op{Name: s.Name + "/down", Resource: trace.Resource{Kind: trace.Downlink}, Bytes: bytes})
			labels = append(labels, fmt.Sprintf("%s (%g MB)", s.Name, s.MB))
		}
		tr := &trace.Trace{Meta: trace.Meta{Source: "icpe20 Fig. 12 streams (assumed sizes)", Batch: 1,
			Bandwidth: bw, Window: window, Servers: 1}, Steps: []trace.Step{step}}
		return tr, labels, nil
	}
	if !env.HasInput("profile") {
		return nil, nil, env.Errorf("streams", "no streams and no input \"profile\"")
	}
	prof, err := measured.Profile(env, "profile")
	if err != nil {
		return nil, nil, err
	}
	tr, err := zoo.Synthesize(prof, zoo.Options{Steps: 1, Bandwidth: bw, Window: window})
	if err != nil {
		return nil, nil, env.Spec.Errorf([]string{"inputs", "profile"}, "%v", err)
	}
	if tr.Meta.Servers != 1 {
		return nil, nil, env.Errorf("profile", "one PS link expected, the trace has %d", tr.Meta.Servers)
	}
	kind := map[string]string{}
	for _, l := range prof.Layers {
		kind[l.Name], _, _ = strings.Cut(l.Description, "(")
	}
	labels := make([]string, len(tr.Steps[0].Ops))
	for i, op := range tr.Steps[0].Ops {
		layer := strings.TrimSuffix(op.Name, "/down")
		labels[i] = fmt.Sprintf("%s %s (%.1f MB)", layer, kind[layer], float64(op.Bytes)/1e6)
	}
	return tr, labels, nil
}
