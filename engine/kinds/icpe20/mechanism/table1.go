package mechanism

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/stat"

	"pslab/engine/dataset"
	"pslab/engine/experiment"
	"pslab/engine/trace"
	"pslab/engine/zoo"
)

type endErrorParams struct {
	mechTraceParams
	// WindowCV and BandwidthCV are the coefficients of variation of the
	// per-step WIN and link bandwidth of the synthetic trace (assumed: the
	// paper's error sources (1) and (3), §3.2.2); the prediction uses the
	// nominal values.
	WindowCV    float64 `toml:"window_cv"`
	BandwidthCV float64 `toml:"bandwidth_cv"`
	// DNN and Cluster select the reported Table 1 rows drawn beside the
	// result (input "reported", icpe20 table1.arrow).
	DNN      string
	Clusters []string
	// Label and TraceLabel are the legend entries of the synthetic and
	// the input trace's errors.
	Label      string
	TraceLabel string `toml:"trace_label"`
	// Replications is the number of independent synthetic traces (at
	// least experiment.MinReplications; Env.ReplicationRands), each with
	// its own jitter and WIN and bandwidth draws.
	Replications int
}

// mechTable1Schema is the columns read from icpe20's reported Table 1.
var mechTable1Schema = &dataset.Schema{Name: "icpe20-table1", Columns: []dataset.Column{
	{Name: "dnn", Type: dataset.String},
	{Name: "statistic", Type: dataset.String},
	{Name: "cluster", Type: dataset.String},
	{Name: "error", Type: dataset.Float64, Rule: dataset.NonNegative, Unit: "%"},
}}

// table1Stats are the printed statistics of icpe20 Table 1, in order.
var table1Stats = []struct{ printed, key string }{
	{"Average", "average"}, {"Median", "median"}, {"95th Percentile", "p95"}, {"Maximum", "max"},
}

