package zhang

import (
	"context"
	"fmt"
	"slices"
	"strconv"

	"pslab/engine/dataset"
	"pslab/engine/experiment"
	"pslab/engine/measured"
	"pslab/engine/syncps"
)

// zhangTestbedDataset is one [[params.dataset]]: a measured BSP testbed
// configuration directory (an input) and the DNN label it is drawn under.
type zhangTestbedDataset struct {
	Input string
	DNN   string `toml:"dnn"`
}

type zhangTestbedParams struct {
	Datasets []zhangTestbedDataset `toml:"dataset"`
	// Profiles maps a DNN name of the testbed metadata to the input
	// holding the per-layer profile the testbed emulated.
	Profiles map[string]string
	// Constants are zhang's unprinted constants (CATALOGUE Z-10).
	Constants Constants
	// Ratio names two DNN labels, [numerator, denominator], whose
	// iteration-time ratio is recorded at every measured bandwidth,
	// predicted and measured.
	Ratio []string
}

// zhangTestbedPoint is one predicted and measured BSP configuration.
type zhangTestbedPoint struct {
	dnn            string
	gbit           float64 // emulated link bandwidth, Gbit/s
	pred, measured float64 // iteration time on the emulated cluster, s
	// judges is whether the measurement holds its testbed judgement
	// (measured.Config.Judges); err is the relative error of pred with
	// the measurement's 95% interval over repetitions.
	judges bool
	err    measured.RelError
}

// emulatedGbit is the NIC bandwidth of the cluster a testbed configuration
// emulates (Gbit/s, 3 significant digits): B/(bytes_scale·device_speed)
// (engine/testbed, "Scale factors").
func emulatedGbit(c *measured.Config) float64 {
	g := c.Bandwidth / (c.BytesScale * c.DeviceSpeed) * 8 / 1e9
	v, _ := strconv.ParseFloat(strconv.FormatFloat(g, 'g', 3, 64), 64)
	return v
}

