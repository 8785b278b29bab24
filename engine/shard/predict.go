package shard

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"pslab/engine/atomicfile"
	"pslab/engine/predict"
)

// PartsName is the file of a predict shard's predictions in its directory.
const PartsName = "predict.gob"

// WorkersAt returns the worker counts of bandwidth j (0-based) that s
// owns, in order, for a sweep of workers at each of several bandwidths:
// point k = j·len(workers) + w's index. It returns nil when s owns none.
func (s Spec) WorkersAt(j int, workers []int) []int {
	var out []int
	for i, w := range workers {
		if s.Owns(j*len(workers) + i) {
			out = append(out, w)
		}
	}
	return out
}

// Part is the prediction of one shard at one bandwidth of a sweep: every
// model at the worker counts the shard owns there.
type Part struct {
	Bandwidth  int // index into the sweep's bandwidths
	Prediction *predict.Prediction
}

// WriteParts writes the parts as dir/predict.gob (gob keeps every float64
// bit, ±Inf and NaN included), atomically.
func WriteParts(dir string, parts []Part) error {
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(parts); err != nil {
		return fmt.Errorf("shard: %w", err)
	}
	return atomicfile.Write(filepath.Join(dir, PartsName), buf.Bytes())
}

// ReadParts reads the parts a shard wrote in m.Dir.
func ReadParts(m *Meta) ([]Part, error) {
	b, err := os.ReadFile(filepath.Join(m.Dir, PartsName))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", m.Name(), err)
	}
	return ParseParts(b, m.Name()+": "+PartsName)
}

// ParseParts decodes the parts of predict.gob's bytes b, checking that
// each holds a prediction with one entry per worker count in every
// per-worker slice (a part is read from another machine); errors start
// with name.
func ParseParts(b []byte, name string) ([]Part, error) {
	var parts []Part
	if err := gob.NewDecoder(bytes.NewReader(b)).Decode(&parts); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	for i, pt := range parts {
		if pt.Prediction == nil {
			return nil, fmt.Errorf("%s: part %d: no prediction", name, i)
		}
		if err := checkPart(pt.Prediction); err != nil {
			return nil, fmt.Errorf("%s: part %d: %w", name, i, err)
		}
	}
	return parts, nil
}

// JoinPredictions joins the parts of every shard into the predictions of
// the whole sweep: one per bandwidth (nbw of them), each at every worker
// count in workers. Per-point values (curves, simulator runs) are taken
// from the part that owns the point; the rest (coarse inputs, link bound,
// notes) is the same in every part of a bandwidth and is taken from the
// first. It is an error when a point is missing or given twice.
func JoinPredictions(nbw int, workers []int, parts []Part) ([]*predict.Prediction, error) {
	out := make([]*predict.Prediction, nbw)
	for _, pt := range parts {
		if pt.Bandwidth < 0 || pt.Bandwidth >= nbw || pt.Prediction == nil {
			return nil, fmt.Errorf("shard: part for bandwidth %d of %d", pt.Bandwidth, nbw)
		}
		p, q := out[pt.Bandwidth], pt.Prediction
		if p == nil {
			c := *q
			c.Workers, c.Sim, c.Estimates = nil, nil, nil
			c.Curves = make([]predict.Curve, len(q.Curves))
			for i, cv := range q.Curves {
				c.Curves[i] = predict.Curve{Model: cv.Model}
			}
			p, out[pt.Bandwidth] = &c, &c
		}
		if len(q.Curves) != len(p.Curves) {
			return nil, fmt.Errorf("shard: bandwidth %d: the parts predicted different models", pt.Bandwidth)
		}
		if err := checkPart(q); err != nil {
			return nil, fmt.Errorf("shard: bandwidth %d: %w", pt.Bandwidth, err)
		}
		for i, w := range q.Workers {
			if slices.Contains(p.Workers, w) {
				return nil, fmt.Errorf("shard: bandwidth %d, W = %d predicted twice", pt.Bandwidth, w)
			}
			p.Workers = append(p.Workers, w)
			for m := range p.Curves {
				if q.Curves[m].Model != p.Curves[m].Model {
					return nil, fmt.Errorf("shard: bandwidth %d: the parts predicted different models", pt.Bandwidth)
				}
				appendPoint(&p.Curves[m], &q.Curves[m], i)
			}
			if len(q.Sim) > 0 {
				p.Sim = append(p.Sim, q.Sim[i])
			}
			if len(q.Estimates) > 0 {
				p.Estimates = append(p.Estimates, q.Estimates[i])
			}
		}
	}
	for j, p := range out {
		if p == nil {
			return nil, fmt.Errorf("shard: no part predicted bandwidth %d", j)
		}
		sortByWorkers(p)
		if !slices.Equal(p.Workers, workers) {
			return nil, fmt.Errorf("shard: bandwidth %d: the parts predicted W = %v, want %v", j, p.Workers, workers)
		}
	}
	return out, nil
}

