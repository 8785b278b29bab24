package shard

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/predict"
)

func TestParse(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in   string
		want Spec
		err  string
	}{
		{"0/1", Spec{0, 1}, ""},
		{" 2/3 ", Spec{2, 3}, ""},
		{"3/3", Spec{}, "i = 3 must be in 0..2"},
		{"0/0", Spec{}, "N = 0 must be ≥ 1"},
		{"a/b", Spec{}, "want i/N with integers"},
		{"1", Spec{}, "want i/N"},
		{"-1/4", Spec{}, "i = -1 must be in 0..3"},
		{"1/-4", Spec{}, "N = -4 must be ≥ 1"},
	} {
		got, err := Parse(c.in)
		if c.err != "" {
			require.ErrorContains(t, err, c.err, c.in)
			continue
		}
		require.NoError(t, err, c.in)
		require.Equal(t, c.want, got)
		require.Equal(t, fmt.Sprintf("%d/%d", c.want.Index, c.want.Count), got.String())
	}
}

// TestPartition: the shards own every item exactly once.
func TestPartition(t *testing.T) {
	t.Parallel()
	items := []string{"a", "b", "c", "d", "e", "f", "g"}
	for n := 1; n <= 9; n++ {
		seen := map[string]int{}
		for i := range n {
			for _, x := range Select(Spec{i, n}, items) {
				seen[x]++
			}
		}
		require.Len(t, seen, len(items), "N = %d", n)
		for x, k := range seen {
			require.Equal(t, 1, k, "N = %d: %s", n, x)
		}
	}
	require.Equal(t, items, Select(Spec{}, items), "unsharded owns everything")
	require.Equal(t, []string{"b", "e"}, Select(Spec{1, 3}, items[:6]))
	require.Equal(t, []int{1, 4}, Spec{1, 2}.WorkersAt(1, []int{1, 2, 4}), "points 3 and 5 of 2 bandwidths × 3")
	require.Nil(t, Spec{2, 7}.WorkersAt(0, []int{1, 2}))
	require.Equal(t, filepath.Join("b", "shard-1-of-3"), Spec{1, 3}.Dir("b"))
}

func TestNormalise(t *testing.T) {
	t.Parallel()
	require.Equal(t, []string{"-root", "x", "-j", "2", "a.toml"},
		Normalise([]string{"-shard", "1/3", "-root", "x", "--shard-dir=d", "-j", "2", "-shard-dir", "e", "--shard=0/3", "a.toml"}))
	require.Equal(t, []string{"--", "-shard", "1/2"}, Normalise([]string{"--", "-shard", "1/2"}), "after --, no flags")
	require.Equal(t, []string{"-shards", "x"}, Normalise([]string{"-shards", "x"}), "only the exact names")
	require.Equal(t, []string{}, Normalise(nil))
}

func meta(i, n int, items ...string) *Meta {
	m := &Meta{Command: []string{"run", "-root", "."}, Index: i, Count: n, Revision: "r", Total: 4, Dir: fmt.Sprintf("d%d", i)}
	m.Items = items
	for _, x := range items {
		m.Files = append(m.Files, File{Path: "figures/" + x})
	}
	return m
}