// zhangTestbedIterationTime predicts the iteration time of every measured
// BSP testbed configuration (params.dataset) with zhang's model configured
// as the testbed ran: its W and PS count, its bandwidth (throughput.arrow
// metadata), the emulated PipeDream profile mapped as the testbed maps it
// (measured.SyncPSLayers: bytes × bytes_scale, compute × batch/profile batch ÷
// device_speed; checked against the bytes the testbed sent) and the
// constants of params.constants. The measured iteration time is
// W·batch/throughput, the throughput being the mean over repetitions of
// the time-averaged throughput over the last steps (engine/testbed).
// Both are reported on the emulated cluster's clock (× device_speed) at
// its bandwidth E = B/(bytes_scale·device_speed) (emulatedGbit), so that
// configurations run at one B with different scale factors are told apart.
// The optional sweep (emulated bandwidth in Gbit/s) draws each DNN's curve
// with the layers and scale factors of its configurations, which must then
// agree: the testbed's B at sweep point E is E·bytes_scale·device_speed.
// They must agree because zhang's per-message constants (t_base-delay, a,
// σ) are real testbed seconds and its Eq. 10 rounds every layer up to whole
// packets of the testbed's scaled bytes: neither scales with
// bytes_scale·device_speed, so a curve drawn with one configuration's scale
// factors misses the prediction at another's. Without a sweep each
// configuration's prediction is drawn at its own E. A note per
// configuration records the packet rounding: Σ⌈bytes/pks⌉·pks against the
// parameter bytes.
//
// A measurement is drawn with its 95% interval over repetitions
// (points.arrow; ± one standard deviation without it); one that does not
// hold its testbed judgement is drawn apart and left out of mean_error and
// max_error.
//
// Metrics: iter_s.<dnn>.gbit<E> (predicted), measured_iter_s.<dnn>.gbit<E>,
// error.<dnn>.gbit<E> (signed (pred − measured)/measured), mean_error (with
// its 95% interval: the mean of the judged points' interval ends, every
// point at its worst together) and max_error (of |error|) over the judged
// points, measured.judged and measured.unjudged (how many points hold
// their testbed judgement and how many do not), and with params.ratio
// (over every point, judged or not) ratio.<a>_<b>.<predicted|
// measured>.gbit<E> and ratio_change.<a>_<b>.<predicted|measured> (ratio at
// the lowest over the ratio at the highest measured bandwidth).
func zhangTestbedIterationTime(_ context.Context, env *experiment.Env) (*experiment.Result, error) {
	p := zhangTestbedParams{Constants: UnsetConstants()}
	if err := env.Params(&p); err != nil {
		return nil, err
	}
	if len(p.Datasets) == 0 {
		return nil, env.Errorf("dataset", "no [[params.dataset]]")
	}
	sweep := env.Spec.Sweep.Points()
	if len(sweep) > 0 {
		if err := env.PositiveList("sweep", sweep); err != nil {
			return nil, err
		}
	}
	base, err := p.Constants.Config(env)
	if err != nil {
		return nil, err
	}
	res := experiment.NewResult()
	curveOf := map[string]zhangTestbedCurve{}
	var dnns []string
	var pts []zhangTestbedPoint
	// Every configuration is read and checked before any is predicted,
	// so that the work of all of them is bounded first.
	type loadedDS struct {
		d      zhangTestbedDataset
		c      *measured.Config
		layers []syncps.Layer
	}
	var all []loadedDS
	for i, d := range p.Datasets {
		if d.Input == "" || d.DNN == "" {
			return nil, env.Errorf("dataset", "dataset %d: input and dnn must be set", i+1)
		}
		c, err := measured.Load(env, d.Input)
		if err != nil {
			return nil, err
		}
		if c.Sync != "bsp" {
			return nil, env.Errorf("dataset", "dataset %q: sync %q, zhang models BSP only", d.Input, c.Sync)
		}
		input, ok := p.Profiles[c.Model]
		if !ok {
			return nil, env.Errorf("profiles", "no per-layer profile input for DNN %q (dataset %s)", c.Model, d.Input)
		}
		pr, err := measured.Profile(env, input)
		if err != nil {
			return nil, err
		}
		layers, err := measured.SyncPSLayers(pr, c.Batch, c.BytesScale, c.DeviceSpeed)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", d.Input, err)
		}
		if err := measured.CheckBytes(c, layers); err != nil {
			return nil, fmt.Errorf("%s: %w", d.Input, err)
		}
		cur := zhangTestbedCurve{layers: layers, workers: c.Meas[0].Workers, servers: c.Servers, scale: c.BytesScale * c.DeviceSpeed, speed: c.DeviceSpeed, input: d.Input}
		if prev, ok := curveOf[d.DNN]; !ok {
			dnns = append(dnns, d.DNN)
			curveOf[d.DNN] = cur
		} else if len(sweep) > 0 && (!slices.Equal(prev.layers, layers) || prev.workers != cur.workers || prev.servers != cur.servers ||
			prev.scale != cur.scale || prev.speed != cur.speed || len(c.Meas) != 1) {
			// Per-message costs and zhang's whole-packet rounding do not
			// scale with bytes_scale·device_speed, so one curve would not
			// pass through this configuration's own prediction.
			return nil, env.Errorf("dataset", "dataset %q: DNN %q has configurations with different layers, workers, PS or scale factors, so one sweep curve cannot draw them: drop the sweep", d.Input, d.DNN)
		}
		all = append(all, loadedDS{d, c, layers})
	}
	var units, rows float64
	for _, l := range all {
		units += float64(len(l.c.Meas)) * PredictWork(base.Iterations, len(l.layers))
		rows += 9*float64(len(l.c.Meas)) + 1 // two points, three metrics, a note, a ratio's three lines
	}
	for _, name := range dnns {
		units += float64(len(sweep)) * PredictWork(base.Iterations, len(curveOf[name].layers))
		rows += float64(len(sweep)) + 1
	}
	if err := checkPredictions(env, []string{"params", "dataset"}, units, rows+12,
		fmt.Sprintf("%d configurations and %d DNNs × %d swept bandwidths, %d iterations", len(all), len(dnns), len(sweep), base.Iterations)); err != nil {
		return nil, err
	}
	for _, l := range all {
		d, c, layers := l.d, l.c, l.layers
		cfg := base
		cfg.Layers, cfg.Servers, cfg.Bandwidth = layers, c.Servers, c.Bandwidth
		mbit, gbit, d0 := c.Bandwidth*8/1e6, emulatedGbit(c), c.DeviceSpeed
		paid, sent, small := packetRounding(layers, cfg.PacketSize)
		res.Note("%s: Eq. 10 charges whole %g-byte packets: %.3f MB per worker and direction for %.3f MB of parameters (×%.2f; %d of %d parameter layers under one packet)",
			d.Input, cfg.PacketSize, paid/1e6, sent/1e6, paid/sent, small, countParamLayers(layers))
		for _, m := range c.Meas {
			cfg.Workers = m.Workers
			pt, err := Predict(env, cfg)
			if err != nil {
				return nil, fmt.Errorf("%s: zhang with %d workers: %w", d.Input, m.Workers, err)
			}
			meas := float64(m.Workers*c.Batch) / m.Throughput
			judges, verdict := c.Judges(m.Workers)
			// The iteration time, W·batch/throughput, has the throughput's
			// relative 95% half-width over repetitions to first order.
			re := measured.NewRelError(pt.IterationTime, meas, 0, c.CI(m.Workers))
			rel := re.E
			pts = append(pts, zhangTestbedPoint{dnn: d.DNN, gbit: gbit, pred: d0 * pt.IterationTime, measured: d0 * meas, judges: judges, err: re})
			key := fmt.Sprintf("%s.gbit%g", experiment.MetricKey(d.DNN), gbit)
			if m.Workers != 3 || c.Servers != 1 {
				key = fmt.Sprintf("%s.w%d.ps%d", key, m.Workers, c.Servers)
			}
			xLo, xHi := c.Range(m)
			lo, hi := float64(m.Workers*c.Batch)/xHi, meas
			if xLo > 0 {
				hi = float64(m.Workers*c.Batch) / xLo
			}
			series := d.DNN + " measured"
			if !judges {
				series = fmt.Sprintf("%s measured: %s", d.DNN, verdict)
				res.Note("%s: measured W = %d: testbed verdict %q (points.arrow), drawn apart, judges no model", d.Input, m.Workers, verdict)
			}
			res.PointRange(series, "measurement", dataset.Measured, gbit, d0*meas, d0*lo, d0*hi)
			if len(sweep) == 0 {
				res.PointError(d.DNN+" zhang", "zhang", dataset.Derived, gbit, d0*pt.IterationTime, rel)
			}
			res.Metric("iter_s."+key, d0*pt.IterationTime)
			res.Metric("measured_iter_s."+key, d0*meas)
			res.Metric("error."+key, rel)
			res.Note("%s (%s, W = %d, %d PS, testbed %g Mbit/s emulating %g Gbit/s at device_speed %g, batch %d, %.3f MB sent, %.2f ms compute; testbed clock): zhang %.2f ms = compute %.2f + exposed FC/BC %.2f + aggregation %.2f + stragglers %.2f; measured %.2f ms; error %+.1f%%",
				d.Input, d.DNN, m.Workers, c.Servers, mbit, gbit, d0, c.Batch, float64(Model{Layers: layers}.ParamBytes())/1e6, 1e3*Model{Layers: layers}.ComputeSeconds(),
				1e3*pt.IterationTime, 1e3*pt.Compute, 1e3*pt.ExposedComm, 1e3*pt.Aggregation, 1e3*pt.Straggler, 1e3*meas, 100*rel)
		}
	}
	if len(sweep) > 0 {
		if err := zhangTestbedCurves(env, base, sweep, dnns, curveOf, res); err != nil {
			return nil, err
		}
	}
	var abs measured.AbsErrors
	for _, q := range pts {
		if q.judges {
			abs.Add(q.err)
		}
	}
	res.Metric("measured.judged", float64(abs.N))
	res.Metric("measured.unjudged", float64(len(pts)-abs.N))
	if abs.N > 0 {
		mean, lo, hi := abs.Mean()
		res.MetricInterval("mean_error", mean, lo, hi)
		res.Metric("max_error", abs.Max)
		res.Note("measured: %d BSP points, %d of them judged (holding their testbed judgement): mean |relative error| of the iteration time %.1f%% [%.1f%%, %.1f%%], max %.1f%%",
			len(pts), abs.N, 100*mean, 100*lo, 100*hi, 100*abs.Max)
	}
	if len(p.Ratio) == 0 {
		return res, nil
	}
	return res, zhangTestbedRatios(env, p, pts, res)
}

