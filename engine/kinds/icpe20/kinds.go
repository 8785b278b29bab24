package icpe20

import (
	"maps"

	"pslab/engine/experiment"
	"pslab/engine/kinds/icpe20/mechanism"
)

// Kinds are the kinds of the icpe20 (ICPE'20) experiments: the
// throughput-prediction kinds here and the link-mechanism kinds of
// package mechanism.
func Kinds() experiment.Registry {
	r := experiment.Registry{
		"icpe20-throughput": {Run: icpe20Throughput,
			Doc: "throughput vs workers from a 1-worker trace synthesized from a real layer profile: the icpe20 simulator, Lin et al.'s MVA and Cynthia's formula on the same trace, knees, link bounds, errors against measurements; or the simulator's event counts (Figs. 2, 3c, 13, 14, 17-19, 21, 22, 25)"},
		"ps-partition": {Run: psPartition,
			Doc: "TensorFlow's greedy partition of a model's variables over parameter servers"},
	}
	maps.Copy(r, mechanism.Kinds())
	return r
}
