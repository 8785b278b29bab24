package main

// Valid base inputs of the hostile-input corpus, and the generators of
// the inputs it derives from them (binary, large or computed files that
// are not kept as fixtures under scripts/badinputs/).

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/ipc"
	"github.com/apache/arrow/go/v17/arrow/memory"

	"pslab/engine/dataset"
	"pslab/engine/export"
	"pslab/engine/timeline"
	"pslab/engine/zoo"
)

// badExperimentText is the valid experiment every experiment fixture
// changes in one place: mascots18-fig7's MVA curves, as
// experiments/mascots18/<name>.toml.
func badExperimentText(name string) string {
	return strings.ReplaceAll(`id = "mascots18-NAME"
title = "badinputs: MVA throughput of the 8 MB model"
paper = "mascots18"
kind = "mva-throughput"
description = "A copy of mascots18-fig7 with one hostile change (scripts/badinputs/README.md)."
status = "partial"
seed = 1
models = ["exact", "approximate"]

[inputs]
reported_phases = "datasets/reported/mascots18/fig7_phases.arrow"

[sweep]
var = "workers"
from = 1
to = 10

[limits]
workers = 1000

[plot]
x_label = "workers K (count)"
y_label = "throughput (mini-batches/s)"

[params]
bound = true

[params.reported_profile]
id = "fc8MB"
name = "8 MB fully-connected model"
label = "8 MB model"
batch = 50
`, "NAME", name)
}

// badGoldenText is the valid golden file of badExperimentText, the base
// of the golden fixtures.
const badGoldenText = `[[check]]
metric = "x.fc8MB.exact.k1"
expected = 5.235602094240838
tol = 1e-9
source = "derived: X(1) = 1/(S^W + S^U + S^S + S^D) = 1/0.191"

[[check]]
metric = "bound.fc8MB"
expected = 13.88888888888889
tol = 1e-9
source = "derived: bottleneck bound 1/max(S^U, S^S, S^D) = 1/0.072"
`

// badPhases copies the repository's reported Fig. 7 phases, the input of
// badExperimentText, under d.
func badPhases(t *testing.T, d string) {
	t.Helper()
	const rel = "datasets/reported/mascots18/fig7_phases.arrow"
	badWrite(t, filepath.Join(d, rel), badRead(t, filepath.Join(root, rel)))
}

// badRead reads a file.
func badRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// badProfile writes the icpe20 Fig. 5 toy as a per-layer profile dataset.
func badProfile(t *testing.T, path string) {
	t.Helper()
	pt, err := zoo.ProfileTable(zoo.Toy(), dataset.Provenance{Origin: dataset.Derived, Source: "zoo.Toy"})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := dataset.Write(path, pt, dataset.Allocator); err != nil {
		t.Fatal(err)
	}
}

// badProfileBytes is badProfile's file content.
func badProfileBytes(t *testing.T) []byte {
	t.Helper()
	p := filepath.Join(badTempDir(t), "toy.arrow")
	badProfile(t, p)
	return badRead(t, p)
}

