package predict

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"pslab/engine/dataset"
	"pslab/engine/sim"
)

// Measurement is one measured configuration.
type Measurement struct {
	Workers int `json:"workers"`
	// Throughput and Std are the measured mean and its standard
	// deviation, examples/s.
	Throughput float64 `json:"throughput_examples_per_s"`
	Std        float64 `json:"throughput_std_examples_per_s"`
}

// Query selects the rows of a dataset.MeasurementSchema table that measure
// the cluster of a prediction.
type Query struct {
	// Model is the DNN name the rows must carry; empty accepts the one
	// model of the matching rows, or Prefer when they name several.
	Model, Prefer string
	// Batch (examples) and Servers (PS count) must match.
	Batch, Servers int
	// Transport and Order are the measurement schema's names
	// (TransportName, OrderName); a row with an empty value matches.
	Transport, Order string
}

// TransportName is the measurement schema's name of a link mode:
// "multiplexed" (HTTP/2 flow control on) or "ordered" (off).
func TransportName(m sim.Mode) string {
	if m == sim.WholeStream {
		return "ordered"
	}
	return "multiplexed"
}

// OrderName is the measurement schema's name of a stream order: default
// (FIFO), tic, reverse (reverse TIC) or random.
func OrderName(o sim.Order) string {
	switch o {
	case sim.TIC:
		return "tic"
	case sim.ReverseTIC:
		return "reverse"
	case sim.Random:
		return "random"
	}
	return "default"
}

// ParseTransport parses a measurement schema transport name (or the
// simulator's: multiplex, whole).
func ParseTransport(s string) (sim.Mode, error) {
	switch s {
	case "multiplexed", "multiplex":
		return sim.Multiplex, nil
	case "ordered", "whole":
		return sim.WholeStream, nil
	}
	return 0, fmt.Errorf("transport %q (want multiplexed or ordered)", s)
}

// ParseOrder parses a measurement schema order name (or the simulator's:
// fifo, reverse-tic).
func ParseOrder(s string) (sim.Order, error) {
	switch s {
	case "default", "fifo":
		return sim.FIFO, nil
	case "tic":
		return sim.TIC, nil
	case "reverse", "reverse-tic":
		return sim.ReverseTIC, nil
	case "random":
		return sim.Random, nil
	}
	return 0, fmt.Errorf("order %q (want default, tic, reverse or random)", s)
}

// SelectMeasured returns the asp rows of t (dataset.MeasurementSchema) that
// match q, by ascending worker count. Two rows for one worker count, a
// throughput ≤ 0, no matching row, or several models with neither Model nor
// a present Prefer are errors that say what the table holds.
func SelectMeasured(t *dataset.Table, q Query) ([]Measurement, error) {
	model, batch, ps, sync := t.Strings("model"), t.Ints("batch"), t.Ints("ps"), t.Strings("sync")
	transport, ord, workers := t.Strings("transport"), t.Strings("order"), t.Ints("workers")
	tput, std := t.Floats("throughput"), t.Floats("throughput_std")
	byModel := map[string][]int{}
	var seen []string
	for i := range model {
		if sync[i] != "asp" || int(batch[i]) != q.Batch || int(ps[i]) != q.Servers ||
			(transport[i] != "" && transport[i] != q.Transport) || (ord[i] != "" && ord[i] != q.Order) {
			continue
		}
		if q.Model != "" && model[i] != q.Model {
			continue
		}
		if _, ok := byModel[model[i]]; !ok {
			seen = append(seen, model[i])
		}
		byModel[model[i]] = append(byModel[model[i]], i)
	}
	sort.Strings(seen)
	var rows []int
	switch {
	case len(seen) == 0:
		return nil, fmt.Errorf("no asp row with model %q, batch %d, %d PS, transport %s, order %s (the table has %s)",
			q.Model, q.Batch, q.Servers, q.Transport, q.Order, describe(t))
	case len(seen) == 1:
		rows = byModel[seen[0]]
	case slices.Contains(seen, q.Prefer):
		rows = byModel[q.Prefer]
	default:
		return nil, fmt.Errorf("rows of several models %v match batch %d and %d PS; name one", seen, q.Batch, q.Servers)
	}
	var out []Measurement
	for _, i := range rows {
		w := int(workers[i])
		if !(tput[i] > 0) || math.IsInf(tput[i], 0) {
			return nil, fmt.Errorf("row %d (%s, %d workers): throughput %v examples/s; a relative error needs > 0", i+1, model[i], w, tput[i])
		}
		if slices.ContainsFunc(out, func(m Measurement) bool { return m.Workers == w }) {
			return nil, fmt.Errorf("two rows for %s with %d workers (batch %d, %d PS); keep one per configuration", model[i], w, q.Batch, q.Servers)
		}
		out = append(out, Measurement{Workers: w, Throughput: tput[i], Std: std[i]})
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Workers < out[b].Workers })
	return out, nil
}

// describe lists the distinct (model, batch, ps, sync, transport, order)
// configurations of a measurement table, for error messages.
func describe(t *dataset.Table) string {
	model, batch, ps, sync := t.Strings("model"), t.Ints("batch"), t.Ints("ps"), t.Strings("sync")
	transport, order := t.Strings("transport"), t.Strings("order")
	var out []string
	for i := range model {
		s := fmt.Sprintf("%s batch %d %d PS %s %s/%s", model[i], batch[i], ps[i], sync[i], transport[i], order[i])
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return "no rows"
	}
	return fmt.Sprint(out)
}

// ModelError is one model's error against measurements.
type ModelError struct {
	Model Model
	// Workers are the measured worker counts that were predicted; Rel the
	// signed relative error (predicted − measured)/measured at each.
	Workers []int
	Rel     []float64
	// MeanAbs and MaxAbs are the mean and largest |Rel| (fractions).
	MeanAbs, MaxAbs float64
}

// Errors compares every curve of p with the measurements ms at the worker
// counts both have. missing lists the measured worker counts p did not
// predict. A curve is left out when no worker count is shared.
func (p *Prediction) Errors(ms []Measurement) (errs []ModelError, missing []int) {
	at := map[int]int{}
	for i, w := range p.Workers {
		at[w] = i
	}
	for _, m := range ms {
		if _, ok := at[m.Workers]; !ok {
			missing = append(missing, m.Workers)
		}
	}
	for _, c := range p.Curves {
		e := ModelError{Model: c.Model}
		for _, m := range ms {
			i, ok := at[m.Workers]
			if !ok {
				continue
			}
			r := (c.Throughput[i] - m.Throughput) / m.Throughput
			e.Workers, e.Rel = append(e.Workers, m.Workers), append(e.Rel, r)
			e.MeanAbs += math.Abs(r)
			e.MaxAbs = math.Max(e.MaxAbs, math.Abs(r))
		}
		if len(e.Rel) == 0 {
			continue
		}
		e.MeanAbs /= float64(len(e.Rel))
		errs = append(errs, e)
	}
	return errs, missing
}
