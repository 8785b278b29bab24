package main

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/shard"
)

// shardExperiments are a few fast experiments of different papers.
var shardExperiments = []string{"cynthia/fig1", "cynthia/fig6", "icpe20/fig23", "mascots18/fig7", "mascots18/table3", "zhang/fig3", "cynthia/fig3"}

// scratchRoot returns a repository root in a temporary directory whose
// entries link to this repository's, except figures/, which it lacks.
func scratchRoot(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "root")
	require.NoError(t, os.Mkdir(dir, 0o755))
	ents, err := os.ReadDir(root)
	require.NoError(t, err)
	abs, err := filepath.Abs(root)
	require.NoError(t, err)
	for _, e := range ents {
		if e.Name() != "figures" && !strings.HasPrefix(e.Name(), ".") {
			require.NoError(t, os.Symlink(filepath.Join(abs, e.Name()), filepath.Join(dir, e.Name())))
		}
	}
	return dir
}

// pslab runs a pslab command and returns its stdout.
func pslab(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	err := Run(context.Background(), args, &out, &errb)
	if err != nil {
		err = fmt.Errorf("%w\nstderr: %s", err, errb.String())
	}
	return out.String(), err
}

// tree returns every file under dir by relative path.
func tree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	require.NoError(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[rel] = b
		return err
	}))
	return out
}

// TestRunShardsMergeToOneRun: `pslab run` of seven cheap experiments in
// N = 1, 2 and 3 shards, merged, gives the bytes of one unsharded run.
// Under -short: the first three experiments in N = 3 shards only.
func TestRunShardsMergeToOneRun(t *testing.T) {
	t.Parallel()
	r := scratchRoot(t)
	exps := shardExperiments
	if testing.Short() {
		exps = exps[:3]
	}
	var files []string
	for _, e := range exps {
		files = append(files, filepath.Join(r, "experiments", e+".toml"))
	}
	_, err := pslab(t, append([]string{"run", "-root", r}, files...)...)
	require.NoError(t, err)
	want := tree(t, filepath.Join(r, "figures"))
	require.Len(t, want, 4*len(exps)) // .svg, .png, .arrow, .run.json
	for _, n := range shardCounts(1, 2, 3) {
		base := filepath.Join(t.TempDir(), "shards")
		for i := range n {
			// Flags in another order and spelling: the command line is compared
			// without -shard and -shard-dir only.
			args := append([]string{"run", "-shard-dir=" + base, "-root", r, "-shard", fmt.Sprintf("%d/%d", i, n)}, files...)
			_, err := pslab(t, args...)
			require.NoError(t, err)
		}
		out := t.TempDir()
		stdout, err := pslab(t, "merge", "-root", out, base)
		require.NoError(t, err)
		require.Contains(t, stdout, fmt.Sprintf("merged %d shards: %d experiments, %d files", n, len(exps), len(want)))
		got := tree(t, filepath.Join(out, "figures"))
		require.Equal(t, len(want), len(got), "N = %d", n)
		for p, b := range want {
			require.True(t, bytes.Equal(b, got[p]), "N = %d: %s differs from the unsharded run", n, p)
		}
	}
}

// shardCounts returns the shard counts N a sharded-run test tries: all of
// ns, or under go test -short only the last (the one with the most shards,
// some of them uneven or empty).
func shardCounts(ns ...int) []int {
	if testing.Short() {
		return ns[len(ns)-1:]
	}
	return ns
}

// runShards runs the shards of `pslab run` on one experiment file per
// shard, with revision rev, and returns the shard base directory.
func runShards(t *testing.T, r string, n int, extra ...string) string {
	t.Helper()
	base := filepath.Join(t.TempDir(), "shards")
	for i := range n {
		args := append([]string{"run", "-root", r, "-shard-dir", base, "-shard", fmt.Sprintf("%d/%d", i, n)}, extra...)
		_, err := pslab(t, append(args, filepath.Join(r, "experiments", "icpe20", "fig23.toml"), filepath.Join(r, "experiments", "mascots18", "table3.toml"))...)
		require.NoError(t, err)
	}
	return base
}

