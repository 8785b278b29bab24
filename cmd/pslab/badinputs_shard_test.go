package main

// Hostile shard directories for pslab merge.

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"pslab/engine/shard"
)

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