// packetRounding returns the bytes zhang's Eq. 10 charges one worker per
// direction, Σ ⌈bytes/pks⌉·pks over the layers, the parameter bytes
// themselves, and how many parameter layers are smaller than one packet.
func packetRounding(layers []syncps.Layer, pks float64) (paid, sent float64, small int) {
	for _, l := range layers {
		if l.ParamBytes > 0 {
			paid += float64(syncps.Packets(l.ParamBytes, pks)) * pks
			sent += float64(l.ParamBytes)
			if float64(l.ParamBytes) < pks {
				small++
			}
		}
	}
	return paid, sent, small
}

// countParamLayers counts the layers with parameters.
func countParamLayers(layers []syncps.Layer) int {
	n := 0
	for _, l := range layers {
		if l.ParamBytes > 0 {
			n++
		}
	}
	return n
}

// zhangTestbedCurve is what draws one DNN's predicted curve: the testbed's
// layers and cluster of its configurations (the first is input), their
// bytes_scale·device_speed (scale) and device_speed (speed).
type zhangTestbedCurve struct {
	layers           []syncps.Layer
	workers, servers int
	scale, speed     float64
	input            string
}

// zhangTestbedCurves draws each DNN's predicted iteration time (emulated
// s) at the sweep's emulated bandwidths (Gbit/s), the testbed run at
// B = E·scale with the layers of its first configuration.
func zhangTestbedCurves(env *experiment.Env, base syncps.Config, sweep []float64, dnns []string, curveOf map[string]zhangTestbedCurve, res *experiment.Result) error {
	for _, name := range dnns {
		cv := curveOf[name]
		cfg := base
		cfg.Layers, cfg.Workers, cfg.Servers = cv.layers, cv.workers, cv.servers
		for _, gbit := range sweep {
			cfg.Bandwidth = gbit * 1e9 / 8 * cv.scale
			pt, err := Predict(env, cfg)
			if err != nil {
				return fmt.Errorf("%s at %g Gbit/s: %w", name, gbit, err)
			}
			res.Point(name+" zhang", "zhang", dataset.Derived, gbit, cv.speed*pt.IterationTime)
		}
		res.Note("%s zhang curve: the scale factors of %s (testbed B = E × %.3g)", name, cv.input, cv.scale)
	}
	return nil
}

