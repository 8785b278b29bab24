package kinds

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strconv"

	"pslab/engine/cynthia"
	"pslab/engine/dataset"
	"pslab/engine/experiment"
)

type cynthiaMeasuredParams struct {
	// Bandwidth is b_ps of every PS in bytes/s; 0 reads the measured
	// dataset's "testbed.bandwidth_bps" metadata.
	Bandwidth float64
}

// cynthiaTestbedProfile turns a 1-worker phase profile (S^W, S^U, S^S,
// S^D in seconds, dataset.PhasesSchema) into a Cynthia workload, the way
// Cynthia profiles on one baseline worker (§3), in units where the
// profiling worker's CPU is c_base = c_wk = c_ps = 1 "FLOP/s":
//
//	w_iter = S^W (the iteration's work in profiling-worker seconds)
//	g      = (S^U + S^D)·b/2, so that Eq. 5's 2g/b is the measured transfer time
//	b_prof = 2g/cycle and c_prof = S^S/cycle, cycle = S^W+S^U+S^S+S^D
//
// b_prof counts both directions against one b_ps, as Eq. 5's 2g/b does
// (Table 4's VGG-19 b_prof ≈ 2g/t_iter). For BSP the testbed's batch is per
// worker (weak scaling) while Eq. 4 splits a global batch (C-11), so
// workload(n) uses w_iter = n·S^W and a global batch of n·batch.
type cynthiaTestbedProfile struct {
	sw, g, bProf, cProf float64
	batch               int64
}

func testbedProfile(ph *dataset.Table, row int, b float64) (cynthiaTestbedProfile, error) {
	sw, su, ss, sd := ph.Floats("s_w")[row], ph.Floats("s_u")[row], ph.Floats("s_s")[row], ph.Floats("s_d")[row]
	cycle := sw + su + ss + sd
	if !(sw > 0) || !(cycle > 0) {
		return cynthiaTestbedProfile{}, fmt.Errorf("phases of %q: S^W = %v s and the cycle %v s must be > 0", ph.Strings("job")[row], sw, cycle)
	}
	g := (su + sd) * b / 2
	return cynthiaTestbedProfile{sw: sw, g: g, bProf: 2 * g / cycle, cProf: ss / cycle, batch: ph.Ints("batch")[row]}, nil
}

func (p cynthiaTestbedProfile) workload(sync cynthia.Sync, n int) cynthia.Workload {
	w := cynthia.Workload{Name: "testbed", WIter: p.sw, GParam: p.g, CProf: p.cProf, BProf: p.bProf, Sync: sync, Batch: int(p.batch)}
	if sync == cynthia.BSP {
		w.WIter *= float64(n)
		w.Batch *= n
	}
	return w
}

// cynthiaMeasured predicts measured throughputs (input measured,
// dataset.MeasurementSchema, sync asp or bsp) with Cynthia's model from the
// 1-worker phase profile of the same model and batch (input phases), and
// records the relative error of every point and its mean and maximum per
// sync mechanism.
func cynthiaMeasured(_ context.Context, env *experiment.Env) (*experiment.Result, error) {
	var p cynthiaMeasuredParams
	if err := env.Params(&p); err != nil {
		return nil, err
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
	node := cynthia.Instance{Name: "testbed", CPU: 1, Bandwidth: b}
	res := experiment.NewResult()
	sum, worst, count := map[string]float64{}, map[string]float64{}, map[string]int{}
	for i := range meas.Len() {
		model, batch, n, ps, syncName := meas.Strings("model")[i], meas.Ints("batch")[i], int(meas.Ints("workers")[i]), int(meas.Ints("ps")[i]), meas.Strings("sync")[i]
		j := -1
		for k := range ph.Len() {
			if ph.Strings("job")[k] == model && ph.Ints("batch")[k] == batch {
				j = k
			}
		}
		if j < 0 {
			return nil, env.Spec.Errorf([]string{"inputs", "phases"}, "no phase profile for %s at batch %d", model, batch)
		}
		prof, err := testbedProfile(ph, j, b)
		if err != nil {
			return nil, env.Spec.Errorf([]string{"inputs", "phases"}, "%v", err)
		}
		sync, err := parseSync(syncName)
		if err != nil {
			return nil, err
		}
		bd, err := cynthia.ModelCynthia.PredictHomogeneous(prof.workload(sync, n), cynthia.Homogeneous{Instance: node, Workers: n, PS: ps, CBase: 1})
		if err != nil {
			return nil, fmt.Errorf("%s with %d workers: %w", model, n, err)
		}
		x, std := meas.Floats("throughput")[i], meas.Floats("throughput_std")[i]
		label := fmt.Sprintf("%s b%d %s %d PS", model, batch, syncName, ps)
		res.PointRange(label+" measured", "measurement", dataset.Measured, float64(n), x, x-std, x+std)
		rel := 0.0
		if x > 0 {
			rel = (bd.Throughput - x) / x
		}
		res.PointError(label+" Cynthia", "cynthia", dataset.Derived, float64(n), bd.Throughput, rel)
		res.Metric(fmt.Sprintf("error.%s.b%d.%s.ps%d.w%d", model, batch, syncName, ps, n), rel)
		sum[syncName] += math.Abs(rel)
		worst[syncName] = math.Max(worst[syncName], math.Abs(rel))
		count[syncName]++
	}
	syncs := make([]string, 0, len(count))
	for s := range count {
		syncs = append(syncs, s)
	}
	sort.Strings(syncs)
	for _, s := range syncs {
		res.Metric("mean_abs_error."+s, sum[s]/float64(count[s]))
		res.Metric("max_abs_error."+s, worst[s])
		res.Note("%s: mean |error| %.1f%%, max %.1f%% over %d points", s, 100*sum[s]/float64(count[s]), 100*worst[s], count[s])
	}
	res.Note("Cynthia profile from the 1-worker phases: w_iter = S^W, 2g/b = S^U + S^D, b_prof = 2g/cycle, c_prof = S^S/cycle (c = 1), b_ps = %.4g bytes/s", b)
	return res, nil
}
