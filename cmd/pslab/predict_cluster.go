package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"math"
	"strings"

	"pslab/engine/atomicfile"
	"pslab/engine/predict"
	"pslab/engine/sim"
)

// clusterFlags are the cluster-shape flags of `pslab predict` (issue #18):
// synchronization, GPUs per node, colocated PS, calibration, timeline.
type clusterFlags struct {
	sync, intra, calibrate, timeline string
	phases                           string
	gpus, timelineWorkers            int
	colocate                         bool
	cals                             []predict.Calibration // -calibrate, once fitted: each model's own
}

// register adds the flags to fs.
// maxGPUsPerNode bounds -gpus-per-node before any node trace is built:
// 1,024, far above any machine (a DGX node has 8 or 16 GPUs).
const maxGPUsPerNode = 1024

func (k *clusterFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&k.sync, "sync", "asp", "asp (asynchronous) or bsp (a barrier per step: simulator, Cynthia's BSP model, zhang); a model that does not define the mode is listed as n/a")
	fs.StringVar(&k.phases, "mva-phases", "auto", "MVA's phases: ops (S^W = forward + backward, S^U and S^D = bytes / bandwidth, S^S = PS updates), tcpdump (icpe20's reading, as the experiments) or auto (ops for a profile, tcpdump for a recorded trace)")
	fs.IntVar(&k.gpus, "gpus-per-node", 1, "profile only: GPUs G per worker node; each computes -batch examples, gradients are summed in the node, one push/pull per tensor; -workers counts nodes")
	fs.StringVar(&k.intra, "intra-bandwidth", "", "intra-node GPU-to-GPU bandwidth with unit (default 400Gbps = 50 GB/s, NVLink/PCIe 4-like, assumed); (G−1)/G·bytes/bandwidth per tensor to reduce and to broadcast")
	fs.BoolVar(&k.colocate, "colocate", false, "profile only: one PS shard on each worker node sharing its NIC (W PSs; the simulator shares each node's NIC between its worker and its shard, the coarse models see W PSs at bandwidth B·W/(2(W−1)), no network at W = 1)")
	fs.StringVar(&k.calibrate, "calibrate", "", "profile only: W:THROUGHPUT, one measured point (nodes, examples/s of the cluster, e.g. 1:250): fit each model's own device speed so that it reproduces it within 0.5%, and predict each model at its own")
	fs.StringVar(&k.timeline, "timeline", "", "write the simulator's Chrome/Perfetto trace (.json) of one configuration (-timeline-workers, the first -bandwidth)")
	fs.IntVar(&k.timelineWorkers, "timeline-workers", 2, "worker nodes W of the -timeline configuration")
}

// apply validates the flags and sets them on c; in is the input.
func (k *clusterFlags) apply(c *predict.Cluster, in *predictInput, set map[string]bool) error {
	y, err := sim.ParseSync(k.sync)
	if err != nil {
		return fmt.Errorf("predict: -sync %q: want asp or bsp", k.sync)
	}
	if k.gpus < 1 || k.gpus > maxGPUsPerNode {
		return fmt.Errorf("predict: -gpus-per-node %d: need 1 to %d", k.gpus, maxGPUsPerNode)
	}
	if k.timelineWorkers < 1 {
		return fmt.Errorf("predict: -timeline-workers %d: need ≥ 1", k.timelineWorkers)
	}
	if c.Reading, err = predict.ParsePhaseReading(k.phases); err != nil {
		return fmt.Errorf("predict: -mva-phases: %w", err)
	}
	c.Sync, c.GPUsPerNode, c.Colocate = y, k.gpus, k.colocate
	if k.intra != "" {
		bw, err := predict.ParseBandwidths(k.intra)
		if err != nil || len(bw) != 1 {
			return fmt.Errorf("predict: -intra-bandwidth %q: want one bandwidth with unit, e.g. 400Gbps", k.intra)
		}
		c.IntraBandwidth = bw[0]
	}
	if k.calibrate != "" {
		if _, err := predict.ParsePoint(k.calibrate); err != nil {
			return fmt.Errorf("predict: -calibrate: %w", err)
		}
	}
	if in.kind != "profile" {
		for _, name := range []string{"gpus-per-node", "intra-bandwidth", "colocate", "calibrate"} {
			if set[name] {
				return fmt.Errorf("predict: -%s applies to a per-layer profile, not to a recorded trace", name)
			}
		}
	}
	if s, ok := k.speed(); ok {
		c.DeviceSpeed = s
	}
	return nil
}

