package predict

import (
	"fmt"
	"math"
	"slices"

	"pslab/engine/trace"
	"pslab/engine/zoo"
)

// DefaultIntraBandwidth is the intra-node GPU-to-GPU bandwidth when
// Cluster.IntraBandwidth is 0: 50e9 bytes/s (400 Gbit/s) per direction, an
// assumption between PCIe 4.0 x16 (≈ 32 GB/s) and NVLink (V100 NVLink 2.0:
// 25 GB/s per link per direction, 2–6 links per GPU pair).
const DefaultIntraBandwidth = 50e9

// noNetwork is the bandwidth, bytes/s, that stands for "no network" (a
// colocated single node: every PS shard is local); a 100 MB model moves in
// 1e-22 s, below the nanosecond of a trace.
const noNetwork = 1e30

// IntraTime is the intra-node time of one tensor of size bytes on a node
// of gpus GPUs with intra-node bandwidth intra (bytes/s), in seconds, in
// each direction: (G−1)/G · bytes / intra, the bandwidth term of a ring
// reduce (before the push: gradients summed onto the GPU that pushes) or
// broadcast (after the pull). 0 for one GPU.
func IntraTime(bytes int64, gpus int, intra float64) float64 {
	g := float64(gpus)
	return (g - 1) / g * float64(bytes) / intra
}

// NodeProfile returns the per-layer profile of one worker node of gpus
// GPUs that each compute batch examples at device speed speed, as one
// worker of gpus·batch examples: the compute times are one GPU's, each
// layer's forward grows by the broadcast of its parameters and its
// backward by the reduction of its gradient (IntraTime at intra bytes/s),
// so the node pushes and pulls each tensor once. Synthesize it with batch
// gpus·batch and device speed speed; the added times are pre-divided by
// the scale zoo.Synthesize applies (batch/p.Batch/speed). With gpus = 1 it
// returns p.
func NodeProfile(p *zoo.Profile, gpus int, intra float64, batch int, speed float64) (*zoo.Profile, error) {
	if gpus < 1 {
		return nil, fmt.Errorf("predict: %d GPUs per node, need ≥ 1", gpus)
	}
	if gpus == 1 {
		return p, nil
	}
	if !(intra > 0) || math.IsNaN(intra) {
		return nil, fmt.Errorf("predict: intra-node bandwidth %g bytes/s, need > 0", intra)
	}
	if batch < 1 || !(speed > 0) {
		return nil, fmt.Errorf("predict: node profile: batch %d, device speed %g", batch, speed)
	}
	scale := float64(batch) / float64(p.Batch) / speed
	q := *p
	q.Batch = p.Batch * gpus
	q.Layers = slices.Clone(p.Layers)
	for i := range q.Layers {
		l := &q.Layers[i]
		if l.ParamBytes == 0 || l.IsInput() {
			continue
		}
		t := IntraTime(l.ParamBytes, gpus, intra) / scale
		l.Forward += t
		l.Backward += t
	}
	return &q, nil
}

// ColocatedBandwidth is the bandwidth, bytes/s, of the non-colocated
// cluster equivalent to W worker nodes of NIC bandwidth bw (bytes/s per
// direction) that each hold one of W equal PS shards: per step each NIC
// carries its worker's pushes to the W−1 remote shards, (W−1)/W of the
// model, and its shard's pulls to the W−1 other workers, another (W−1)/W,
// in each direction. A cluster of W PSs on separate NICs moves the whole
// model through each worker NIC, so it takes bw·W/(2(W−1)) to match. One
// node has no network traffic (noNetwork).
func ColocatedBandwidth(bw float64, workers int) float64 {
	if workers <= 1 {
		return noNetwork
	}
	w := float64(workers)
	return bw * w / (2 * (w - 1))
}

