package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/dataset"
	"pslab/engine/golden"
	"pslab/engine/timeline"
	"pslab/engine/trace"
	"pslab/engine/zoo"
)

func runPredict(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	err := Run(context.Background(), append([]string{"predict"}, args...), &out, &errb)
	return out.String(), err
}

// toyInputs writes the Fig. 5 toy as a profile dataset, and a 1-worker
// trace of it recorded at 1 Gbps (WIN 10 MB) as a trace dataset and as a
// TF timeline.
func toyInputs(t *testing.T) (dir, profile, traceArrow, timelineJSON string) {
	t.Helper()
	dir = t.TempDir()
	pt, err := zoo.ProfileTable(zoo.Toy(), dataset.Provenance{Origin: dataset.Derived, Source: "zoo.Toy"})
	require.NoError(t, err)
	profile = filepath.Join(dir, "toy.arrow")
	require.NoError(t, dataset.Write(profile, pt, dataset.Allocator))
	tr, err := zoo.Synthesize(zoo.Toy(), zoo.Options{Steps: 20, Bandwidth: 125e6, Window: 10e6, Jitter: 0.05, Seed: 1})
	require.NoError(t, err)
	traceArrow = filepath.Join(dir, "trace.arrow")
	require.NoError(t, dataset.Write(traceArrow, dataset.FromTrace(tr, dataset.Provenance{Origin: dataset.Derived}), dataset.Allocator))
	var buf bytes.Buffer
	require.NoError(t, timeline.Write(&buf, tr))
	timelineJSON = filepath.Join(dir, "timeline.json")
	require.NoError(t, os.WriteFile(timelineJSON, buf.Bytes(), 0o644))
	return dir, profile, traceArrow, timelineJSON
}

// fast are flags that keep a toy prediction cheap.
var fast = []string{"-workers", "1..3", "-steps", "40", "-paper", "-warmup", "5", "-profile-steps", "10"}

