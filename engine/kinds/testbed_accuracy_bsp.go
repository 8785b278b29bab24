package kinds

import (
	"fmt"
	"math"
	"strconv"

	"pslab/engine/cynthia"
	"pslab/engine/experiment"
	"pslab/engine/syncps"
	"pslab/engine/testbed"
	"pslab/engine/zoo"
)

// tbaZhangLayers maps the per-layer profile pr onto a testbed job the way
// the testbed's plan does (testbed.NewPlan): the Input layer is left out
// (its time is PipeDream's data loader, not emulated), each layer's
// parameter bytes become testbed.ScaledBytes(bytes, bytesScale) (whole
// float32 values, at least one) and its forward and backward times are
// scaled by batch/pr.Batch and divided by deviceSpeed. The result is in
// testbed units: bytes on the wire and seconds of emulated compute.
func tbaZhangLayers(pr *zoo.Profile, batch int, bytesScale, deviceSpeed float64) ([]syncps.Layer, error) {
	if pr.Batch < 1 || batch < 1 || !(bytesScale > 0) || !(deviceSpeed > 0) {
		return nil, fmt.Errorf("profile batch %d, batch %d, bytes scale %v, device speed %v: need ≥ 1, ≥ 1, > 0, > 0", pr.Batch, batch, bytesScale, deviceSpeed)
	}
	scale := float64(batch) / float64(pr.Batch) / deviceSpeed
	var out []syncps.Layer
	for _, l := range pr.Layers {
		if l.IsInput() {
			continue
		}
		var b int64
		if l.ParamBytes > 0 {
			b = testbed.ScaledBytes(l.ParamBytes, bytesScale)
		}
		out = append(out, syncps.Layer{Name: l.Name, ParamBytes: b, Forward: l.Forward * scale, Backward: l.Backward * scale})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("profile %q has no layers besides the input", pr.Model)
	}
	return out, nil
}

// bsp predicts a BSP configuration with zhang's model and Cynthia's own
// BSP model. It also returns zhang's |iteration-time error| in percent at
// each measured W (zhang states its accuracy on the iteration time).
func (p *tbaParams) bsp(env *experiment.Env, res *experiment.Result, c *tbaConfig) ([]tbaResult, []float64, error) {
	var out []tbaResult
	var iterErrs []float64
	if env.UsesModel(tbaZhang) {
		input, ok := p.Profiles[c.model]
		if !ok {
			return nil, nil, env.Errorf("profiles", "no per-layer profile input for DNN %q (configuration %s)", c.model, c.name)
		}
		pr, err := readProfile(env, input)
		if err != nil {
			return nil, nil, err
		}
		layers, err := tbaZhangLayers(pr, c.batch, c.bytesScale, c.deviceSpeed)
		if err != nil {
			return nil, nil, fmt.Errorf("zhang: %w", err)
		}
		if err := tbaCheckBytes(c, layers); err != nil {
			return nil, nil, err
		}
		cfg, err := p.Constants.config(env)
		if err != nil {
			return nil, nil, err
		}
		cfg.Servers, cfg.Bandwidth, cfg.Layers = c.servers, c.bandwidth, layers
		pred := make([]float64, len(c.meas))
		for i, m := range c.meas {
			cfg.Workers = m.Workers
			pt, err := syncps.Predict(cfg)
			if err != nil {
				return nil, nil, fmt.Errorf("zhang with %d workers: %w", m.Workers, err)
			}
			examples := float64(m.Workers * c.batch)
			pred[i] = examples / pt.IterationTime
			measured := examples / m.Throughput
			iterErrs = append(iterErrs, 100*math.Abs(pt.IterationTime-measured)/measured)
			res.Note("%s: zhang W = %d: iteration %.2f ms = compute %.2f + exposed FC/BC %.2f + aggregation %.2f + stragglers %.2f; measured %.2f ms",
				c.name, m.Workers, 1e3*pt.IterationTime, 1e3*pt.Compute, 1e3*pt.ExposedComm, 1e3*pt.Aggregation, 1e3*pt.Straggler, 1e3*measured)
		}
		mean, hi := relErrors(pred, c.meas)
		out = append(out, tbaResult{model: tbaZhang, mean: mean, max: hi})
	}
	if env.UsesModel(tbaCynthiaBSP) {
		cycle, err := profileCycle(c.stepTab)
		if err != nil {
			return nil, nil, fmt.Errorf("steps.arrow: %w", err)
		}
		prof, err := testbedProfile(c.measTable, c.phases, -1, 0, cycle)
		if err != nil {
			return nil, nil, err
		}
		node := cynthia.Instance{Name: "testbed", CPU: 1, Bandwidth: c.bandwidth}
		pred := make([]float64, len(c.meas))
		for i, m := range c.meas {
			bd, err := cynthia.ModelCynthia.PredictHomogeneous(prof.workload(cynthia.BSP, m.Workers), cynthia.Homogeneous{Instance: node, Workers: m.Workers, PS: c.servers, CBase: 1})
			if err != nil {
				return nil, nil, fmt.Errorf("cynthia with %d workers: %w", m.Workers, err)
			}
			pred[i] = bd.Throughput
			res.Note("%s: Cynthia BSP W = %d: %.0f examples/s (measured %.0f)", c.name, m.Workers, bd.Throughput, m.Throughput)
		}
		mean, hi := relErrors(pred, c.meas)
		out = append(out, tbaResult{model: tbaCynthiaBSP, mean: mean, max: hi})
	}
	return out, iterErrs, nil
}

// tbaCheckBytes requires the mapped layers to carry the bytes the testbed
// sent (metadata testbed.model_bytes), so the mapping is the testbed's.
func tbaCheckBytes(c *tbaConfig, layers []syncps.Layer) error {
	want, err := strconv.ParseInt(c.measTable.Provenance.Extra["testbed.model_bytes"], 10, 64)
	if err != nil {
		return fmt.Errorf("throughput.arrow metadata testbed.model_bytes: %w", err)
	}
	var got int64
	for _, l := range layers {
		got += l.ParamBytes
	}
	if got != want {
		return fmt.Errorf("zhang: the profile's scaled parameters are %d bytes, the testbed sent %d (testbed.model_bytes): not the profile the testbed ran", got, want)
	}
	return nil
}
