package mascots18

import "pslab/engine/experiment"

// Kinds are the kinds of the mascots18 (MASCOTS'18) experiments.
func Kinds() experiment.Registry {
	return experiment.Registry{
		"job-workload": {Run: jobWorkload,
			Doc: "mascots18 Table III jobs with derived per-step phase times, steps and speedup limits"},
		"sched-poisson": {Run: schedPoisson, Models: schedPolicyKeys,
			Doc: "mascots18 cluster scheduling (Figs. 1, 12, 13): mean response time vs load of malleable/moldable policies on Table III jobs with exact-MVA throughput, Poisson arrivals"},
		"sched-early-termination": {Run: schedEarly,
			Doc: "mascots18 Fig. 14: response-time CDF of malleable HELL with early-termination service times for several γ, and the mean time to a progress fraction"},
		"sched-trace": {Run: schedTrace, Models: schedPolicyKeys,
			Doc: "mascots18 scheduling policies on the arrivals and job sizes of a cluster-trace window (Philly), Table III DNNs by GPU-time quantile, exact-MVA throughput"},
		"mva-throughput": {Run: mvaThroughput, Models: mvaVariantKeys,
			Doc: "mascots18 MVA throughput curves X(K) (exact, approximate, hybrid variants) of phase profiles with m parameter servers; structural metrics and, with measurements, Table II errors"},
		"error-table": {Run: errorTableBars,
			Doc: "a reported throughput-error table (mascots18 Table II) as bars of mean error per row and variant, with per-variant maxima and differences"},
	}
}
