package mechanism

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/dataset"
	"pslab/engine/experiment"
	"pslab/engine/sim"
	"pslab/engine/trace"
	"pslab/engine/zoo"
)

// root is the repository root, where experiment inputs are found.
const root = "../../../.."

// TestHTTP2ArrivalsByHand pins the single-connection model on hand
// schedules (WIN = 3, 1 byte/s), including the tie rule: a stream released
// at the instant another is preempted queues behind the preempted one.
func TestHTTP2ArrivalsByHand(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name           string
		release, bytes []float64
		window         float64
		want           []float64
	}{
		// A 0-3, B 3-5, C 3-8, D 8-11, E 11-12, A 12-13, C 13-15.
		{"fig12", []float64{0, 0, 0, 0, 0}, []float64{4, 2, 5, 3, 1}, 3, []float64{13, 5, 15, 11, 12}},
		{"release at preemption", []float64{0, 3}, []float64{5, 2}, 3, []float64{5, 7}},
		{"release before preemption", []float64{0, 2.5}, []float64{5, 2}, 3, []float64{7, 5}},
		{"idle gap", []float64{0, 10}, []float64{2, 1}, 3, []float64{2, 11}},
		{"flow control off", []float64{0, 0}, []float64{5, 2}, 0, []float64{5, 7}},
		{"unsorted releases", []float64{4, 0}, []float64{1, 2}, 3, []float64{5, 2}},
	} {
		require.Equal(t, c.want, http2Arrivals(c.release, c.bytes, c.window, 1), c.name)
	}
}

// TestHTTP2ArrivalsMatchSimulator: for random stream sizes and WIN, the
// model used for Table 1 predicts the same arrivals as the simulator's
// link scheduler (streams requested at step start, 1 worker).
func TestHTTP2ArrivalsMatchSimulator(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(3, 4))
	for iter := range 100 {
		n := 1 + r.IntN(8)
		win := int64(1 + r.IntN(10))
		step := trace.Step{}
		release, sizes := make([]float64, n), make([]float64, n)
		for i := range n {
			b := int64(1 + r.IntN(25))
			sizes[i] = float64(b)
			step.Ops = append(step.Ops, trace.Op{Name: fmt.Sprint(i), Resource: trace.Resource{Kind: trace.Downlink}, Bytes: b})
		}
		tr := &trace.Trace{Meta: trace.Meta{Batch: 1, Bandwidth: 2, Window: win, Servers: 1}, Steps: []trace.Step{step}}
		got := make([]float64, n)
		_, err := sim.Run(tr, sim.Config{Workers: 1, Steps: 1, Warmup: sim.NoWarmup, Overhead: &sim.Overhead{},
			OnSpan: func(s sim.Span) {
				if s.Last {
					got[s.Op] = s.End
				}
			}})
		require.NoError(t, err)
		want := http2Arrivals(release, sizes, float64(win), 2)
		require.InDeltaSlice(t, want, got, 1e-9, "iteration %d: sizes %v, WIN %d", iter, sizes, win)
	}
}

// TestEndErrorsZeroOnZooTrace: zoo records downlink ends with the same
// chunk rule and overhead, so the predictor's errors on a zoo trace with
// its own WIN, B, α and β are zero; a WIN that is off is not.
func TestEndErrorsZeroOnZooTrace(t *testing.T) {
	t.Parallel()
	tr, err := zoo.Synthesize(zoo.Toy(), zoo.Options{Steps: 3, Bandwidth: 1e8, Window: 3e6, Alpha: 1e-9, Beta: 1e-3, Jitter: 0.3, Seed: 1})
	require.NoError(t, err)
	errs, err := endErrors(tr)
	require.NoError(t, err)
	require.Len(t, errs, 12)
	require.Less(t, slicesMax(errs), 1e-9)
	tr.Meta.Window = 10e6
	errs, err = endErrors(tr)
	require.NoError(t, err)
	require.Greater(t, slicesMax(errs), 0.01)
	tr.Meta.Servers = 2
	_, err = endErrors(tr)
	require.ErrorContains(t, err, "needs 1 PS")
}

