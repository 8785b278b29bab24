package testbed

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
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

// A configuration that cannot reach the ±3% CI within its repetition
// cap, or whose stretched runs would exceed its time cap, is refused by
// -dry even without -strict, naming file:line and the numbers.
func TestDryRefusesRepetitionAndTimeCaps(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(cfg string) string {
		p := filepath.Join(dir, fmt.Sprintf("c%d.toml", len(cfg)))
		require.NoError(t, os.WriteFile(p, []byte(cfg), 0o644))
		return p
	}
	dry := func(p string) error {
		var out bytes.Buffer
		return Main(context.Background(), []string{"run", "-config", p, "-out", dir, "-network", "loopback", "-dry"}, Launcher{}, &out, &out)
	}
	// one repetition: no interval at all (the step-CV bound 0.1/√5 needs 12)
	p := write(loopbackToyConfig("few", "1", 10, 5, 5) + toyCalibration)
	require.ErrorContains(t, dry(p), p+":21: few: a point needs 12 repetitions for a ±3% 95% CI at a between-run CV of 4.47% "+
		"([calibration] step_cv/√(W·average) = 0.1/√(1·5), steps independent; t(0.975, n−1)·CV/√n ≤ 0.03), max_repetitions is 1")
	// runs that vary 5% need 14 > 10
	cfg := strings.Replace(loopbackToyConfig("noisy", "1", 10, 5, 5), "repetitions = 1", "repetitions = 3\nmax_repetitions = 10", 1) + toyCalibration + "run_cv = 0.05\n"
	p = write(cfg)
	require.ErrorContains(t, dry(p), p+":22: noisy: a point needs 14 repetitions for a ±3% 95% CI at a between-run CV of 5.00% ([calibration] run_cv")
	// stretched ×2 and ×4 at W = 7 do not fit in a minute
	cfg = strings.Replace(loopbackToyConfig("slow", "1, 7", 400, 50, 5), "repetitions = 1", "repetitions = 4\ndilations = [2, 4]\nmax_minutes = 1", 1) + toyCalibration
	p = write(cfg)
	err := dry(p)
	require.Error(t, err)
	require.Regexp(t, regexp.QuoteMeta(p)+`:23: slow: predicted collection time \d+\.\d min \(\d+\.\d min of it stretched: ×2, ×4 at the 2 largest W\) > max_minutes 1`, err.Error())
	require.NotContains(t, err.Error(), "repetitions for", "4 repetitions suffice at the step-CV bound 0.1/√50")
}

// The checked-in collection is within the predicted budget.
func TestCheckedInConfigsWithinPredictedBudget(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	require.NoError(t, Main(context.Background(), []string{"run", "-root", "../..", "-dry", "-strict"}, Launcher{}, &out, &out), out.String())
}
