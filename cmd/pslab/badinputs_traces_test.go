package main

// Hostile Arrow datasets, TensorFlow timelines and Kineto traces.

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// badArrow predicts from a generated .arrow file (a layer profile, or
// what should be one).
func badArrow(name string, content func(t *testing.T) []byte) badCase {
	return badCase{name: "arrow/" + name, gen: badFileOf("in.arrow", content),
		args: []string{"predict", "$D/in.arrow", "-bandwidth", "1Gbps", "-models", "mva-exact", "-workers", "1..2"},
		want: []string{"$D/in.arrow"}}
}

func badArrowCases() []badCase {
	prof := badProfileBytes
	cut := func(n func(int) int) func(t *testing.T) []byte {
		return func(t *testing.T) []byte { b := prof(t); return b[:n(len(b))] }
	}
	flip := func(f float64) func(t *testing.T) []byte {
		return func(t *testing.T) []byte { return badFlip(prof(t), f) }
	}
	cases := []badCase{
		badArrow("truncated-half", cut(func(n int) int { return n / 2 })),
		badArrow("truncated-last-byte", cut(func(n int) int { return n - 1 })),
		badArrow("truncated-magic-only", cut(func(int) int { return 8 })),
		badArrow("empty", func(*testing.T) []byte { return nil }),
		badArrow("garbage", func(*testing.T) []byte { return badGarbage(3000) }),
		badArrow("parquet", func(t *testing.T) []byte { return badExport(t, "parquet") }),
		badArrow("csv", func(t *testing.T) []byte { return badExport(t, "csv") }),
		badArrow("json", func(*testing.T) []byte { return []byte(`{"schema": "layer profile", "rows": []}`) }),
		badArrow("gzip", func(t *testing.T) []byte { return badGzip(t, prof(t)) }),
		badArrow("ipc-stream", badIPCStream),
		{name: "arrow/symlink-loop", gen: badSymlink("in.arrow", "$D/in.arrow"),
			args: []string{"predict", "$D/in.arrow", "-bandwidth", "1Gbps", "-models", "mva-exact"}, want: []string{"$D/in.arrow"}},
		{name: "arrow/directory", gen: badDir("in.arrow"),
			args: []string{"predict", "$D/in.arrow", "-bandwidth", "1Gbps", "-models", "mva-exact"}, want: []string{"$D/in.arrow"}},
		{name: "arrow/wrong-schema-for-from-trace", gen: func(t *testing.T, d string) { badProfile(t, filepath.Join(d, "in.arrow")) },
			args: []string{"predict", "-from", "trace", "$D/in.arrow", "-models", "mva-exact"}, want: []string{"$D/in.arrow"}},
		{name: "arrow/measured-wrong-schema", gen: func(t *testing.T, d string) {
			badProfile(t, filepath.Join(d, "toy.arrow"))
			badProfile(t, filepath.Join(d, "m.arrow"))
		}, args: []string{"predict", "$D/toy.arrow", "-bandwidth", "1Gbps", "-models", "mva-exact", "-workers", "1..2", "-measured", "$D/m.arrow"},
			want: []string{"-measured", "$D/m.arrow"}},
		{name: "arrow/export-truncated", gen: badFileOf("in.arrow", cut(func(n int) int { return n / 2 })),
			args: []string{"export", "-format", "csv", "$D/in.arrow", "-o", "$D/out.csv"}, want: []string{"$D/in.arrow"}},
		{name: "arrow/export-empty", gen: badFile("in.arrow", nil),
			args: []string{"export", "-format", "parquet", "$D/in.arrow", "-o", "$D/out.parquet"}, want: []string{"$D/in.arrow"}},
		{name: "arrow/export-flipped", gen: badFileOf("in.arrow", flip(0.5)),
			args: []string{"export", "-format", "csv", "$D/in.arrow", "-o", "$D/out.csv"}, want: []string{"$D/in.arrow"}},
		{name: "arrow/export-parquet-input", gen: badFileOf("in.arrow", func(t *testing.T) []byte { return badExport(t, "parquet") }),
			args: []string{"export", "-format", "csv", "$D/in.arrow", "-o", "$D/out.csv"}, want: []string{"$D/in.arrow"}},
		{name: "arrow/provision-catalogue-truncated", gen: badFileOf("cat.arrow", func(t *testing.T) []byte {
			b := badRead(t, filepath.Join(root, "datasets/cynthia/instances.arrow"))
			return b[:len(b)/2]
		}), args: []string{"provision", "-root", root, "-workload", "cifar10", "-loss", "0.8", "-time", "90", "-instances", "$D/cat.arrow"},
			want: []string{"-instances", "$D/cat.arrow"}},
		{name: "arrow/provision-catalogue-wrong-schema", gen: func(t *testing.T, d string) { badProfile(t, filepath.Join(d, "cat.arrow")) },
			args: []string{"provision", "-root", root, "-workload", "cifar10", "-loss", "0.8", "-time", "90", "-instances", "$D/cat.arrow"},
			want: []string{"-instances", "$D/cat.arrow"}},
	}
	for _, f := range []float64{0, 0.1, 0.25, 0.4, 0.5, 0.6, 0.75, 0.9, 0.97, 0.995} {
		cases = append(cases, badArrow(fmt.Sprintf("flipped-at-%g", f), flip(f)))
	}
	return cases
}

