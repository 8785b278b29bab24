package cynthia

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	cynthiamodel "pslab/engine/cynthia"
	"pslab/engine/dataset"
	"pslab/engine/experiment"
	"pslab/engine/measured"
	"pslab/engine/predict"
)

type cynthiaMeasuredParams struct {
	// Bandwidth is b_ps of every PS in bytes/s; 0 reads the measured
	// dataset's "testbed.bandwidth_bps" metadata.
	Bandwidth float64
	// Cases, if given, are testbed configuration directories predicted
	// one by one (case mode); the inputs measured, phases and steps are
	// then not read.
	Cases []cynthiaMeasuredCase `toml:"case"`
}

// TestbedProfile is Cynthia's 30-iteration profile (§3) taken from
// a testbed's 1-worker run, in units where the profiling worker's CPU is
// c_base = c_wk = c_ps = 1 "FLOP/s":
//
//	w_iter = t_base: the compute time of one step (metadata testbed.step_compute_s)
//	g      = bytes each way per step (metadata testbed.model_bytes)
//	cycle  = the 1-worker step time: the mean step of the profiling run
//	         (optional input steps, run "profile", step 0 left out as
//	         warm-up), else batch / X(1) from the measured 1-worker row
//	b_prof = 2g/cycle, the PS's network throughput while profiling
//	c_prof = S^S/cycle, the PS's CPU busy fraction (S^S from the phases)
//
// b_prof counts both directions against one b_ps, as Eq. 5's 2g/b does
// (Table 4's VGG-19 b_prof ≈ 2g/t_iter). For BSP the testbed's batch is per
// worker (weak scaling) while Eq. 4 splits a global batch (C-11), so
// workload(n) uses w_iter = n·t_base and a global batch of n·batch.
type TestbedProfile struct {
	sw, g, bProf, cProf float64
	batch               int64
}

// ProfileFromTestbed builds the profile from the measured dataset's metadata,
// the 1-worker step time cycle (0: from the 1-worker row i1) and phase row j.
func ProfileFromTestbed(meas, ph *dataset.Table, i1, j int, cycle float64) (TestbedProfile, error) {
	var v [2]float64
	for k, key := range []string{"testbed.step_compute_s", "testbed.model_bytes"} {
		f, err := strconv.ParseFloat(meas.Provenance.Extra[key], 64)
		if err != nil || !(f > 0) || math.IsInf(f, 0) {
			return TestbedProfile{}, fmt.Errorf("metadata %s = %q: want a positive number", key, meas.Provenance.Extra[key])
		}
		v[k] = f
	}
	batch := ph.Ints("batch")[j]
	if cycle == 0 {
		if i1 < 0 {
			return TestbedProfile{}, fmt.Errorf("no 1-worker run of %s at batch %d to profile from (give the steps input)", ph.Strings("job")[j], batch)
		}
		x1 := meas.Floats("throughput")[i1]
		if !(x1 > 0) {
			return TestbedProfile{}, fmt.Errorf("1-worker throughput %v: want > 0", x1)
		}
		cycle = float64(batch) / x1
	}
	return TestbedProfile{sw: v[0], g: v[1], bProf: 2 * v[1] / cycle, cProf: ph.Floats("s_s")[j] / cycle, batch: batch}, nil
}

func (p TestbedProfile) Workload(sync cynthiamodel.Sync, n int) cynthiamodel.Workload {
	w := cynthiamodel.Workload{Name: "testbed", WIter: p.sw, GParam: p.g, CProf: p.cProf, BProf: p.bProf, Sync: sync, Batch: int(p.batch)}
	if sync == cynthiamodel.BSP {
		w.WIter *= float64(n)
		w.Batch *= n
	}
	return w
}

// cynthiaMeasuredCase is one [[params.case]]: a testbed configuration
// directory (an input; engine/testbed datasets) predicted as a whole.
type cynthiaMeasuredCase struct {
	// Input names the spec input holding the configuration's directory;
	// it also names the case's metrics.
	Input string
}

// cynthiaErrors accumulates |relative errors| with their 95% intervals
// (measured.AbsErrors) by a key (a sync mechanism or a case), in
// first-seen order.
type cynthiaErrors struct {
	keys  []string
	byKey map[string]*measured.AbsErrors
}