// speed is the device speed the simulator was calibrated to (the first
// calibrated model's without it), the cluster's device speed for what is
// not a model's own (the timeline, the setup line).
func (k *clusterFlags) speed() (float64, bool) {
	for _, cal := range k.cals {
		if cal.Model == predict.Simulator {
			return cal.DeviceSpeed, true
		}
	}
	if len(k.cals) > 0 {
		return k.cals[0].DeviceSpeed, true
	}
	return 0, false
}

// fit runs -calibrate on the profile at bandwidth c.Bandwidth for every
// model that defines c.Sync, each on its own, and keeps their device
// speeds.
func (k *clusterFlags) fit(in *predictInput, c predict.Cluster, models []predict.Model) error {
	if k.calibrate == "" || k.cals != nil {
		return nil
	}
	pt, err := predict.ParsePoint(k.calibrate)
	if err != nil {
		return fmt.Errorf("predict: -calibrate: %w", err)
	}
	cals, err := predict.CalibrateEach(in.profile, c, models, pt)
	if err != nil {
		return fmt.Errorf("predict: -calibrate %s: %w", k.calibrate, err)
	}
	k.cals = cals
	return nil
}

// predict predicts cluster c at workers ws with models: a profile with
// RunProfile, or with -calibrate every model at its own calibrated speed
// (RunProfileEach); a recorded trace with Run.
func (k *clusterFlags) predict(in *predictInput, c predict.Cluster, ws []int, models []predict.Model) (*predict.Prediction, error) {
	switch {
	case in.profile != nil && k.cals != nil:
		return predict.RunProfileEach(in.profile, c, ws, models, k.cals)
	case in.profile != nil:
		return predict.RunProfile(in.profile, c, ws, models)
	}
	return predict.Run(in.trace, c, ws, models)
}

// setup describes the flags for the report's setup line.
func (k *clusterFlags) setup(c predict.Cluster) string {
	s := fmt.Sprintf("; sync %s", c.Sync)
	if c.GPUsPerNode > 1 {
		intra := c.IntraBandwidth
		if intra == 0 {
			intra = predict.DefaultIntraBandwidth
		}
		s += fmt.Sprintf(", %d GPUs per node (intra-node %s)", c.GPUsPerNode, gbps(intra))
	}
	if c.Colocate {
		s += ", PS colocated on every node"
	}
	if len(k.cals) > 0 {
		each := make([]string, len(k.cals))
		for i, cal := range k.cals {
			each[i] = fmt.Sprintf("%.5g %s (%.5g examples/s, %d runs)", cal.DeviceSpeed, cal.Model, cal.Simulated, cal.Runs)
		}
		s += fmt.Sprintf("; calibrated to %s: device speed %s, each model on its own", k.calibrate, strings.Join(each, ", "))
	}
	return s
}

// writeTimeline writes -timeline for cluster c (the first bandwidth).
func (k *clusterFlags) writeTimeline(in *predictInput, c predict.Cluster) error {
	if k.timeline == "" {
		return nil
	}
	var b bytes.Buffer
	var w io.Writer = &b
	if err := predict.Timeline(w, in.profile, in.trace, c, k.timelineWorkers); err != nil {
		return fmt.Errorf("predict: -timeline: %w", err)
	}
	if err := atomicfile.Write(k.timeline, b.Bytes()); err != nil {
		return fmt.Errorf("predict: -timeline: %w", err)
	}
	return nil
}

// finiteKnee reports whether the -knee fraction is usable.
func finiteKnee(f float64) bool { return f > 0 && f <= 1 && !math.IsNaN(f) }
