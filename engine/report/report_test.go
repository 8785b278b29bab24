package report

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/dataset"
	"pslab/engine/experiment"
	"pslab/engine/export"
)

// repoRoot is the repository whose committed results the tests read.
const repoRoot = "../.."

// TestBuildByteStable builds the report of the repository twice and
// requires the same files with the same bytes, every experiment listed and
// one page per experiment and dataset. Under -short it builds once and
// checks the pages only.
func TestBuildByteStable(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds the whole report twice (make test runs it)")
	}
	t.Parallel()
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	site, err := Build(Options{Root: repoRoot, Out: a, NoData: true})
	require.NoError(t, err)
	fa := tree(t, a)
	if !testing.Short() {
		_, err = Build(Options{Root: repoRoot, Out: b, NoData: true})
		require.NoError(t, err)
		sameTree(t, fa, tree(t, b), "two builds")
	}
	// index, datasets and accuracy pages, a page and a figure per
	// experiment, a page per dataset (no downloads with NoData).
	require.Equal(t, 3+2*len(site.Experiments)+len(site.Datasets), len(fa), "files in the site")
	require.Equal(t, len(fa), site.Files)
	require.NotEmpty(t, site.Datasets)
	require.NotNil(t, site.Accuracy, "the accuracy experiment is in the repository")
	require.Zero(t, site.Total.Failed, "committed results fail a golden check: run make figures")
	index := string(fa["index.html"])
	for _, e := range site.Experiments {
		require.Contains(t, index, `href="`+e.Page()+`"`)
		page := string(fa[e.Page()])
		require.Contains(t, page, "<svg")
		// The inline figure opens full size: a link to the site's copy.
		require.Contains(t, page, `<a href="../`+e.FigureFile()+`"`, e.Spec.ID)
		require.NotEmpty(t, fa[e.FigureFile()], e.Spec.ID)
	}
	// Dataset pages link the Arrow file where it is in the repository.
	d := site.Datasets[0]
	require.Contains(t, string(fa[d.Page()]), `href="`+site.RepoFile("../", d.Rel)+`"`)
	_, err = os.Stat(filepath.Join(a, "d", filepath.FromSlash(site.RepoFile("../", d.Rel))))
	require.NoError(t, err, "the Arrow link resolves from %s", d.Page())
}

func tree(t *testing.T, dir string) map[string][]byte {
	out := map[string][]byte{}
	require.NoError(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		r, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(r)] = b
		return err
	}))
	return out
}

// miniRepo copies one small experiment with its golden file and results
// into a temporary repository, with a dataset it reads.
func miniRepo(t *testing.T) string {
	root := t.TempDir()
	for _, f := range []string{"experiments/icpe20/fig23.toml", "golden/icpe20/fig23.toml",
		"figures/icpe20/fig23.svg", "figures/icpe20/fig23.arrow", "figures/icpe20/fig23.run.json",
		"datasets/zoo/vgg16.arrow"} {
		b, err := os.ReadFile(filepath.Join(repoRoot, f))
		require.NoError(t, err)
		require.NoError(t, os.MkdirAll(filepath.Join(root, filepath.Dir(f)), 0o755))
		if f == "experiments/icpe20/fig23.toml" { // read the dataset, so that the site holds its downloads
			b = bytes.Replace(b, []byte("[inputs]\n"), []byte("[inputs]\nvgg16 = \"datasets/zoo/vgg16.arrow\"\n"), 1)
		}
		require.NoError(t, os.WriteFile(filepath.Join(root, f), b, 0o644))
	}
	return root
}

