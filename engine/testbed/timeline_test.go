package testbed

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/dataset"
	"pslab/engine/testbed/collection"
	"pslab/engine/zoo"
)

// `pslab testbed timeline dir...` writes dir/timeline.json from
// dir/trace.arrow (collection.WriteTimeline, whose output is tested
// against a run's in package collection) and prints its path; a directory
// without trace.arrow, or none, is an error and writes nothing.
func TestTimelineCommand(t *testing.T) {
	t.Parallel()
	tr, err := zoo.Synthesize(zoo.Toy(), zoo.Options{Steps: 2, Bandwidth: 1e8})
	require.NoError(t, err)
	dir := t.TempDir()
	require.NoError(t, dataset.Write(filepath.Join(dir, collection.TraceFile),
		dataset.FromTrace(tr, dataset.Provenance{Origin: dataset.Measured, Source: "test"}), dataset.Allocator))
	var out, errw bytes.Buffer
	require.NoError(t, timelineMain([]string{dir}, &out, &errw))
	path := filepath.Join(dir, collection.TimelineFile)
	require.Equal(t, path+"\n", out.String())
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	back, err := dataset.Read(filepath.Join(dir, collection.TraceFile), dataset.TraceSchema, dataset.Allocator)
	require.NoError(t, err)
	recorded, err := dataset.ToTrace(back)
	require.NoError(t, err)
	want, err := collection.EncodeTimeline(recorded)
	require.NoError(t, err)
	require.Equal(t, string(want), string(got))

	empty := t.TempDir()
	err = timelineMain([]string{empty}, &out, &errw)
	require.ErrorContains(t, err, filepath.Join(empty, collection.TraceFile))
	entries, _ := os.ReadDir(empty)
	require.Empty(t, entries, "nothing written on error")
	require.Error(t, timelineMain(nil, &out, &errw))
}