func newCynthiaErrors() *cynthiaErrors {
	return &cynthiaErrors{byKey: map[string]*measured.AbsErrors{}}
}

func (e *cynthiaErrors) add(key string, re measured.RelError) {
	if e.byKey[key] == nil {
		e.keys = append(e.keys, key)
		e.byKey[key] = &measured.AbsErrors{}
	}
	e.byKey[key].Add(re)
}

// record writes mean_abs_error.<key> (with its 95% interval) and
// max_abs_error.<key> (fractions) and a note per key, keys sorted if
// sorted is set.
func (e *cynthiaErrors) record(res *experiment.Result, sorted bool) {
	keys := slices.Clone(e.keys)
	if sorted {
		sort.Strings(keys)
	}
	for _, k := range keys {
		a := e.byKey[k]
		mean, lo, hi := a.Mean()
		res.MetricInterval("mean_abs_error."+k, mean, lo, hi)
		res.Metric("max_abs_error."+k, a.Max)
		res.Note("%s: mean |error| %.1f%% [%.1f%%, %.1f%%], max %.1f%% over %d points", k, 100*mean, 100*lo, 100*hi, 100*a.Max, a.N)
	}
}

// cynthiaMeasured predicts measured throughputs with Cynthia's model
// profiled from the 1-worker run of the same model, batch and PS count,
// and records the relative error of every point and its mean and maximum
// per sync mechanism. Single mode: input measured (dataset.MeasurementSchema
// with testbed metadata, sync asp or bsp) and input phases, optional input
// steps. Case mode ([[params.case]]): each case is a testbed configuration
// directory, its profiling cycle read from its steps.arrow (so BSP
// configurations measured at W = 3 only are profiled from their own
// 1-worker run), its bandwidth from its metadata, and its throughputs are
// plotted on the emulated cluster's clock (÷ its device_speed; predicted
// on the testbed's, which leaves the relative errors unchanged) so that
// configurations with different scale factors compare; metrics are keyed by
// case (error.<case>.w<n>, mean_abs_error.<case>, max_abs_error.<case>) as
// well as by sync (mean_abs_error.<sync>).
func cynthiaMeasured(_ context.Context, env *experiment.Env) (*experiment.Result, error) {
	var p cynthiaMeasuredParams
	if err := env.Params(&p); err != nil {
		return nil, err
	}
	if len(p.Cases) > 0 {
		return cynthiaMeasuredCases(env, p)
	}
	meas, err := env.Input("measured", dataset.MeasurementSchema)
	if err != nil {
		return nil, err
	}
	ph, err := env.Input("phases", dataset.PhasesSchema)
	if err != nil {
		return nil, err
	}
	b := p.Bandwidth
	if b == 0 {
		v := meas.Provenance.Extra["testbed.bandwidth_bps"]
		if b, err = strconv.ParseFloat(v, 64); err != nil {
			return nil, env.Errorf("bandwidth", "bandwidth not set and the measured dataset has no testbed.bandwidth_bps metadata (%q)", v)
		}
	}
	if !(b > 0) || math.IsInf(b, 0) {
		return nil, env.Errorf("bandwidth", "bandwidth must be a positive number of bytes/s, got %v", b)
	}
	cycle := 0.0
	if env.HasInput("steps") {
		st, err := env.Input("steps", measured.StepsSchema)
		if err != nil {
			return nil, err
		}
		if cycle, err = measured.ProfileCycle(st); err != nil {
			return nil, env.Spec.Errorf([]string{"inputs", "steps"}, "%v", err)
		}
	}
	if err := checkMeasuredWork(env, []string{"inputs", "measured"}, meas.Len(), ph.Len(), 1); err != nil {
		return nil, err
	}
	res := experiment.NewResult()
	bySync := newCynthiaErrors()
	if err := cynthiaPredictRows(env, meas, ph, cycle, b, nil, res, bySync, nil); err != nil {
		return nil, err
	}
	bySync.record(res, true)
	res.Note("Cynthia profile from the 1-worker run: w_iter = step compute time, g = model bytes, b_prof = 2g/cycle, c_prof = S^S/cycle (c = 1), b_ps = %.4g bytes/s", b)
	return res, nil
}

