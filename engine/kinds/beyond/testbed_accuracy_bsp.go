package beyond

import (
	"fmt"
	"math"

	"pslab/engine/cynthia"
	"pslab/engine/experiment"
	cynthiakinds "pslab/engine/kinds/cynthia"
	"pslab/engine/kinds/zhang"
	"pslab/engine/measured"
)

// bsp predicts a BSP configuration with zhang's model and Cynthia's own
// BSP model. It also returns zhang's |iteration-time error| in percent at
// each measured W (zhang states its accuracy on the iteration time).
func (p *tbaParams) bsp(env *experiment.Env, res *experiment.Result, c *measured.Config) ([]tbaResult, []float64, error) {
	var out []tbaResult
	var iterErrs []float64
	if env.UsesModel(tbaZhang) {
		input, ok := p.Profiles[c.Model]
		if !ok {
			return nil, nil, env.Errorf("profiles", "no per-layer profile input for DNN %q (configuration %s)", c.Model, c.Name)
		}
		pr, err := measured.Profile(env, input)
		if err != nil {
			return nil, nil, err
		}
		layers, err := measured.SyncPSLayers(pr, c.Batch, c.BytesScale, c.DeviceSpeed)
		if err != nil {
			return nil, nil, fmt.Errorf("zhang: %w", err)
		}
		if err := measured.CheckBytes(c, layers); err != nil {
			return nil, nil, err
		}
		cfg, err := p.Constants.Config(env)
		if err != nil {
			return nil, nil, err
		}
		cfg.Servers, cfg.Bandwidth, cfg.Layers = c.Servers, c.Bandwidth, layers
		pred := make([]float64, len(c.Meas))
		for i, m := range c.Meas {
			cfg.Workers = m.Workers
			pt, err := zhang.Predict(env, cfg)
			if err != nil {
				return nil, nil, fmt.Errorf("zhang with %d workers: %w", m.Workers, err)
			}
			examples := float64(m.Workers * c.Batch)
			pred[i] = examples / pt.IterationTime
			measured := examples / m.Throughput
			iterErrs = append(iterErrs, 100*math.Abs(pt.IterationTime-measured)/measured)
			res.Note("%s: zhang W = %d: iteration %.2f ms = compute %.2f + exposed FC/BC %.2f + aggregation %.2f + stragglers %.2f; measured %.2f ms",
				c.Name, m.Workers, 1e3*pt.IterationTime, 1e3*pt.Compute, 1e3*pt.ExposedComm, 1e3*pt.Aggregation, 1e3*pt.Straggler, 1e3*measured)
		}
		mean, hi := relErrors(pred, c.Meas)
		out = append(out, tbaResult{model: tbaZhang, mean: mean, max: hi, workers: measuredWorkers(c), pred: pred})
	}
	if env.UsesModel(tbaCynthiaBSP) {
		cycle, err := measured.ProfileCycle(c.Steps)
		if err != nil {
			return nil, nil, fmt.Errorf("steps.arrow: %w", err)
		}
		prof, err := cynthiakinds.ProfileFromTestbed(c.MeasTable, c.Phases, -1, 0, cycle)
		if err != nil {
			return nil, nil, err
		}
		node := cynthia.Instance{Name: "testbed", CPU: 1, Bandwidth: c.Bandwidth}
		pred := make([]float64, len(c.Meas))
		for i, m := range c.Meas {
			bd, err := cynthia.ModelCynthia.PredictHomogeneous(prof.Workload(cynthia.BSP, m.Workers), cynthia.Homogeneous{Instance: node, Workers: m.Workers, PS: c.Servers, CBase: 1})
			if err != nil {
				return nil, nil, fmt.Errorf("cynthia with %d workers: %w", m.Workers, err)
			}
			pred[i] = bd.Throughput
			env.CountModelWork(1)
			res.Note("%s: Cynthia BSP W = %d: %.0f examples/s (measured %.0f)", c.Name, m.Workers, bd.Throughput, m.Throughput)
		}
		mean, hi := relErrors(pred, c.Meas)
		out = append(out, tbaResult{model: tbaCynthiaBSP, mean: mean, max: hi, workers: measuredWorkers(c), pred: pred})
	}
	return out, iterErrs, nil
}

// measuredWorkers are the W of c's measured points.
func measuredWorkers(c *measured.Config) []int {
	ws := make([]int, len(c.Meas))
	for i, m := range c.Meas {
		ws[i] = m.Workers
	}
	return ws
}
