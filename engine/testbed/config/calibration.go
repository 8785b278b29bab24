package config

import (
	"fmt"
	"math"

	"pslab/engine/testbed/training"
	"pslab/engine/tomlfile"
)

// Calibration holds this machine's unscaled costs, measured by probe runs
// (see datasets/testbed/README.md) and given in configs.toml's
// [calibration] table; -dry predicts the unscaled share from them.
type Calibration struct {
	// MessageCost is the per-message cost of each transport (s): the
	// step time of a run with no compute and 4-byte tensors, less one
	// RTT, over the messages of the step.
	MessageCost map[string]float64
	// RTT is the round trip between two hosts (s).
	RTT float64
	// StepCV is the coefficient of variation of step times (the
	// within-run diagnostic; doc.go "Intervals from repetitions").
	StepCV float64
	// RunCV is the coefficient of variation of a point's throughput
	// between independent runs assumed by -dry and -strict for a
	// configuration without a committed dataset to estimate it from (0:
	// unset, then StepCV/√(W·average), its value if steps were
	// independent, a lower bound). Key run_cv.
	RunCV float64
}

// calibrationFields is the [calibration] table (Calibration).
type calibrationFields struct {
	MessageCostMuxUS     float64 `toml:"message_cost_us_multiplexed"`
	MessageCostOrderedUS float64 `toml:"message_cost_us_ordered"`
	RTTUS                float64 `toml:"rtt_us"`
	StepCV               float64 `toml:"step_cv"`
	RunCV                float64 `toml:"run_cv"`
	Measured             string  `toml:"measured"`
}

// LoadCalibration reads the [calibration] table of a collection file; ok
// is false if the file has none. A value that is not a finite number
// ≥ 0 (step_cv: > 0; run_cv may be left out) is an error naming the
// file, its line and its key.
func LoadCalibration(path string) (cal Calibration, ok bool, err error) {
	var f configFile
	tf, err := tomlfile.Decode(path, &f)
	if err != nil {
		return cal, false, err
	}
	k := f.Calibration
	if k.MessageCostMuxUS == 0 && k.MessageCostOrderedUS == 0 {
		return cal, false, nil
	}
	if key, err := k.check(); err != nil {
		return cal, false, tf.Errorf([]string{"calibration", key}, "[calibration] field %s: %v", key, err)
	}
	cal = Calibration{MessageCost: map[string]float64{training.Multiplexed: k.MessageCostMuxUS * 1e-6, training.Ordered: k.MessageCostOrderedUS * 1e-6},
		RTT: k.RTTUS * 1e-6, StepCV: k.StepCV, RunCV: k.RunCV}
	return cal, true, nil
}

// check returns the first key of the table whose value cannot be a
// calibration, and why: costs and the round trip are finite and ≥ 0, the
// step-time CV finite and > 0 (the step count a CI needs grows with it;
// NaN would make any count look sufficient).
func (k *calibrationFields) check() (key string, err error) {
	for _, v := range []struct {
		key      string
		v        float64
		positive bool
	}{
		{"message_cost_us_multiplexed", k.MessageCostMuxUS, false},
		{"message_cost_us_ordered", k.MessageCostOrderedUS, false},
		{"rtt_us", k.RTTUS, false},
		{"step_cv", k.StepCV, true},
		{"run_cv", k.RunCV, false},
	} {
		switch {
		case math.IsNaN(v.v) || math.IsInf(v.v, 0):
			return v.key, fmt.Errorf("%v, need a finite value", v.v)
		case v.positive && !(v.v > 0):
			return v.key, fmt.Errorf("%v, need a value > 0", v.v)
		case v.v < 0:
			return v.key, fmt.Errorf("negative value %v", v.v)
		}
	}
	return "", nil
}
