package predict

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"

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
	// Sync is the rows' synchronization mode, "asp" or "bsp" (empty:
	// "asp").
	Sync string
	// Batch is the examples per worker (node) step, all GPUs of the node
	// together (Prediction.Batch); it must match the rows' batch.
	Batch int
	// GPUs is the GPUs per node G (Prediction.GPUs; 0 → 1). A table that
	// records another G (provenance importer.ExtraGPUsPerNode,
	// "cluster.gpus_per_node") is an error; one that records none matches.
	GPUs int
	// Servers (PS count) must match the rows' ps; with Colocated (one PS
	// shard per node) the rows' ps must equal their worker count instead.
	Servers   int
	Colocated bool
	// Transport and Order are the measurement schema's names
	// (TransportName, OrderName); a row with an empty value matches.
	Transport, Order string
}

// The provenance keys of a measurement dataset that state its cluster
// (written by engine/importer: ExtraGPUsPerNode, ExtraColocated).
const (
	extraGPUs      = "cluster.gpus_per_node"
	extraColocated = "cluster.ps_colocated"
)

// sync is q.Sync, "asp" when empty.
func (q Query) sync() string {
	if q.Sync == "" {
		return "asp"
	}
	return q.Sync
}

// String describes the cluster q asks for, as errors name it.
func (q Query) String() string {
	model := q.Model
	if model == "" {
		model = q.Prefer
	}
	batch := fmt.Sprintf("batch %d per node", q.Batch)
	if g := max(q.GPUs, 1); g > 1 {
		batch += fmt.Sprintf(" (%d per GPU × %d GPUs)", q.Batch/g, g)
	}
	ps := fmt.Sprintf("%d PS", q.Servers)
	if q.Colocated {
		ps = "PS colocated (ps = workers)"
	}
	return fmt.Sprintf("model %q, %s, %s, %s, transport %s, order %s", model, q.sync(), batch, ps, q.Transport, q.Order)
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

// SelectMeasured returns the rows of t (dataset.MeasurementSchema) that
// match q, by ascending worker count: q's sync mode, node batch and PS
// count (ps = workers when q.Colocated), transport and order (empty in
// the table: any). A table whose provenance states another GPU count per
// node or PS placement than q is an error. Two rows for one worker count,
// a throughput ≤ 0, no matching row, or several models with neither Model
// nor a present Prefer are errors that give q and what the table holds.
func SelectMeasured(t *dataset.Table, q Query) ([]Measurement, error) {
	if err := checkCluster(t, q); err != nil {
		return nil, err
	}
	model, batch, ps, sync := t.Strings("model"), t.Ints("batch"), t.Ints("ps"), t.Strings("sync")
	transport, ord, workers := t.Strings("transport"), t.Strings("order"), t.Ints("workers")
	tput, std := t.Floats("throughput"), t.Floats("throughput_std")
	byModel := map[string][]int{}
	var seen []string
	for i := range model {
		servers := int64(q.Servers)
		if q.Colocated {
			servers = workers[i]
		}
		if sync[i] != q.sync() || int(batch[i]) != q.Batch || ps[i] != servers ||
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
		return nil, fmt.Errorf("no row measures the prediction's cluster (%s); the rows are: %s", q, describe(t))
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

// checkCluster compares what t's provenance states about its cluster (GPUs
// per node, colocated PS) with q.
func checkCluster(t *dataset.Table, q Query) error {
	x := t.Provenance.Extra
	if v, ok := x[extraGPUs]; ok {
		g, err := strconv.Atoi(v)
		if err != nil || g < 1 {
			return fmt.Errorf("provenance %s = %q: want a whole number ≥ 1", extraGPUs, v)
		}
		if g != max(q.GPUs, 1) {
			return fmt.Errorf("the rows were measured on nodes of %d GPUs (%s), the prediction has %d GPUs per node (%s)", g, extraGPUs, max(q.GPUs, 1), q)
		}
	}
	if col := x[extraColocated] == "true"; col != q.Colocated {
		where := map[bool]string{true: "one PS shard on every node", false: "separate PS nodes"}
		return fmt.Errorf("the rows were measured with %s (%s), the prediction has %s (%s)", where[col], extraColocated, where[q.Colocated], q)
	}
	return nil
}

// describe lists the distinct (model, batch, ps, sync, transport, order)
// configurations of a measurement table, for error messages.
func describe(t *dataset.Table) string {
	model, batch, ps, sync := t.Strings("model"), t.Ints("batch"), t.Ints("ps"), t.Strings("sync")
	transport, order := t.Strings("transport"), t.Strings("order")
	var out []string
	for i := range model {
		s := fmt.Sprintf("%s %s batch %d %d PS %s/%s", model[i], sync[i], batch[i], ps[i], transport[i], order[i])
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
