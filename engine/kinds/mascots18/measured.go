package mascots18

import (
	"fmt"
	"math"

	"pslab/engine/dataset"
)

// measuredPoint is a measured throughput in steps/s with its standard
// deviation.
type measuredPoint struct{ steps, std float64 }

// measuredFor returns the asynchronous-SGD measurements of a profile (model
// = name, same batch) with m parameter servers, by number of workers
// (1..maxK; others are ignored). Two rows for one configuration are an
// error: the dataset must say which one to use.
func measuredFor(t *dataset.Table, prof phaseProfile, m, maxK int) (map[int]measuredPoint, error) {
	out := map[int]measuredPoint{}
	model, batch, ps, sync := t.Strings("model"), t.Ints("batch"), t.Ints("ps"), t.Strings("sync")
	workers, tp, std := t.Ints("workers"), t.Floats("throughput"), t.Floats("throughput_std")
	for i := range model {
		if model[i] != prof.Name || int(batch[i]) != prof.Batch || int(ps[i]) != m || sync[i] != "asp" {
			continue
		}
		k := int(workers[i])
		if k > maxK {
			continue
		}
		if _, dup := out[k]; dup {
			return nil, fmt.Errorf("measured: two rows for %s, batch %d, %d PS, %d workers; keep one per configuration", prof.Name, prof.Batch, m, k)
		}
		if !(tp[i] > 0) {
			return nil, fmt.Errorf("measured: row %d (%s, %d workers) has throughput %v examples/s; a prediction error needs a positive measurement", i, prof.Name, k, tp[i])
		}
		b := float64(prof.Batch)
		out[k] = measuredPoint{steps: tp[i] / b, std: std[i] / b}
	}
	return out, nil
}

// measuredErrors records, per variant, the max, mean and min relative error (%)
// over the measured worker counts, as in mascots18 Table II, and the
// number of measured points.
func (o curveOut) measuredErrors(cs curveSet, mp map[int]measuredPoint) {
	if len(mp) == 0 {
		return
	}
	id, sfx := cs.prof.ID, suffix(cs.m)
	o.res.Metric("measured_points."+id+sfx, float64(len(mp)))
	for _, k := range o.keys {
		lo, hi, sum, n := math.Inf(1), math.Inf(-1), 0.0, 0
		for _, K := range o.ks {
			pt, ok := mp[K]
			if !ok {
				continue
			}
			e := 100 * math.Abs(cs.x[k][K-1]-pt.steps) / pt.steps
			lo, hi, sum, n = math.Min(lo, e), math.Max(hi, e), sum+e, n+1
		}
		if n == 0 {
			continue
		}
		o.res.Metric(fmt.Sprintf("err_max.%s.%s%s", id, k, sfx), hi)
		o.res.Metric(fmt.Sprintf("err_mean.%s.%s%s", id, k, sfx), sum/float64(n))
		o.res.Metric(fmt.Sprintf("err_min.%s.%s%s", id, k, sfx), lo)
		o.res.Note("%s, %d PS, %s: error max %.1f%%, mean %.1f%%, min %.2f%% over %d measured worker counts", cs.prof.Label, cs.m, k, hi, sum/float64(n), lo, n)
	}
}
