package report

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/dataset"
	"pslab/engine/export"
)

var (
	repoOnce   sync.Once
	repo       *Site
	repoErr    error
	renderOnce sync.Once
	rendered   *Files
	renderErr  error
)

// repoSite loads the site of the repository once for the tests that only
// read it.
func repoSite(t *testing.T) *Site {
	t.Helper()
	repoOnce.Do(func() { repo, repoErr = Load(repoRoot) })
	require.NoError(t, repoErr)
	return repo
}

// repoFiles renders repoSite once for the tests that only read its pages
// (a render is about 0.25 CPU-s; four tests read it).
func repoFiles(t *testing.T) *Files {
	t.Helper()
	site := repoSite(t)
	renderOnce.Do(func() { rendered, renderErr = site.Render() })
	require.NoError(t, renderErr)
	return rendered
}

// TestAccuracyRowsAndFooter is issue 27 item 5: the configurations are
// the table's rows, each saying how many of its points hold their testbed
// judgement (or, measured before per-point judgement, whether the testbed
// found it host-limited); the experiment's summaries are labelled footer
// rows, never rows among the configurations.
func TestAccuracyRowsAndFooter(t *testing.T) {
	t.Parallel()
	a := repoSite(t).Accuracy
	require.NotNil(t, a)
	m := a.Experiment.Run.Metrics
	for _, r := range a.Rows {
		_, summary := summaryOrder[r.Config]
		require.False(t, summary, "summary %s among the configurations", r.Config)
		require.NotEmpty(t, r.Page, "%s links its throughput dataset", r.Config)
		if j, ok := m["measured.judged."+r.Config]; ok {
			require.Equal(t, fmt.Sprintf("%g of %g", float64(j), float64(j+m["measured.unjudged."+r.Config])), r.Judged, r.Config)
			continue
		}
		require.Contains(t, []string{"yes", "no"}, r.HostLimited, r.Config)
		if r.HostLimited == "yes" {
			require.NotEmpty(t, r.Cause, r.Config)
		}
	}
	require.Len(t, a.Rows, 25, "every configuration, also those none of whose points judges")
	var got []string
	for _, r := range a.Summaries {
		got = append(got, r.Config)
		require.NotEmpty(t, r.Label)
	}
	require.Equal(t, []string{"all"}, got)

	files := repoFiles(t)
	page, _ := files.Get("accuracy.html")
	body, foot, ok := strings.Cut(string(page), "<tfoot>")
	require.True(t, ok, "the summaries are the table's footer")
	require.NotContains(t, body, "<code>all</code>")
	require.Contains(t, body, "7 of 7 points hold")
	require.Contains(t, foot, "mean over all configurations")
}

// TestAccuracyBoundsPerModel: every model with a paper bound has every
// one of its configurations' cells judged by it; Cynthia's BSP cells are judged by its
// 6.3% bound (stated for an average), not shaded "no bound claimed".
func TestAccuracyBoundsPerModel(t *testing.T) {
	t.Parallel()
	a := repoSite(t).Accuracy
	bounded := map[string]bool{}
	for _, b := range a.Bounds {
		bounded[b.Model] = true
		require.NotEmpty(t, b.Scope, "%s %s", b.Model, b.Bound)
	}
	require.True(t, bounded["cynthia-bsp"])
	for i, model := range a.Models {
		for _, r := range a.Rows { // a summary row has only bounds stated for averages
			c := r.Cells[i]
			switch {
			case c.Mean == "":
				require.Equal(t, "na", c.Class)
			case bounded[model]:
				require.Contains(t, []string{"ok", "miss"}, c.Class, "%s on %s", model, r.Config)
				require.NotEmpty(t, c.Bound, "%s on %s", model, r.Config)
			default:
				require.Equal(t, "nobound", c.Class, "%s on %s", model, r.Config)
			}
		}
	}
	for i, model := range a.Models {
		if model != "cynthia-bsp" {
			continue
		}
		for _, r := range a.Rows {
			if c := r.Cells[i]; c.Mean != "" {
				require.Contains(t, c.Bound, "mean ≤ 6.3", r.Config)
			}
		}
	}
}

// TestEveryMetadataKeyDocumented: every schema metadata key of every
// committed dataset is in keys.go, so a dataset page names and groups it.
// A new key: add it to keyDocs.
func TestEveryMetadataKeyDocumented(t *testing.T) {
	t.Parallel()
	for _, d := range repoSite(t).Datasets {
		for _, g := range d.Meta {
			for _, k := range g.Keys {
				require.NotEqual(t, "unknown", g.ID, "%s: metadata key %q has no description in keys.go", d.Rel, k.Key)
				require.NotEmpty(t, k.Name, "%s: %s", d.Rel, k.Key)
			}
		}
		if strings.HasPrefix(d.Rel, "datasets/testbed") {
			require.NotEmpty(t, d.Meta, d.Rel)
		}
	}
}