func TestPredictFormats(t *testing.T) {
	t.Parallel()
	dir, profile, _, _ := toyInputs(t)
	args := append([]string{profile, "-bandwidth", "1Gbps,10Gbps"}, fast...)

	text, err := runPredict(t, args...)
	require.NoError(t, err)
	for _, want := range []string{"per-layer profile): toy-fig5, batch 32, 4 layers, 30 MB of parameters",
		"multiplexed transport (WIN 28 MB), order default", "1 Gbit/s, asp, 1 GPU(s)/node, batch 32 per node, 1 PS: link bound 133.33 examples/s",
		"10 Gbit/s, asp, 1 GPU(s)/node, batch 32 per node, 1 PS", "simulator  mva-exact  mva-approximate  mva-hybrid  cynthia           zhang",
		"n/a (bsp only)", "knee (W at 95% of max)"} {
		require.Contains(t, text, want)
	}

	out, err := runPredict(t, append(args, "-format", "csv")...)
	require.NoError(t, err)
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	require.NoError(t, err)
	require.Len(t, recs, 1+2*3*6, "bandwidths × workers × models, zhang n/a (bsp only)")
	require.Equal(t, []string{"1.25e+08", "1", "simulator"}, recs[1][:3])

	out, err = runPredict(t, append(args, "-format", "json")...)
	require.NoError(t, err)
	var js struct {
		DNN  string `json:"dnn"`
		Runs []struct {
			Bandwidth float64 `json:"bandwidth_bytes_per_s"`
			Workers   []int   `json:"workers"`
			Models    []struct {
				Model      string    `json:"model"`
				Throughput []float64 `json:"throughput_examples_per_s"`
			} `json:"models"`
		} `json:"runs"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &js))
	require.Equal(t, "toy-fig5", js.DNN)
	require.Len(t, js.Runs, 2)
	require.Equal(t, 1.25e9, js.Runs[1].Bandwidth)
	require.Equal(t, []int{1, 2, 3}, js.Runs[0].Workers)
	require.Len(t, js.Runs[0].Models, 6)
	// The 10 Gbit/s simulator is at least as fast at every W.
	for i := range 3 {
		require.GreaterOrEqual(t, js.Runs[1].Models[0].Throughput[i], js.Runs[0].Models[0].Throughput[i])
	}

	arrowOut, svg, png, txt := filepath.Join(dir, "out", "p.arrow"), filepath.Join(dir, "f.svg"), filepath.Join(dir, "f.png"), filepath.Join(dir, "p.txt")
	_, err = runPredict(t, append(args, "-format", "arrow", "-o", arrowOut, "-figure", svg)...)
	require.NoError(t, err)
	tab, err := dataset.Read(arrowOut, dataset.ResultSchema, dataset.Allocator)
	require.NoError(t, err)
	require.Equal(t, 2*3*5, tab.Len())
	require.Equal(t, "1 Gbit/s: icpe20 simulator", tab.Strings("series")[0])
	require.Equal(t, dataset.Derived, tab.Provenance.Origin)
	require.Contains(t, tab.Provenance.Command, "pslab predict "+profile)
	b, err := os.ReadFile(svg)
	require.NoError(t, err)
	require.Contains(t, string(b), "<svg")
	_, err = runPredict(t, append(args, "-figure", png, "-o", txt)...)
	require.NoError(t, err)
	b, err = os.ReadFile(png)
	require.NoError(t, err)
	require.True(t, bytes.HasPrefix(b, []byte("\x89PNG")))
	b, err = os.ReadFile(txt)
	require.NoError(t, err)
	require.Equal(t, text, string(b), "-o writes what stdout would show")
}

// A recorded trace, as an Arrow trace or a TF timeline, predicts the same;
// at another bandwidth only the simulator applies.
func TestPredictFromRecordedTrace(t *testing.T) {
	t.Parallel()
	_, _, traceArrow, tl := toyInputs(t)
	args := []string{"-workers", "1..3", "-steps", "40", "-paper", "-warmup", "5", "-format", "json"}
	a, err := runPredict(t, append([]string{traceArrow}, args...)...)
	require.NoError(t, err)
	b, err := runPredict(t, append([]string{tl, "-batch", "32"}, args...)...)
	require.NoError(t, err)
	runs := func(s string) string { return s[strings.Index(s, `"runs"`):] }
	require.Equal(t, runs(a), runs(b), "trace dataset and TF timeline of the same steps")

	text, err := runPredict(t, traceArrow, "-bandwidth", "10Gbps", "-workers", "1..2", "-steps", "40", "-paper", "-warmup", "5")
	require.NoError(t, err)
	require.Contains(t, text, "recorded 1-worker trace): toy-fig5, batch 32, 20 steps, 1 PS, recorded at 1 Gbit/s")
	require.Contains(t, text, "n/a (trace at 1 Gbit/s)")

	// A stock timeline records no WIN: multiplexing assumes icpe20's 28 MB.
	nowin := *mustTrace(t, traceArrow)
	nowin.Meta.Window = 0
	var buf bytes.Buffer
	require.NoError(t, timeline.Write(&buf, &nowin))
	p := filepath.Join(t.TempDir(), "nowin.json")
	require.NoError(t, os.WriteFile(p, buf.Bytes(), 0o644))
	text, err = runPredict(t, p, "-workers", "1..2", "-steps", "40", "-paper", "-warmup", "5", "-models", "simulator")
	require.NoError(t, err)
	require.Contains(t, text, "(TF timeline, a recorded 1-worker trace): toy-fig5, batch 32, 20 steps, 1 PS, recorded at 1 Gbit/s, no WIN recorded")
	require.Contains(t, text, "cluster: multiplexed transport (WIN 28 MB)")
}

func TestPredictKinetoAndPipeDream(t *testing.T) {
	t.Parallel()
	kin := filepath.Join(sharedData, "traces", "kineto-hta-sampled_rank-0.json.gz")
	pd := filepath.Join(sharedData, "pipedream-profiles", "alexnet.graph.txt")
	if _, err := os.Stat(kin); err != nil {
		t.Skipf("shared data not available: %v", err)
	}
	text, err := runPredict(t, kin, "-bandwidth", "25Gbps", "-workers", "1,2", "-steps", "20", "-paper", "-warmup", "2", "-profile-steps", "5", "-models", "simulator,cynthia")
	require.NoError(t, err)
	require.Contains(t, text, "(PyTorch Kineto trace → per-layer profile): kineto-hta-sampled_rank-0, batch 2048, 292 layers, 316.2 MB")
	text, err = runPredict(t, pd, "-bandwidth", "10Gbps", "-workers", "1,2", "-steps", "20", "-paper", "-warmup", "2", "-profile-steps", "5", "-model", "AlexNet")
	require.NoError(t, err)
	require.Contains(t, text, "(PipeDream graph → per-layer profile): AlexNet, batch 256")
}

func TestPredictMeasured(t *testing.T) {
	t.Parallel()
	dir, profile, _, _ := toyInputs(t)
	in := filepath.Join(dir, "m.csv")
	require.NoError(t, os.WriteFile(in, []byte("workers,throughput[examples/s],throughput_std[examples/s]\n1,50,1\n2,100,2\n9,1,0\n"), 0o644))
	args := append([]string{profile, "-bandwidth", "1Gbps", "-measured", in}, fast...)
	text, err := runPredict(t, args...)
	require.NoError(t, err)
	require.Contains(t, text, "relative error (predicted − measured)/measured at 1 Gbit/s, %")
	require.Contains(t, text, "measured worker counts [9] are not among the predicted ones")
	require.Contains(t, strings.Join(strings.Fields(text), " "), "mean |error|")

	out, err := runPredict(t, append(args, "-format", "json")...)
	require.NoError(t, err)
	var js struct {
		Runs []struct {
			Models []struct {
				Throughput []float64 `json:"throughput_examples_per_s"`
			} `json:"models"`
		} `json:"runs"`
		Errors []struct {
			Model string    `json:"model"`
			Rel   []float64 `json:"rel_error"`
		} `json:"errors"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &js))
	require.Len(t, js.Errors, 5)
	sim := js.Runs[0].Models[0].Throughput
	require.InDeltaSlice(t, []float64{(sim[0] - 50) / 50, (sim[1] - 100) / 100}, js.Errors[0].Rel, 1e-12)

	// The same rows as an Arrow measurement dataset (pslab import measured-csv).
	arrowIn := filepath.Join(dir, "m.arrow")
	msg, err := runImport(t, "measured-csv", in, "-o", arrowIn, "-model", "toy-fig5", "-batch", "32", "-sync", "asp")
	require.NoError(t, err, msg)
	out2, err := runPredict(t, append([]string{profile, "-bandwidth", "1Gbps", "-measured", arrowIn, "-format", "json"}, fast...)...)
	require.NoError(t, err)
	require.Equal(t, out[strings.Index(out, `"runs"`):], out2[strings.Index(out2, `"runs"`):])
}

