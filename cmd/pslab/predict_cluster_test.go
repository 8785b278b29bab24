package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Bad cluster flags: a clear error naming the flag, before any work.
func TestPredictClusterFlagErrors(t *testing.T) {
	t.Parallel()
	_, profile, traceArrow, _ := toyInputs(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{profile, "-bandwidth", "1Gbps", "-gpus-per-node", "0"}, "-gpus-per-node 0: need 1 to 1024"},
		{[]string{profile, "-bandwidth", "1Gbps", "-ps", "-1"}, "-ps"},
		{[]string{profile, "-bandwidth", "1Gbps", "-calibrate", "0:250"}, "-calibrate"},
		{[]string{profile, "-bandwidth", "1Gbps", "-calibrate", "1:0"}, "-calibrate"},
		{[]string{profile, "-bandwidth", "1Gbps", "-calibrate", "1:-5"}, "-calibrate"},
		{[]string{profile, "-bandwidth", "1Gbps", "-calibrate", "1:NaN"}, "-calibrate"},
		{[]string{profile, "-bandwidth", "1Gbps", "-sync", "ssp"}, "-sync"},
		{[]string{profile, "-bandwidth", "1Gbps", "-intra-bandwidth", "fast"}, "-intra-bandwidth"},
		{[]string{profile, "-bandwidth", "1Gbps", "-timeline", "x.json", "-timeline-workers", "0"}, "-timeline-workers"},
		{[]string{traceArrow, "-gpus-per-node", "2"}, "-gpus-per-node applies to a per-layer profile"},
		{[]string{traceArrow, "-colocate"}, "-colocate applies to a per-layer profile"},
	} {
		_, err := runPredict(t, tc.args...)
		require.ErrorContains(t, err, tc.want, strings.Join(tc.args[1:], " "))
	}
}

// -sync bsp lists the asp-only models as n/a in every format; -gpus-per-node
// reports per-GPU throughput; -calibrate prints the fitted speed;
// -timeline writes a Chrome trace.
func TestPredictClusterFlags(t *testing.T) {
	t.Parallel()
	dir, profile, _, _ := toyInputs(t)
	tl := filepath.Join(dir, "tl.json")
	args := []string{profile, "-bandwidth", "1Gbps", "-workers", "1,2", "-steps", "60", "-paper", "-warmup", "5", "-sync", "bsp",
		"-gpus-per-node", "4", "-calibrate", "1:200", "-timeline", tl}
	out, err := runPredict(t, args...)
	require.NoError(t, err)
	require.Contains(t, out, "n/a (asp only)")
	require.Contains(t, out, "per GPU (examples/s; 4 GPUs per node)")
	require.Contains(t, out, "calibrated to 1:200: device speed")
	require.Contains(t, out, "knee (W at 95% of max)")
	b, err := os.ReadFile(tl)
	require.NoError(t, err)
	require.True(t, json.Valid(b))
	out, err = runPredict(t, append(args[:len(args)-2], "-format", "csv")...)
	require.NoError(t, err)
	require.Contains(t, out, ",mva-exact,,,,")
	require.Contains(t, out, "n/a (asp only)")
	out, err = runPredict(t, append(args[:len(args)-2], "-format", "json")...)
	require.NoError(t, err)
	require.Contains(t, out, `"status": "n/a (asp only)"`)
}
