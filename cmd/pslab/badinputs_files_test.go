package main

// Hostile files of every kind pslab reads: experiment and golden TOML,
// Arrow datasets, TF timelines, Kineto traces, measured CSV, PipeDream
// graphs, testbed configurations and shard directories. Text fixtures are
// under scripts/badinputs/<kind>/; the rest is generated here.

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pslab/engine/shard"
)

// badGens runs several generators.
func badGens(gens ...func(t *testing.T, d string)) func(t *testing.T, d string) {
	return func(t *testing.T, d string) {
		for _, g := range gens {
			g(t, d)
		}
	}
}

// badFile is a generator writing fixed content at d/rel.
func badFile(rel string, b []byte) func(t *testing.T, d string) {
	return func(t *testing.T, d string) { badWrite(t, filepath.Join(d, rel), b) }
}

// badFileOf is a generator writing content computed at run time.
func badFileOf(rel string, f func(t *testing.T) []byte) func(t *testing.T, d string) {
	return func(t *testing.T, d string) { badWrite(t, filepath.Join(d, rel), f(t)) }
}

// badSymlink is a generator making d/rel a symbolic link to target
// ("$D" expanded).
func badSymlink(rel, target string) func(t *testing.T, d string) {
	return func(t *testing.T, d string) {
		p := filepath.Join(d, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(strings.ReplaceAll(target, "$D", d), p); err != nil {
			t.Fatal(err)
		}
	}
}

// badDir is a generator making d/rel a directory.
func badDir(rel string) func(t *testing.T, d string) {
	return func(t *testing.T, d string) {
		if err := os.MkdirAll(filepath.Join(d, rel), 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

// at is "file:line", the location a message must name.
func at(file string, line int) string { return fmt.Sprintf("%s:%d", file, line) }

// ---- experiment TOML ----

// badRunArgs runs the experiment files (paths under $D) with pslab run, so
// that an experiment accepted by mistake would write figures/ under $D.
func badRunArgs(files ...string) []string {
	args := []string{"run", "-j", "1", "-root", "$D"}
	for _, f := range files {
		args = append(args, "$D/"+f)
	}
	return args
}

// badExp is an experiment fixture run with a valid golden file and input.
func badExp(name string, want ...string) badCase {
	spec := "experiments/mascots18/" + name + ".toml"
	return badCase{name: "experiment/" + name,
		files: map[string]string{spec: badFixture, "golden/mascots18/" + name + ".toml": badGoldenText},
		gen:   badPhases, args: badRunArgs(spec), want: want}
}

// badExpGen is a generated experiment (no fixture) run like badExp.
func badExpGen(name string, spec string, want ...string) badCase {
	c := badExp(name, want...)
	c.files["experiments/mascots18/"+name+".toml"] = spec
	return c
}

func badExperimentCases() []badCase {
	e := func(name string, line int, more ...string) badCase {
		return badExp(name, append([]string{at(name+".toml", line)}, more...)...)
	}
	withGen := func(c badCase, g func(t *testing.T, d string)) badCase {
		c.gen = badGens(c.gen, g)
		return c
	}
	noGolden := badExp("no-golden", "golden/mascots18/no-golden.toml")
	delete(noGolden.files, "golden/mascots18/no-golden.toml")
	deep := strings.Replace(badExperimentText("deep-nesting-params"), "bound = true\n", "bound = true\ndeep = "+badNested(100000)+"\n", 1)
	return []badCase{
		e("syntax-unterminated-string", 3),
		e("syntax-missing-equals", 8),
		e("syntax-unclosed-table", 14),
		e("syntax-control-bytes", 8),
		e("syntax-invalid-utf8", 32),
		e("empty", 1, `"id"`),
		e("unknown-key-top", 3, "titel"),
		e("unknown-key-sweep", 16, "form"),
		e("unknown-key-plot", 23, "x_lable"),
		e("unknown-key-limits", 20, "worker"),
		e("unknown-key-params", 28, "bogus"),
		e("unknown-key-params-nested", 34, "colour"),
		e("type-seed-string", 8, "seed"),
		e("type-seed-negative", 8, "seed"),
		e("type-seed-float", 8, "seed"),
		e("type-sweep-string", 16, "from"),
		e("type-models-string", 9, "models"),
		e("type-inputs-int", 12, "reported_phases"),
		e("type-params-bool", 27, "bound"),
		e("type-limits-string", 20, "workers"),
		e("type-id-table", 2, "id"),
		e("sweep-to-nan", 17, "sweep.to"),
		e("sweep-from-inf", 16, "sweep.from"),
		e("sweep-from-neg-inf", 16, "sweep.from"),
		e("sweep-step-negative", 18, "sweep.step"),
		e("sweep-values-nan", 16, "sweep.values"),
		e("sweep-to-below-from", 14, "sweep"),
		e("sweep-step-tiny", 18, "sweep.step"),
		e("sweep-to-huge", 14, "sweep"),
		e("sweep-values-fractional", 14, "sweep"),
		e("sweep-from-negative", 14, "sweep"),
		e("sweep-over-limit", 14, "limit"),
		e("limits-workers-negative", 20, "workers"),
		e("limits-events-nan", 21, "events"),
		e("limits-events-negative", 21, "events"),
		e("limits-model-work-inf", 21, "model_work"),
		e("params-servers-zero", 28, "servers"),
		e("params-servers-repeated", 28, "servers"),
		e("params-linear-tol-nan", 28, "linear_tol"),
		e("params-linear-tol-inf", 28, "linear_tol"),
		e("params-y-unknown", 28, "bananas"),
		e("params-batch-negative", 29, "batch"),
		e("params-batch-huge", 33, "batch"),
		e("params-workers-over-limit", 28, "params.max_workers"),
		e("params-steps-nan", 28, "params.steps"),
		e("params-plotted-unknown", 28, "oracle"),
		e("inputs-parent", 12, "reported_phases"),
		e("inputs-absolute", 12, "reported_phases"),
		e("inputs-missing-file", 12, "none.arrow"),
		e("inputs-empty-path", 12, "reported_phases"),
		e("inputs-directory", 12, "reported_phases"),
		e("inputs-unknown-name", 13, "measurd"),
		e("inputs-missing-required", 25, "reported_phases"),
		withGen(e("inputs-symlink-out", 12, "link.arrow"), badSymlink("datasets/link.arrow", "/etc/passwd")),
		withGen(e("inputs-wrong-schema", 12, "profile.arrow"), func(t *testing.T, d string) { badProfile(t, filepath.Join(d, "datasets/profile.arrow")) }),
		withGen(e("inputs-truncated-arrow", 12, "truncated.arrow"), badFileOf("datasets/truncated.arrow", func(t *testing.T) []byte {
			b := badProfileBytes(t)
			return b[:len(b)/2]
		})),
		e("dup-key", 9, "seed"),
		e("dup-table", 22, "sweep"),
		e("id-mismatch", 2, "mascots18-other"),
		e("paper-unknown", 4, "neurips"),
		e("paper-dir-mismatch", 4, "mascots18"),
		e("status-unknown", 7, "done"),
		e("kind-unknown", 5, "kind"),
		e("models-unknown", 9, "oracle"),
		e("plot-type-unknown", 23, "pie"),
		e("plot-legend-unknown", 23, "middle"),
		e("plot-bar-log", 24, "log y"),
		e("missing-x-label", 22, "plot.x_label"),
		noGolden,
		badExpGen("deep-nesting-params", deep, at("deep-nesting-params.toml", 27), "params.deep"),
		{name: "experiment/dup-id-two-files", gen: badPhases,
			files: map[string]string{"experiments/mascots18/dupid.toml": badExperimentText("dupid"), "golden/mascots18/dupid.toml": badGoldenText,
				"copy/mascots18/dupid.toml": badExperimentText("dupid")},
			args: badRunArgs("experiments/mascots18/dupid.toml", "copy/mascots18/dupid.toml"),
			want: []string{"$D/copy/mascots18/dupid.toml", "mascots18-dupid"}},
		{name: "experiment/same-file-twice", gen: badPhases,
			files: map[string]string{"experiments/mascots18/twice.toml": badExperimentText("twice"), "golden/mascots18/twice.toml": badGoldenText},
			args:  badRunArgs("experiments/mascots18/twice.toml", "experiments/mascots18/twice.toml"),
			want:  []string{"$D/experiments/mascots18/twice.toml", "twice"}},
		{name: "experiment/figures-is-a-file", gen: badGens(badPhases, badFile("figures", []byte("not a directory\n"))),
			files: map[string]string{"experiments/mascots18/blocked.toml": badExperimentText("blocked"), "golden/mascots18/blocked.toml": badGoldenText},
			args:  badRunArgs("experiments/mascots18/blocked.toml"), want: []string{"$D/figures"}},
		{name: "experiment/file-missing", args: badRunArgs("experiments/mascots18/none.toml"), want: []string{"$D/experiments/mascots18/none.toml"}},
		{name: "experiment/no-experiments", gen: badDir("experiments"), args: []string{"run", "-root", "$D"}, want: []string{"$D/experiments"}},
		{name: "experiment/dir-named-toml", gen: badDir("experiments/mascots18/x.toml"),
			args: badRunArgs("experiments/mascots18/x.toml"), want: []string{"$D/experiments/mascots18/x.toml"}},
		{name: "experiment/binary-garbage", gen: badGens(badPhases, badFile("experiments/mascots18/garbage.toml", badGarbage(4096))),
			files: map[string]string{"golden/mascots18/garbage.toml": badGoldenText},
			args:  badRunArgs("experiments/mascots18/garbage.toml"), want: []string{"garbage.toml:"}},
	}
}

// ---- golden TOML ----

// badGold is a golden fixture checking a valid experiment.
func badGold(name string, want ...string) badCase {
	spec := "experiments/mascots18/" + name + ".toml"
	return badCase{name: "golden/" + name,
		files: map[string]string{spec: badExperimentText(name), "golden/mascots18/" + name + ".toml": badFixture},
		gen:   badPhases, args: badRunArgs(spec), want: want}
}

func badGoldenCases() []badCase {
	g := func(name string, line int, more ...string) badCase {
		return badGold(name, append([]string{at("golden/mascots18/"+name+".toml", line)}, more...)...)
	}
	file := func(name string) string { return "golden/mascots18/" + name + ".toml" }
	dir := badGold("is-directory", file("is-directory"))
	delete(dir.files, file("is-directory"))
	dir.gen = badGens(badPhases, badDir(file("is-directory")))
	garbage := badGold("binary-garbage", file("binary-garbage"))
	delete(garbage.files, file("binary-garbage"))
	garbage.gen = badGens(badPhases, badFile(file("binary-garbage"), badGarbage(4096)))
	return []badCase{
		g("syntax", 5),
		badGold("empty", file("empty"), "[[check]]"),
		g("unknown-key", 4, "expect"),
		g("metric-and-series", 2, "check 0"),
		g("neither-metric-nor-series", 2, "check 0"),
		g("op-unknown", 2, "approximately"),
		g("tol-negative", 2, "check 0"),
		g("tol-nan", 2, "check 0"),
		g("expected-nan", 2, "check 0"),
		g("expected-inf", 2, "check 0"),
		g("expected-string", 4, "expected"),
		g("tol-kind-unknown", 2, "percent"),
		g("source-unknown", 2, "source"),
		g("regression-op", 2, "regression"),
		g("regression-deviation", 2, "deviation"),
		g("pinned-nan", 2, "pinned"),
		g("pinned-tol-huge", 2, "pinned_tol"),
		g("interval-series", 2, "interval"),
		g("inconclusive-no-interval", 2, "inconclusive"),
		badGold("metric-missing", file("metric-missing"), "x.fc8MB.oracle.k1"),
		badGold("series-x-nan", file("series-x-nan"), "NaN"),
		g("check-table", 8, "check"),
		g("second-check-bad", 8, "check 1"),
		dir,
		garbage,
	}
}

// ---- Arrow datasets ----

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

// ---- measured CSV ----

// badCSV imports a measured-CSV fixture.
func badCSV(name string, line int, more ...string) badCase {
	w := "$D/" + name + ".csv"
	if line > 0 {
		w = at(w, line)
	}
	return badCase{name: "measured-csv/" + name, files: map[string]string{name + ".csv": badFixture},
		args: []string{"import", "measured-csv", "$D/" + name + ".csv", "-o", "$D/out.arrow", "-model", "m", "-batch", "32", "-sync", "asp"},
		want: append([]string{w}, more...)}
}

func badMeasuredCases() []badCase {
	return []badCase{
		badCSV("empty", 0),
		badCSV("header-only", 0, "no measurements"),
		badCSV("no-throughput", 1, "throughput"),
		badCSV("throughput-no-unit", 1, "throughput"),
		badCSV("unit-unknown", 1, "parsecs"),
		badCSV("throughput-negative", 2, "throughput"),
		badCSV("throughput-nan", 2, "throughput"),
		badCSV("throughput-inf", 3, "throughput"),
		badCSV("throughput-huge", 3, "throughput"),
		badCSV("workers-zero", 2, "workers"),
		badCSV("workers-fractional", 3, "workers"),
		badCSV("workers-huge", 3, "workers"),
		badCSV("bare-quote", 3),
		badCSV("ragged-row", 3),
		badCSV("unknown-column", 1, "wrokers"),
		badCSV("duplicate-column", 1, "throughput"),
		badCSV("workers-with-unit", 1, "workers"),
		badCSV("unit-row-mismatch", 2, "throughput"),
		{name: "measured-csv/binary-garbage", gen: badFile("g.csv", badGarbage(2000)),
			args: []string{"import", "measured-csv", "$D/g.csv", "-o", "$D/out.arrow", "-model", "m", "-batch", "32", "-sync", "asp"},
			want: []string{"$D/g.csv"}},
		{name: "measured-csv/predict-measured", files: map[string]string{"m.csv": "workers,throughput[examples/s]\n1,-5\n"},
			gen:  func(t *testing.T, d string) { badProfile(t, filepath.Join(d, "toy.arrow")) },
			args: []string{"predict", "$D/toy.arrow", "-bandwidth", "1Gbps", "-models", "mva-exact", "-workers", "1..2", "-measured", "$D/m.csv"},
			want: []string{"-measured", at("$D/m.csv", 2)}},
	}
}

// ---- PipeDream graph.txt ----

// badPD predicts from a PipeDream fixture (named <case>.graph.txt).
func badPD(name string, line int, more ...string) badCase {
	w := name + ".graph.txt"
	if line > 0 {
		w = at(w, line)
	}
	return badCase{name: "pipedream/" + name, files: map[string]string{name + ".graph.txt": badFixture},
		args: []string{"predict", "$D/" + name + ".graph.txt", "-bandwidth", "1Gbps", "-models", "mva-exact", "-workers", "1..2"},
		want: append([]string{w}, more...)}
}

func badPipeDreamCases() []badCase {
	pd := func(file string) []string {
		return []string{"predict", "$D/" + file, "-bandwidth", "1Gbps", "-models", "mva-exact", "-workers", "1..2"}
	}
	long := "node1 -- " + strings.Repeat("x", 2<<20) + " -- forward_compute_time=0.000, backward_compute_time=0.000, activation_size=19267584.000, parameter_size=0.000\n"
	return []badCase{
		badPD("empty", 0, "no nodes"),
		badPD("malformed-node", 3),
		badPD("negative-time", 2, "forward_compute_time"),
		badPD("nan-time", 2, "backward_compute_time"),
		badPD("inf-size", 2, "parameter_size"),
		badPD("huge-size", 2, "parameter_size"),
		badPD("fractional-size", 2, "parameter_size"),
		badPD("unknown-field", 3, "colour"),
		badPD("repeated-field", 2, "activation_size"),
		badPD("cycle", 6, "cycle"),
		badPD("self-loop", 6, "node3"),
		badPD("unknown-node", 6, "node99"),
		badPD("no-input", 0, "Input"),
		badPD("two-inputs", 3, "Input"),
		badPD("duplicate-node", 3, "node2"),
		badPD("duplicate-edge", 6, "node2 -- node3"),
		badPD("input-not-whole-batch", 1, "19267585"),
		badPD("malformed-edge", 5),
		{name: "pipedream/long-line", gen: badFile("long.graph.txt", []byte(long)), args: pd("long.graph.txt"), want: []string{"long.graph.txt:1"}},
		{name: "pipedream/binary-garbage", gen: badFile("g.graph.txt", badGarbage(3000)), args: pd("g.graph.txt"), want: []string{"g.graph.txt:"}},
		{name: "pipedream/directory", gen: badDir("d.graph.txt"), args: pd("d.graph.txt"), want: []string{"$D/d.graph.txt"}},
	}
}

// ---- testbed configurations ----

// badBedArgs validates $D/configs.toml without running anything: -dry
// returns before the network is opened or a process started.
var badBedArgs = []string{"testbed", "run", "-dry", "-network", "loopback", "-root", "$D", "-config", "$D/configs.toml"}

// badBed validates a testbed configuration fixture.
func badBed(name string, line int, more ...string) badCase {
	w := "$D/configs.toml"
	if line > 0 {
		w = at(w, line)
	}
	return badCase{name: "testbed/" + name, files: map[string]string{"configs.toml": badFixture}, args: badBedArgs,
		want: append([]string{w}, more...)}
}

// badBedValid is the valid configuration the testbed fixtures change.
func badBedValid(*testing.T) []byte { return []byte(badBedText) }

func badTestbedCases() []badCase {
	flagCase := func(name string, flags []string, want ...string) badCase {
		return badCase{name: "testbed/" + name, gen: badFileOf("configs.toml", badBedValid),
			args: append(append([]string(nil), badBedArgs...), flags...), want: want}
	}
	return []badCase{
		badBed("syntax", 17),
		badBed("unknown-key", 31, "modle"),
		badBed("type-workers-string", 15, "workers"),
		badBed("no-config", 0, "[[config]]"),
		badBed("bandwidth-nan", 28, "bandwidth_mbit"),
		badBed("bandwidth-negative", 28, "bandwidth_mbit"),
		badBed("bandwidth-inf", 28, "bandwidth_mbit"),
		badBed("workers-zero", 28, "workers"),
		badBed("workers-huge", 28, "workers"),
		badBed("steps-huge", 28, "steps"),
		badBed("steps-one", 28, "steps"),
		badBed("average-over-steps", 28, "average"),
		badBed("duplicate-name", 32, "toy-mux"),
		badBed("name-traversal", 28, "name"),
		badBed("missing-model", 28, "model"),
		badBed("seed-negative", 28, "seed"),
		{name: "testbed/profile-missing", files: map[string]string{"configs.toml": badFixture}, args: badBedArgs,
			want: []string{"$D/datasets/zoo/alexnet.graph.txt", "toy-mux"}},
		badBed("no-calibration", 0, "[calibration]"),
		badBed("transport-unknown", 28, "carrier-pigeon"),
		badBed("sync-unknown", 28, "sometimes"),
		badBed("window-tiny", 28, "window"),
		badBed("bytes-scale-zero", 28),
		badBed("device-speed-inf", 28),
		badBed("servers-zero", 28),
		badBed("calibration-nan", 26, "step_cv"),
		badBed("calibration-negative", 25, "rtt_us"),
		flagCase("flag-steps-scale-zero", []string{"-steps-scale", "0"}, "-steps-scale"),
		flagCase("flag-steps-scale-nan", []string{"-steps-scale", "NaN"}, "-steps-scale"),
		flagCase("flag-only-unknown", []string{"-only", "nope"}, "-only", "nope"),
		flagCase("flag-workers-zero", []string{"-workers", "0"}, "-workers"),
		flagCase("flag-network-unknown", []string{"-network", "carrier-pigeon"}, "-network"),
		{name: "testbed/config-missing", args: []string{"testbed", "run", "-dry", "-root", "$D", "-config", "$D/none.toml"}, want: []string{"$D/none.toml"}},
		{name: "testbed/config-directory", gen: badDir("cfg.toml"), args: []string{"testbed", "run", "-dry", "-root", "$D", "-config", "$D/cfg.toml"},
			want: []string{"$D/cfg.toml"}},
	}
}

// ---- shard directories (pslab merge) ----

// badShardArgs merges $D/shards into $D/out.
var badShardArgs = []string{"merge", "-root", "$D/out", "$D/shards"}

// badShard merges a shard directory whose shard.json is the fixture.
func badShard(name string, more ...string) badCase {
	return badCase{name: "shard/" + name, files: map[string]string{"shards/shard-0-of-1/shard.json": badFixture},
		args: badShardArgs, want: append([]string{"$D/shards/shard-0-of-1"}, more...)}
}

// badPredictShard makes a real shard of a cheap predict run in
// $D/shards/shard-0-of-1 (predict.gob and shard.json), then lets edit
// damage it.
func badPredictShard(edit func(t *testing.T, d, dir string)) func(t *testing.T, d string) {
	return func(t *testing.T, d string) {
		badProfile(t, filepath.Join(d, "toy.arrow"))
		var out, errb bytes.Buffer
		err := Run(context.Background(), []string{"predict", filepath.Join(d, "toy.arrow"), "-bandwidth", "1Gbps", "-models", "mva-exact",
			"-workers", "1..3", "-shard", "0/1", "-shard-dir", filepath.Join(d, "shards")}, &out, &errb)
		if err != nil {
			t.Fatalf("making a predict shard: %v\n%s", err, errb.String())
		}
		edit(t, d, filepath.Join(d, "shards", "shard-0-of-1"))
	}
}

func badShardCases() []badCase {
	predict := func(name string, edit func(t *testing.T, d, dir string), want ...string) badCase {
		return badCase{name: "shard/" + name, gen: badPredictShard(edit), args: []string{"merge", "$D/shards"},
			want: append([]string{"$D/shards/shard-0-of-1"}, want...)}
	}
	gob := func(dir string) string { return filepath.Join(dir, shard.PartsName) }
	sibling := badShard("missing-sibling", "1/2") // the fixture says count 2: shard 1/2 is missing
	sibling.files = map[string]string{"shards/shard-0-of-2/shard.json": badFixture}
	sibling.want = []string{"shard 1/2 missing"}
	meta := func(index, count int) string {
		return fmt.Sprintf(`{"command": ["run"], "index": %d, "count": %d, "revision": "unknown", "modified": false, "items": [], "total": 0, "files": []}`, index, count)
	}
	return []badCase{
		badShard("not-json", "shard.json"),
		badShard("empty", "shard.json"),
		badShard("array", "shard.json"),
		badShard("truncated", "shard.json"),
		badShard("unknown-field", "field owner"),
		badShard("field-twice", "field Index"),
		badShard("index-out-of-range", "field index"),
		badShard("count-zero", "field count"),
		badShard("index-string", "field index"),
		badShard("index-huge", "index"),
		badShard("command-empty", "field command"),
		badShard("command-unknown", "sh -c"),
		badShard("files-escape", "files[0].path"),
		badShard("files-sha-bad", "files[0].sha256"),
		badShard("files-size-negative", "files[0].size"),
		badShard("items-twice", "items[1]"),
		badShard("total-negative", "field total"),
		badShard("data-after", "shard.json"),
		sibling,
		{name: "shard/symlink-out", gen: badSymlink("shards/shard-0-of-1/shard.json", "/etc/hostname"), args: badShardArgs,
			want: []string{"$D/shards/shard-0-of-1/shard.json"}},
		{name: "shard/no-shards", gen: badDir("shards/empty"), args: badShardArgs, want: []string{"$D/shards"}},
		{name: "shard/deep-nesting", files: map[string]string{"shards/shard-0-of-1/shard.json": `{"command": ` + badNested(100000) + `}`},
			args: badShardArgs, want: []string{"$D/shards/shard-0-of-1/shard.json"}},
		{name: "shard/duplicate-index", files: map[string]string{"shards/shard-0-of-2/shard.json": meta(0, 2), "shards/shard-1-of-2/shard.json": meta(0, 2)},
			args: badShardArgs, want: []string{"$D/shards/shard-0-of-2", "$D/shards/shard-1-of-2"}},
		predict("predict-gob-garbage", func(t *testing.T, d, dir string) { badWrite(t, gob(dir), badGarbage(500)) }, "predict.gob"),
		predict("predict-gob-truncated", func(t *testing.T, d, dir string) {
			b := badRead(t, gob(dir))
			badWrite(t, gob(dir), b[:len(b)/2])
		}, "predict.gob"),
		predict("predict-gob-missing", func(t *testing.T, d, dir string) {
			if err := os.Remove(gob(dir)); err != nil {
				t.Fatal(err)
			}
		}, "predict.gob"),
		predict("predict-gob-inconsistent", func(t *testing.T, d, dir string) {
			m, err := shard.ReadMeta(dir)
			if err != nil {
				t.Fatal(err)
			}
			parts, err := shard.ReadParts(m)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range parts { // a throughput per worker count, minus the last
				for i := range p.Prediction.Curves {
					c := &p.Prediction.Curves[i]
					c.Throughput = c.Throughput[:len(c.Throughput)-1]
				}
			}
			if err := shard.WriteParts(dir, parts); err != nil {
				t.Fatal(err)
			}
		}, "predict.gob"),
		{name: "shard/predict-input-gone", args: []string{"merge", "$D/shards"}, want: []string{"$D/toy.arrow"}, gen: badPredictShard(func(t *testing.T, d, dir string) {
			if err := os.Remove(filepath.Join(d, "toy.arrow")); err != nil {
				t.Fatal(err)
			}
		})},
	}
}