// TestShareFluid checks the 1/n integration on hand values.
func TestShareFluid(t *testing.T) {
	t.Parallel()
	require.Equal(t, []float64{12, 10, 13}, shareFluid([]float64{0, 2, 4}, []float64{6, 3, 4}, nil))
	require.Equal(t, []float64{9, 9, 9}, shareFluid([]float64{0, 0, 0}, []float64{3, 3, 3}, nil))
	// A transfer that starts after the link went idle.
	require.Equal(t, []float64{1, 7}, shareFluid([]float64{0, 5}, []float64{1, 2}, nil))
	// Two together: the short one at 2·1, the long one alone afterwards.
	var segs [][2]float64
	f := shareFluid([]float64{0, 0}, []float64{1, 4}, func(t0, t1 float64, _ []float64) { segs = append(segs, [2]float64{t0, t1}) })
	require.Equal(t, []float64{2, 5}, f)
	require.Equal(t, [][2]float64{{0, 2}, {2, 5}}, segs)
	sim, err := shareExampleSim(3, 3)
	require.NoError(t, err)
	require.InDelta(t, 9, sim, 1e-12)
	_, err = shareExampleSim(3, 2.5)
	require.ErrorContains(t, err, "whole number of bytes")
}

// TestShareRatesThreeWorkers: with 3 workers the fitted rates are 1, 1/2
// and 1/3 (whole streams, so every chunk carries its op's bytes).
func TestShareRatesThreeWorkers(t *testing.T) {
	t.Parallel()
	tr, err := zoo.Synthesize(zoo.Toy(), zoo.Options{Steps: 10, Bandwidth: 1.25e8, Jitter: 0.5, Seed: 2})
	require.NoError(t, err)
	var spans []sim.Span
	_, err = sim.Run(tr, sim.Config{Workers: 3, Steps: 4, Warmup: sim.NoWarmup, Link: sim.Link{Mode: sim.WholeStream}, Seed: 9,
		OnSpan: func(s sim.Span) { spans = append(spans, s) }})
	require.NoError(t, err)
	rates, err := shareRates(spans, tr, trace.Downlink, sim.WholeStream, 0, tr.Meta.Bandwidth, 3)
	require.NoError(t, err)
	for n, want := range []float64{1, 0.5, 1.0 / 3} {
		require.Positive(t, rates[n].chunks, "n = %d never happened", n+1)
		require.InDelta(t, want, rates[n].rate, 1e-9, "n = %d", n+1)
	}
}

func TestChunkBytes(t *testing.T) {
	t.Parallel()
	first := sim.Span{Chunk: 0}
	second := sim.Span{Chunk: 1, Last: true}
	require.Equal(t, 3.0, chunkBytes(first, 10, sim.Multiplex, 3))
	require.Equal(t, 7.0, chunkBytes(second, 10, sim.Multiplex, 3))
	require.Equal(t, 2.0, chunkBytes(sim.Span{Last: true}, 2, sim.Multiplex, 3))
	require.Equal(t, 10.0, chunkBytes(first, 10, sim.WholeStream, 3))
}

// TestOLSStandardErrors on 4 hand-fitted points: Sxx = 5, Sxy = 4, so the
// slope is 0.8 and the intercept 1.5 − 0.8·1.5 = 0.3.
func TestOLSStandardErrors(t *testing.T) {
	t.Parallel()
	xs := []float64{0, 1, 2, 3}
	ys := []float64{0, 2, 1, 3}
	a, b, err := sim.FitOverhead(xs, ys)
	require.NoError(t, err)
	require.InDelta(t, 0.8, a, 1e-12)
	require.InDelta(t, 0.3, b, 1e-12)
	seA, seB := olsStandardErrors(xs, ys, a, b)
	// Residuals −0.3, 0.9, −0.9, 0.3: SSE = 1.8, s² = 0.9.
	require.InDelta(t, math.Sqrt(0.9/5), seA, 1e-12)
	require.InDelta(t, math.Sqrt(0.9*(0.25+2.25/5)), seB, 1e-12)
}

