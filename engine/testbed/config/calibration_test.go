package config

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/testbed/training"
)

const goodCalibration = `
[calibration]
message_cost_us_multiplexed = 73
message_cost_us_ordered = 32
rtt_us = 93
step_cv = 0.10
run_cv = 0
`

func TestLoadCalibration(t *testing.T) {
	t.Parallel()
	cal, ok, err := LoadCalibration(writeConfig(t, goodConfigs+goodCalibration))
	require.NoError(t, err)
	require.True(t, ok)
	require.InDelta(t, 73e-6, cal.MessageCost[training.Multiplexed], 1e-18)
	require.InDelta(t, 32e-6, cal.MessageCost[training.Ordered], 1e-18)
	require.InDelta(t, 93e-6, cal.RTT, 1e-18)
	require.Equal(t, 0.10, cal.StepCV)
	require.Zero(t, cal.RunCV, "run_cv may be left out")
	cal, _, err = LoadCalibration(writeConfig(t, goodConfigs+strings.Replace(goodCalibration, "run_cv = 0", "run_cv = 0.02", 1)))
	require.NoError(t, err)
	require.Equal(t, 0.02, cal.RunCV)
	_, ok, err = LoadCalibration(writeConfig(t, goodConfigs))
	require.NoError(t, err)
	require.False(t, ok, "no [calibration] table")
}

// TestCalibrationErrorsNameTheKey: a [calibration] value that is NaN,
// infinite or negative (or a step CV that is not > 0) is refused at its
// own line and key. step_cv = nan used to be accepted, and -dry then
// needed int(NaN) steps; rtt_us = -93 printed "RTT -93 µs".
func TestCalibrationErrorsNameTheKey(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ key, value, want string }{
		{"step_cv", "nan", "NaN, need a finite value"},
		{"step_cv", "0", "0, need a value > 0"},
		{"step_cv", "-0.1", "-0.1, need a value > 0"},
		{"rtt_us", "-93", "negative value -93"},
		{"rtt_us", "inf", "+Inf, need a finite value"},
		{"message_cost_us_multiplexed", "-1", "negative value -1"},
		{"message_cost_us_ordered", "nan", "NaN, need a finite value"},
		{"run_cv", "-0.02", "negative value -0.02"},
	} {
		t.Run(c.key+"="+c.value, func(t *testing.T) {
			t.Parallel()
			src := goodConfigs + strings.Replace(goodCalibration, "\n"+c.key+" = ", "\n"+c.key+" = "+c.value+" # was ", 1)
			p := writeConfig(t, src)
			_, _, err := LoadCalibration(p)
			want := fmt.Sprintf("%s:%d: [calibration] field %s: %s", p, lineOf(t, src, 1, c.key+" = "), c.key, c.want)
			require.EqualError(t, err, want)
		})
	}
}
