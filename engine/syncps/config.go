package syncps

import (
	"fmt"
	"math"
)

// Config is the input of Predict: the cluster, the per-layer profile and
// every constant the paper needs but does not give (ambiguity Z-10). Fields
// are used as given; DefaultConfig fills the paper-missing constants with the
// values documented below, each labelled assumed.
type Config struct {
	// Workers is N, the number of workers (≥ 1).
	Workers int
	// Servers is K, the number of parameter servers (≥ 1).
	Servers int
	// Bandwidth is B, the bandwidth of every link, in bytes/s (> 0).
	// DefaultConfig leaves it 0: the caller must set it.
	Bandwidth float64
	// Layers is the per-layer profile in forward order (at least one layer).
	Layers []Layer
	// Iterations is M, the number of iterations of an epoch (≥ 1).
	// DefaultConfig: 1.
	Iterations int
	// ComputeScale is the compute capability relative to the profiled
	// device: layer Forward and Backward times are divided by it (> 0).
	// DefaultConfig: 1 (the profiled device).
	ComputeScale float64
	// IOTime is t_io, the data-loading time per iteration, in seconds.
	// DefaultConfig: 0 (assumed: not part of a per-layer profile).
	IOTime float64
	// UpdateTime is t_up, the parameter-update time per iteration, in
	// seconds. DefaultConfig: 0 (assumed: not part of a per-layer profile).
	UpdateTime float64

	// PacketSize is pks, the payload bytes per packet (> 0).
	// DefaultConfig: 1460 (assumed: TCP MSS on a 1500-byte MTU).
	PacketSize float64
	// Alpha is α of Eq. 10, the dimensionless protocol factor: wire bytes
	// per payload byte (> 0). DefaultConfig: 1538/1460 ≈ 1.053 (assumed:
	// Ethernet preamble, header, FCS and gap plus IP and TCP headers).
	Alpha float64
	// BaseDelay is t_base-delay of Eq. 10, the startup, propagation and
	// processing delay of one message, in seconds.
	// DefaultConfig: 50e-6 (assumed: one-switch data-centre path).
	BaseDelay float64
	// SwitchRate is S_f of Eq. 11, the switch forwarding rate in packets/s
	// (> 0). DefaultConfig: 1e8 (assumed: order of a ToR switch port).
	SwitchRate float64
	// Hops is h of Eq. 12, the number of barrier-link hops (≥ 0).
	// DefaultConfig: 1 (assumed: the single switch of Fig. 1).
	Hops int
	// BarrierArrivalRate overrides λ of Eq. 11 in packets/s when > 0; then
	// t_forward = 1/(S_f − λ). 0 uses the printed λ = 1/B with B in
	// packets/s (Z-7). DefaultConfig: 0 (the paper's form).
	BarrierArrivalRate float64
	// AggFixed is a of Eq. 14, the fixed cost of aggregating one
	// granularity, in seconds. DefaultConfig: 20e-6 (assumed).
	AggFixed float64
	// AggPerPacket is b of Eq. 14, the aggregation cost per packet, in
	// seconds/packet. DefaultConfig: 1460/10e9 = 1.46e-7 (assumed: summing
	// at 10 GB/s).
	AggPerPacket float64
	// AggGranularityBytes caps the aggregation granularity G of Eq. 13 at
	// ⌈AggGranularityBytes/PacketSize⌉ packets (Definition 8, Z-8); 0 means
	// no cap, i.e. Eq. 13 as printed. DefaultConfig: 0.
	AggGranularityBytes float64
	// AggDelayFraction places t_ag-delay within the range of Eq. 15–16:
	// 0 is the minimum, 1 the maximum (Z-9). DefaultConfig: 0.5 (assumed:
	// the midpoint; the paper gives no value).
	AggDelayFraction float64
	// Sigma is the unified standard deviation of every worker-local process
	// of GST, in seconds (Eq. 7, Z-5). DefaultConfig: 1e-3 (assumed).
	Sigma float64
	// CompressionRate is r_c ∈ [0, 1), the fraction of packets removed by
	// gradient compression (§V-C, Z-11). DefaultConfig: 0 (no compression).
	CompressionRate float64
	// CompressionCost is κ of CompressionTime, in seconds per gradient
	// byte. DefaultConfig: 1e-10 (assumed).
	CompressionCost float64
}

// DefaultConfig returns a Config with one worker, one parameter server, one
// iteration, ComputeScale 1 and every paper-missing constant set to the
// assumed default documented on its field. Bandwidth and Layers are left
// empty and must be set.
func DefaultConfig() Config {
	return Config{
		Workers:          1,
		Servers:          1,
		Iterations:       1,
		ComputeScale:     1,
		PacketSize:       1460,
		Alpha:            1538.0 / 1460.0,
		BaseDelay:        50e-6,
		SwitchRate:       1e8,
		Hops:             1,
		AggFixed:         20e-6,
		AggPerPacket:     1460 / 10e9,
		AggDelayFraction: 0.5,
		Sigma:            1e-3,
		CompressionCost:  1e-10,
	}
}

