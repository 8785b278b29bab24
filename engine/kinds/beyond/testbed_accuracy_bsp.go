package beyond

import (
	"fmt"

	"pslab/engine/cynthia"
	"pslab/engine/experiment"
	cynthiakinds "pslab/engine/kinds/cynthia"
	"pslab/engine/kinds/zhang"
	"pslab/engine/measured"
	"pslab/engine/predict"
)

// bsp predicts a BSP configuration at its judged points with zhang's model
// and Cynthia's own BSP model. It also returns zhang's relative error of
// the iteration time, with its interval, at each judged W (zhang states
// its accuracy on the iteration time).
func (p *tbaParams) bsp(env *experiment.Env, res *experiment.Result, c *measured.Config, judged []predict.Measurement) ([]tbaResult, []measured.RelError, error) {
	var out []tbaResult
	var iterErrs []measured.RelError
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
		pred := make([]float64, len(judged))
		for i, m := range judged {
			cfg.Workers = m.Workers
			pt, err := zhang.Predict(env, cfg)
			if err != nil {
				return nil, nil, fmt.Errorf("zhang with %d workers: %w", m.Workers, err)
			}
			examples := float64(m.Workers * c.Batch)
			pred[i] = examples / pt.IterationTime
			meas := examples / m.Throughput
			// The iteration time has the throughput's relative 95%
			// half-width over repetitions to first order.
			iterErrs = append(iterErrs, measured.NewRelError(pt.IterationTime, meas, 0, c.CI(m.Workers)))
			res.Note("%s: zhang W = %d: iteration %.2f ms = compute %.2f + exposed FC/BC %.2f + aggregation %.2f + stragglers %.2f; measured %.2f ms",
				c.Name, m.Workers, 1e3*pt.IterationTime, 1e3*pt.Compute, 1e3*pt.ExposedComm, 1e3*pt.Aggregation, 1e3*pt.Straggler, 1e3*meas)
		}
		out = append(out, tbaErrors(tbaZhang, c, judged, pred, nil))
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
		pred := make([]float64, len(judged))
		for i, m := range judged {
			bd, err := cynthia.ModelCynthia.PredictHomogeneous(prof.Workload(cynthia.BSP, m.Workers), cynthia.Homogeneous{Instance: node, Workers: m.Workers, PS: c.Servers, CBase: 1})
			if err != nil {
				return nil, nil, fmt.Errorf("cynthia with %d workers: %w", m.Workers, err)
			}
			pred[i] = bd.Throughput
			env.CountModelWork(1)
			res.Note("%s: Cynthia BSP W = %d: %.0f examples/s (measured %.0f)", c.Name, m.Workers, bd.Throughput, m.Throughput)
		}
		out = append(out, tbaErrors(tbaCynthiaBSP, c, judged, pred, nil))
	}
	return out, iterErrs, nil
}
