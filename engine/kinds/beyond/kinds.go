package beyond

import (
	"pslab/engine/experiment"
	"pslab/engine/predict"
)

// Kinds are the kinds of experiments that go beyond the four papers
// (experiments/beyond); beyond experiments may also use the papers' kinds.
func Kinds() experiment.Registry {
	return experiment.Registry{
		"testbed-accuracy": {Run: testbedAccuracy, Models: tbaModels,
			Doc: "every applicable model (icpe20 simulator, Lin et al. MVA, Cynthia, zhang) against every measured testbed configuration, from its 1-worker profile only: mean and max |error| per dataset and model"},
		"testbed-modes": {Run: testbedModes, Models: []string{string(predict.Simulator)},
			Doc: "what selects a testbed point's operating mode: the same job measured with its workers started together and staggered, each run classed by its synchrony as in step or interleaved, the in-step fraction per start with its Wilson interval, and the icpe20 simulator against each mode"},
		"tf-benchmarks": {Run: tfBenchmarks, Models: tfbModels,
			Doc: "every model on TensorFlow's published single-node benchmarks (one node of G GPUs, the PS on the host CPU), each calibrated on its own on the 1-GPU row: before the node's own costs, with them at the hardware specifications, and with the host slowdown fitted on the other platform"},
		"zhang-vs-cynthia": {Run: zhangVsCynthia, Models: []string{"zhang", "cynthia", "optimus"},
			Doc: "the same BSP configurations predicted by zhang's model and Cynthia's (and the Optimus-style baseline) vs workers"},
	}
}
