package predict

import (
	"fmt"
	"math"
	"slices"

	"pslab/engine/dataset"
	"pslab/engine/sim"
)

// AccuracySchema holds per-point prediction errors against measured
// throughput, the evidence a trust band rests on: one row per measured
// point and model, written by the experiments that judge the models on
// measured data (beyond-testbed-accuracy, beyond-tf-benchmarks) next to
// their figure as figures/<paper>/<id>.accuracy.arrow.
var AccuracySchema = &dataset.Schema{Name: "accuracy", Columns: []dataset.Column{
	{Name: "source", Type: dataset.String, Doc: "experiment id that predicted the point"},
	{Name: "config", Type: dataset.String, Doc: "measured configuration (testbed directory, or platform model batch data)"},
	{Name: "model", Type: dataset.String, Doc: "predict.Model name of the predicting model"},
	{Name: "sync", Type: dataset.String, Rule: dataset.Enum, Values: []string{"asp", "bsp"}, Doc: "synchronization mode of the measured run"},
	{Name: "workers", Type: dataset.Int64, Rule: dataset.Positive, Doc: "workers W of the point (GPUs of one node in the public tables)"},
	{Name: "ratio", Type: dataset.Float64, Rule: dataset.Positive, Unit: "1", Doc: "compute/communication ratio of the configuration (CommRatio)"},
	{Name: "predicted", Type: dataset.Float64, Rule: dataset.NonNegative, Unit: "examples/s", Doc: "the model's prediction"},
	{Name: "measured", Type: dataset.Float64, Rule: dataset.Positive, Unit: "examples/s", Doc: "the measured throughput"},
	{Name: "error", Type: dataset.Float64, Unit: "1", Doc: "(predicted − measured)/measured, a fraction"},
	{Name: "in_budget", Type: dataset.Int64, Rule: dataset.NonNegative, Doc: "1 when the measurement holds by its instrument's own accounting (testbed: not host_limited; public tables: 1), else 0"},
}}

// TrustPoint is one model's error at one measured point.
type TrustPoint struct {
	Source, Config string
	Model          Model
	Sync           sim.Sync
	Workers        int
	// Ratio is the configuration's compute/communication ratio
	// (CommRatio), dimensionless.
	Ratio float64
	// Err is (predicted − measured)/measured, a fraction.
	Err float64
	// InBudget is false for a measurement its instrument flags (testbed
	// host_limited); such points never enter a band.
	InBudget bool
}

// TrustPoints reads the rows of t (AccuracySchema). A row naming an
// unknown model, or with a non-finite error or ratio, is an error naming
// the row.
func TrustPoints(t *dataset.Table) ([]TrustPoint, error) {
	if t.Schema.Name != AccuracySchema.Name {
		return nil, fmt.Errorf("schema %q, want %q", t.Schema.Name, AccuracySchema.Name)
	}
	src, cfg, model, sync := t.Strings("source"), t.Strings("config"), t.Strings("model"), t.Strings("sync")
	ws, ratio, errs, ok := t.Ints("workers"), t.Floats("ratio"), t.Floats("error"), t.Ints("in_budget")
	out := make([]TrustPoint, 0, len(src))
	for i := range src {
		m := Model(model[i])
		if !slices.Contains(AllModels(), m) {
			return nil, fmt.Errorf("row %d: model %q (want one of %v)", i+1, m, AllModels())
		}
		y, err := sim.ParseSync(sync[i])
		if err != nil {
			return nil, fmt.Errorf("row %d: %v", i+1, err)
		}
		if math.IsNaN(errs[i]) || math.IsInf(errs[i], 0) || !(ratio[i] > 0) || math.IsInf(ratio[i], 0) {
			return nil, fmt.Errorf("row %d (%s, %s, W = %d): error %v, ratio %v: want finite numbers, ratio > 0", i+1, cfg[i], m, ws[i], errs[i], ratio[i])
		}
		out = append(out, TrustPoint{Source: src[i], Config: cfg[i], Model: m, Sync: y, Workers: int(ws[i]),
			Ratio: ratio[i], Err: errs[i], InBudget: ok[i] == 1})
	}
	return out, nil
}

