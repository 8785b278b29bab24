package beyond

import (
	"strings"

	"pslab/engine/experiment"
	"pslab/engine/predict"
)

// Bounded work of tf-benchmarks (issue 28): its simulator events and model
// work are estimated from the table's rows and the most a calibration may
// take, before any model runs, and counted as they run.

// events estimates the simulator's events: per group, its calibration
// (at most predict.MaxCalibrationRuns runs of one GPU) and its rows, for
// the before variant and every slowdown of the grid (the node-cost
// variants reuse the grid's).
func (r *tfbRun) events() float64 {
	var e float64
	for _, g := range r.groups {
		ops := 4 * len(g.profile.Layers)
		ws := []int{predict.MaxCalibrationRuns}
		for _, row := range g.rows {
			ws = append(ws, row.gpus)
		}
		e += experiment.SimEvents(ops, r.p.Steps, ws...) * float64(1+len(r.p.Slowdowns))
	}
	return e
}

// modelRun is the model work of one run of model m on g's node at w
// workers besides the simulator's events: synthesizing its one-step trace
// (about four ops per layer, experiment.SynthOpWork each) and the model
// (zhang's ten iterations of every layer, an MVA curve of w population
// levels at ten units each, Cynthia's evaluation).
func (r *tfbRun) modelRun(g *tfbGroup, m predict.Model, w int) float64 {
	units := 4 * experiment.SynthOpWork * float64(len(g.profile.Layers))
	switch {
	case m == predict.Zhang:
		units += 10 * float64(len(g.profile.Layers)+1)
	case strings.HasPrefix(string(m), "mva-"):
		units += 10 * float64(w)
	case m == predict.Cynthia:
		units++
	}
	return units
}

// modelWork estimates the model work and result lines of the run: per
// group, the simulator's calibration (at most predict.MaxCalibrationRuns
// runs) and rows before node costs and at every slowdown of the fit's
// grid (which the node-cost variants reuse), and every other model's
// calibration (one for the three MVA variants) and rows in each of the
// three variants; per group at most one platform's metrics, notes and
// bars (tfbPlatformLines) and two scaling metrics per row.
func (r *tfbRun) modelWork() (units, rows float64) {
	const variants = 3 // before, spec and lopo
	for _, g := range r.groups {
		calibrated := false
		for _, m := range r.models {
			run := 0.0
			if !strings.HasPrefix(string(m), "mva-") || !calibrated {
				run = float64(predict.MaxCalibrationRuns) * r.modelRun(g, m, 1)
				calibrated = calibrated || strings.HasPrefix(string(m), "mva-")
			}
			for _, row := range g.rows {
				run += r.modelRun(g, m, row.gpus)
			}
			if m == predict.Simulator { // the grid's runs serve the node-cost variants
				units += float64(1+len(r.p.Slowdowns)) * run
			} else {
				units += variants * run
			}
		}
		rows += variants + tfbPlatformLines*float64(len(r.models)) + 2*float64(1+len(g.rows))
	}
	return units, rows + 10
}

// tfbPlatformLines bounds the result lines of one platform per model:
// error metrics for the platform and for all in each variant (four each)
// and a bar per variant.
const tfbPlatformLines = 3*2*4 + 3
