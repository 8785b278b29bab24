package predict

import (
	"fmt"
	"slices"

	"pslab/engine/zoo"
)

// CalibrateEach calibrates every model of models that defines c.Sync on
// its own at pt (CalibrateModel), in the order given; the models that do
// not define c.Sync are left out (they are n/a in any prediction).
func CalibrateEach(p *zoo.Profile, c Cluster, models []Model, pt Point) ([]Calibration, error) {
	var out []Calibration
	for _, m := range models {
		if !m.Defines(c.Sync) {
			continue
		}
		cal, err := CalibrateModel(p, c, m, pt)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", m.LabelFor(c.Sync), err)
		}
		out = append(out, cal)
	}
	return out, nil
}

// RunProfileEach is RunProfile with each model at the device speed of its
// own calibration (cals; a model without one runs at c.DeviceSpeed): the
// models that share a speed run together and the predictions are joined
// in the order of models. The joined prediction's coarse inputs, link
// bound, reading and simulator runs are those of the simulator's run, or
// of the first run without the simulator (the coarse inputs are read from
// a trace synthesized at that run's speed); its notes are every run's,
// each once.
func RunProfileEach(p *zoo.Profile, c Cluster, workers []int, models []Model, cals []Calibration) (*Prediction, error) {
	speed := func(m Model) float64 {
		for _, cal := range cals {
			if cal.Model == m {
				return cal.DeviceSpeed
			}
		}
		return c.DeviceSpeed
	}
	var speeds []float64
	for _, m := range models {
		if s := speed(m); !slices.Contains(speeds, s) {
			speeds = append(speeds, s)
		}
	}
	var runs []*Prediction
	var main *Prediction
	for _, s := range speeds {
		var ms []Model
		for _, m := range models {
			if speed(m) == s {
				ms = append(ms, m)
			}
		}
		cc := c
		cc.DeviceSpeed = s
		pr, err := RunProfile(p, cc, workers, ms)
		if err != nil {
			return nil, err
		}
		runs = append(runs, pr)
		if main == nil || slices.Contains(ms, Simulator) {
			main = pr
		}
	}
	out := *main
	out.Models, out.Curves, out.Unavailable, out.Notes = slices.Clone(models), nil, nil, nil
	for _, m := range models {
		for _, pr := range runs {
			if cv, ok := pr.curve(m); ok {
				out.Curves = append(out.Curves, *cv)
			}
			if why := pr.Why(m); why != "" {
				out.Unavailable = append(out.Unavailable, Unavailable{Model: m, Reason: why})
			}
		}
	}
	for _, pr := range runs {
		for _, n := range pr.Notes {
			if !slices.Contains(out.Notes, n) {
				out.Notes = append(out.Notes, n)
			}
		}
	}
	return &out, nil
}