// zhangTestbedRatios records the iteration-time ratio of the two DNNs of
// params.ratio, predicted and measured, at every bandwidth both were
// measured at, and its change from the lowest to the highest bandwidth.
func zhangTestbedRatios(env *experiment.Env, p zhangTestbedParams, pts []zhangTestbedPoint, res *experiment.Result) error {
	if len(p.Ratio) != 2 {
		return env.Errorf("ratio", "ratio names two DNN labels [numerator, denominator], got %d", len(p.Ratio))
	}
	find := func(dnn string, gbit float64) (zhangTestbedPoint, bool) {
		i := slices.IndexFunc(pts, func(q zhangTestbedPoint) bool { return q.dnn == dnn && q.gbit == gbit })
		if i < 0 {
			return zhangTestbedPoint{}, false
		}
		return pts[i], true
	}
	var bws []float64
	for _, q := range pts {
		if q.dnn == p.Ratio[0] {
			if _, ok := find(p.Ratio[1], q.gbit); ok {
				bws = append(bws, q.gbit)
			}
		}
	}
	slices.Sort(bws)
	bws = slices.Compact(bws)
	if len(bws) < 2 {
		return env.Errorf("ratio", "ratio %v: the two DNNs share %d measured bandwidths, need ≥ 2", p.Ratio, len(bws))
	}
	key := experiment.MetricKey(p.Ratio[0]) + "_" + experiment.MetricKey(p.Ratio[1])
	var first, last [2]float64
	for i, bw := range bws {
		a, _ := find(p.Ratio[0], bw)
		b, _ := find(p.Ratio[1], bw)
		r := [2]float64{a.pred / b.pred, a.measured / b.measured}
		res.Metric(fmt.Sprintf("ratio.%s.predicted.gbit%g", key, bw), r[0])
		res.Metric(fmt.Sprintf("ratio.%s.measured.gbit%g", key, bw), r[1])
		res.Note("%s / %s iteration time at %g Gbit/s (emulated): predicted %.3f, measured %.3f", p.Ratio[0], p.Ratio[1], bw, r[0], r[1])
		if i == 0 {
			first = r
		}
		last = r
	}
	res.Metric("ratio_change."+key+".predicted", first[0]/last[0])
	res.Metric("ratio_change."+key+".measured", first[1]/last[1])
	return nil
}
