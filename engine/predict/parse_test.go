package predict

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParseBandwidth(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]float64{
		"10Gbps": 1.25e9, "10 Gbit/s": 1.25e9, "1Gb/s": 125e6, "100Mbps": 12.5e6, "1.25GB/s": 1.25e9,
		"125MB/s": 125e6, "1MiB/s": 1 << 20, "8bps": 1, "2.5e1Gbps": 3.125e9, "1Tbps": 125e9,
	} {
		got, err := ParseBandwidth(in)
		require.NoError(t, err, in)
		require.InDelta(t, want, got, want*1e-12, in)
	}
	for in, want := range map[string]string{
		"10":      "with a unit",
		"10gbps":  "with a unit",
		"Gbps":    "not a number",
		"0Gbps":   "must be > 0",
		"-1Gbps":  "must be > 0",
		"NaNGbps": "not a number",
		"":        "not a number",
	} {
		_, err := ParseBandwidth(in)
		require.ErrorContains(t, err, want, in)
	}
	bws, err := ParseBandwidths("1Gbps,10Gbps, 25Gbps")
	require.NoError(t, err)
	require.Equal(t, []float64{125e6, 1.25e9, 3.125e9}, bws)
	_, err = ParseBandwidths("10Gbps,1Gbps")
	require.ErrorContains(t, err, "ascending")
}

func TestParseBytes(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]int64{"28MB": 28e6, "65535": 65535, "64KiB": 65536, "0": 0, "1.5kB": 1500, "2 MiB": 2 << 20} {
		got, err := ParseBytes(in)
		require.NoError(t, err, in)
		require.Equal(t, want, got, in)
	}
	for in, want := range map[string]string{"28Mb": "unknown size unit", "1.5": "whole number", "-1MB": "whole number", "MB": "not a number"} {
		_, err := ParseBytes(in)
		require.ErrorContains(t, err, want, in)
	}
}

func TestParseWorkers(t *testing.T) {
	t.Parallel()
	for in, want := range map[string][]int{"1..4": {1, 2, 3, 4}, "8": {8}, "1,2,4,8": {1, 2, 4, 8}, "1..3,8, 16": {1, 2, 3, 8, 16}} {
		got, err := ParseWorkers(in)
		require.NoError(t, err, in)
		require.Equal(t, want, got, in)
	}
	for in, want := range map[string]string{
		"0..4": "integers ≥ 1", "4..1": "integers ≥ 1", "a": "integers ≥ 1", "": "integers ≥ 1",
		"1..4,3": "ascend", "2,2": "ascend", "1..5000": "at most 4096",
	} {
		_, err := ParseWorkers(in)
		require.ErrorContains(t, err, want, in)
	}
}

// TestParseWorkersRefusesHugeRangesFromTheBounds: a range with more counts
// than MaxWorkerCounts is refused from its bounds, before any count is
// built (pslab predict prefixes "predict: -workers: "). Before the fix
// "1..1000000000" built a billion ints, then applied the cap: "fatal error:
// out of memory".
func TestParseWorkersRefusesHugeRangesFromTheBounds(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"1..1000000000":          `"1..1000000000": 1000000000 worker counts; at most 4096`,
		"1..9223372036854775807": `"1..9223372036854775807": 9223372036854775807 worker counts; at most 4096`,
		"1..4000,5000..5100":     `"1..4000,5000..5100": 4101 worker counts; at most 4096`,
		"8,1..1000000000":        "ascend",
	} {
		_, err := ParseWorkers(in)
		require.ErrorContains(t, err, want, in)
	}
	ws, err := ParseWorkers("1..4096")
	require.NoError(t, err)
	require.Len(t, ws, MaxWorkerCounts)
	require.Equal(t, 4096, ws[4095])
}
