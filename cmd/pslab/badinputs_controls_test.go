package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestBadInputsControls runs the valid base of every group of the
// hostile-input corpus: each must succeed, so that a hostile case fails
// because of its one change and not because its base is broken.
func TestBadInputsControls(t *testing.T) {
	controls := []badCase{
		{name: "experiment+golden", gen: badPhases,
			files: map[string]string{"experiments/mascots18/base.toml": badExperimentText("base"), "golden/mascots18/base.toml": badGoldenText},
			args:  badRunArgs("experiments/mascots18/base.toml")},
		{name: "testbed", files: map[string]string{"configs.toml": badBedText}, args: badBedArgs},
		{name: "measured-csv", files: map[string]string{"m.csv": badMeasuredText},
			args: []string{"import", "measured-csv", "$D/m.csv", "-o", "$D/out.arrow", "-model", "m", "-batch", "32", "-sync", "asp"}},
		{name: "pipedream", files: map[string]string{"base.graph.txt": badPipeDreamText},
			args: []string{"predict", "$D/base.graph.txt", "-bandwidth", "1Gbps", "-models", "mva-exact", "-workers", "1..2"}},
		{name: "tf-timeline", files: map[string]string{"t.json": badTimelineText},
			args: []string{"import", "tf-timeline", "$D/t.json", "-o", "$D/out.arrow"}},
		{name: "tf-timeline generated", gen: func(t *testing.T, d string) { badWrite(t, filepath.Join(d, "t.json"), badTimelineBytes(t)) },
			args: []string{"import", "tf-timeline", "$D/t.json", "-o", "$D/out.arrow"}},
		{name: "kineto", files: map[string]string{"k.json": badKinetoText},
			args: []string{"import", "kineto", "$D/k.json", "-o", "$D/out.arrow"}},
		{name: "kineto gz", gen: func(t *testing.T, d string) {
			badWrite(t, filepath.Join(d, "k.json.gz"), badGzip(t, []byte(badKinetoText)))
		},
			args: []string{"import", "kineto", "$D/k.json.gz", "-o", "$D/out.arrow"}},
		{name: "shard", files: map[string]string{"shards/shard-0-of-1/shard.json": badShardText}, args: badShardArgs},
		{name: "predict shard", gen: badPredictShard(func(*testing.T, string, string) {}), args: []string{"merge", "$D/shards"}},
		{name: "arrow and predict flags", gen: badToy, args: badPredictBase},
		{name: "export", gen: func(t *testing.T, d string) { badProfile(t, filepath.Join(d, "in.arrow")) },
			args: []string{"export", "-format", "parquet", "$D/in.arrow", "-o", "$D/out.parquet"}},
		{name: "provision workload", args: badProvisionBase},
		{name: "provision profile", args: badProfileBase},
	}
	for _, c := range controls {
		t.Run(c.name, func(t *testing.T) {
			d := badTempDir(t)
			for rel, content := range c.files {
				badWrite(t, filepath.Join(d, rel), []byte(content))
			}
			if c.gen != nil {
				c.gen(t, d)
			}
			args := make([]string, len(c.args))
			for i, a := range c.args {
				args[i] = strings.ReplaceAll(a, "$D", d)
			}
			out, hung := badCall(args)
			switch {
			case hung:
				t.Fatalf("%q hung", args)
			case out.panicked != nil:
				t.Fatalf("%q panicked: %v\n%s", args, out.panicked, badStackHead(out.stack))
			case out.err != nil:
				t.Fatalf("%q: the valid base fails: %v\nstdout: %s\nstderr: %s", args, out.err, badHead(out.stdout), badHead(out.stderr))
			}
		})
	}
}
