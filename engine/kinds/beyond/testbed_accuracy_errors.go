package beyond

import (
	"pslab/engine/measured"
	"pslab/engine/predict"
)

// tbaResult is one model's error on one configuration, over the measured
// points that judge a model (tbaJudged).
type tbaResult struct {
	model string
	// mean and max are the mean and largest |relative error|, percent,
	// with their 95% intervals [meanLo, meanHi] and [maxLo, maxHi]
	// (tbaErrors); interval reports whether any point had one.
	mean, meanLo, meanHi float64
	max, maxLo, maxHi    float64
	interval             bool
	// workers and pred are the judged W and the model's prediction
	// there, examples/s (the points of the accuracy table); signed the
	// relative errors there (fractions).
	workers      []int
	pred, signed []float64
}

// tbaJudged are the measured points of c that may judge a model
// (measured.Config.Judges): those that hold their testbed judgement, or
// every point of a directory without points.arrow.
func tbaJudged(c *measured.Config) []predict.Measurement {
	var out []predict.Measurement
	for _, m := range c.Meas {
		if ok, _ := c.Judges(m.Workers); ok {
			out = append(out, m)
		}
	}
	return out
}

// tbaErrors is model's error on meas, c's judged points, pred[i]
// predicting meas[i] with the relative 95% half-width hp[i] (hp nil: an
// exact model). Each point's error has the interval of
// measured.NewRelError (the prediction's half-width against the
// measurement's over repetitions, measured.Config.CI), and the mean and
// largest their intervals as measured.AbsErrors gives them.
func tbaErrors(model string, c *measured.Config, meas []predict.Measurement, pred, hp []float64) tbaResult {
	r := tbaResult{model: model}
	var abs measured.AbsErrors
	for i, m := range meas {
		h := 0.0
		if hp != nil {
			h = hp[i]
		}
		re := measured.NewRelError(pred[i], m.Throughput, h, c.CI(m.Workers))
		abs.Add(re.Scaled(100))
		r.workers, r.pred, r.signed = append(r.workers, m.Workers), append(r.pred, pred[i]), append(r.signed, re.E)
	}
	r.mean, r.meanLo, r.meanHi = abs.Mean()
	r.max, r.maxLo, r.maxHi, r.interval = abs.Max, abs.MaxLo, abs.MaxHi, abs.Interval
	return r
}

// halfWidths are the relative 95% half-widths of a curve's points,
// (Hi − Lo)/(2·y), or nil for a curve without intervals.
func halfWidths(cv predict.Curve) []float64 {
	if cv.Lo == nil {
		return nil
	}
	hp := make([]float64, len(cv.Throughput))
	for i, y := range cv.Throughput {
		hp[i] = (cv.Hi[i] - cv.Lo[i]) / (2 * y)
	}
	return hp
}

// tbaWorkersOf are the W of meas.
func tbaWorkersOf(meas []predict.Measurement) []int {
	ws := make([]int, len(meas))
	for i, m := range meas {
		ws[i] = m.Workers
	}
	return ws
}