// cynthiaMeasuredCases is cynthiaMeasured's case mode.
func cynthiaMeasuredCases(env *experiment.Env, p cynthiaMeasuredParams) (*experiment.Result, error) {
	if p.Bandwidth != 0 {
		return nil, env.Errorf("bandwidth", "bandwidth is read from each case's metadata; leave it unset with [[params.case]]")
	}
	// Every case is read before any is predicted, so that the work of
	// all of them is bounded first.
	type loaded struct {
		c     *measured.Config
		cycle float64
	}
	cases := make([]loaded, len(p.Cases))
	seen := map[string]bool{}
	measRows, phaseRows := 0, 0
	for i, c := range p.Cases {
		if c.Input == "" || strings.ContainsAny(c.Input, " .") || seen[c.Input] {
			return nil, env.Errorf("case", "case %d: input %q must be set, unique, without spaces or dots (it names metrics)", i+1, c.Input)
		}
		seen[c.Input] = true
		tc, err := measured.Load(env, c.Input)
		if err != nil {
			return nil, err
		}
		cycle, err := measured.ProfileCycle(tc.Steps)
		if err != nil {
			return nil, env.Spec.Errorf([]string{"inputs", c.Input}, "input %q: steps.arrow: %v", c.Input, err)
		}
		cases[i] = loaded{tc, cycle}
		measRows, phaseRows = measRows+tc.MeasTable.Len(), phaseRows+tc.Phases.Len()
	}
	if err := checkMeasuredWork(env, []string{"params", "case"}, measRows, phaseRows, len(cases)); err != nil {
		return nil, err
	}
	res := experiment.NewResult()
	bySync, byCase := newCynthiaErrors(), newCynthiaErrors()
	for i, c := range p.Cases {
		tc, cycle := cases[i].c, cases[i].cycle
		if err := cynthiaPredictRows(env, tc.MeasTable, tc.Phases, cycle, tc.Bandwidth, tc, res, bySync, byCase); err != nil {
			return nil, fmt.Errorf("%s: %w", c.Input, err)
		}
		res.Note("%s: b_ps = %.4g bytes/s, profiling cycle %.3f ms (steps.arrow, step 0 left out; testbed clock), plotted ÷ device_speed %g", c.Input, tc.Bandwidth, 1e3*cycle, tc.DeviceSpeed)
	}
	bySync.record(res, true)
	byCase.record(res, false)
	res.Note("Cynthia profile from each case's 1-worker profiling run: w_iter = step compute time, g = model bytes, b_prof = 2g/cycle, c_prof = S^S/cycle (c = 1)")
	return res, nil
}