func TestShardCheck(t *testing.T) {
	t.Parallel()
	ok := []*Meta{meta(0, 2, "a", "c"), meta(1, 2, "b", "d")}
	require.NoError(t, Check(ok))
	for _, c := range []struct {
		name  string
		edit  func(m *Meta)
		shard []*Meta
		want  string
	}{
		{"count", func(m *Meta) { m.Count = 3 }, nil, "shard 1/3 (d1) is one of 3 shards, but shard 0/2 (d0) is one of 2"},
		{"command", func(m *Meta) { m.Command = []string{"run"} }, nil, `shard 1/2 (d1) ran another command line: "pslab run", but shard 0/2 (d0) ran "pslab run -root ."`},
		{"commit", func(m *Meta) { m.Revision = "s" }, nil, "shard 1/2 (d1) comes from another commit: revision s, but shard 0/2 (d0) is from r"},
		{"modified", func(m *Meta) { m.Modified = true }, nil, "revision r (modified)"},
		{"total", func(m *Meta) { m.Total = 5 }, nil, "partitioned 5 items, but shard 0/2 (d0) partitioned 4"},
		{"item twice", func(m *Meta) { m.Items = []string{"a", "d"} }, nil, "shard 0/2 (d0) and shard 1/2 (d1) both did a"},
		{"short", func(m *Meta) { m.Items, m.Files = m.Items[:1], nil }, nil, "the shards did 3 items of 4"},
		{"duplicate", nil, []*Meta{ok[0], ok[1], ok[1]}, "shard 1/2 is duplicated: d1 and d1"},
		{"missing", nil, []*Meta{ok[0]}, `shard 1/2 missing (have 1 of 2 shards of "pslab run -root ."`},
	} {
		shards := c.shard
		if shards == nil {
			m := *ok[1]
			c.edit(&m)
			shards = []*Meta{ok[0], &m}
		}
		require.ErrorContains(t, Check(shards), c.want, c.name)
	}
}

func TestShardMetaFilesRoundTrip(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "figures", "p"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "figures", "p", "x.svg"), []byte("svg"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "figures", "p", ".x.svg.tmp1"), []byte("partial"), 0o644))
	files, err := ListFiles(dir, "figures")
	require.NoError(t, err)
	require.Equal(t, []File{{Path: "figures/p/x.svg", Size: 3, SHA256: "acdb1373d1761939cb5daa3332223298529581464a90afae39927e7aef8edd46"}}, files)
	m := &Meta{Command: []string{"run"}, Index: 0, Count: 1, Revision: "r", Items: []string{"p-x"}, Total: 1, Files: files}
	require.NoError(t, m.Write(dir))
	got, err := ReadMeta(dir)
	require.NoError(t, err)
	m.Dir = dir
	require.Equal(t, m, got)
	dest := t.TempDir()
	require.NoError(t, MergeFiles([]*Meta{got}, dest))
	b, err := os.ReadFile(filepath.Join(dest, "p", "x.svg"))
	require.NoError(t, err)
	require.Equal(t, "svg", string(b))
	got.Files[0].Path = "../escape"
	require.ErrorContains(t, MergeFiles([]*Meta{got}, dest), `field files[0].path: "../escape": contains ".."`)
	_, err = ReadMeta(t.TempDir())
	require.ErrorContains(t, err, "not a shard directory, or the shard did not finish")
	none, err := ListFiles(dir, "missing")
	require.NoError(t, err)
	require.Empty(t, none)
}

func TestJoinPredictions(t *testing.T) {
	t.Parallel()
	part := func(bw int, ws ...int) Part {
		p := &predict.Prediction{Workers: ws, Batch: 1, Notes: []string{"n"}}
		var y []float64
		for _, w := range ws {
			y = append(y, float64(10*bw+w))
		}
		p.Curves = []predict.Curve{{Model: predict.Cynthia, Throughput: y}}
		return Part{Bandwidth: bw, Prediction: p}
	}
	got, err := JoinPredictions(2, []int{1, 2, 3}, []Part{part(0, 2), part(1, 1, 3), part(0, 1, 3), part(1, 2)})
	require.NoError(t, err)
	require.Equal(t, []int{1, 2, 3}, got[0].Workers)
	require.Equal(t, []float64{1, 2, 3}, got[0].Curves[0].Throughput)
	require.Equal(t, []float64{11, 12, 13}, got[1].Curves[0].Throughput)
	require.Equal(t, []string{"n"}, got[1].Notes)
	_, err = JoinPredictions(2, []int{1, 2, 3}, []Part{part(0, 1, 2, 3)})
	require.ErrorContains(t, err, "no part predicted bandwidth 1")
	_, err = JoinPredictions(1, []int{1, 2, 3}, []Part{part(0, 1, 2), part(0, 2)})
	require.ErrorContains(t, err, "W = 2 predicted twice")
	_, err = JoinPredictions(1, []int{1, 2, 3}, []Part{part(0, 1, 3)})
	require.ErrorContains(t, err, "predicted W = [1 3], want [1 2 3]")
}
