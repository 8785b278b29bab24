package predict

// SharingCost is the CPU cost of one simulator event of cluster c at the
// given number of workers (nodes), relative to an event of a cluster with
// one PS (about 46 ns on the reference machine, BenchmarkZooInceptionSweep).
// What grows with the cluster is the bandwidth sharing an event triggers:
//
//   - Colocated (c.Colocate): 2 + nodes/24. An event re-rates the flows
//     bottlenecked where it starts or ends a flow (sim's fairShare), and
//     their number grows with the nodes a NIC talks to; the flows that
//     start and end at one instant are re-rated once (sim's netDeferred).
//   - Separate PS hosts, M = c.Servers > 1: 1 + M/80. An event re-shares
//     the link classes whose count changed and those with a worker alone
//     on them (whose share depends on its other transfers).
//
// Both fitted on `pslab predict -paper` runs (ResNet-50, 8 GPUs per node,
// BSP, 100 steps; CPU per estimated event): 94, 110, 127, 207, 338, 519
// ns at 8, 16, 32, 64, 128, 256 colocated nodes (2.0 to 11.3 events of
// 46 ns; 2 + nodes/24 is within −0.1% and +20% of each), and 53, 79, 116
// ns with 32, 64, 128 separate PSs. Since sim's fairShare.solve stopped
// rescanning a repeated seed (2026-11-28), BenchmarkClusterScaling's
// colocated CPU is 0.93, 0.86 and 0.83 of what it was at 64, 128 and 256
// nodes, so 2 + nodes/24 now over-estimates there by about 12, 16 and 36%:
// predict may refuse a run that would have fitted (its message names the
// flag that raises the bound). `pslab predict` multiplies the events it
// estimates by this cost before comparing them with -max-events, so the
// bound holds work, not events.
func (c Cluster) SharingCost(workers int) float64 {
	switch {
	case c.Colocate:
		return 2 + float64(workers)/24
	case c.Servers > 1:
		return 1 + float64(c.Servers)/80
	}
	return 1
}
