package kinds

import "pslab/engine/experiment"

// mascots18Kinds are the kinds of the mascots18 (MASCOTS'18) experiments.
func mascots18Kinds() experiment.Registry {
	return experiment.Registry{
		"job-workload": {Run: jobWorkload,
			Doc: "mascots18 Table III jobs with derived per-step phase times, steps and speedup limits"},
	}
}
