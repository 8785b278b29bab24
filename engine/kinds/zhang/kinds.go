package zhang

import "pslab/engine/experiment"

// Kinds are the kinds of the zhang (synchronous PS performance model)
// experiments and of its comparison with Cynthia's BSP model.
func Kinds() experiment.Registry {
	return experiment.Registry{
		"zhang-iteration-time": {Run: zhangIterationTime, Models: []string{"zhang"},
			Doc: "zhang's BSP iteration time per DNN vs link bandwidth from per-layer profiles, DNN ratio, optional measured error"},
		"zhang-testbed-iteration-time": {Run: zhangTestbedIterationTime, Models: []string{"zhang"},
			Doc: "zhang's BSP iteration time of measured testbed configurations, configured as the testbed ran, with the measured iteration times and errors"},
		"zhang-sweeps": {Run: zhangSweeps, Models: []string{"zhang"},
			Doc: "zhang's iteration time of one DNN under one-factor sweeps of compute capability, bandwidth and workers"},
		"zhang-scalability": {Run: zhangScalability, Models: []string{"zhang"},
			Doc: "zhang's speedup and communication/computation ratio vs bandwidth for several compute capabilities"},
		"zhang-compression": {Run: zhangCompression, Models: []string{"zhang"},
			Doc: "zhang's iteration time vs gradient compression rate with the fastest rate marked"},
	}
}
