package config

import (
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
	// StepCV is the coefficient of variation of step times assumed when
	// checking that a configuration's step count reaches accounting.MaxCI.
	StepCV float64
}

// calibrationFields is the [calibration] table (Calibration).
type calibrationFields struct {
	MessageCostMuxUS     float64 `toml:"message_cost_us_multiplexed"`
	MessageCostOrderedUS float64 `toml:"message_cost_us_ordered"`
	RTTUS                float64 `toml:"rtt_us"`
	StepCV               float64 `toml:"step_cv"`
	Measured             string  `toml:"measured"`
}

// LoadCalibration reads the [calibration] table of a collection file; ok
// is false if the file has none.
func LoadCalibration(path string) (cal Calibration, ok bool, err error) {
	var f configFile
	if _, err := tomlfile.Decode(path, &f); err != nil {
		return cal, false, err
	}
	k := f.Calibration
	if k.MessageCostMuxUS == 0 && k.MessageCostOrderedUS == 0 {
		return cal, false, nil
	}
	cal = Calibration{MessageCost: map[string]float64{training.Multiplexed: k.MessageCostMuxUS * 1e-6, training.Ordered: k.MessageCostOrderedUS * 1e-6},
		RTT: k.RTTUS * 1e-6, StepCV: k.StepCV}
	return cal, true, nil
}
