package predict

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"pslab/engine/zoo"
)

// CalibrationTolerance is the largest relative gap, |X − target|/target,
// Calibrate accepts between the simulated and the measured throughput.
const CalibrationTolerance = 0.005

// MaxCalibrationRuns bounds the model runs of one CalibrateModel: the
// first, at most 41 doublings or halvings across [1e-6, 1e6] (ln 10¹²/ln 2
// + 1) and at most calibrationSteps steps of regula falsi. Callers bound
// their work with it before calibrating.
const MaxCalibrationRuns = 1 + 41 + calibrationSteps

// calibrationSteps caps CalibrateModel's regula falsi.
const calibrationSteps = 100

// Point is one measured throughput: Workers nodes, Throughput examples/s
// of the whole cluster.
type Point struct {
	Workers    int
	Throughput float64
}

// ParsePoint parses "W:THROUGHPUT" (e.g. "1:250": 250 examples/s on one
// node); W must be ≥ 1 and the throughput finite and > 0.
func ParsePoint(s string) (Point, error) {
	a, b, ok := strings.Cut(s, ":")
	if !ok {
		return Point{}, fmt.Errorf("%q: want W:THROUGHPUT, e.g. 1:250", s)
	}
	w, err := strconv.Atoi(strings.TrimSpace(a))
	if err != nil || w < 1 {
		return Point{}, fmt.Errorf("%q: W must be an integer ≥ 1", s)
	}
	x, err := strconv.ParseFloat(strings.TrimSpace(b), 64)
	if err != nil || !(x > 0) || math.IsInf(x, 0) {
		return Point{}, fmt.Errorf("%q: throughput must be a finite number > 0 examples/s", s)
	}
	return Point{Workers: w, Throughput: x}, nil
}

// Calibration is the result of Calibrate or CalibrateModel.
type Calibration struct {
	// Model is the model calibrated.
	Model Model
	// DeviceSpeed is the fitted compute speed relative to the profiled
	// device (Cluster.DeviceSpeed).
	DeviceSpeed float64
	// Simulated is the model's throughput at the point with it,
	// examples/s (the simulator's for Calibrate).
	Simulated float64
	// Runs is the number of model runs the fit took.
	Runs int
}

// Calibrate finds the device speed s at which the simulator reproduces
// the measured point pt: CalibrateModel with Simulator.
func Calibrate(p *zoo.Profile, c Cluster, pt Point) (Calibration, error) {
	return CalibrateModel(p, c, Simulator, pt)
}

// CalibrateModel finds the device speed s at which model m (RunProfile on
// cluster c with m alone, every other setting as given) reproduces the
// measured point pt within CalibrationTolerance, so that each model is
// calibrated on its own at the calibration point: the root of log X(s) −
// log X_pt, first bracketed by doubling or halving from c.DeviceSpeed
// (0 → 1), then found by the Illinois variant of regula falsi on log s,
// falling back to bisection. Only pt is used. It fails when m does not
// define c.Sync, and when pt lies beyond what any speed in [1e-6, 1e6]
// reaches (e.g. above the link bound).
func CalibrateModel(p *zoo.Profile, c Cluster, m Model, pt Point) (Calibration, error) {
	if pt.Workers < 1 || !(pt.Throughput > 0) || math.IsInf(pt.Throughput, 0) {
		return Calibration{}, fmt.Errorf("predict: calibration point W = %d, throughput %g: need W ≥ 1 and a finite throughput > 0", pt.Workers, pt.Throughput)
	}
	if !m.Defines(c.Sync) {
		return Calibration{}, fmt.Errorf("predict: calibration: %s does not define %s", m.Label(), c.Sync)
	}
	cal := Calibration{Model: m}
	f := func(logS float64) (float64, error) { // log(X/target)
		cc := c
		cc.DeviceSpeed = math.Exp(logS)
		pr, err := RunProfile(p, cc, []int{pt.Workers}, []Model{m})
		if err != nil {
			return 0, err
		}
		y, ok := pr.Curve(m)
		if !ok {
			return 0, fmt.Errorf("predict: calibration: %s: n/a (%s)", m.LabelFor(c.Sync), pr.Why(m))
		}
		cal.Runs++
		cal.DeviceSpeed, cal.Simulated = cc.DeviceSpeed, y[0]
		return math.Log(cal.Simulated / pt.Throughput), nil
	}
	ok := func(g float64) bool { return math.Abs(math.Expm1(g)) <= CalibrationTolerance }
	s0 := c.DeviceSpeed
	if s0 == 0 {
		s0 = 1
	}
	a := math.Log(s0)
	fa, err := f(a)
	if err != nil || ok(fa) {
		return cal, err
	}
	step := math.Ln2
	if fa > 0 {
		step = -step
	}
	b, fb := a, fa
	for fa*fb > 0 {
		a, fa = b, fb
		b += step
		if math.Abs(b) > math.Log(1e6) {
			return cal, fmt.Errorf("predict: calibration: no device speed in [1e-6, 1e6] gives %g examples/s at W = %d (%s reaches %.4g at speed %.3g; above the link bound?)",
				pt.Throughput, pt.Workers, m.LabelFor(c.Sync), cal.Simulated, cal.DeviceSpeed)
		}
		if fb, err = f(b); err != nil || ok(fb) {
			return cal, err
		}
	}
	side := 0
	for range calibrationSteps {
		x := (a*fb - b*fa) / (fb - fa) // regula falsi
		if !(x > math.Min(a, b) && x < math.Max(a, b)) {
			x = (a + b) / 2
		}
		fx, err := f(x)
		if err != nil || ok(fx) {
			return cal, err
		}
		if fx*fb < 0 {
			a, fa = b, fb
			side = 0
		} else if side == -1 {
			fa /= 2 // Illinois: the retained end was kept twice
		} else {
			side = -1
		}
		b, fb = x, fx
		if math.Abs(b-a) < 1e-12 {
			break
		}
	}
	return cal, fmt.Errorf("predict: calibration: no device speed gives %g examples/s at W = %d within %g%% (closest %.4g at speed %.4g; the simulated throughput jumps there)",
		pt.Throughput, pt.Workers, 100*CalibrationTolerance, cal.Simulated, cal.DeviceSpeed)
}
