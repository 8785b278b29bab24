package report

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"pslab/engine/experiment"
	"pslab/engine/golden"
)

// browserExperiment is the experiment page the browser test opens.
const browserExperiment = "icpe20-fig14"

// chromium finds Debian's Chromium (or Chrome). Without it the test skips
// locally and fails under CI=true: CI installs it (.ci/run).
func chromium(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("no chromium on PATH: .ci/run installs it with apt-get install -y chromium")
	}
	t.Skip("no chromium on PATH (apt-get install -y chromium); CI fails here instead of skipping")
	return ""
}

// TestReportInBrowser builds the report from the committed results and
// drives headless Chromium through it: the index filter hides rows, a link
// leads to an experiment page whose SVG figure has a non-zero size, whose
// checks table has one row per golden check and whose figure opens full
// size when clicked; the accuracy page has a row per configuration with
// its host-limited verdict and the summaries in its footer; a dataset page
// has its plot and grouped metadata; and no page logs a console error or
// throws. It is skipped under -short: starting Chromium costs seconds of
// CPU, much of it in helper processes.
func TestReportInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: no headless Chromium in a quick loop")
	}
	bin := chromium(t)
	out := filepath.Join(t.TempDir(), "report")
	site, err := Build(Options{Root: repoRoot, Out: out, NoData: true})
	require.NoError(t, err)

	// Chromium's helper processes may still write to the profile for a
	// moment after the browser exits: remove it with retries, not as a
	// t.TempDir whose cleanup fails the test.
	profile, err := os.MkdirTemp("", "pslab-chromium-")
	require.NoError(t, err)
	t.Cleanup(func() {
		for i := 0; i < 50 && os.RemoveAll(profile) != nil; i++ {
			time.Sleep(100 * time.Millisecond)
		}
	})
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(bin),
		chromedp.Flag("headless", true), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true), chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(profile),
	}
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()

	var mu sync.Mutex
	var problems []string
	chromedp.ListenTarget(ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.APITypeError || ev.Type == runtime.APITypeWarning {
				problems = append(problems, fmt.Sprintf("console %s: %v", ev.Type, args(ev.Args)))
			}
		case *runtime.EventExceptionThrown:
			problems = append(problems, "exception: "+ev.ExceptionDetails.Text)
		case *cdplog.EventEntryAdded:
			if ev.Entry.Level == cdplog.LevelError {
				problems = append(problems, "log error: "+ev.Entry.Text+" "+ev.Entry.URL)
			}
		}
	})

	index := "file://" + filepath.ToSlash(filepath.Join(out, "index.html"))
	var all, shown, zhang int
	for _, e := range site.Experiments {
		if e.Spec.Paper == "zhang" {
			zhang++
		}
	}
	visible := `document.querySelectorAll("#experiments tbody tr:not([hidden])").length`
	filter := func(id, v string) chromedp.Action {
		return chromedp.Evaluate(fmt.Sprintf(`(() => { const s = document.getElementById(%q); s.value = %q; s.dispatchEvent(new Event("change")); })()`, id, v), nil)
	}
	require.NoError(t, chromedp.Run(ctx,
		cdplog.Enable(),
		chromedp.Navigate(index),
		chromedp.WaitVisible("#experiments", chromedp.ByID),
		chromedp.Evaluate(visible, &all),
		filter("f-paper", "zhang"),
		chromedp.Evaluate(visible, &shown),
	))
	require.Equal(t, len(site.Experiments), all, "every experiment listed and shown before filtering")
	require.Equal(t, zhang, shown, "the paper filter shows only zhang's experiments")
	var height float64
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Evaluate(`document.querySelector("#experiments tbody tr[hidden]").getBoundingClientRect().height`, &height),
		filter("f-status", "deviates"),
		chromedp.Evaluate(visible, &shown),
	))
	require.Zero(t, height, "a filtered-out row takes no space")
	deviating := 0
	for _, e := range site.Experiments {
		if e.Spec.Paper == "zhang" && e.Spec.Status == "deviates" {
			deviating++
		}
	}
	require.Equal(t, deviating, shown, "paper and status filters combine")

	// Follow the link, as a reader would.
	var url string
	var size []float64
	var rows int
	link := `a[href="e/` + browserExperiment + `.html"]`
	require.NoError(t, chromedp.Run(ctx,
		filter("f-paper", ""), filter("f-status", ""),
		chromedp.Click(link, chromedp.ByQuery, chromedp.NodeVisible),
		chromedp.WaitVisible("#checks", chromedp.ByID),
		chromedp.Location(&url),
		chromedp.Evaluate(`(() => { const r = document.querySelector("#figure svg").getBoundingClientRect(); return [r.width, r.height]; })()`, &size),
		chromedp.Evaluate(`document.querySelectorAll("#checks tbody tr").length`, &rows),
	))
	require.True(t, strings.HasSuffix(url, "/e/"+browserExperiment+".html"), url)
	require.Len(t, size, 2)
	require.Greater(t, size[0], 100.0, "SVG width")
	require.Greater(t, size[1], 100.0, "SVG height")
	s, err := experiment.Load(filepath.Join(repoRoot, "experiments", "icpe20", "fig14.toml"))
	require.NoError(t, err)
	g, err := golden.Load(experiment.GoldenPath(repoRoot, s))
	require.NoError(t, err)
	require.Equal(t, len(g.Checks), rows, "one table row per golden check")

	// The figure opens full size: clicking it loads the SVG alone.
	var root string
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Click("#figure a svg", chromedp.ByQuery, chromedp.NodeVisible),
		chromedp.WaitReady("svg", chromedp.ByQuery),
		chromedp.Location(&url),
		chromedp.Evaluate(`document.documentElement.tagName`, &root),
	))
	require.True(t, strings.HasSuffix(url, "/fig/icpe20/fig14.svg"), url)
	require.Equal(t, "svg", root)

	// The accuracy page: one row per configuration with its testbed
	// judgement, the summaries in the footer under a label.
	a := site.Accuracy
	var body, foot, verdicts int
	require.NoError(t, chromedp.Run(ctx, chromedp.Navigate("file://"+filepath.ToSlash(filepath.Join(out, "accuracy.html"))),
		chromedp.WaitVisible("#accuracy", chromedp.ByID),
		chromedp.Evaluate(`document.querySelectorAll("#accuracy tbody tr").length`, &body),
		chromedp.Evaluate(`document.querySelectorAll("#accuracy tfoot tr").length`, &foot),
		chromedp.Evaluate(`document.querySelectorAll("#accuracy tbody td.hl.yes, #accuracy tbody td.hl.no, #accuracy tbody td.hl.judged").length`, &verdicts),
	))
	require.Equal(t, len(a.Rows), body)
	require.Equal(t, len(a.Summaries)+1, foot, "summaries and the footer's label row")
	require.Equal(t, len(a.Rows), verdicts, "every configuration says how many of its points hold, or whether it was host-limited")

	// A dataset page: a small plot with a size, the metadata grouped.
	var d *Dataset
	for _, x := range site.Datasets {
		if strings.HasSuffix(x.Rel, "/throughput.arrow") && d == nil {
			d = x
		}
	}
	require.NotNil(t, d, "a testbed throughput dataset")
	var groups int
	require.NoError(t, chromedp.Run(ctx, chromedp.Navigate("file://"+filepath.ToSlash(filepath.Join(out, d.Page()))),
		chromedp.WaitVisible("#plot svg", chromedp.ByQuery),
		chromedp.Evaluate(`(() => { const r = document.querySelector("#plot svg").getBoundingClientRect(); return [r.width, r.height]; })()`, &size),
		chromedp.Evaluate(`document.querySelectorAll("#metadata tbody").length`, &groups),
	))
	require.Greater(t, size[0], 100.0, "plot width")
	require.Greater(t, size[1], 100.0, "plot height")
	require.Equal(t, len(d.Meta), groups, "one table section per metadata group")

	// Every other kind of page loads cleanly too.
	for _, p := range []string{"datasets.html", site.Datasets[0].Page()} {
		require.NoError(t, chromedp.Run(ctx, chromedp.Navigate("file://"+filepath.ToSlash(filepath.Join(out, p))),
			chromedp.WaitReady("body", chromedp.ByQuery)), p)
	}
	require.NoError(t, chromedp.Cancel(ctx), "closing the browser")
	mu.Lock()
	defer mu.Unlock()
	require.Empty(t, problems, "console errors")
}

func args(a []*runtime.RemoteObject) string {
	var s []string
	for _, o := range a {
		s = append(s, string(o.Value))
	}
	return strings.Join(s, " ")
}
