package collection

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/stretchr/testify/require"
)

// WriteTimeline (`pslab testbed timeline`) writes again, from trace.arrow,
// the timeline the collection wrote beside it (which is not committed).
func TestTimelineFromCommittedTrace(t *testing.T) {
	t.Parallel()
	o := fakeOutcome(t)
	o.Trace.Meta.Source = ConfigSource(o.Config.Name) // as a run records it
	dir := filepath.Join(t.TempDir(), o.Config.Name)
	require.NoError(t, o.Write(dir, Host{}, memory.NewGoAllocator()))
	path := filepath.Join(dir, TimelineFile)
	want, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, os.Remove(path))

	require.NoError(t, WriteTimeline(dir))
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, string(want), string(got))

	empty := t.TempDir()
	err = WriteTimeline(empty)
	require.ErrorContains(t, err, filepath.Join(empty, TraceFile))
	entries, _ := os.ReadDir(empty)
	require.Empty(t, entries, "nothing written on error")
}