// ---- TF timelines ----

// badTL imports a timeline fixture.
func badTL(name string, more ...string) badCase {
	return badCase{name: "tf-timeline/" + name, files: map[string]string{name + ".json": badFixture},
		args: []string{"import", "tf-timeline", "$D/" + name + ".json", "-o", "$D/out.arrow"},
		want: append([]string{"$D/" + name + ".json"}, more...)}
}

// badTLGen imports a generated timeline file.
func badTLGen(name, file string, content func(t *testing.T) []byte, more ...string) badCase {
	return badCase{name: "tf-timeline/" + name, gen: badFileOf(file, content),
		args: []string{"import", "tf-timeline", "$D/" + file, "-o", "$D/out.arrow"},
		want: append([]string{"$D/" + file}, more...)}
}

func badTimelineCases() []badCase {
	return []badCase{
		badTL("truncated"),
		badTL("not-json"),
		badTL("empty"),
		badTL("top-level-array"),
		badTL("no-events"),
		badTL("huge-ts", "event 3"),
		badTL("huge-dur", "event 3"),
		badTL("negative-dur", "event 3"),
		badTL("nan-literal", "event 3"),
		badTL("ts-string", "event 3"),
		badTL("bytes-negative", "bytes"),
		badTL("bytes-garbage", "bytes"),
		badTL("bytes-huge", "bytes"),
		badTL("cyclic-inputs", "w/down"),
		badTL("duplicate-op", "w/fwd"),
		badTL("two-workers", "event 4"),
		badTL("metadata-wrong-type", "batch"),
		badTLGen("deep-nesting", "deep.json", func(*testing.T) []byte {
			return []byte(`{"traceEvents":[{"ph":"X","name":"x","args":{"deep":` + badNested(100000) + `}}]}`)
		}),
		badTLGen("gz-truncated", "t.json.gz", func(t *testing.T) []byte { b := badGzip(t, badTimelineBytes(t)); return b[:len(b)/2] }),
		badTLGen("gz-garbage", "t.json.gz", func(t *testing.T) []byte { return badGzip(t, badGarbage(5000)) }),
		badTLGen("gz-huge-value", "t.json.gz", func(t *testing.T) []byte {
			return badGzip(t, []byte(`{"traceEvents":[{"ph":"X","name":"`+strings.Repeat("a", 65<<20)+`"}]}`))
		}, "MiB"),
		badTLGen("gz-not-gzip", "t.json.gz", func(*testing.T) []byte { return append([]byte{0x1f, 0x8b}, badGarbage(100)...) }),
		{name: "tf-timeline/predict-truncated", gen: badFileOf("t.json", func(t *testing.T) []byte { b := badTimelineBytes(t); return b[:len(b)*2/3] }),
			args: []string{"predict", "$D/t.json", "-models", "mva-exact", "-workers", "1..2"}, want: []string{"$D/t.json"}},
	}
}

// ---- Kineto traces ----

// badKT imports a Kineto fixture.
func badKT(name string, more ...string) badCase {
	return badCase{name: "kineto/" + name, files: map[string]string{name + ".json": badFixture},
		args: []string{"import", "kineto", "$D/" + name + ".json", "-o", "$D/out.arrow"},
		want: append([]string{"$D/" + name + ".json"}, more...)}
}

