package testbed

import (
	"path/filepath"
	"testing"

	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/stretchr/testify/require"
)

// upToDate skips what the collection already holds on the current
// network, host_limited or not, and measures again what an earlier
// network or configuration produced.
func TestUpToDate(t *testing.T) {
	t.Parallel()
	write := func(network string, limited bool) (string, Config) {
		o := fakeOutcome(t)
		o.Network = network
		o.Acct.Messages = 8 // a run with a probe, so with accounting
		if limited {
			o.Acct.Cause = "contention 9.0% of wall time (ps 0, W=2 rep 0: run-queue wait)"
		}
		dir := filepath.Join(t.TempDir(), o.Config.Name)
		require.NoError(t, o.Write(dir, Host{}, memory.NewGoAllocator()))
		return dir, o.Config
	}
	dir, c := write(NetworkNetns, false)
	ok, why := upToDate(dir, c, false)
	require.True(t, ok, why)
	ok, why = upToDate(dir, c, true)
	require.True(t, ok, why)

	other := c
	other.Seed++
	ok, why = upToDate(dir, other, false)
	require.False(t, ok)
	require.Contains(t, why, "configuration hash")

	for _, old := range []string{NetworkNetnsNoGSO, NetworkNetnsTBF} {
		dir, c := write(old, false)
		ok, why := upToDate(dir, c, false)
		require.False(t, ok, old)
		require.Contains(t, why, old)
	}

	dir, c = write(NetworkNetns, true)
	ok, why = upToDate(dir, c, false)
	require.True(t, ok, "a host_limited dataset is kept: the collection resumes on a small host")
	require.Contains(t, why, "host_limited: contention 9.0%")
	ok, why = upToDate(dir, c, true)
	require.False(t, ok, "-retry-limited measures it again")
	require.Contains(t, why, "host_limited")

	ok, why = upToDate(filepath.Join(t.TempDir(), "none"), c, false)
	require.False(t, ok)
	require.Equal(t, "no committed dataset", why)
}
