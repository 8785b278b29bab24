package main

// Hostile measured CSVs, PipeDream graphs and testbed configurations.

import (
	"path/filepath"
	"strings"
	"testing"
)

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