// badKinetoText is a valid one-step Kineto trace (the base of the kineto
// fixtures): a linear and a relu layer with their backward ops and kernels.
const badKinetoText = `{"schemaVersion":1,"distributedInfo":{"backend":"nccl","rank":0,"world_size":1},"traceEvents":[
{"ph":"X","cat":"user_annotation","name":"ProfilerStep#1","pid":1,"tid":10,"ts":1000,"dur":200},
{"ph":"X","cat":"cpu_op","name":"aten::linear","pid":1,"tid":10,"ts":1000,"dur":50,"args":{"Input Dims":[[32, 100], [10, 100], [10]],"Input type":["float","float","float"],"Sequence number":5}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":10,"ts":1010,"dur":3,"args":{"correlation":101}},
{"ph":"X","cat":"cpu_op","name":"aten::relu","pid":1,"tid":10,"ts":1060,"dur":10,"args":{"Input Dims":[[32, 10]],"Sequence number":6}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":10,"ts":1061,"dur":3,"args":{"correlation":102}},
{"ph":"X","cat":"cpu_op","name":"autograd::engine::evaluate_function: ReluBackward0","pid":1,"tid":20,"ts":1100,"dur":10,"args":{"Sequence number":6}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":20,"ts":1101,"dur":3,"args":{"correlation":103}},
{"ph":"X","cat":"cpu_op","name":"autograd::engine::evaluate_function: AddmmBackward0","pid":1,"tid":20,"ts":1120,"dur":30,"args":{"Sequence number":5}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":20,"ts":1122,"dur":3,"args":{"correlation":104}},
{"ph":"X","cat":"kernel","name":"gemm","pid":0,"tid":7,"ts":1015,"dur":30,"args":{"correlation":101}},
{"ph":"X","cat":"kernel","name":"relu","pid":0,"tid":7,"ts":1065,"dur":4,"args":{"correlation":102}},
{"ph":"X","cat":"kernel","name":"relu_bwd","pid":0,"tid":7,"ts":1105,"dur":6,"args":{"correlation":103}},
{"ph":"X","cat":"kernel","name":"gemm_bwd","pid":0,"tid":7,"ts":1125,"dur":50,"args":{"correlation":104}}
]}
`

func badKinetoCases() []badCase {
	valid := func(*testing.T) []byte { return []byte(badKinetoText) }
	gen := func(name, file string, content func(t *testing.T) []byte, args []string, more ...string) badCase {
		return badCase{name: "kineto/" + name, gen: badFileOf(file, content), args: args, want: append([]string{"$D/" + file}, more...)}
	}
	imp := func(file string, flags ...string) []string {
		return append([]string{"import", "kineto", "$D/" + file, "-o", "$D/out.arrow"}, flags...)
	}
	return []badCase{
		badKT("truncated"),
		badKT("top-level-array"),
		badKT("huge-dur", "event 1"),
		badKT("negative-dur", "event 1"),
		badKT("nan-literal", "event 3"),
		badKT("no-cpu-ops"),
		badKT("seq-string", "Sequence number"),
		badKT("input-dims-string", "Input Dims"),
		badKT("input-dims-huge", "Input Dims"),
		badKT("dur-string", "event 3"),
		badKT("ts-negative", "event 0"),
		gen("deep-nesting", "deep.json", func(*testing.T) []byte {
			return []byte(`{"traceEvents":[{"ph":"X","cat":"cpu_op","name":"x","args":{"Input Dims":` + badNested(100000) + `}}]}`)
		}, imp("deep.json")),
		gen("gz-truncated", "k.json.gz", func(t *testing.T) []byte { b := badGzip(t, valid(t)); return b[:len(b)/2] }, imp("k.json.gz")),
		gen("gz-garbage", "k.json.gz", func(t *testing.T) []byte { return badGzip(t, badGarbage(5000)) }, imp("k.json.gz")),
		gen("step-out-of-range", "k.json", valid, imp("k.json", "-step", "99"), "-step"),
		gen("step-negative", "k.json", valid, imp("k.json", "-step", "-1"), "-step"),
		gen("clock-unknown", "k.json", valid, imp("k.json", "-clock", "sundial"), "-clock"),
		gen("batch-negative", "k.json", valid, imp("k.json", "-batch", "-5"), "-batch"),
		{name: "kineto/two-files", gen: badGens(badFileOf("a.json", valid), badFileOf("b.json", valid)),
			args: []string{"import", "kineto", "$D/a.json", "$D/b.json", "-o", "$D/out.arrow"}, want: []string{"2 files"}},
		gen("predict-truncated", "k.json", func(t *testing.T) []byte { b := valid(t); return b[:len(b)*2/3] },
			[]string{"predict", "-from", "kineto", "$D/k.json", "-bandwidth", "1Gbps", "-models", "mva-exact", "-workers", "1..2"}),
	}
}