// cynthiaPredictRows predicts every row of meas with Cynthia's model on
// nodes of bandwidth b bytes/s, plots measurement and prediction and
// records error metrics: error.<model>.b<batch>.<sync>.ps<k>.w<n> without a
// testbed configuration tc, error.<case>.w<n> with one. With tc the
// throughputs are plotted ÷ its device_speed, a measurement is drawn with
// its 95% interval over repetitions, and one that does not hold its
// testbed judgement (points.arrow) is drawn apart and judges nothing;
// measured.judged.<case> and measured.unjudged.<case> count them. The
// |errors| of the judged points, with their intervals (the measurement's
// over repetitions), go to bySync (by sync) and, with tc, to byCase.
func cynthiaPredictRows(env *experiment.Env, meas, ph *dataset.Table, cycle, b float64, tc *measured.Config, res *experiment.Result, bySync, byCase *cynthiaErrors) error {
	node := cynthiamodel.Instance{Name: "testbed", CPU: 1, Bandwidth: b}
	clock, judged, unjudged := 1.0, 0, 0
	if tc != nil {
		clock = tc.DeviceSpeed
	}
	// The phase row of each (job, batch) and the 1-worker run of each
	// (model, batch, PS, sync), the last one of the file on repeats: one
	// pass over each table, not one per measured row.
	type phaseKey struct {
		job   string
		batch int64
	}
	type runKey struct {
		model, sync string
		batch, ps   int64
	}
	phaseRow, oneWorker := map[phaseKey]int{}, map[runKey]int{}
	for k := range ph.Len() {
		phaseRow[phaseKey{ph.Strings("job")[k], ph.Ints("batch")[k]}] = k
	}
	for k := range meas.Len() {
		if meas.Ints("workers")[k] == 1 {
			oneWorker[runKey{meas.Strings("model")[k], meas.Strings("sync")[k], meas.Ints("batch")[k], meas.Ints("ps")[k]}] = k
		}
	}
	for i := range meas.Len() {
		model, batch, n, ps, syncName := meas.Strings("model")[i], meas.Ints("batch")[i], int(meas.Ints("workers")[i]), int(meas.Ints("ps")[i]), meas.Strings("sync")[i]
		j, ok := phaseRow[phaseKey{model, batch}]
		i1, ok1 := oneWorker[runKey{model, syncName, batch, meas.Ints("ps")[i]}]
		if !ok1 {
			i1 = -1
		}
		if !ok {
			return env.Spec.Errorf([]string{"inputs", "phases"}, "no phase profile for %s at batch %d", model, batch)
		}
		prof, err := ProfileFromTestbed(meas, ph, i1, j, cycle)
		if err != nil {
			return env.Spec.Errorf([]string{"inputs", "measured"}, "%v", err)
		}
		sync, err := parseSync(syncName)
		if err != nil {
			return err
		}
		bd, err := cynthiamodel.ModelCynthia.PredictHomogeneous(prof.Workload(sync, n), cynthiamodel.Homogeneous{Instance: node, Workers: n, PS: ps, CBase: 1})
		if err != nil {
			return fmt.Errorf("%s with %d workers: %w", model, n, err)
		}
		env.CountModelWork(1)
		x, std := meas.Floats("throughput")[i], meas.Floats("throughput_std")[i]
		label := fmt.Sprintf("%s b%d %s %d PS", model, batch, syncName, ps)
		key := fmt.Sprintf("%s.b%d.%s.ps%d.w%d", model, batch, syncName, ps, n)
		if !(x > 0) {
			return env.Spec.Errorf([]string{"inputs", "measured"}, "row %d (%s, %d workers): throughput %v examples/s; a relative error needs > 0", i+1, model, n, x)
		}
		lo, hi, judges, verdict, h := x-std, x+std, true, "", 0.0
		if tc != nil {
			m := predict.Measurement{Workers: n, Throughput: x, Std: std}
			label, key, h = tc.Name, fmt.Sprintf("%s.w%d", tc.Name, n), tc.CI(n)
			lo, hi = tc.Range(m)
			judges, verdict = tc.Judges(n)
		}
		series := label + " measured"
		if !judges {
			series = fmt.Sprintf("%s measured: %s", label, verdict)
			res.Note("%s: measured W = %d: testbed verdict %q (points.arrow), drawn apart, judges no model", label, n, verdict)
			unjudged++
		} else {
			judged++
		}
		res.PointRange(series, "measurement", dataset.Measured, float64(n), x/clock, lo/clock, hi/clock)
		re := measured.NewRelError(bd.Throughput, x, 0, h)
		res.PointError(label+" Cynthia", "cynthia", dataset.Derived, float64(n), bd.Throughput/clock, re.E)
		res.Metric("error."+key, re.E)
		if !judges {
			continue
		}
		bySync.add(syncName, re)
		if byCase != nil {
			byCase.add(tc.Name, re)
		}
	}
	if tc != nil {
		res.Metric("measured.judged."+tc.Name, float64(judged))
		res.Metric("measured.unjudged."+tc.Name, float64(unjudged))
	}
	return nil
}

// checkMeasuredWork bounds cynthia-measured's work on measRows measured
// rows and phaseRows phase rows in cases cases before any is predicted:
// indexing both tables and one evaluation per measured row (model work),
// two points and a metric per measured row, and per case a note and the
// error summaries (rows); key is the spec key of the inputs.
func checkMeasuredWork(env *experiment.Env, key []string, measRows, phaseRows, cases int) error {
	units := 2*float64(measRows) + float64(phaseRows)
	rows := 4*float64(measRows) + 8*float64(cases) + 12 // a case's judged counts and summaries, two syncs' summaries
	return env.CheckRows(key, units, rows, fmt.Sprintf("cynthia-measured: %d measured rows and %d phase rows in %d inputs", measRows, phaseRows, cases))
}
