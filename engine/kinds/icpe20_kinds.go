package kinds

import "pslab/engine/experiment"

// icpe20Kinds are the kinds of the icpe20 (ICPE'20) experiments.
func icpe20Kinds() experiment.Registry {
	return experiment.Registry{
		"ps-partition": {Run: psPartition,
			Doc: "TensorFlow's greedy partition of a model's variables over parameter servers"},
		"link-mechanisms": {Run: linkMechanisms,
			Doc: "step time of one profiling trace under several link schedulers (HTTP/2 multiplexing vs flow control off, icpe20 Fig. 8)"},
	}
}
