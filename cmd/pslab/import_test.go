package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/dataset"
	"pslab/engine/timeline"
	"pslab/engine/zoo"
)

const sharedData = "../../../shared/datasets"

func runImport(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	err := Run(context.Background(), append([]string{"import"}, args...), &out, &errb)
	return out.String() + errb.String(), err
}

// TestImportTimelineEndToEnd: a synthesized trace written as a TF
// timeline (two files: the same steps twice) imports into a trace dataset
// that reads back as the same steps, with the flags' metadata.
func TestImportTimelineEndToEnd(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tr, err := zoo.Synthesize(zoo.Toy(), zoo.Options{Steps: 3, Servers: 2, Bandwidth: 1e8, Jitter: 0.1, Seed: 1})
	require.NoError(t, err)
	in := filepath.Join(dir, "timeline.json")
	var buf bytes.Buffer
	require.NoError(t, timeline.Write(&buf, tr))
	require.NoError(t, os.WriteFile(in, buf.Bytes(), 0o644))
	out := filepath.Join(dir, "mine", "trace.arrow")
	msg, err := runImport(t, "tf-timeline", in, in, "-o", out, "-platform", "laptop", "-window", "65535", "-licence", "CC0")
	require.NoError(t, err, msg)
	require.Contains(t, msg, "6 steps × 20 ops")
	tab, err := dataset.Read(out, dataset.TraceSchema, dataset.Allocator)
	require.NoError(t, err)
	back, err := dataset.ToTrace(tab)
	require.NoError(t, err)
	require.Len(t, back.Steps, 6)
	for i := range back.Steps {
		for k, op := range back.Steps[i].Ops {
			want := tr.Steps[i%3].Ops[k]
			require.Equal(t, [3]int64{want.Start, want.End, want.Bytes}, [3]int64{op.Start, op.End, op.Bytes})
			require.Equal(t, want.Name, op.Name)
		}
	}
	require.Equal(t, "laptop", back.Meta.Platform)
	require.Equal(t, int64(65535), back.Meta.Window)
	require.Equal(t, 2, back.Meta.Servers)
	require.Equal(t, "CC0", tab.Provenance.Licence)
	require.Contains(t, tab.Provenance.Command, "pslab import tf-timeline")
	require.Equal(t, dataset.Measured, tab.Provenance.Origin)
}

func TestImportKinetoRealTrace(t *testing.T) {
	t.Parallel()
	in := filepath.Join(sharedData, "traces", "kineto-hta-sampled_rank-0.json.gz")
	if _, err := os.Stat(in); err != nil {
		t.Skipf("traces not available: %v", err)
	}
	out := filepath.Join(t.TempDir(), "rank0.arrow")
	msg, err := runImport(t, "kineto", "-model", "dlrm-like", in, "-o", out)
	require.NoError(t, err, msg)
	require.Contains(t, msg, "292 layers (195 forward, 97 backward-only)")
	require.Contains(t, msg, "NCCL kernels: 10")
	tab, err := dataset.Read(out, zoo.ProfileSchema, dataset.Allocator)
	require.NoError(t, err)
	p, err := zoo.ProfileFromTable(tab)
	require.NoError(t, err)
	require.Equal(t, "dlrm-like", p.Model)
	require.Equal(t, 2048, p.Batch)
	require.Len(t, p.Layers, 292)
	require.Equal(t, "128", tab.Provenance.Extra["kineto_world_size"])
}

func TestImportMeasuredAndErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	in := filepath.Join(dir, "m.csv")
	require.NoError(t, os.WriteFile(in, []byte("workers,throughput[images/min]\n1,600\n2,1100\n"), 0o644))
	out := filepath.Join(dir, "m.arrow")
	msg, err := runImport(t, "measured-csv", in, "-o", out, "-model", "alexnet", "-batch", "32", "-sync", "asp")
	require.NoError(t, err, msg)
	tab, err := dataset.Read(out, dataset.MeasurementSchema, dataset.Allocator)
	require.NoError(t, err)
	require.Equal(t, []float64{10, 1100.0 / 60}, tab.Floats("throughput"))

	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "want a format first"},
		{[]string{"pdf", in}, `unknown format "pdf"`},
		{[]string{"measured-csv", in}, "-o <file.arrow> is required"},
		{[]string{"measured-csv", in, "-o", "x.csv"}, "must be an .arrow file"},
		{[]string{"measured-csv", "-o", out}, "no input files"},
		{[]string{"measured-csv", in, in, "-o", out}, "one CSV at a time"},
		{[]string{"kineto", in, in, "-o", out}, "one trace (one rank) at a time"},
		{[]string{"measured-csv", in, "-o", out, "-origin", "guessed"}, `-origin "guessed"`},
		{[]string{"measured-csv", in, "-o", out, "-batch", "32", "-sync", "asp"}, "no model column"},
		{[]string{"tf-timeline", in, "-o", out}, "not a Chrome trace"},
		{[]string{"kineto", in, "-o", out}, "not a Chrome trace"},
	} {
		_, err := runImport(t, c.args...)
		require.ErrorContains(t, err, c.want, "%v", c.args)
	}
}

// TestDatasetsBuildsZooAndPhilly rebuilds into a scratch root: reported
// tables always, the zoo and Philly from -shared, and a clear message
// without shared data.
func TestDatasetsBuildsZooAndPhilly(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("-short: rebuilds datasets from the shared raw data")
	}
	if _, err := os.Stat(sharedData); err != nil {
		t.Skipf("shared data not available: %v", err)
	}
	dir := filepath.Join(t.TempDir(), "repo")
	require.NoError(t, os.CopyFS(filepath.Join(dir, "datasets", "reported"), os.DirFS(filepath.Join(root, "datasets", "reported"))))
	var out, errb bytes.Buffer
	require.NoError(t, Run(context.Background(), []string{"datasets", "-root", dir}, &out, &errb), errb.String())
	require.Contains(t, out.String(), "zoo profiles and Philly trace skipped: no shared raw data")
	require.Contains(t, errb.String(), "NOT rebuilt")

	out.Reset()
	shared := filepath.Join(sharedData, "..")
	require.NoError(t, Run(context.Background(), []string{"datasets", "-root", dir, "-shared", shared}, &out, &errb), errb.String())
	require.Contains(t, out.String(), "12 zoo profiles built")
	require.Contains(t, out.String(), "82247 Philly jobs built")
	tab, err := dataset.Read(filepath.Join(dir, "datasets", "zoo", "vgg16.arrow"), zoo.ProfileSchema, dataset.Allocator)
	require.NoError(t, err)
	p, err := zoo.ProfileFromTable(tab)
	require.NoError(t, err)
	require.Equal(t, 128, p.Batch)
	require.Contains(t, tab.Provenance.Source, "7db6a1c3e64996d5b319faec6ca38cb31bfea1c4")
	require.Contains(t, tab.Provenance.Licence, "MIT")
	// The committed files are what the command produces.
	for _, f := range []string{"zoo/vgg16.arrow", "zoo/nasnetalarge.arrow", "philly/jobs.arrow"} {
		got, err := os.ReadFile(filepath.Join(dir, "datasets", f))
		require.NoError(t, err)
		committed, err := os.ReadFile(filepath.Join(root, "datasets", f))
		require.NoError(t, err)
		require.True(t, bytes.Equal(got, committed), "datasets/%s differs from a rebuild: run pslab datasets", f)
	}
	require.ErrorContains(t, Run(context.Background(), []string{"datasets", "-root", dir, "-shared", filepath.Join(dir, "none")}, &out, &errb), "-shared")
}