func TestPredictErrors(t *testing.T) {
	t.Parallel()
	dir, profile, traceArrow, _ := toyInputs(t)
	meas := filepath.Join(dir, "m.csv")
	require.NoError(t, os.WriteFile(meas, []byte("model,workers,throughput[examples/s]\nother,1,5\nanother,1,5\n"), 0o644))
	measArrow := filepath.Join(dir, "meas.arrow")
	_, err := runImport(t, "measured-csv", meas, "-o", measArrow, "-batch", "32", "-sync", "asp")
	require.NoError(t, err)
	bare := *mustTrace(t, traceArrow) // a timeline without batch and bandwidth
	bare.Meta.Batch, bare.Meta.Bandwidth = 0, 0
	var buf bytes.Buffer
	require.NoError(t, timeline.Write(&buf, &bare))
	bareTL := filepath.Join(dir, "bare.json")
	require.NoError(t, os.WriteFile(bareTL, buf.Bytes(), 0o644))
	plain := filepath.Join(dir, "x.json")
	require.NoError(t, os.WriteFile(plain, []byte(`{"traceEvents": []}`), 0o644))
	bw := []string{"-bandwidth", "1Gbps"}
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "no input file"},
		{[]string{profile, "-format", "xml"}, `-format "xml"`},
		{[]string{profile, "-format", "arrow"}, "-format arrow needs -o <file.arrow>"},
		{[]string{profile, "-figure", "f.pdf"}, "-figure f.pdf: want a .svg or .png"},
		{[]string{profile, "-knee", "0"}, "-knee 0"},
		{[]string{profile}, "-bandwidth is required with a per-layer profile"},
		{[]string{profile, "-bandwidth", "10"}, `-bandwidth: "10": want a bandwidth with a unit`},
		{[]string{profile, "-bandwidth", "10Gbps,1Gbps"}, "ascending"},
		{append([]string{profile, "-workers", "0..3"}, bw...), "-workers"},
		{append([]string{profile, "-models", "oracle"}, bw...), `-models: unknown model "oracle"`},
		{append([]string{profile, "-transport", "udp"}, bw...), `-transport: transport "udp"`},
		{append([]string{profile, "-order", "lifo"}, bw...), `-order: order "lifo"`},
		{append([]string{profile, "-window", "28Mb"}, bw...), "-window"},
		{append([]string{profile, "-jitter", "-1"}, bw...), "-jitter: need a finite value"},
		{append([]string{profile, "-from", "csv"}, bw...), `-from "csv"`},
		{append([]string{filepath.Join(dir, "none.arrow")}, bw...), "none.arrow"},
		{append([]string{measArrow}, bw...), `holds a "measurement" dataset`},
		{append([]string{filepath.Join(dir, "f.pb")}, bw...), "cannot tell the format"},
		{append([]string{plain}, bw...), "neither a Kineto trace"},
		{append([]string{profile, profile}, bw...), "2 input files"},
		{[]string{traceArrow, "-device-speed", "2"}, "-device-speed applies to a per-layer profile"},
		{[]string{traceArrow, "-batch", "64"}, "recorded at batch 32"},
		{[]string{traceArrow, "-ps", "2"}, "recorded with 1 PS"},
		{[]string{bareTL}, "records no batch size; pass -batch"},
		{[]string{bareTL, "-batch", "32"}, "records no bandwidth; pass -bandwidth"},
		{[]string{bareTL, "-batch", "32", "-bandwidth", "1Gbps,2Gbps"}, "give the one it was recorded at"},
		{append([]string{profile, "-measured", meas, "-bandwidth", "1Gbps,2Gbps"}, fast...), "give one -bandwidth"},
		{append([]string{profile, "-measured", "m.txt"}, append(fast, bw...)...), "-measured m.txt: want an .arrow"},
		{append([]string{profile, "-measured", meas}, append(fast, bw...)...), "rows of several models [another other] match batch 32"},
		{append([]string{profile, "-measured", measArrow, "-measured-model", "toy"}, append(fast, bw...)...), `no row measures the prediction's cluster (model "toy", asp, batch 32 per node, 1 PS`},
	} {
		_, err := runPredict(t, c.args...)
		require.ErrorContains(t, err, c.want, "%v", c.args)
	}
}