// TestDatasetPlots: every dataset page has a small plot, or says why not
// (a table with no numeric column of a single unit); every testbed
// dataset has one; plots stay small.
func TestDatasetPlots(t *testing.T) {
	t.Parallel()
	for _, d := range repoSite(t).Datasets {
		require.NotEmpty(t, d.PlotCaption, d.Rel)
		if d.Plot == "" {
			require.True(t, strings.HasPrefix(d.PlotCaption, "No plot"), "%s: %s", d.Rel, d.PlotCaption)
			require.True(t, strings.HasPrefix(d.Schema, "reported:"), "%s has no plot", d.Rel)
			continue
		}
		require.True(t, strings.HasPrefix(string(d.Plot), `<svg class="dsplot"`), d.Rel)
		require.Less(t, len(d.Plot), 24<<10, "%s: plot of %d bytes", d.Rel, len(d.Plot))
	}
}

// TestDownloadsReadBack: the Parquet download reads back as the dataset's
// Arrow table, and the gzip'd CSV is pslab export's CSV.
func TestDownloadsReadBack(t *testing.T) {
	t.Parallel()
	root := miniRepo(t)
	out := filepath.Join(t.TempDir(), "report")
	_, err := Build(Options{Root: root, Out: out})
	require.NoError(t, err)
	src := filepath.Join(root, "datasets/zoo/vgg16.arrow")
	raw, err := os.ReadFile(src)
	require.NoError(t, err)
	want, err := export.ReadArrow(raw, dataset.Allocator)
	require.NoError(t, err)
	defer want.Release()

	pq, err := os.ReadFile(filepath.Join(out, "data/zoo/vgg16.parquet"))
	require.NoError(t, err)
	got, err := export.ReadParquet(pq, dataset.Allocator)
	require.NoError(t, err)
	defer got.Release()
	require.True(t, want.Schema().Equal(got.Schema()), "schema with units and provenance")
	require.Equal(t, want.NumRows(), got.NumRows())

	f, err := os.Open(filepath.Join(out, "data/zoo/vgg16.csv.gz"))
	require.NoError(t, err)
	defer f.Close()
	z, err := gzip.NewReader(f)
	require.NoError(t, err)
	csv, err := io.ReadAll(z)
	require.NoError(t, err)
	wantCSV, err := export.Convert("csv", src, dataset.Allocator)
	require.NoError(t, err)
	require.True(t, bytes.Equal(wantCSV, csv), "the CSV download is pslab export -format csv")
}

// TestDownloadsByteStable: two builds from the same repository, with the
// downloads and without an earlier report to reuse, give the same bytes.
func TestDownloadsByteStable(t *testing.T) {
	t.Parallel()
	root, dir := miniRepo(t), t.TempDir()
	for _, out := range []string{"a", "b"} {
		_, err := Build(Options{Root: root, Out: filepath.Join(dir, out)})
		require.NoError(t, err)
	}
	a := tree(t, filepath.Join(dir, "a"))
	require.NotEmpty(t, a["data/zoo/vgg16.csv.gz"])
	sameTree(t, a, tree(t, filepath.Join(dir, "b")), "two builds with downloads")
}

// TestChartEscapesAndIsStable: a chart's text is escaped and its bytes
// depend only on its data.
func TestChartEscapesAndIsStable(t *testing.T) {
	t.Parallel()
	c := &chart{XLabel: "W <workers>", YLabel: "y & z", XTicks: []float64{1, 2, 3},
		Series: []series{{Name: `a"b`, Kind: lines, X: []float64{1, 2, 3}, Y: []float64{10, 20, 15},
			Lo: []float64{9, 19, 14}, Hi: []float64{11, 21, 16}}},
		Rules: []rule{{Y: 12, Label: "bound <12>"}}}
	s := string(c.svg("t<"))
	require.Equal(t, s, string(c.svg("t<")))
	for _, raw := range []string{"<workers>", "y & z", `a"b`, "<12>", `"t<"`} {
		require.NotContains(t, s, raw)
	}
	require.Contains(t, s, "W &lt;workers&gt;")
	for _, tick := range []string{">1<", ">2<", ">3<"} {
		require.Contains(t, s, tick, "a tick at every W")
	}
}