// downlinkEndError is icpe20 Table 1: the HTTP/2 multiplexing model of one
// worker (§3.2.2) predicts when each downlink stream of a profiled step
// ends, from the streams' recorded start times and sizes, WIN, the
// bandwidth B and the overhead α·size + β (all from the trace metadata),
// and the relative error |predicted − recorded| / recorded of the end
// times (from step start) is summarized over all streams of all steps:
// average, median, 95th percentile and maximum (empirical quantiles), in
// percent.
//
// Two recorded traces can be evaluated, each drawn as a bar series:
//   - the input "trace" (dataset.TraceSchema, e.g. a testbed profiling
//     run; metrics measured.<stat>, legend TraceLabel);
//   - with the input "profile" (or the Fig. 5 toy when there is no trace),
//     Replications independent traces synthesized by zoo with compute
//     jitter and per-step WIN and bandwidth drawn around their nominal
//     values (WindowCV, BandwidthCV; metrics synthetic.<stat>, means with
//     their 95% intervals, bars of the means, legend Label). For each the
//     prediction is also made on the trace with exact WIN and B (metric
//     exact.max: the predictor against zoo's profiler model).
func downlinkEndError(_ context.Context, env *experiment.Env) (*experiment.Result, error) {
	p := endErrorParams{Clusters: []string{"cpu"}, TraceLabel: "measured trace", Label: "synthetic trace", Replications: experiment.MinReplications}
	if err := env.Params(&p); err != nil {
		return nil, err
	}
	// The recorded trace is read, the synthetic ones are bounded, before
	// any end time is predicted: both synthetic traces (exact and with
	// varied WIN and bandwidth, synthesized one step at a time), three
	// units per op for the predictions and their sort, the result lines.
	var recorded *trace.Trace
	var origin string
	var units float64
	if env.HasInput("trace") {
		t, err := env.Input("trace", dataset.TraceSchema)
		if err != nil {
			return nil, err
		}
		if recorded, err = dataset.ToTrace(t); err != nil {
			return nil, env.Spec.Errorf([]string{"inputs", "trace"}, "input \"trace\": %v", err)
		}
		origin, units = t.Provenance.Origin, 3*float64(traceOps(recorded))
	}
	synthetic := env.HasInput("profile") || !env.HasInput("trace")
	var prof *zoo.Profile
	if synthetic {
		var err error
		if prof, err = mechProfile(env); err != nil {
			return nil, err
		}
		if err := env.CheckReplications(p.Replications); err != nil {
			return nil, err
		}
		ops, steps, err := mechSize(env, prof, p.mechTraceParams)
		if err != nil {
			return nil, err
		}
		n := float64(p.Replications)
		units += n * (2*synthWork(ops, steps) + 2*3*float64(ops)*float64(steps))
	}
	// Rows: each side's 4 bars, 6 metrics (synthetic: with two interval
	// bounds each) and notes, the reported bars.
	if err := env.CheckRows([]string{"params", "profiled_steps"}, units, 42+4*float64(len(p.Clusters)),
		"downlink-end-error: the recorded and synthetic traces' downlink streams"); err != nil {
		return nil, err
	}
	res := experiment.NewResult()
	if recorded != nil {
		env.CountModelWork(3 * float64(traceOps(recorded)))
		if err := endErrorBars(res, "measured", p.TraceLabel, origin, recorded); err != nil {
			return nil, env.Spec.Errorf([]string{"inputs", "trace"}, "input \"trace\": %v", err)
		}
	}
	if synthetic {
		if err := syntheticEndErrors(env, prof, p, res); err != nil {
			return nil, err
		}
	}
	if env.HasInput("reported") {
		if err := table1Reported(env, p, res); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// endErrorBars predicts tr's downlink ends and records the Table 1
// statistics as metrics <prefix>.<stat> (percent) and bars of one series.
func endErrorBars(res *experiment.Result, prefix, label, origin string, tr *trace.Trace) error {
	values, streams, err := endErrorStats(tr)
	if err != nil {
		return err
	}
	for _, s := range table1Stats {
		res.Metric(prefix+"."+s.key, values[s.key])
		res.Bar(label, s.printed, "http2-model", origin, values[s.key])
	}
	res.Metric(prefix+".streams", float64(streams))
	res.Note("%s: %d downlink streams of %d steps, WIN %d bytes, B %g bytes/s, α %g s/byte, β %g s (%s)", prefix,
		streams, len(tr.Steps), tr.Meta.Window, tr.Meta.Bandwidth, tr.Meta.Alpha, tr.Meta.Beta, tr.Meta.Source)
	return nil
}

// syntheticEndErrors records the Table 1 statistics of p.Replications
// independent synthetic traces of prof (varyNetwork) as metrics
// synthetic.<stat> (percent, means with their 95% interval,
// experiment.MetricCI) and bars of their means, and exact.max, the
// largest error on a trace with exact WIN and B (the predictor against
// zoo's profiler model), the same way.
func syntheticEndErrors(env *experiment.Env, prof *zoo.Profile, p endErrorParams, res *experiment.Result) error {
	var rep experiment.Replicated
	var last *trace.Trace
	streams := 0
	for _, rng := range env.ReplicationRands(p.Replications) {
		exact, err := mechSynth(env, prof, p.mechTraceParams, rng.Uint64())
		if err != nil {
			return err
		}
		env.CountModelWork(3 * float64(traceOps(exact)))
		errs, err := endErrors(exact)
		if err != nil {
			return err
		}
		rep.Add("exact.max", slicesMax(errs)*100)
		if last, err = varyNetwork(env, prof, p, rng); err != nil {
			return err
		}
		env.CountModelWork(3 * float64(traceOps(last)))
		values, n, err := endErrorStats(last)
		if err != nil {
			return err
		}
		for _, s := range table1Stats {
			rep.Add("synthetic."+s.key, values[s.key])
		}
		streams = n
	}
	rep.Record(res)
	for _, s := range table1Stats {
		res.Bar(p.Label, s.printed, "http2-model", dataset.Derived, res.Metrics["synthetic."+s.key])
	}
	res.Metric("synthetic.streams", float64(streams))
	res.Note("synthetic: %d independent traces of %d downlink streams in %d steps each (bars: their means; metrics with 95%% intervals), WIN %d bytes, B %g bytes/s, α %g s/byte, β %g s (%s)",
		p.Replications, streams, len(last.Steps), last.Meta.Window, last.Meta.Bandwidth, last.Meta.Alpha, last.Meta.Beta, last.Meta.Source)
	return nil
}

// endErrorStats predicts tr's downlink ends and returns the Table 1
// statistics of their relative errors (percent, by table1Stats key) and
// the number of streams.
func endErrorStats(tr *trace.Trace) (map[string]float64, int, error) {
	errs, err := endErrors(tr)
	if err != nil {
		return nil, 0, err
	}
	slices.Sort(errs)
	return map[string]float64{
		"average": 100 * stat.Mean(errs, nil),
		"median":  100 * stat.Quantile(0.5, stat.Empirical, errs, nil),
		"p95":     100 * stat.Quantile(0.95, stat.Empirical, errs, nil),
		"max":     100 * errs[len(errs)-1],
	}, len(errs), nil
}

// table1Reported adds the reported Table 1 bars of p.DNN for p.Clusters.
func table1Reported(env *experiment.Env, p endErrorParams, res *experiment.Result) error {
	t, err := env.Input("reported", mechTable1Schema)
	if err != nil {
		return err
	}
	dnn, stats, clusters, vals := t.Strings("dnn"), t.Strings("statistic"), t.Strings("cluster"), t.Floats("error")
	for _, c := range p.Clusters {
		for _, s := range table1Stats {
			found := false
			for i := range dnn {
				if dnn[i] == p.DNN && stats[i] == s.printed && clusters[i] == c {
					res.Bar(fmt.Sprintf("paper Table 1, %s, %s cluster", p.DNN, c), s.printed, "paper", dataset.Reported, vals[i])
					found = true
				}
			}
			if !found {
				return env.Errorf("dnn", "reported Table 1 has no row %s / %s / %s", p.DNN, s.printed, c)
			}
		}
	}
	return nil
}

// varyNetwork synthesizes p.ProfiledSteps steps of prof one at a time,
// each with its own WIN and bandwidth drawn around the nominal values (a
// normal factor 1 + cv·N(0,1), floored at 0.1), and returns them as one
// trace with the nominal metadata.
func varyNetwork(env *experiment.Env, prof *zoo.Profile, p endErrorParams, rng *rand.Rand) (*trace.Trace, error) {
	if !(p.WindowCV >= 0) || !(p.BandwidthCV >= 0) || math.IsInf(p.WindowCV+p.BandwidthCV, 0) {
		return nil, env.Errorf("window_cv", "window_cv %v and bandwidth_cv %v must be finite and ≥ 0", p.WindowCV, p.BandwidthCV)
	}
	steps := p.ProfiledSteps
	if steps == 0 {
		steps = zoo.DefaultSteps
	}
	var out *trace.Trace
	for range steps {
		q := p.mechTraceParams
		q.ProfiledSteps = 1
		q.WindowMB *= max(0.1, 1+p.WindowCV*rng.NormFloat64())
		q.BandwidthGbps *= max(0.1, 1+p.BandwidthCV*rng.NormFloat64())
		tr, err := mechSynth(env, prof, q, rng.Uint64())
		if err != nil {
			return nil, err
		}
		if out == nil {
			out = &trace.Trace{Meta: tr.Meta}
			out.Meta.Window = int64(math.Round(p.WindowMB * 1e6))
			out.Meta.Bandwidth = gbps(p.BandwidthGbps)
			out.Meta.Source = fmt.Sprintf("zoo.Synthesize per step, WIN cv %g, bandwidth cv %g (assumed)", p.WindowCV, p.BandwidthCV)
		}
		out.Steps = append(out.Steps, tr.Steps[0])
	}
	return out, nil
}

// endErrors predicts the end of every downlink stream of every step of tr
// (1 PS) and returns the relative errors against the recorded ends.
func endErrors(tr *trace.Trace) ([]float64, error) {
	m := tr.Meta
	if m.Servers > 1 {
		return nil, fmt.Errorf("the single-connection model needs 1 PS, the trace has %d", m.Servers)
	}
	if !(m.Bandwidth > 0) {
		return nil, fmt.Errorf("trace bandwidth %g bytes/s: want > 0", m.Bandwidth)
	}
	var errs []float64
	var release, bytes []float64
	var idx []int
	for si, st := range tr.Steps {
		release, bytes, idx = release[:0], bytes[:0], idx[:0]
		for i, op := range st.Ops {
			if op.Resource.Kind == trace.Downlink {
				release = append(release, float64(op.Start)/1e9)
				bytes = append(bytes, float64(op.Bytes))
				idx = append(idx, i)
			}
		}
		for k, end := range http2Arrivals(release, bytes, float64(m.Window), m.Bandwidth) {
			rec := float64(st.Ops[idx[k]].End) / 1e9
			if !(rec > 0) {
				return nil, fmt.Errorf("step %d op %q: recorded end %g s, want > 0", si, st.Ops[idx[k]].Name, rec)
			}
			pred := end + m.Alpha*bytes[k] + m.Beta
			errs = append(errs, math.Abs(pred-rec)/rec)
		}
	}
	if len(errs) == 0 {
		return nil, fmt.Errorf("the trace has no downlink streams")
	}
	return errs, nil
}

// http2Arrivals is icpe20's HTTP/2 multiplexing model of one connection
// at full bandwidth (bytes/s): streams enter a FIFO queue at their release
// times (seconds, ties by index); on its first service a stream larger
// than window (bytes; ≤ 0: flow control off) sends window bytes and goes
// to the tail, behind streams released before that instant and ahead of
// streams released at it; otherwise it sends everything left. It returns
// the arrival time of each stream's last byte (seconds).
func http2Arrivals(release, bytes []float64, window, bandwidth float64) []float64 {
	n := len(release)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case release[a] < release[b]:
			return -1
		case release[a] > release[b]:
			return 1
		}
		return 0
	})
	left := append([]float64(nil), bytes...)
	served := make([]bool, n)
	done := make([]float64, n)
	var queue []int
	now, next := 0.0, 0
	for {
		for next < n && release[order[next]] <= now {
			queue = append(queue, order[next])
			next++
		}
		if len(queue) == 0 {
			if next == n {
				return done
			}
			now = release[order[next]]
			continue
		}
		i := queue[0]
		queue = queue[1:]
		chunk := left[i]
		if window > 0 && !served[i] && chunk > window {
			chunk = window
		}
		served[i] = true
		left[i] -= chunk
		now += chunk / bandwidth
		for next < n && release[order[next]] < now {
			queue = append(queue, order[next])
			next++
		}
		if left[i] > 0 {
			queue = append(queue, i)
		} else {
			done[i] = now
		}
	}
}
