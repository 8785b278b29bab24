package predict

// SharingCost is the CPU cost of one simulator event of cluster c at the
// given number of workers (nodes), relative to an event of a cluster with
// one PS (about 46 ns on the reference machine, BenchmarkZooInceptionSweep).
// What grows with the cluster is the bandwidth sharing an event triggers:
//
//   - Colocated (c.Colocate): 1 + nodes/8. An event re-rates the flows
//     bottlenecked where it starts or ends a flow (sim's fairShare), and
//     their number grows with the nodes a NIC talks to.
//   - Separate PS hosts, M = c.Servers > 1: 1 + M/20. Every event scans
//     the 2M link classes for the next completion and re-shares them.
//
// Both fitted on BenchmarkClusterScaling (ResNet-50, 8 GPUs per node, BSP):
// CPU per event 115, 190, 400 ns at 8, 32, 64 colocated nodes and 67, 111,
// 195 ns with 8, 32, 64 separate PSs. `pslab predict` multiplies the
// events it estimates by this cost before comparing them with -max-events,
// so the bound holds work, not events.
func (c Cluster) SharingCost(workers int) float64 {
	switch {
	case c.Colocate:
		return 1 + float64(workers)/8
	case c.Servers > 1:
		return 1 + float64(c.Servers)/20
	}
	return 1
}
