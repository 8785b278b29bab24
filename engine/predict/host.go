package predict

import (
	"fmt"
	"math"
)

// Hardware specifications behind Host's defaults.
const (
	// PCIe3x16 is the bandwidth of one PCIe 3.0 x16 link per direction,
	// bytes/s: 8 GT/s × 16 lanes × 128/130 (encoding) / 8 bits = 15.75e9.
	PCIe3x16 = 8e9 * 16 * 128 / 130 / 8
	// DefaultGPUsPerLink is how many GPUs share one host link: 2 on an
	// NVIDIA DGX-1 (a PCIe switch per GPU pair, one x16 link to the CPU)
	// and on a Tesla K80 (two GPUs on one board behind one x16 link).
	DefaultGPUsPerLink = 2
	// DDR4x4 is the memory bandwidth of one CPU socket with four channels
	// of DDR4-2133, bytes/s: 4 × 2133e6 transfers/s × 8 bytes = 68.3e9
	// (the DGX-1's Xeon E5-2698 v4 with its DDR4-2133 memory).
	DDR4x4 = 4 * 2133e6 * 8
)

// Host memory traffic per byte of the host parameter server's work, the
// factors that turn Host.MemoryBandwidth into CPU seconds per byte.
const (
	// serveTraffic: serving one byte of variables to one GPU from
	// pageable memory is a staging copy into a pinned buffer (read 1, write
	// 1) that the DMA engine then sends.
	serveTraffic = 2
	// aggregateTraffic: summing one byte of one GPU's gradient reads it
	// once (the running sum stays in cache per chunk).
	aggregateTraffic = 1
	// updateTraffic: the update of one parameter byte writes the sum,
	// reads it and the variable and writes the variable back (SGD).
	updateTraffic = 4
)

// Host is one node of G GPUs whose parameter server is the node's own
// host CPU: TensorFlow's parameter_server mode with
// local_parameter_device=cpu on one machine. Each GPU is a worker; the
// host is the one PS: it serves the variables to every GPU, sums the G
// gradients and applies the update, and every byte crosses the host's
// PCIe links, GPUsPerLink GPUs to a link. Zero fields take the defaults
// named on them (hardware specifications); Cluster maps a node onto
// predict's cluster, and so onto every model:
//
//   - PS NIC bandwidth (the simulator's shared PS link, MVA's link
//     stations, Cynthia's Σb_ps, zhang's B): the host path,
//     min(⌈G/GPUsPerLink⌉·LinkBandwidth, MemoryBandwidth/2) / Slowdown
//     bytes/s per direction: the links in use, and the host CPU's staging
//     copies (2 bytes of memory traffic per byte served) in a pipeline
//     with them. The simulator shares it equally among the GPUs moving
//     data (a GPU pair shares a link; a GPU alone on its link would get
//     more than its x16 only while the others are idle).
//   - PS processor (Cluster.SharedPS: one processor shared by the G
//     GPUs; the simulator's PS ops, MVA's S^S station, Cynthia's c_prof
//     and c_ps = 1, zhang's aggregation b): per byte of each GPU's
//     gradient, (1 + 4/G)/MemoryBandwidth · Slowdown seconds: summing it
//     (1 byte of traffic) plus 1/G of the update of the sum (4 bytes),
//     which happens once per tensor and step.
//
// Slowdown is the one parameter not taken from a specification: how much
// slower the host's copies, sums and links run than the specifications
// say (TensorFlow's executor, pageable memory, a virtual machine). It is
// fitted on one platform and validated on another, never on the rows it
// is judged on (experiments/beyond/tf-benchmarks.toml).
type Host struct {
	// LinkBandwidth is one host link's bandwidth, bytes/s per direction
	// (0 → PCIe3x16, 15.75e9).
	LinkBandwidth float64
	// GPUsPerLink is how many GPUs share one host link (0 →
	// DefaultGPUsPerLink, 2).
	GPUsPerLink int
	// MemoryBandwidth is the host memory bandwidth the PS's copies, sums
	// and updates stream through, bytes/s (0 → DDR4x4, 68.3e9).
	MemoryBandwidth float64
	// Slowdown multiplies every host time and divides the host path's
	// bandwidth, dimensionless ≥ 1 (0 → 1: the specifications).
	Slowdown float64
}

// resolved returns h with its defaults filled in, or an error naming a
// field that is negative or not finite.
func (h Host) resolved() (Host, error) {
	for _, f := range []struct {
		name string
		v    float64
	}{{"LinkBandwidth", h.LinkBandwidth}, {"MemoryBandwidth", h.MemoryBandwidth}, {"Slowdown", h.Slowdown}} {
		if f.v < 0 || math.IsNaN(f.v) || math.IsInf(f.v, 0) {
			return h, fmt.Errorf("predict: Host.%s %g: need a finite value ≥ 0 (0: the default)", f.name, f.v)
		}
	}
	if h.GPUsPerLink < 0 {
		return h, fmt.Errorf("predict: Host.GPUsPerLink %d: need ≥ 0 (0: the default)", h.GPUsPerLink)
	}
	if h.LinkBandwidth == 0 {
		h.LinkBandwidth = PCIe3x16
	}
	if h.GPUsPerLink == 0 {
		h.GPUsPerLink = DefaultGPUsPerLink
	}
	if h.MemoryBandwidth == 0 {
		h.MemoryBandwidth = DDR4x4
	}
	if h.Slowdown == 0 {
		h.Slowdown = 1
	}
	return h, nil
}

// PathBandwidth is the host path's bandwidth with gpus GPUs, bytes/s per
// direction, shared by the GPUs (see Host).
func (h Host) PathBandwidth(gpus int) (float64, error) {
	h, err := h.resolved()
	if err != nil {
		return 0, err
	}
	if gpus < 1 {
		return 0, fmt.Errorf("predict: host with %d GPUs, need ≥ 1", gpus)
	}
	links := math.Ceil(float64(gpus) / float64(h.GPUsPerLink))
	return math.Min(links*h.LinkBandwidth, h.MemoryBandwidth/serveTraffic) / h.Slowdown, nil
}

// PSTime is the host CPU time per byte of one GPU's gradient with gpus
// GPUs, s/byte: the sum and 1/gpus of the update (see Host).
func (h Host) PSTime(gpus int) (float64, error) {
	h, err := h.resolved()
	if err != nil {
		return 0, err
	}
	if gpus < 1 {
		return 0, fmt.Errorf("predict: host with %d GPUs, need ≥ 1", gpus)
	}
	return (aggregateTraffic + updateTraffic/float64(gpus)) / h.MemoryBandwidth * h.Slowdown, nil
}

// Cluster returns c as the node of gpus GPUs on host h, to be predicted at
// W = gpus workers: one PS (the host) on a shared processor (SharedPS),
// Bandwidth the host path's, UpdateTime the host's PS time per byte, one
// GPU per worker, no colocation. Batch, device speed, link, sync and the
// rest stay c's.
func (h Host) Cluster(c Cluster, gpus int) (Cluster, error) {
	bw, err := h.PathBandwidth(gpus)
	if err != nil {
		return c, err
	}
	ps, err := h.PSTime(gpus)
	if err != nil {
		return c, err
	}
	c.Bandwidth, c.UpdateTime, c.Servers, c.SharedPS = bw, ps, 1, true
	c.GPUsPerNode, c.IntraBandwidth, c.Colocate = 1, 0, false
	return c, nil
}