// sortByWorkers orders p's per-point values by ascending W.
func sortByWorkers(p *predict.Prediction) {
	idx := make([]int, len(p.Workers))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return p.Workers[a] - p.Workers[b] })
	p.Workers = permute(p.Workers, idx)
	for m := range p.Curves {
		c := &p.Curves[m]
		c.Throughput = permute(c.Throughput, idx)
		if c.Lo != nil {
			c.Lo, c.Hi, c.Converged = permute(c.Lo, idx), permute(c.Hi, idx), permute(c.Converged, idx)
			c.Replications, c.Steps, c.Modes = permute(c.Replications, idx), permute(c.Steps, idx), permute(c.Modes, idx)
		}
	}
	if len(p.Sim) > 0 {
		p.Sim = permute(p.Sim, idx)
	}
	if len(p.Estimates) > 0 {
		p.Estimates = permute(p.Estimates, idx)
	}
}

// permute returns x reordered so that element i is x[idx[i]].
func permute[T any](x []T, idx []int) []T {
	y := make([]T, len(x))
	for i, k := range idx {
		y[i] = x[k]
	}
	return y
}

// checkPart refuses a part whose per-worker slices do not all have one
// entry per worker count (a part is read from another machine).
func checkPart(q *predict.Prediction) error {
	n := len(q.Workers)
	bad := func(what string, k int) error {
		return fmt.Errorf("the part has %d worker counts but %d %s", n, k, what)
	}
	if len(q.Sim) > 0 && len(q.Sim) != n {
		return bad("simulator runs", len(q.Sim))
	}
	if len(q.Estimates) > 0 && len(q.Estimates) != n {
		return bad("simulator estimates", len(q.Estimates))
	}
	for _, c := range q.Curves {
		if len(c.Throughput) != n {
			return bad(string(c.Model)+" throughputs", len(c.Throughput))
		}
		if c.Lo == nil {
			continue
		}
		for _, k := range []int{len(c.Lo), len(c.Hi), len(c.Converged), len(c.Replications), len(c.Steps), len(c.Modes)} {
			if k != n {
				return bad(string(c.Model)+" interval entries", k)
			}
		}
	}
	return nil
}

// appendPoint appends point i of q to c: its throughput and, for the
// simulator's converged estimates, its interval and how it was obtained.
func appendPoint(c, q *predict.Curve, i int) {
	c.Throughput = append(c.Throughput, q.Throughput[i])
	if q.Lo == nil {
		return
	}
	c.Lo, c.Hi = append(c.Lo, q.Lo[i]), append(c.Hi, q.Hi[i])
	c.Converged = append(c.Converged, q.Converged[i])
	c.Replications, c.Steps = append(c.Replications, q.Replications[i]), append(c.Steps, q.Steps[i])
	c.Modes = append(c.Modes, q.Modes[i])
}