func TestMergeRefusesForeignShards(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs every shard of a run (make test runs it)")
	}
	t.Parallel()
	r := scratchRoot(t)
	base := runShards(t, r, 2)
	dir := func(i int) string { return filepath.Join(base, fmt.Sprintf("shard-%d-of-2", i)) }
	_, err := pslab(t, "merge", "-root", t.TempDir(), dir(0))
	require.ErrorContains(t, err, "shard 1/2 missing")
	_, err = pslab(t, "merge", "-root", t.TempDir(), dir(0), dir(1), dir(1))
	require.ErrorContains(t, err, "shard 1/2 is duplicated")

	// Shard 1 of another command line (-v added) and of another commit.
	other := runShards(t, r, 2, "-v")
	_, err = pslab(t, "merge", "-root", t.TempDir(), dir(0), filepath.Join(other, "shard-1-of-2"))
	require.ErrorContains(t, err, "shard 1/2 ("+filepath.Join(other, "shard-1-of-2")+") ran another command line")
	m, err := shard.ReadMeta(dir(1))
	require.NoError(t, err)
	rev := m.Revision
	m.Revision = "0123abcd"
	require.NoError(t, m.Write(dir(1)))
	_, err = pslab(t, "merge", "-root", t.TempDir(), base)
	require.ErrorContains(t, err, "shard 1/2 ("+dir(1)+") comes from another commit: revision 0123abcd")

	// A changed output is refused by its hash; a shard of 3 by its count.
	m.Revision = rev
	require.NoError(t, m.Write(dir(1)))
	svg := filepath.Join(dir(1), filepath.FromSlash(m.Files[0].Path))
	require.NoError(t, os.WriteFile(svg, []byte("<svg/>"), 0o644))
	_, err = pslab(t, "merge", "-root", t.TempDir(), base)
	require.ErrorContains(t, err, "changed after the shard finished")
	_, err = pslab(t, "merge", "-root", t.TempDir(), dir(0), filepath.Join(runShards(t, r, 3), "shard-1-of-3"))
	require.ErrorContains(t, err, "is one of 3 shards, but shard 0/2")
}

// TestShardRevision injects the revision of binaries without VCS
// information (go test) through $PSLAB_VCS_REVISION.
func TestShardRevision(t *testing.T) {
	r := scratchRoot(t)
	t.Setenv(shard.RevisionEnv, "abc123")
	base := runShards(t, r, 1)
	m, err := shard.ReadMeta(filepath.Join(base, "shard-0-of-1"))
	require.NoError(t, err)
	require.Equal(t, "abc123", m.Revision)
	require.Equal(t, []string{"icpe20-fig23", "mascots18-table3"}, m.Items)
	require.NotContains(t, strings.Join(m.Command, " "), "-shard")
}

func TestShardFlagErrors(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ cmd, val, want string }{
		{"run", "3/3", `-shard "3/3": the shard index i = 3 must be in 0..2`},
		{"run", "0/0", `-shard "0/0": the shard count N = 0 must be ≥ 1`},
		{"predict", "a/b", `-shard "a/b": want i/N with integers`},
		{"run", "-1/2", `-shard "-1/2": the shard index`},
		{"predict", "2", `-shard "2": want i/N`},
	} {
		_, err := pslab(t, c.cmd, "-shard", c.val, "x.arrow")
		require.ErrorContains(t, err, c.cmd+": "+c.want)
		require.Equal(t, 2, exitCode(err), "exit status of a bad -shard")
	}
	_, err := pslab(t, "merge")
	require.Equal(t, 2, exitCode(err))
	_, err = pslab(t, "merge", t.TempDir())
	require.ErrorContains(t, err, "neither a shard directory")
	require.Equal(t, 1, exitCode(err))
}
