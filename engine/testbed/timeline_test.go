package testbed

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/stretchr/testify/require"
)

// `pslab testbed timeline` writes again, from trace.arrow, the timeline
// the collection wrote beside it (which is not committed).
func TestTimelineFromCommittedTrace(t *testing.T) {
	t.Parallel()
	o := fakeOutcome(t)
	o.Trace.Meta.Source = configSource(o.Config.Name) // as a run records it
	dir := filepath.Join(t.TempDir(), o.Config.Name)
	require.NoError(t, o.Write(dir, Host{}, memory.NewGoAllocator()))
	path := filepath.Join(dir, TimelineFile)
	want, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, os.Remove(path))

	var out, errw bytes.Buffer
	require.NoError(t, timelineMain([]string{dir}, &out, &errw))
	require.Equal(t, path+"\n", out.String())
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, string(want), string(got))

	empty := t.TempDir()
	err = timelineMain([]string{empty}, &out, &errw)
	require.ErrorContains(t, err, filepath.Join(empty, TraceFile))
	entries, _ := os.ReadDir(empty)
	require.Empty(t, entries, "nothing written on error")
	require.Error(t, timelineMain(nil, &out, &errw))
}