// RunProfile predicts cluster c from the per-layer profile p: the node
// profile (NodeProfile with c.GPUsPerNode GPUs of c.Batch examples each,
// 0 → p.Batch) is synthesized into a 1-worker trace (Cluster.Synthesize)
// and every model runs on it (Run, with zhang, and OpReading unless
// c.Reading says otherwise). Throughput
// is examples/s of the whole cluster; Prediction.Batch is the node batch.
// With c.Colocate each W is synthesized apart with W PS shards: the
// simulator shares each node's NIC between its worker and its shard
// (sim.Config.Colocated); the coarse models get the equivalent, W PSs at
// ColocatedBandwidth.
func RunProfile(p *zoo.Profile, c Cluster, workers []int, models []Model) (*Prediction, error) {
	if err := checkWorkers(workers); err != nil {
		return nil, err
	}
	if !c.Colocate {
		tr, nc, node, err := c.nodeTrace(p, 0)
		if err != nil {
			return nil, err
		}
		return run(tr, nc, workers, models, node)
	}
	var out *Prediction
	sumW := 0
	for _, w := range workers {
		sumW += w
	}
	for _, w := range workers {
		tr, wc, node, err := c.nodeTrace(p, w)
		if err != nil {
			return nil, err
		}
		if wc.Precision.MaxEvents > 0 { // each W its share, as sim.EstimateSweep does
			wc.Precision.MaxEvents = max(wc.Precision.MaxEvents*int64(w)/int64(sumW), 1)
		}
		pw, err := run(tr, wc, []int{w}, models, node)
		if err != nil {
			return nil, err
		}
		if out == nil {
			out = pw
			continue
		}
		out.Workers = append(out.Workers, w)
		out.Sim = append(out.Sim, pw.Sim...)
		out.Estimates = append(out.Estimates, pw.Estimates...)
		for i := range out.Curves {
			c, pc := &out.Curves[i], &pw.Curves[i]
			c.Throughput = append(c.Throughput, pc.Throughput[0])
			if pc.Lo != nil {
				c.Lo, c.Hi, c.Converged = append(c.Lo, pc.Lo[0]), append(c.Hi, pc.Hi[0]), append(c.Converged, pc.Converged[0])
				c.Replications, c.Steps = append(c.Replications, pc.Replications[0]), append(c.Steps, pc.Steps[0])
				c.Modes = append(c.Modes, pc.Modes[0])
			}
		}
	}
	out.Workers, out.Bandwidth, out.Servers, out.Colocated, out.LinkBound = slices.Clone(workers), c.Bandwidth, 0, true, math.Inf(1)
	out.Notes = append(out.Notes, "colocated: W PS shards, one per node, each NIC shared by its worker and its shard: simulated as such (max-min fair flows, local transfers free); the coarse models get W PSs at bandwidth B·W/(2(W−1)) (no network at W = 1)")
	return out, nil
}

// nodeTrace returns the 1-worker trace RunProfile synthesizes from p for
// W = workers nodes (workers matters only with c.Colocate), the cluster
// it is run with and the node profile.
func (c Cluster) nodeTrace(p *zoo.Profile, workers int) (*trace.Trace, Cluster, *zoo.Profile, error) {
	gpus := max(c.GPUsPerNode, 1)
	if c.GPUsPerNode < 0 {
		return nil, c, nil, fmt.Errorf("predict: %d GPUs per node, need ≥ 1", c.GPUsPerNode)
	}
	intra, batch, speed := c.IntraBandwidth, c.Batch, c.DeviceSpeed
	if intra == 0 {
		intra = DefaultIntraBandwidth
	}
	if batch == 0 {
		batch = p.Batch
	}
	if speed == 0 {
		speed = 1
	}
	node, err := NodeProfile(p, gpus, intra, batch, speed)
	if err != nil {
		return nil, c, nil, err
	}
	nc := c
	nc.Batch, nc.GPUsPerNode = batch*gpus, gpus
	if nc.Reading == AutoReading {
		nc.Reading = OpReading
	}
	if c.Colocate {
		nc.Servers, nc.Bandwidth, nc.nicBandwidth = workers, ColocatedBandwidth(c.Bandwidth, workers), c.Bandwidth
	}
	tr, err := nc.Synthesize(node)
	return tr, nc, node, err
}