// badTimelineBytes is a valid TF timeline: 2 synthesized steps of the toy.
func badTimelineBytes(t *testing.T) []byte {
	t.Helper()
	tr, err := zoo.Synthesize(zoo.Toy(), zoo.Options{Steps: 2, Bandwidth: 125e6, Window: 10e6, Jitter: 0.05, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := timeline.Write(&buf, tr); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// badGzip compresses b.
func badGzip(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := zw.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// badGarbage is n deterministic pseudo-random bytes (xorshift), never a
// valid file of any format.
func badGarbage(n int) []byte {
	b := make([]byte, n)
	x := uint64(0x9e3779b97f4a7c15)
	for i := range b {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		b[i] = byte(x >> 32)
	}
	return b
}

// badNested is depth nested JSON arrays (also a TOML array).
func badNested(depth int) string {
	return strings.Repeat("[", depth) + strings.Repeat("]", depth)
}

// badFlip returns the Arrow file b with a byte inverted: the first at or
// after fraction f of its length whose inversion changes what a reader
// would see. Bytes no reader looks at (padding) are skipped: a file damaged
// only there reads as the same content, which is right, and
// engine/dataset's TestDigestRefusesEveryChange covers them.
func badFlip(b []byte, f float64) []byte {
	want, err := dataset.DecodeArrow(b, memory.NewGoAllocator())
	if err != nil {
		panic(fmt.Sprintf("badFlip: the original does not read: %v", err))
	}
	defer want.Release()
	for i := min(int(f*float64(len(b))), len(b)-1); i < len(b); i++ {
		out := bytes.Clone(b)
		out[i] ^= 0xff
		if !badSameContent(want, out) {
			return out
		}
	}
	panic("badFlip: no byte after the fraction changes the content")
}

// badSameContent reports whether the Arrow file b, read without any of
// pslab's checks, has want's schema, metadata and values (false if it
// does not read at all).
func badSameContent(want arrow.Table, b []byte) (same bool) {
	defer func() {
		if recover() != nil {
			same = false
		}
	}()
	r, err := ipc.NewFileReader(bytes.NewReader(b), ipc.WithAllocator(memory.NewGoAllocator()))
	if err != nil {
		return false
	}
	defer r.Close()
	var recs []arrow.Record
	for k := 0; k < r.NumRecords(); k++ {
		rec, err := r.RecordAt(k)
		if err != nil {
			return false
		}
		defer rec.Release()
		recs = append(recs, rec)
	}
	got := array.NewTableFromRecords(r.Schema(), recs)
	defer got.Release()
	return array.TableEqual(want, got) && want.Schema().Metadata().Equal(got.Schema().Metadata())
}

// badExport converts the toy profile to another format with pslab's own
// exporter (Parquet, CSV) and returns the bytes.
func badExport(t *testing.T, format string) []byte {
	t.Helper()
	d := badTempDir(t)
	in, out := filepath.Join(d, "toy.arrow"), filepath.Join(d, "toy.out")
	badProfile(t, in)
	if err := export.File(format, in, out, dataset.Allocator); err != nil {
		t.Fatal(err)
	}
	return badRead(t, out)
}

// badIPCStream re-encodes the toy profile as an Arrow IPC stream (no
// file magic, no footer) instead of the IPC file format pslab writes.
func badIPCStream(t *testing.T) []byte {
	t.Helper()
	r, err := ipc.NewFileReader(bytes.NewReader(badProfileBytes(t)))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var buf bytes.Buffer
	w := ipc.NewWriter(&buf, ipc.WithSchema(r.Schema()))
	for i := range r.NumRecords() {
		rec, err := r.Record(i)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// badBedText is a valid testbed collection file (the base of the testbed
// fixtures): one toy configuration, which -dry validates without a
// profile directory.
const badBedText = `[defaults]
profile_dir = "datasets/zoo"
batch = 0
device_speed = 1
bytes_scale = 1
bandwidth_mbit = 1000
servers = 1
sync = "asp"
transport = "multiplexed"
order = "default"
seed = 1
window = 70000
conn_window = 70000
workers = [1, 2]
repetitions = 3
max_repetitions = 4
steps = 100
average = 50
profile_steps = 20
phase_skip = 1

[calibration]
message_cost_us_multiplexed = 73
message_cost_us_ordered = 32
rtt_us = 93
step_cv = 0.10

[[config]]
name = "toy-mux"
model = "toy"
`

// badTimelineText is a valid one-step TF timeline (the base of the
// tf-timeline fixtures): a downlink, forward and backward on the worker,
// the uplink and the update on the PS.
const badTimelineText = `{"otherData":{"model":"tiny","batch":32,"bandwidth_bytes_per_s":125000000,"window_bytes":10000000,"servers":1},"traceEvents":[
{"ph":"M","name":"process_name","pid":1,"tid":0,"args":{"name":"/job:worker/replica:0/task:0/device:CPU:0 Compute"}},
{"ph":"M","name":"process_name","pid":2,"tid":0,"args":{"name":"/job:ps/replica:0/task:0/device:CPU:0 Compute"}},
{"ph":"X","cat":"Op","name":"_Recv","pid":1,"tid":0,"ts":0,"dur":1000,"args":{"name":"w/down","op":"_Recv","bytes":1000000}},
{"ph":"X","cat":"Op","name":"Compute","pid":1,"tid":0,"ts":1000,"dur":500,"args":{"name":"w/fwd","op":"Compute","input0":"w/down"}},
{"ph":"X","cat":"Op","name":"Compute","pid":1,"tid":0,"ts":1500,"dur":800,"args":{"name":"w/bwd","op":"Compute","input0":"w/fwd"}},
{"ph":"X","cat":"Op","name":"_Recv","pid":2,"tid":0,"ts":2300,"dur":1000,"args":{"name":"w/up","op":"_Recv","input0":"w/bwd","bytes":1000000}},
{"ph":"X","cat":"Op","name":"ApplyGradient","pid":2,"tid":0,"ts":3300,"dur":100,"args":{"name":"w/update","op":"ApplyGradient","input0":"w/up"}}
]}
`

// badMeasuredText is a valid measured CSV (the base of the measured-csv
// fixtures).
const badMeasuredText = `workers,throughput[examples/s],throughput_std[examples/s]
1,250,5
2,480,8
`

// badPipeDreamText is a valid PipeDream graph (the base of the pipedream
// fixtures): Input (batch 32 of 224² images), a linear layer and a ReLU.
const badPipeDreamText = "node1 -- Input -- forward_compute_time=0.000, backward_compute_time=0.000, activation_size=19267584.000, parameter_size=0.000\n" +
	"node2 -- Linear(in_features=1000, out_features=1000) -- forward_compute_time=1.500, backward_compute_time=3.000, activation_size=128000.000, parameter_size=4004000.000\n" +
	"node3 -- ReLU(inplace) -- forward_compute_time=0.100, backward_compute_time=0.200, activation_size=128000.000, parameter_size=0.000\n" +
	"\tnode1 -- node2\n" +
	"\tnode2 -- node3\n"

// badShardText is a valid shard.json of a pslab run shard with no output
// files (the base of the shard fixtures).
const badShardText = `{
  "command": ["run", "-root", "elsewhere"],
  "index": 0,
  "count": 1,
  "revision": "unknown",
  "modified": false,
  "items": ["mascots18-x"],
  "total": 1,
  "files": []
}
`
