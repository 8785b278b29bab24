package kinds

import "pslab/engine/experiment"

// Registry returns every experiment kind. Adding a kind means adding its
// function in a file of this package and one line here.
func Registry() experiment.Registry {
	return experiment.Registry{
		"cynthia-time-vs-workers": {Run: cynthiaTimeVsWorkers, Models: []string{"cynthia", "optimus", "paleo"},
			Doc: "Cynthia's training time, worker utilization and BSP crossover vs workers for Table 4 workloads"},
		"ps-partition": {Run: psPartition,
			Doc: "TensorFlow's greedy partition of a model's variables over parameter servers"},
		"job-workload": {Run: jobWorkload,
			Doc: "mascots18 Table III jobs with derived per-step phase times, steps and speedup limits"},
	}
}