// CommRatio is the compute/communication ratio of a configuration:
// T_p · B / (2 · bytes), the worker's compute per step (c.Tp, s) over the
// time its bytes both ways (2 · the downlink bytes from every PS,
// c.ServerBytes) take at bandwidth B (bytes/s) on one link. It is 0 when
// the trace moves no bytes or B ≤ 0.
func CommRatio(c Coarse, bandwidth float64) float64 {
	var bytes float64
	for _, b := range c.ServerBytes {
		bytes += b
	}
	if !(bytes > 0) || !(bandwidth > 0) {
		return 0
	}
	return c.Tp * bandwidth / (2 * bytes)
}

// TrustRule says which measured points resemble a query: the same
// synchronization mode and model, W within [W/WorkersFactor,
// W·WorkersFactor] and the compute/communication ratio within [r/
// RatioFactor, r·RatioFactor], and the measurement in budget.
type TrustRule struct {
	WorkersFactor, RatioFactor float64
}

// DefaultTrustRule is pslab predict's rule: W and the ratio each within a
// factor of 2.
var DefaultTrustRule = TrustRule{WorkersFactor: 2, RatioFactor: 2}

// Similar reports whether pt resembles model m's prediction at w workers
// of a configuration with ratio r under sync y. A ratio ≤ 0 (unknown)
// resembles nothing.
func (r TrustRule) Similar(pt TrustPoint, m Model, y sim.Sync, w int, ratio float64) bool {
	within := func(x, ref, f float64) bool { return x >= ref/f && x <= ref*f }
	return pt.InBudget && pt.Model == m && pt.Sync == y && ratio > 0 &&
		within(float64(pt.Workers), float64(w), r.WorkersFactor) && within(pt.Ratio, ratio, r.RatioFactor)
}

// Trust is a model's measured error on the points that resemble a query.
type Trust struct {
	// MeanAbs and MaxAbs are the mean and largest |error| of the points,
	// fractions; N is how many points (0: no comparable measurement).
	MeanAbs, MaxAbs float64
	N               int
}

// Band returns model m's Trust at w workers of a configuration with ratio
// ratio under sync y: the points of pts that rule finds similar.
func (r TrustRule) Band(pts []TrustPoint, m Model, y sim.Sync, w int, ratio float64) Trust {
	var t Trust
	for _, pt := range pts {
		if !r.Similar(pt, m, y, w, ratio) {
			continue
		}
		e := math.Abs(pt.Err)
		t.MeanAbs, t.MaxAbs, t.N = t.MeanAbs+e, math.Max(t.MaxAbs, e), t.N+1
	}
	if t.N > 0 {
		t.MeanAbs /= float64(t.N)
	}
	return t
}

// String is the band as pslab predict prints it: "[trust: mean 6.1%,
// max 14.2%, n=23]" or "[trust: no comparable measurement]".
func (t Trust) String() string {
	if t.N == 0 {
		return "[trust: no comparable measurement]"
	}
	return fmt.Sprintf("[trust: mean %.1f%%, max %.1f%%, n=%d]", 100*t.MeanAbs, 100*t.MaxAbs, t.N)
}

// Ratio is the prediction's compute/communication ratio (CommRatio of its
// 1-worker coarse inputs at its bandwidth), 0 when unknown.
func (p *Prediction) Ratio() float64 { return CommRatio(p.Coarse, p.Bandwidth) }

// AboveLinkBound reports whether model m's prediction at row i exceeds the
// link bound (p.LinkBound, the bytes-limited throughput) by more than
// 0.1%, which no schedule can reach.
func (p *Prediction) AboveLinkBound(m Model, i int) bool {
	y, ok := p.Curve(m)
	return ok && !math.IsInf(p.LinkBound, 0) && y[i] > p.LinkBound*1.001
}