// TestBuildBadInputLeavesNothing: a missing results directory, a missing
// run file or a golden file that does not parse is an error naming the
// file, and neither a partial report nor a temporary directory is left;
// an earlier report stays as it was.
func TestBuildBadInputLeavesNothing(t *testing.T) {
	t.Parallel()
	root := miniRepo(t)
	parent := t.TempDir()
	out := filepath.Join(parent, "report")
	_, err := Build(Options{Root: root, Out: out})
	require.NoError(t, err)
	before := tree(t, out)
	for _, f := range []string{"index.html", "e/icpe20-fig23.html", "d/zoo--vgg16.html", "data/zoo/vgg16.parquet", "data/zoo/vgg16.csv.gz", "fig/icpe20/fig23.svg"} {
		require.NotEmpty(t, before[f], f)
	}
	require.NotContains(t, before, "data/zoo/vgg16.arrow", "the Arrow file is linked, not copied")
	exported, err := os.Stat(filepath.Join(out, "data/zoo/vgg16.parquet"))
	require.NoError(t, err)

	cases := []struct {
		name, want string
		breakIt    func(root string)
	}{
		{"golden", "golden/icpe20/fig23.toml", func(r string) {
			os.WriteFile(filepath.Join(r, "golden/icpe20/fig23.toml"), []byte("[[check]]\nmetric = \n"), 0o644)
		}},
		{"run file", "figures/icpe20/fig23.run.json", func(r string) { os.Remove(filepath.Join(r, "figures/icpe20/fig23.run.json")) }},
		{"results dir", "figures", func(r string) { os.RemoveAll(filepath.Join(r, "figures")) }},
	}
	for _, c := range cases {
		bad := miniRepo(t)
		c.breakIt(bad)
		_, err := Build(Options{Root: bad, Out: out})
		require.Error(t, err, c.name)
		require.Contains(t, err.Error(), c.want, c.name)
		sameTree(t, before, tree(t, out), c.name+": the earlier report is untouched")
		_, err = Build(Options{Root: bad, Out: filepath.Join(parent, "fresh")})
		require.Error(t, err)
		ents, err := os.ReadDir(parent)
		require.NoError(t, err)
		require.Len(t, ents, 1, "%s: nothing but the earlier report in %s", c.name, parent)
	}

	// Rebuilding reuses the earlier exports (the same file, linked) and
	// gives the same bytes.
	_, err = Build(Options{Root: root, Out: out})
	require.NoError(t, err)
	sameTree(t, before, tree(t, out), "rebuilt")
	reused, err := os.Stat(filepath.Join(out, "data/zoo/vgg16.parquet"))
	require.NoError(t, err)
	require.True(t, os.SameFile(exported, reused), "the Parquet export is reused, not written again")

	// A dataset whose bytes changed gets new downloads.
	alex, err := os.ReadFile(filepath.Join(repoRoot, "datasets/zoo/alexnet.arrow"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(root, "datasets/zoo/vgg16.arrow"), alex, 0o644))
	_, err = Build(Options{Root: root, Out: out})
	require.NoError(t, err)
	after := tree(t, out)
	require.False(t, bytes.Equal(before["data/zoo/vgg16.parquet"], after["data/zoo/vgg16.parquet"]), "a changed dataset is exported again")
	want, err := export.Convert("parquet", filepath.Join(repoRoot, "datasets/zoo/alexnet.arrow"), dataset.Allocator)
	require.NoError(t, err)
	require.Equal(t, want, after["data/zoo/vgg16.parquet"], "the download is pslab export's bytes")
}

// sameTree requires the same files with the same bytes, naming the first
// that differs.
func sameTree(t *testing.T, want, got map[string][]byte, what string) {
	t.Helper()
	require.Equal(t, len(want), len(got), what)
	for p, b := range want {
		require.True(t, bytes.Equal(b, got[p]), "%s: %s differs", what, p)
	}
}

// TestBuildRefusesForeignDirectory: Build replaces only an earlier report.
func TestBuildRefusesForeignDirectory(t *testing.T) {
	t.Parallel()
	out := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(out, "notes.txt"), []byte("mine"), 0o644))
	_, err := Build(Options{Root: miniRepo(t), Out: out})
	require.ErrorContains(t, err, "not a pslab report")
	b, err := os.ReadFile(filepath.Join(out, "notes.txt"))
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(string(b), "mine"))
}

// TestEveryAxisNamesItsUnit: every axis label of every experiment names a
// unit in parentheses or brackets ("throughput (examples/s)", "workers
// (count)"), except the category axis of a bar chart.
func TestEveryAxisNamesItsUnit(t *testing.T) {
	t.Parallel()
	paths, err := experiment.Find(repoRoot, nil)
	require.NoError(t, err)
	unit := regexp.MustCompile(`\([^)]+\)|\[[^\]]+\]`)
	for _, p := range paths {
		s, err := experiment.Load(p)
		require.NoError(t, err)
		require.Regexp(t, unit, s.Plot.YLabel, "%s: y axis %q names no unit", s.ID, s.Plot.YLabel)
		if s.Plot.Type != "bar" {
			require.Regexp(t, unit, s.Plot.XLabel, "%s: x axis %q names no unit", s.ID, s.Plot.XLabel)
		}
	}
}
