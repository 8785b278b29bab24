package main

// Hostile experiment and golden TOML, and the generators every file case
// uses (the other kinds: badinputs_traces, _profiles, _shard). Text
// fixtures are under scripts/badinputs/<kind>/; the rest is generated.

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
