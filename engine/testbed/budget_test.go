package testbed

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

const smokeConfigs = "testdata/smoke-configs.toml"

// toyCalibration is a [calibration] table for loopbackToyConfig: 1 µs
// per message and RTT, step CV 10%.
const toyCalibration = "\n[calibration]\nmessage_cost_us_multiplexed = 1\nmessage_cost_us_ordered = 1\nrtt_us = 1\nstep_cv = 0.1\n"

// The 40× smoke configurations are over budget: -dry -strict refuses them
// naming file:line and the computed numbers, before anything runs.
func TestDryStrictRefusesSmokeConfigs(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	err := Main(context.Background(), []string{"run", "-root", "../..", "-config", "engine/testbed/" + smokeConfigs,
		"-only", "resnet50-mux,resnet50-ordered-tic", "-dry", "-strict"}, Launcher{}, &out, &out)
	require.Error(t, err)
	require.Regexp(t, `smoke-configs.toml:\d+: resnet50-mux: predicted unscaled share \d+\.\d% > 5%: \(73\.0 µs × 214 messages`, err.Error())
	require.Contains(t, out.String(), "resnet50-ordered-tic")
	// without -strict -dry only prints
	out.Reset()
	require.NoError(t, Main(context.Background(), []string{"run", "-root", "../..", "-config", "engine/testbed/" + smokeConfigs,
		"-only", "resnet50-mux", "-dry"}, Launcher{}, &out, &out))
	require.Contains(t, out.String(), "OVER")
}

// A step count that cannot reach the ±3% CI is refused by -dry even
// without -strict.
func TestDryRefusesTooFewSteps(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := loopbackToyConfig("few", "1", 10, 5, 5) + toyCalibration
	p := filepath.Join(dir, "c.toml")
	require.NoError(t, os.WriteFile(p, []byte(cfg), 0o644))
	var out bytes.Buffer
	err := Main(context.Background(), []string{"run", "-config", p, "-network", "loopback", "-dry"}, Launcher{}, &out, &out)
	require.ErrorContains(t, err, "c.toml:21: few: 5 step times per throughput point (repetitions 1 × W 1 × average 5) < 43 needed")
}

// The checked-in collection is within the predicted budget.
func TestCheckedInConfigsWithinPredictedBudget(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	require.NoError(t, Main(context.Background(), []string{"run", "-root", "../..", "-dry", "-strict"}, Launcher{}, &out, &out), out.String())
}