// TestChecksShowTheirIntervals is issue 25 item 5: a check judged on its
// interval shows that interval and its verdict (inconclusive ones marked),
// and every other check whose value the result records with a 95%
// interval shows it beside the value.
func TestChecksShowTheirIntervals(t *testing.T) {
	t.Parallel()
	var judged, withCI, inconclusive int
	for _, e := range repoSite(t).Experiments {
		n := 0
		for _, c := range e.Checks {
			_, lo := e.Run.Metrics[c.check.Metric+".ci95_lo"]
			_, hi := e.Run.Metrics[c.check.Metric+".ci95_hi"]
			if c.check.Metric != "" && lo && hi {
				require.Contains(t, c.Interval, "95% CI", "%s: %s", e.Spec.ID, c.Name)
				withCI++
			}
			if c.Interval != "" {
				n++
			}
			if c.Result == "inconclusive" {
				require.Contains(t, c.Interval, "95% CI", "%s: %s is judged on its interval", e.Spec.ID, c.Name)
				inconclusive++
			}
			if c.check.Interval {
				judged++
				require.Regexp(t, `^\[.*, .*\] 95% CI$`, c.Interval, "%s: %s", e.Spec.ID, c.Name)
			}
		}
		require.Equal(t, n, e.Count.WithInterval, e.Spec.ID)
	}
	require.Positive(t, judged, "checks judged on their interval")
	require.Positive(t, withCI, "metrics with a recorded 95% interval")
	require.Positive(t, inconclusive, "inconclusive claims")

	files := repoFiles(t)
	page, ok := files.Get("e/icpe20-fig25.html")
	require.True(t, ok)
	require.Contains(t, string(page), "<th>interval</th>")
	require.Contains(t, string(page), "] 95% CI</td>")
}

// TestDownloadsOnlyForDatasetsExperimentsRead is issue 27 item 5's size
// bound: the site holds Parquet and CSV downloads of the datasets some
// experiment reads; the page of any other says so and links its Arrow
// file only.
func TestDownloadsOnlyForDatasetsExperimentsRead(t *testing.T) {
	t.Parallel()
	site := repoSite(t)
	files := repoFiles(t)
	var with, without int
	for _, d := range site.Datasets {
		page, ok := files.Get(d.Page())
		require.True(t, ok, d.Rel)
		if len(d.UsedBy) > 0 {
			require.True(t, d.Downloads(), d.Rel)
			require.Contains(t, string(page), d.File(".parquet"), d.Rel)
			with++
			continue
		}
		require.False(t, d.Downloads(), d.Rel)
		require.NotContains(t, string(page), d.File(".parquet"), d.Rel)
		require.Contains(t, string(page), "No experiment reads this dataset", d.Rel)
		without++
	}
	require.Positive(t, with)
	require.Positive(t, without, "the previous testbed collections")
}

// TestMetadataWrittenOnce: a testbed configuration's files share its
// metadata keys; their pages link the throughput file's page, which shows
// them all, and list only their own values (the content hash), so the
// explanations are written once per configuration.
func TestMetadataWrittenOnce(t *testing.T) {
	t.Parallel()
	site := repoSite(t)
	files := repoFiles(t)
	shared := 0
	for _, d := range site.Datasets {
		if d.MetaOf == nil {
			continue
		}
		shared++
		require.Equal(t, path.Dir(d.Rel), path.Dir(d.MetaOf.Rel), d.Rel)
		require.Nil(t, d.MetaOf.MetaOf, "%s: the page it links shows the keys", d.Rel)
		require.LessOrEqual(t, len(d.MetaOwn), maxOwnMeta, d.Rel)
		page, _ := files.Get(d.Page())
		require.Contains(t, string(page), d.MetaOf.Page(), d.Rel)
		for _, k := range d.MetaOwn {
			require.Contains(t, string(page), k.Value, "%s lists its own %s", d.Rel, k.Key)
		}
	}
	require.Greater(t, shared, 200, "the testbed collections' files")
	var steps *Dataset
	for _, d := range site.Datasets {
		if d.Rel == "datasets/testbed-v3/resnet50-mux/steps.arrow" {
			steps = d
		}
	}
	require.NotNil(t, steps)
	require.Equal(t, "datasets/testbed-v3/resnet50-mux/throughput.arrow", steps.MetaOf.Rel)
	require.Len(t, steps.MetaOwn, 1)
	require.Equal(t, "pslab.content_sha256", steps.MetaOwn[0].Key)
}
