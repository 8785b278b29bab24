package collection

import (
	"path/filepath"
	"testing"

	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/stretchr/testify/require"

	"pslab/engine/testbed/config"
	"pslab/engine/testbed/network"
)

// UpToDate skips what the collection already holds on the current
// network, host_limited or not, and measures again what an earlier
// network or configuration produced.
func TestUpToDate(t *testing.T) {
	t.Parallel()
	write := func(mode string, limited bool) (string, config.Config) {
		o := fakeOutcome(t)
		o.Network = mode
		o.Acct.Messages = 8 // a run with a probe, so with accounting
		if limited {
			o.Acct.Cause = "contention 9.0% of wall time (ps 0, W=2 rep 0: run-queue wait)"
		}
		dir := filepath.Join(t.TempDir(), o.Config.Name)
		require.NoError(t, o.Write(dir, Host{}, memory.NewGoAllocator()))
		return dir, o.Config
	}
	dir, c := write(network.Netns, false)
	ok, why := UpToDate(dir, c, false)
	require.True(t, ok, why)
	ok, why = UpToDate(dir, c, true)
	require.True(t, ok, why)

	other := c
	other.Seed++
	ok, why = UpToDate(dir, other, false)
	require.False(t, ok)
	require.Contains(t, why, "configuration hash")

	for _, old := range []string{network.NetnsNoGSO, network.NetnsTBF} {
		dir, c := write(old, false)
		ok, why := UpToDate(dir, c, false)
		require.False(t, ok, old)
		require.Contains(t, why, old)
	}

	dir, c = write(network.Netns, true)
	ok, why = UpToDate(dir, c, false)
	require.True(t, ok, "a host_limited dataset is kept: the collection resumes on a small host")
	require.Contains(t, why, "host_limited: contention 9.0%")
	ok, why = UpToDate(dir, c, true)
	require.False(t, ok, "-retry-limited measures it again")
	require.Contains(t, why, "host_limited")

	ok, why = UpToDate(filepath.Join(t.TempDir(), "none"), c, false)
	require.False(t, ok)
	require.Equal(t, "no committed dataset", why)
}
