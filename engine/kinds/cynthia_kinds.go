package kinds

import "pslab/engine/experiment"

// cynthiaKinds are the kinds of the Cynthia (ICPP'19) experiments.
func cynthiaKinds() experiment.Registry {
	return experiment.Registry{
		"cynthia-time-vs-workers": {Run: cynthiaTimeVsWorkers, Models: []string{"cynthia", "optimus", "paleo"},
			Doc: "Cynthia's training time, worker utilization and BSP crossover vs workers for Table 4 workloads"},
		"cynthia-predict": {Run: cynthiaPredict, Models: []string{"cynthia", "optimus", "paleo"},
			Doc: "Cynthia (or baseline) time, per-iteration computation/communication, utilization or throughput of Table 4 workloads on catalogue instances (homogeneous or with stragglers) over swept workers or PS nodes, with curve-shape metrics"},
	}
}