func TestOverheadShare(t *testing.T) {
	t.Parallel()
	f, err := overheadShare(0.1, 1e8, 1e8)
	require.NoError(t, err)
	require.InDelta(t, 0.1, f, 1e-12)
	f, err = overheadShare(0.25, 1e8, 2e8)
	require.NoError(t, err)
	require.InDelta(t, 0.25/(0.25+0.75/2), f, 1e-12)
}

// TestChromeTimelineExport exports a 2-worker AlexNet timeline through the
// simulator's Chrome-trace writer and checks that it is valid JSON with one
// track (process, thread) per worker and resource, each holding chunks,
// and one per receiving processor for the parsing overheads spent on
// receive threads (sim.ReceiveThreads).
func TestChromeTimelineExport(t *testing.T) {
	t.Parallel()
	tab, err := dataset.Read(filepath.Join(root, "datasets/zoo/alexnet.arrow"), zoo.ProfileSchema, dataset.Allocator)
	require.NoError(t, err)
	prof, err := zoo.ProfileFromTable(tab)
	require.NoError(t, err)
	tr, err := zoo.Synthesize(prof, zoo.Options{Steps: 3, Batch: 8, Bandwidth: 1.25e8, Window: 28e6, Alpha: 1e-9, Beta: 1e-3, Seed: 1})
	require.NoError(t, err)
	var buf bytes.Buffer
	_, err = sim.Run(tr, sim.Config{Workers: 2, Steps: 2, Warmup: sim.NoWarmup, Timeline: &buf})
	require.NoError(t, err)
	var doc struct {
		TraceEvents []struct {
			Name string  `json:"name"`
			Ph   string  `json:"ph"`
			Pid  int     `json:"pid"`
			Tid  int     `json:"tid"`
			Dur  float64 `json:"dur"`
			Args struct {
				Name string `json:"name"`
			} `json:"args"`
		} `json:"traceEvents"`
	}
	require.NoError(t, json.Unmarshal(buf.Bytes(), &doc))
	tracks := map[[2]int]string{}
	events := map[[2]int]int{}
	procs := map[int]string{}
	for _, e := range doc.TraceEvents {
		switch e.Ph {
		case "M":
			if e.Name == "thread_name" {
				tracks[[2]int{e.Pid, e.Tid}] = e.Args.Name
			} else {
				procs[e.Pid] = e.Args.Name
			}
		case "X":
			require.GreaterOrEqual(t, e.Dur, 0.0)
			events[[2]int{e.Pid, e.Tid}]++
		}
	}
	require.Equal(t, map[int]string{0: "worker 0", 1: "worker 1"}, procs)
	for w := range 2 {
		var names []string
		for tid := range 4 {
			names = append(names, tracks[[2]int{w, tid}])
			require.Positive(t, events[[2]int{w, tid}], "worker %d track %d has no chunks", w, tid)
		}
		require.ElementsMatch(t, []string{"downlink", "worker", "uplink", "ps"}, names)
		for tid, name := range map[int]string{4: "worker receive", 7: "ps receive"} {
			require.Equal(t, name, tracks[[2]int{w, tid}])
			require.Positive(t, events[[2]int{w, tid}], "worker %d track %q has no overheads", w, name)
		}
	}
	require.Len(t, tracks, 12, "one track per worker and resource, and per receiving processor")
}