func mustTrace(t *testing.T, path string) *trace.Trace {
	t.Helper()
	tab, err := dataset.Read(path, dataset.TraceSchema, dataset.Allocator)
	require.NoError(t, err)
	tr, err := dataset.ToTrace(tab)
	require.NoError(t, err)
	return tr
}

// TestPredictMatchesByoExperiment: `pslab predict` with the settings of
// experiments/beyond/byo-kineto.toml (converged estimates, ±2%) reproduces
// the experiment's regression values at W = 16 and 10 Gbps (the same code
// path, one W at a time: an estimate that reached its target does not
// depend on the events bound it ran under).
func TestPredictMatchesByoExperiment(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: a converged 16-worker estimate (0.36 CPU-s); kinds -short checks byo-kineto on its recorded results")
	}
	t.Parallel()
	g, err := golden.Load(filepath.Join(root, "golden", "beyond", "byo-kineto.toml"))
	require.NoError(t, err)
	want := map[string]float64{}
	for _, c := range g.Checks {
		if c.Source == "regression" && c.X == 16 && strings.HasPrefix(c.Series, "10 Gbps: ") {
			want[strings.TrimPrefix(c.Series, "10 Gbps: ")] = c.Expected
		}
	}
	require.Len(t, want, 3)
	out, err := runPredict(t, filepath.Join(root, "datasets", "byo", "kineto-hta-rank0.arrow"), "-bandwidth", "10Gbps",
		"-workers", "16", "-precision", "0.02", "-models", "simulator,mva-hybrid,cynthia", "-mva-phases", "tcpdump", "-format", "json")
	require.NoError(t, err)
	var js struct {
		Runs []struct {
			Models []struct {
				Label      string    `json:"label"`
				Throughput []float64 `json:"throughput_examples_per_s"`
			} `json:"models"`
		} `json:"runs"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &js))
	for _, m := range js.Runs[0].Models {
		require.InDelta(t, want[m.Label], m.Throughput[0], 1e-6*want[m.Label], m.Label)
	}
}

// TestDatasetsBYOIsARebuild: datasets/byo is what `pslab datasets` makes
// from the raw Kineto sample.
func TestDatasetsBYOIsARebuild(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat(sharedData); err != nil {
		t.Skipf("shared data not available: %v", err)
	}
	dir := t.TempDir()
	var log bytes.Buffer
	n, err := buildBYO(dir, sharedData, &log)
	require.NoError(t, err)
	require.Equal(t, 1, n)
	got, err := os.ReadFile(filepath.Join(dir, byoKinetoOut))
	require.NoError(t, err)
	committed, err := os.ReadFile(filepath.Join(root, byoKinetoOut))
	require.NoError(t, err)
	require.True(t, bytes.Equal(got, committed), "%s differs from a rebuild: run pslab datasets", byoKinetoOut)
	tab, err := dataset.Read(filepath.Join(dir, byoKinetoOut), zoo.ProfileSchema, dataset.Allocator)
	require.NoError(t, err)
	require.Contains(t, tab.Provenance.Source, "f4d0062c382f42bd8a74838bcdad1916c7d5d2da")
	require.Contains(t, tab.Provenance.Licence, "MIT")
	require.Equal(t, "0", tab.Provenance.Extra["kineto_rank"])
}

// -overhead-on reaches the simulator: with a large per-transfer overhead,
// queueing it on the processors (processor) serializes it with compute
// and is slower than receive threads (the default) at W = 1; an unknown
// placement
// is refused naming the flag.
func TestPredictOverheadOn(t *testing.T) {
	t.Parallel()
	_, _, traceArrow, _ := toyInputs(t)
	sim := func(extra ...string) []float64 {
		args := []string{traceArrow, "-models", "simulator", "-beta", "0.05", "-format", "json", "-workers", "1..3", "-steps", "40", "-paper", "-warmup", "5"}
		out, err := runPredict(t, append(args, extra...)...)
		require.NoError(t, err)
		var js struct {
			Runs []struct {
				Models []struct {
					Throughput []float64 `json:"throughput_examples_per_s"`
				} `json:"models"`
			} `json:"runs"`
		}
		require.NoError(t, json.Unmarshal([]byte(out), &js))
		require.Len(t, js.Runs, 1)
		return js.Runs[0].Models[0].Throughput
	}
	def, threads, proc := sim(), sim("-overhead-on", "receive-threads"), sim("-overhead-on", "processor")
	require.Equal(t, def, threads, "receive-threads is the default")
	require.Len(t, proc, 3)
	// at W = 1 the worker's processor is the bottleneck and pays the
	// overhead; with more workers the link saturates and the placement
	// changes how transfers interleave, in either direction
	require.Less(t, proc[0], threads[0], "W=1: overhead on the processors must cost throughput")
	_, err := runPredict(t, traceArrow, "-overhead-on", "gpu")
	require.ErrorContains(t, err, "-overhead-on")
}
