package predict

import (
	"fmt"

	"pslab/engine/cynthia"
	"pslab/engine/syncps"
	"pslab/engine/zoo"
)

// zhangIterations is the number M of iterations zhang's epoch is averaged
// over (syncps.Config.Iterations): enough that the first iteration's
// pipeline fill weighs little in the per-iteration mean.
const zhangIterations = 10

// cynthiaBSP is Cynthia's own BSP model (cynthia.ModelCynthia, Eq. 3–7)
// for a weak-scaling cluster of W workers of batch examples each:
// w_iter = W·T_p at c = c_base = 1 FLOP/s (so each worker computes for
// T_p), g_param = T_C·B bytes each way per worker, b_prof = U_1·B bytes/s,
// c_prof = cprof, the PS CPU's busy fraction in the 1-worker profile
// against a supply of c_ps = 1 per PS (0: the PS CPU never limits), M PS
// NICs of B bytes/s each. Throughput is W·batch / max(T_p/u, 2·g·W/(M·B)),
// examples/s.
func cynthiaBSP(co Coarse, batch, servers int, bw, cprof float64, workers []int) ([]float64, error) {
	var y []float64
	inst := cynthia.Instance{Name: "worker node", CPU: 1, Bandwidth: bw}
	for _, w := range workers {
		wl := cynthia.Workload{Name: "profile", WIter: float64(w) * co.Tp, GParam: co.Tc * bw, BProf: co.U1 * bw,
			CProf: cprof, Sync: cynthia.BSP, Batch: w * batch}
		b, err := cynthia.ModelCynthia.PredictHomogeneous(wl, cynthia.Homogeneous{Instance: inst, Workers: w, PS: servers, CBase: 1})
		if err != nil {
			return nil, err
		}
		y = append(y, b.Throughput)
	}
	return y, nil
}

// zhang is Zhang et al.'s model (syncps.Predict with DefaultConfig's
// assumed constants; with c.SharedPS the aggregation cost b of Eq. 14 is
// c.UpdateTime per byte) on the per-layer profile prof (a NodeProfile when the
// node has several GPUs): W workers, M PSs, bandwidth B bytes/s, compute
// scaled as zoo.Synthesize scales it (c.Batch/prof.Batch/c.DeviceSpeed),
// averaged over zhangIterations iterations. Throughput is
// W·batch / iteration time, examples/s.
func zhang(prof *zoo.Profile, c Cluster, servers int, bw float64, workers []int) ([]float64, error) {
	batch, speed := c.Batch, c.DeviceSpeed
	if batch == 0 {
		batch = prof.Batch
	}
	if speed == 0 {
		speed = 1
	}
	var layers []syncps.Layer
	for _, l := range prof.Layers {
		if l.IsInput() {
			continue // its forward time is data loading, not compute (zoo)
		}
		layers = append(layers, syncps.Layer{Name: l.Name, ParamBytes: l.ParamBytes, Forward: l.Forward, Backward: l.Backward})
	}
	return zhangOn(layers, speed*float64(prof.Batch)/float64(batch), batch, c, servers, bw, workers)
}

// zhangOn is zhang on the layers of a profile or a trace (zhangLayers),
// with compute divided by scale, batch examples per worker.
func zhangOn(layers []syncps.Layer, scale float64, batch int, c Cluster, servers int, bw float64, workers []int) ([]float64, error) {
	cfg := syncps.DefaultConfig()
	cfg.Servers, cfg.Bandwidth, cfg.Iterations = servers, bw, zhangIterations
	if c.SharedPS && c.UpdateTime > 0 { // the PS's own aggregation cost per byte and worker (Host)
		cfg.AggPerPacket = c.UpdateTime * cfg.PacketSize
	}
	cfg.ComputeScale, cfg.Layers = scale, layers
	var y []float64
	for _, w := range workers {
		cfg.Workers = w
		pr, err := syncps.Predict(cfg)
		if err != nil {
			return nil, fmt.Errorf("W = %d: %w", w, err)
		}
		y = append(y, float64(w*batch)/pr.IterationTime)
	}
	return y, nil
}
