package kinds

import "pslab/engine/experiment"

// mascots18Kinds are the kinds of the mascots18 (MASCOTS'18) experiments.
func mascots18Kinds() experiment.Registry {
	return experiment.Registry{
		"job-workload": {Run: jobWorkload,
			Doc: "mascots18 Table III jobs with derived per-step phase times, steps and speedup limits"},
		"mva-throughput": {Run: mvaThroughput, Models: mvaVariantKeys,
			Doc: "mascots18 MVA throughput curves X(K) (exact, approximate, hybrid variants) of phase profiles with m parameter servers; structural metrics and, with measurements, Table II errors"},
		"error-table": {Run: errorTableBars,
			Doc: "a reported throughput-error table (mascots18 Table II) as bars of mean error per row and variant, with per-variant maxima and differences"},
	}
}
