package cynthia

import "pslab/engine/experiment"

// Kinds are the kinds of the Cynthia (ICPP'19) experiments.
func Kinds() experiment.Registry {
	return experiment.Registry{
		"cynthia-time-vs-workers": {Run: cynthiaTimeVsWorkers, Models: []string{"cynthia", "optimus", "paleo"},
			Doc: "Cynthia's training time, worker utilization and BSP crossover vs workers for Table 4 workloads"},
		"cynthia-predict": {Run: cynthiaPredict, Models: []string{"cynthia", "optimus", "paleo"},
			Doc: "Cynthia (or baseline) time, per-iteration computation/communication, utilization or throughput of Table 4 workloads on catalogue instances (homogeneous or with stragglers) over swept workers or PS nodes, with curve-shape metrics"},
		"cynthia-provision": {Run: cynthiaProvision, Models: []string{"cynthia", "optimus"},
			Doc: "Algorithm 1 under Cynthia's and the Optimus time model for time and loss goals over an instance catalogue; both plans judged by Cynthia's model (time, cost, saving)"},
		"cynthia-plan-search": {Run: cynthiaPlanSearch, Models: []string{"cynthia"},
			Doc: "Algorithm 1's inner-loop evaluations against its O(m·p) search space for §5.2 goals, with the paper's planning times (no wall time)"},
		"cynthia-measured": {Run: cynthiaMeasured, Models: []string{"cynthia"},
			Doc: "Cynthia's predicted throughput against measured ASP/BSP throughputs (measurement schema), profiled from the 1-worker phases (phases schema); relative error per point, mean and max per sync"},
	}
}
