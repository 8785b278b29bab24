package beyond

import (
	"pslab/engine/dataset"
	"pslab/engine/experiment"
	"pslab/engine/measured"
	"pslab/engine/predict"
)

// accuracyRow appends one point to res's accuracy table (created on first
// use, predict.AccuracySchema): the error of model at w workers of a
// configuration whose compute/communication ratio is ratio.
func accuracyRow(res *experiment.Result, source, config string, model predict.Model, sync string, w int, ratio, pred, meas float64, inBudget bool) error {
	if res.Accuracy == nil {
		res.Accuracy = dataset.NewTable(predict.AccuracySchema, dataset.Provenance{Origin: dataset.Derived})
	}
	ok := int64(0)
	if inBudget {
		ok = 1
	}
	return res.Accuracy.Append(source, config, string(model), sync, int64(w), ratio, pred, meas, pred/meas-1, ok)
}

// tbaAccuracy records every point of rs, the models' predictions of
// testbed configuration c, in res's accuracy table, with c's
// compute/communication ratio (predict.CommRatio of its 1-worker trace at
// its bandwidth) and its accounting verdict: each point's own
// (measured.Config.Points, accounting version 3 on) where the directory
// has one, else the configuration's inBudget. cynthia-bsp is predict's
// Cynthia under BSP; models pslab predict does not run (mva-hybrid-wire,
// simulator-processor) are left out.
func tbaAccuracy(res *experiment.Result, c *measured.Config, rs []tbaResult, inBudget bool) error {
	co, err := predict.FromTrace(c.Trace)
	if err != nil {
		return err
	}
	ratio := predict.CommRatio(co, c.Bandwidth)
	if !(ratio > 0) {
		return nil
	}
	meas := map[int]float64{}
	for _, m := range c.Meas {
		meas[m.Workers] = m.Throughput
	}
	for _, r := range rs {
		m := predict.Model(r.model)
		if r.model == tbaCynthiaBSP {
			m = predict.Cynthia
		}
		if _, err := predict.ParseModels(string(m)); err != nil {
			continue
		}
		for i, w := range r.workers {
			ok := inBudget
			if c.Points != nil {
				ok = c.Points[w].Holds()
			}
			if err := accuracyRow(res, "beyond-testbed-accuracy", c.Name, m, c.Sync, w, ratio, r.pred[i], meas[w], ok); err != nil {
				return err
			}
		}
	}
	return nil
}
