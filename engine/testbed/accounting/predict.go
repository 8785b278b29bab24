package accounting

import (
	"fmt"
	"math"
	"slices"

	"pslab/engine/testbed/analysis"
	"pslab/engine/testbed/config"
	"pslab/engine/testbed/network"
	"pslab/engine/testbed/training"
)

// RunSpread is the spread of a configuration's throughput between
// independent runs that -dry assumes: the coefficient of variation of a
// point's runs.
type RunSpread struct {
	// CV is the configuration's between-run CV: the median over its
	// committed points (0: none committed, then Predict takes the
	// calibration's).
	CV float64
	// PerW is each committed point's own CV, by W (nil: none).
	PerW map[int]float64
	// Source says where CV comes from.
	Source string
}

// Prediction is what -dry computes for a configuration before anything
// runs.
type Prediction struct {
	// Unscaled is the unscaled time per step (s), Step the predicted
	// 1-worker step time (s): the larger of compute and one direction's
	// transfer time, plus Unscaled (a lower bound, so Share is an upper
	// bound).
	Unscaled, Step float64
	// Share is UnscaledShare at W = 1.
	Share float64
	// RunCV is the between-run CV assumed (RunSpread, else the
	// calibration's run_cv, else step_cv/√(min W·average)), RunCVSource
	// says which.
	RunCV       float64
	RunCVSource string
	// RepsNeeded is the number of repetitions a point needs for a ±MaxCI
	// 95% interval at RunCV (analysis.RepsForCI, at least Repetitions);
	// RepCap is the configuration's cap (config.Config.RepCap).
	RepsNeeded, RepCap int
	// Seconds is the predicted collection time of the configuration (s),
	// Stretched the part of it spent on stretched points: every factor of
	// Dilations at the StretchedPoints largest W (an upper bound: the
	// later factors run only where the earlier moved the point by more
	// than its interval). Expected is Seconds with the first factor
	// only.
	Seconds, Stretched, Expected float64
}

// Predict computes the prediction of c on network mode with plan p, the
// between-run spread of its committed points spread (zero: none).
func Predict(c config.Config, p *training.Plan, cal config.Calibration, mode string, spread RunSpread) (Prediction, error) {
	cost, ok := cal.MessageCost[c.Transport]
	if !ok {
		return Prediction{}, fmt.Errorf("no calibrated message cost for transport %q", c.Transport)
	}
	var pr Prediction
	burst := network.BurstTime(mode, c.Bandwidth())
	pr.Unscaled = cost*float64(MessagesPerStep(p)) + cal.RTT + burst
	comm := float64(p.ModelBytes()) / c.Bandwidth()
	pr.Step = max(p.StepCompute().Seconds(), comm) + pr.Unscaled
	pr.Share = UnscaledShare(cost, MessagesPerStep(p), cal.RTT, burst, c.DeviceSpeed, pr.Step)
	minW := slices.Min(c.Workers)
	switch {
	case spread.Source != "":
		pr.RunCV, pr.RunCVSource = spread.CV, spread.Source
	case cal.RunCV > 0:
		pr.RunCV, pr.RunCVSource = cal.RunCV, "[calibration] run_cv"
	default:
		pr.RunCV = cal.StepCV / math.Sqrt(float64(minW*c.Average))
		pr.RunCVSource = fmt.Sprintf("[calibration] step_cv/√(W·average) = %.2g/√(%d·%d), steps independent", cal.StepCV, minW, c.Average)
	}
	pr.RepCap = c.RepCap()
	pr.RepsNeeded = analysis.RepsForCI(pr.RunCV, MaxCI, c.Repetitions)
	reps := func(w int) float64 {
		cv := pr.RunCV
		if v, ok := spread.PerW[w]; ok {
			cv = v
		}
		return float64(min(max(analysis.RepsForCI(cv, MaxCI, c.Repetitions), c.Repetitions), pr.RepCap))
	}
	// time: serial 1-worker step, and the PS NIC saturating with W workers
	t1 := p.StepCompute().Seconds() + 2*comm + pr.Unscaled
	run := func(w int, k float64) float64 {
		step := max(t1, float64(w)*comm)
		if c.Sync == training.BSP {
			step = p.StepCompute().Seconds() + 2*float64(w)*comm + pr.Unscaled
		}
		return float64(c.Steps)*step*k + 1
	}
	pr.Seconds = float64(c.ProfileSteps)*t1 + 2 + ProbeSteps*pr.Unscaled
	for _, w := range c.Workers {
		pr.Seconds += reps(w) * run(w, 1)
	}
	ws := slices.Clone(c.Workers)
	slices.Sort(ws)
	first := 0.0
	for _, w := range ws[len(ws)-c.StretchedPoints():] {
		for i, k := range c.Dilations {
			pr.Stretched += reps(w) * run(w, k)
			if i == 0 {
				first += reps(w) * run(w, k)
			}
		}
	}
	pr.Expected = pr.Seconds + first
	pr.Seconds += pr.Stretched
	return pr, nil
}