// Validate returns an error naming the first invalid field of c.
func (c Config) Validate() error {
	ints := [...]struct {
		name string
		v    int
		min  int
	}{{"Workers", c.Workers, 1}, {"Servers", c.Servers, 1}, {"Iterations", c.Iterations, 1}, {"Hops", c.Hops, 0}}
	for _, f := range ints {
		if f.v < f.min {
			return fmt.Errorf("syncps: Config.%s must be ≥ %d, got %d", f.name, f.min, f.v)
		}
	}
	positive := [...]struct {
		name string
		v    float64
	}{{"Bandwidth", c.Bandwidth}, {"ComputeScale", c.ComputeScale}, {"PacketSize", c.PacketSize},
		{"Alpha", c.Alpha}, {"SwitchRate", c.SwitchRate}}
	for _, f := range positive {
		if err := checkPositive(f.name, f.v); err != nil {
			return fmt.Errorf("syncps: Config.%w", err)
		}
	}
	nonNegative := [...]struct {
		name string
		v    float64
	}{{"IOTime", c.IOTime}, {"UpdateTime", c.UpdateTime}, {"BaseDelay", c.BaseDelay},
		{"BarrierArrivalRate", c.BarrierArrivalRate}, {"AggFixed", c.AggFixed},
		{"AggPerPacket", c.AggPerPacket}, {"AggGranularityBytes", c.AggGranularityBytes},
		{"Sigma", c.Sigma}, {"CompressionCost", c.CompressionCost}}
	for _, f := range nonNegative {
		if err := checkNonNegative(f.name, f.v); err != nil {
			return fmt.Errorf("syncps: Config.%w", err)
		}
	}
	if !(c.AggDelayFraction >= 0 && c.AggDelayFraction <= 1) {
		return fmt.Errorf("syncps: Config.AggDelayFraction must be in [0, 1], got %g", c.AggDelayFraction)
	}
	if !(c.CompressionRate >= 0 && c.CompressionRate < 1) {
		return fmt.Errorf("syncps: Config.CompressionRate must be in [0, 1), got %g", c.CompressionRate)
	}
	if len(c.Layers) == 0 {
		return fmt.Errorf("syncps: Config.Layers: no layers")
	}
	for i, l := range c.Layers {
		if err := l.validate(i); err != nil {
			return err
		}
	}
	return nil
}

// forwardTime is Eq. 11 for c: the printed form, or 1/(S_f − λ) with the
// BarrierArrivalRate override.
func (c Config) forwardTime() (float64, error) {
	if c.BarrierArrivalRate > 0 {
		return MM1Sojourn(c.SwitchRate, c.BarrierArrivalRate)
	}
	return ForwardTime(c.SwitchRate, c.Bandwidth/c.PacketSize)
}

// LayerTimes returns the per-layer process durations, in seconds, that c
// implies for every worker in every iteration (Eq. 10–18 and §V-C):
//
//	PN  = CompressedPackets(⌈ParamBytes/pks⌉, r_c)       per worker and layer
//	FP  = Forward/ComputeScale, BP = Backward/ComputeScale
//	FC  = Eq. 10 on the worker's uplink (PN packets) + t_c(r_c)
//	      + Eq. 12 if the barrier links are PS-side (K < N)
//	AG  = Eq. 18 with G from Eq. 13 and t_ag-delay from Eq. 15–16
//	BC  = Eq. 10 with max(PN, ⌈N·PN/K⌉) packets (the busier of the PS
//	      uplink and the worker downlink) + Eq. 12 if worker-side (K ≥ N)
//
// Layers without parameters (PN = 0) get no communication at all. It returns
// the error of Validate or of an unstable barrier link.
func (c Config) LayerTimes() ([]LayerTimes, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	out := make([]LayerTimes, len(c.Layers))
	return out, c.layerTimes(out)
}

func (c Config) layerTimes(out []LayerTimes) error {
	fwd, err := c.forwardTime()
	if err != nil {
		return err
	}
	barrier := BarrierTime(fwd, c.Hops)
	side := BarrierLinks(c.Workers, c.Servers)
	var gmax int64
	if c.AggGranularityBytes > 0 {
		gmax = int64(math.Ceil(c.AggGranularityBytes / c.PacketSize))
	}
	n, k := int64(c.Workers), int64(c.Servers)
	for i, l := range c.Layers {
		lt := LayerTimes{Name: l.Name, FP: l.Forward / c.ComputeScale, BP: l.Backward / c.ComputeScale}
		pn := CompressedPackets(Packets(l.ParamBytes, c.PacketSize), c.CompressionRate)
		if pn > 0 {
			lt.FC = NonBarrierTime(c.BaseDelay, c.Alpha, pn, c.PacketSize, c.Bandwidth) +
				CompressionTime(l.ParamBytes, c.CompressionRate, c.CompressionCost)
			g := Granularity(pn, c.Servers, gmax)
			delay := AggDelay(g, c.Workers, c.PacketSize, c.Bandwidth, c.AggDelayFraction)
			lt.AG = MaxAggregationTime(delay, c.Workers, Rounds(pn, g, c.Servers), c.AggFixed, c.AggPerPacket, g)
			lt.BC = NonBarrierTime(c.BaseDelay, c.Alpha, max(pn, ceilDiv(n*pn, k)), c.PacketSize, c.Bandwidth)
			if side == PSSide {
				lt.FC += barrier
			} else {
				lt.BC += barrier
			}
		}
		out[i] = lt
	}
	return nil
}
