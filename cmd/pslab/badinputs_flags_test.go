package main

// Hostile command lines of predict, provision, export, import and
// run/check/list/report: absurd numbers, NaN and Inf, negative counts,
// missing required inputs. Every message must name the flag.

import (
	"path/filepath"
	"testing"
)

// badPredictBase is a valid, cheap predict command line on the toy
// profile at $D/toy.arrow; a flag given again after it wins.
var badPredictBase = []string{"predict", "$D/toy.arrow", "-bandwidth", "1Gbps", "-models", "mva-exact", "-workers", "1..2"}

// badToy writes the toy profile as $D/toy.arrow.
func badToy(t *testing.T, d string) { badProfile(t, filepath.Join(d, "toy.arrow")) }

// badProvisionBase is a valid provision command line (cifar10, Cynthia's
// Table 4) on the repository's catalogue.
var badProvisionBase = []string{"provision", "-root", root, "-workload", "cifar10", "-loss", "0.8", "-time", "90"}

// badProfileBase is a valid provision command line for a profiled
// workload instead of a Table 4 one.
var badProfileBase = []string{"provision", "-root", root, "-w_iter", "10", "-g_param", "5", "-sync", "asp", "-beta0", "800", "-loss", "0.8", "-time", "90"}

func badFlagCases() []badCase {
	with := func(base []string, flags ...string) []string {
		return append(append([]string(nil), base...), flags...)
	}
	pr := func(name string, flags []string, want ...string) badCase {
		return badCase{name: "predict-flags/" + name, gen: badToy, args: with(badPredictBase, flags...), want: want}
	}
	pv := func(name string, flags []string, want ...string) badCase {
		return badCase{name: "provision-flags/" + name, args: with(badProvisionBase, flags...), want: want}
	}
	pp := func(name string, flags []string, want ...string) badCase {
		return badCase{name: "provision-flags/" + name, args: with(badProfileBase, flags...), want: want}
	}
	ex := func(name string, args []string, want ...string) badCase {
		return badCase{name: "export-flags/" + name, gen: func(t *testing.T, d string) { badProfile(t, filepath.Join(d, "in.arrow")) },
			args: append([]string{"export"}, args...), want: want}
	}
	tl := func(t *testing.T, d string) { badWrite(t, filepath.Join(d, "t.json"), badTimelineBytes(t)) }
	csv := func(t *testing.T, d string) {
		badWrite(t, filepath.Join(d, "m.csv"), []byte("workers,throughput[examples/s]\n1,250\n2,480\n"))
	}
	kt := func(t *testing.T, d string) { badWrite(t, filepath.Join(d, "k.json"), []byte(badKinetoText)) }
	im := func(name string, gen func(t *testing.T, d string), args []string, want ...string) badCase {
		return badCase{name: "import-flags/" + name, gen: gen, args: append([]string{"import"}, args...), want: want}
	}
	tlArgs := []string{"tf-timeline", "$D/t.json", "-o", "$D/out.arrow"}
	csvArgs := []string{"measured-csv", "$D/m.csv", "-o", "$D/out.arrow", "-model", "m", "-batch", "32", "-sync", "asp"}
	ktArgs := []string{"kineto", "$D/k.json", "-o", "$D/out.arrow"}
	cli := func(name string, gen func(t *testing.T, d string), args []string, want ...string) badCase {
		return badCase{name: "run-flags/" + name, gen: gen, args: args, want: want}
	}
	return []badCase{
		// pslab predict
		pr("workers-zero", []string{"-workers", "0"}, "-workers"),
		pr("workers-text", []string{"-workers", "many"}, "-workers"),
		pr("workers-descending", []string{"-workers", "3..1"}, "-workers"),
		pr("workers-negative", []string{"-workers", "-5..3"}, "-workers"),
		pr("workers-huge-range", []string{"-workers", "1..1000000000"}, "-workers"),
		pr("workers-overflow", []string{"-workers", "1..99999999999999999999"}, "-workers"),
		pr("workers-huge-single", []string{"-workers", "1000000000", "-models", "simulator"}, "-workers"),
		pr("ps-negative", []string{"-ps", "-1"}, "-ps"),
		pr("ps-zero", []string{"-ps", "0"}, "-ps 0"),
		pr("ps-huge", []string{"-ps", "100000"}, "-ps"),
		pr("ps-text", []string{"-ps", "two"}, "-ps"),
		pr("bandwidth-zero", []string{"-bandwidth", "0Gbps"}, "-bandwidth"),
		pr("bandwidth-negative", []string{"-bandwidth", "-1Gbps"}, "-bandwidth"),
		pr("bandwidth-nan", []string{"-bandwidth", "NaNGbps"}, "-bandwidth"),
		pr("bandwidth-inf", []string{"-bandwidth", "InfGbps"}, "-bandwidth"),
		pr("bandwidth-overflow", []string{"-bandwidth", "1e400Gbps"}, "-bandwidth"),
		pr("bandwidth-tiny", []string{"-bandwidth", "1e-300bps"}, "-bandwidth"),
		pr("bandwidth-no-unit", []string{"-bandwidth", "10"}, "-bandwidth"),
		pr("precision-zero", []string{"-precision", "0"}, "-precision"),
		pr("precision-nan", []string{"-precision", "NaN"}, "-precision"),
		pr("precision-above-half", []string{"-precision", "1"}, "-precision"),
		pr("precision-negative", []string{"-precision", "-0.1"}, "-precision"),
		pr("steps-negative", []string{"-steps", "-1"}, "-steps"),
		pr("steps-bsp-no-cycle", []string{"-steps", "2", "-sync", "bsp"}, "-steps 2"),
		pr("steps-overflow", []string{"-steps", "99999999999999999999"}, "-steps"),
		pr("steps-huge", []string{"-steps", "1000000000", "-models", "simulator"}, "-steps"),
		pr("batch-negative", []string{"-batch", "-1"}, "-batch"),
		pr("batch-huge", []string{"-batch", "9223372036854775807"}, "-batch"),
		pr("device-speed-zero", []string{"-device-speed", "0"}, "-device-speed"),
		pr("device-speed-inf", []string{"-device-speed", "Inf"}, "-device-speed"),
		pr("device-speed-tiny", []string{"-device-speed", "1e-300"}, "-device-speed"),
		pr("jitter-nan", []string{"-jitter", "NaN"}, "-jitter"),
		pr("alpha-inf", []string{"-alpha", "Inf"}, "-alpha"),
		pr("beta-negative", []string{"-beta", "-1"}, "-beta"),
		pr("update-nan", []string{"-update", "NaN"}, "-update"),
		pr("window-negative", []string{"-window", "-1MB"}, "-window"),
		pr("window-huge", []string{"-window", "1e30MB"}, "-window"),
		pr("gpus-per-node-zero", []string{"-gpus-per-node", "0"}, "-gpus-per-node"),
		pr("gpus-per-node-huge", []string{"-gpus-per-node", "1000000000"}, "-gpus-per-node"),
		pr("intra-bandwidth-garbage", []string{"-intra-bandwidth", "fast"}, "-intra-bandwidth"),
		pr("calibrate-garbage", []string{"-calibrate", "x:y"}, "-calibrate"),
		pr("calibrate-zero", []string{"-calibrate", "1:0"}, "-calibrate"),
		pr("calibrate-nan", []string{"-calibrate", "1:NaN"}, "-calibrate"),
		pr("timeline-workers-zero", []string{"-timeline-workers", "0"}, "-timeline-workers"),
		pr("knee-nan", []string{"-knee", "NaN"}, "-knee"),
		pr("max-events-nan", []string{"-max-events", "NaN", "-models", "simulator", "-steps", "100000000"}, "-max-events"),
		pr("max-events-nan-paper", []string{"-max-events", "NaN", "-models", "simulator", "-paper", "-steps", "100000000"}, "-max-events"),
		pr("max-events-inf", []string{"-max-events", "Inf", "-models", "simulator"}, "-max-events"),
		pr("seed-negative", []string{"-seed", "-1"}, "-seed"),
		pr("sync-unknown", []string{"-sync", "sometimes"}, "-sync"),
		pr("mva-phases-unknown", []string{"-mva-phases", "guess"}, "-mva-phases"),
		pr("overhead-on-unknown", []string{"-overhead-on", "gpu"}, "-overhead-on"),
		pr("transport-unknown", []string{"-transport", "udp"}, "-transport"),
		pr("order-unknown", []string{"-order", "lifo"}, "-order"),
		pr("from-unknown", []string{"-from", "csv"}, "-from"),
		pr("models-empty", []string{"-models", ""}, "-models"),
		pr("format-unknown", []string{"-format", "xml"}, "-format"),
		pr("format-arrow-no-o", []string{"-format", "arrow"}, "-format arrow"),
		pr("figure-bad-extension", []string{"-figure", "$D/f.pdf"}, "-figure"),
		{name: "predict-flags/o-is-directory", gen: badGens(badToy, badDir("out")), args: with(badPredictBase, "-o", "$D/out"), want: []string{"-o", "$D/out"}},
		pr("shard-out-of-range", []string{"-shard", "5/2"}, "-shard"),
		pr("shard-garbage", []string{"-shard", "half"}, "-shard"),
		pr("warmup-without-paper", []string{"-warmup", "5"}, "-warmup"),
		pr("measured-missing", []string{"-measured", "$D/none.csv"}, "-measured", "$D/none.csv"),
		{name: "predict-flags/no-input", args: []string{"predict", "-bandwidth", "1Gbps"}, want: []string{"no input file"}},
		{name: "predict-flags/input-missing", args: []string{"predict", "$D/none.arrow", "-bandwidth", "1Gbps"}, want: []string{"$D/none.arrow"}},
		{name: "predict-flags/input-unknown-extension", gen: badFile("x.pb", []byte("x")), args: []string{"predict", "$D/x.pb", "-bandwidth", "1Gbps"},
			want: []string{"$D/x.pb", "-from"}},

		// pslab provision
		pv("loss-zero", []string{"-loss", "0"}, "-loss"),
		pv("loss-nan", []string{"-loss", "NaN"}, "-loss"),
		pv("loss-inf", []string{"-loss", "Inf"}, "-loss"),
		pv("time-negative", []string{"-time", "-90"}, "-time"),
		pv("time-inf", []string{"-time", "Inf"}, "-time"),
		pv("workload-unknown", []string{"-workload", "gpt-5"}, "-workload"),
		pv("beta0-negative", []string{"-beta0", "-1"}, "-beta0"),
		pv("beta1-nan", []string{"-beta1", "NaN"}, "-beta1"),
		pv("c-base-nan", []string{"-c_base", "NaN"}, "-c_base"),
		pv("c-base-inf", []string{"-c_base", "Inf"}, "-c_base"),
		pv("max-workers-negative", []string{"-max_workers", "-5"}, "-max_workers"),
		pv("format-unknown", []string{"-format", "xml"}, "-format"),
		pv("model-unknown", []string{"-model", "oracle"}, "-model"),
		pv("sync-unknown", []string{"-sync", "sometimes"}, "-sync"),
		pv("base-unknown", []string{"-base", "cray-1"}, "-base"),
		pv("instances-missing", []string{"-instances", "$D/none.arrow"}, "-instances", "$D/none.arrow"),
		pv("positional-argument", []string{"extra"}, "extra"),
		pv("workload-and-profile", []string{"-w_iter", "10"}, "-w_iter"),
		pp("w-iter-nan", []string{"-w_iter", "NaN"}, "-w_iter"),
		pp("w-iter-negative", []string{"-w_iter", "-10"}, "-w_iter"),
		pp("g-param-inf", []string{"-g_param", "Inf"}, "-g_param"),
		pp("c-prof-negative", []string{"-c_prof", "-1"}, "-c_prof"),
		pp("b-prof-nan", []string{"-b_prof", "NaN"}, "-b_prof"),
		pp("profile-without-sync", []string{"-sync", ""}, "-sync"),
		{name: "provision-flags/no-workload", args: []string{"provision", "-root", root, "-loss", "0.8", "-time", "90"}, want: []string{"-workload"}},

		// pslab export
		ex("no-output", []string{"-format", "csv", "$D/in.arrow"}, "-o"),
		ex("input-missing", []string{"-format", "csv", "$D/none.arrow", "-o", "$D/out.csv"}, "$D/none.arrow"),
		ex("two-inputs", []string{"-format", "csv", "$D/in.arrow", "$D/in.arrow", "-o", "$D/out.csv"}, "one Arrow file"),
		ex("format-unknown", []string{"-format", "xlsx", "$D/in.arrow", "-o", "$D/out.xlsx"}, "-format"),
		{name: "export-flags/output-is-directory", gen: func(t *testing.T, d string) { badProfile(t, filepath.Join(d, "in.arrow")); badDir("out")(t, d) },
			args: []string{"export", "-format", "csv", "$D/in.arrow", "-o", "$D/out"}, want: []string{"$D/out"}},

		// pslab import
		im("format-unknown", nil, []string{"excel", "$D/x.xlsx", "-o", "$D/out.arrow"}, "excel"),
		im("format-missing", nil, []string{"-o", "$D/out.arrow"}, "format"),
		im("output-missing", tl, []string{"tf-timeline", "$D/t.json"}, "-o"),
		im("output-not-arrow", tl, []string{"tf-timeline", "$D/t.json", "-o", "$D/out.csv"}, "-o"),
		im("origin-unknown", tl, append(tlArgs, "-origin", "rumour"), "-origin"),
		im("no-inputs", nil, []string{"tf-timeline", "-o", "$D/out.arrow"}, "no input files"),
		im("timeline-bandwidth-nan", tl, append(tlArgs, "-bandwidth", "NaN"), "-bandwidth"),
		im("timeline-bandwidth-negative", tl, append(tlArgs, "-bandwidth", "-1"), "-bandwidth"),
		im("timeline-window-negative", tl, append(tlArgs, "-window", "-1"), "-window"),
		im("timeline-alpha-inf", tl, append(tlArgs, "-alpha", "Inf"), "-alpha"),
		im("timeline-servers-negative", tl, append(tlArgs, "-servers", "-2"), "-servers"),
		im("timeline-batch-negative", tl, append(tlArgs, "-batch", "-32"), "-batch"),
		im("timeline-input-missing", nil, []string{"tf-timeline", "$D/none.json", "-o", "$D/out.arrow"}, "$D/none.json"),
		im("measured-steps-negative", csv, append(csvArgs, "-steps", "-1"), "-steps"),
		im("measured-sync-unknown", csv, append(csvArgs, "-sync", "sometimes"), "-sync"),
		im("measured-batch-negative", csv, append(csvArgs, "-batch", "-32"), "-batch"),
		im("measured-no-model", csv, []string{"measured-csv", "$D/m.csv", "-o", "$D/out.arrow", "-batch", "32", "-sync", "asp"}, "-model"),
		im("measured-two-files", csv, []string{"measured-csv", "$D/m.csv", "$D/m.csv", "-o", "$D/out.arrow"}, "2 files"),
		im("kineto-input-missing", nil, append([]string(nil), "kineto", "$D/none.json", "-o", "$D/out.arrow"), "$D/none.json"),
		im("kineto-output-into-file", kt, []string{"kineto", "$D/k.json", "-o", "$D/k.json/out.arrow"}, "$D/k.json"),
		im("kineto-step-huge", kt, append(ktArgs, "-step", "99999999999999999999"), "-step"),

		// pslab run, check, list, report, datasets
		cli("run-root-missing", nil, []string{"run", "-root", "$D/none"}, "$D/none"),
		cli("check-root-missing", nil, []string{"check", "-root", "$D/none"}, "$D/none"),
		cli("list-root-missing", nil, []string{"list", "-root", "$D/none"}, "$D/none"),
		cli("run-shard-out-of-range", nil, []string{"run", "-root", "$D", "-shard", "3/2"}, "-shard"),
		cli("run-j-text", nil, []string{"run", "-root", "$D", "-j", "all"}, "-j"),
		cli("report-empty-root", badDir("experiments"), []string{"report", "-root", "$D", "-o", "$D/report"}, "$D"),
		cli("datasets-root-without-sources", nil, []string{"datasets", "-root", "$D", "-shared", "$D/none"}, "$D/datasets/reported"),
		cli("unknown-command", nil, []string{"frobnicate"}, "frobnicate"),
	}
}