// TestMechanismKindErrors: bad parameters are errors that name the field
// and the spec line, never panics.
func TestMechanismKindErrors(t *testing.T) {
	t.Parallel()
	reg := Kinds()
	for _, c := range []struct{ kind, params, want string }{
		{"link-mechanisms", "bandwidth_gbps = 1\nbandwidths_gbps = [1]\nreference = \"a\"\n[[params.mechanisms]]\nname = \"x\"\nkey = \"a\"\nmode = \"fast\"", "unknown link mode \"fast\""},
		{"link-mechanisms", "bandwidth_gbps = 0\nbandwidths_gbps = [1]\n[[params.mechanisms]]\nname = \"x\"\nkey = \"a\"", "bandwidth_gbps: 0"},
		{"link-mechanisms", "bandwidth_gbps = 1\nbandwidths_gbps = [1]\nreference = \"zz\"\n[[params.mechanisms]]\nname = \"x\"\nkey = \"a\"\nmode = \"whole\"", "reference \"zz\" is not a scheduler key"},
		{"link-share", "starts = [0, 1]\nwork = [1]\nexample_workers = 1\nexample_work = 1", "equal length"},
		{"link-share", "starts = [0]\nwork = [-1]\nexample_workers = 1\nexample_work = 1", "work -1"},
		{"http2-chunks", "bandwidth_gbps = 1\nwindow_mb = 3", "no streams and no input"},
		{"http2-chunks", "bandwidth_gbps = 1\nwindow_mb = 0", "must be > 0"},
		{"desync-series", "bandwidth_gbps = 1\nworkers = 1\nwindow_s = 1", "workers 1 must be ≥ 2"},
		{"sim-timeline", "bandwidth_gbps = 1\nheight = 1.5", "height 1.5"},
		{"sim-timeline", "bandwidth_gbps = 1\noverhead_on = \"gpu\"", `unknown overhead placement "gpu"`},
		{"desync-series", "bandwidth_gbps = 1\nwindow_s = 1\noverhead_on = \"gpu\"", `unknown overhead placement "gpu"`},
		{"link-mechanisms", "bandwidth_gbps = 1\nbandwidths_gbps = [1]\noverhead_on = \"gpu\"\n[[params.mechanisms]]\nname = \"x\"\nkey = \"a\"", `unknown overhead placement "gpu"`},
		{"overhead-fit", "alpha_ns_per_byte = 1\nbeta_ms = 1\nmax_mb = 1\nprofile_gbps = 1\ntarget_gbps = 10\nfraction = 1", "0 < fraction < 1"},
		{"link-states", "workers = [0]\nservers = [1]", "workers: 0"},
		{"downlink-end-error", "bandwidth_gbps = 1\nwindow_cv = -1", "window_cv -1"},
		{"desync-series", "bandwidth_gbps = 1\nwindow_s = 1\nreplications = 2", "replications 2, need 10 to 1000"},
		{"overhead-fit", "alpha_ns_per_byte = 1\nbeta_ms = 1\nmax_mb = 1\nprofile_gbps = 1\ntarget_gbps = 10\nfraction = 0.5\nreplications = 0", "replications 0, need 10 to 1000"},
		{"downlink-end-error", "bandwidth_gbps = 1\nreplications = 1001", "replications 1001, need 10 to 1000"},
	} {
		dir := filepath.Join(t.TempDir(), "icpe20")
		require.NoError(t, os.MkdirAll(dir, 0o755))
		path := filepath.Join(dir, "bad.toml")
		spec := fmt.Sprintf("id = \"icpe20-bad\"\ntitle = \"t\"\npaper = \"icpe20\"\nkind = %q\ndescription = \"d\"\nstatus = \"partial\"\n[plot]\nx_label = \"x\"\ny_label = \"y\"\n[params]\n%s\n", c.kind, c.params)
		require.NoError(t, os.WriteFile(path, []byte(spec), 0o644))
		s, err := experiment.Load(path)
		require.NoError(t, err, c.kind)
		k, err := reg.Resolve(s)
		require.NoError(t, err)
		_, err = k.Run(context.Background(), &experiment.Env{Spec: s, Root: root, Mem: dataset.Allocator})
		require.ErrorContains(t, err, c.want, c.kind)
	}
}
