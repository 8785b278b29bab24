package experiment

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"sort"
	"sync/atomic"

	"github.com/apache/arrow/go/v17/arrow/memory"

	"pslab/engine/dataset"
	"pslab/engine/sim"
)

// RunFunc computes an experiment's result.
type RunFunc func(ctx context.Context, env *Env) (*Result, error)

// Kind is a kind of experiment: the Go function behind the `kind` key.
type Kind struct {
	Run RunFunc
	// Models lists the model names the kind accepts in Spec.Models; a spec
	// naming another model is an error.
	Models []string
	// Doc says what the kind computes.
	Doc string
}

// Registry maps kind names to kinds. Build it as one map literal.
type Registry map[string]Kind

// Names returns the kind names in order.
func (r Registry) Names() []string {
	out := make([]string, 0, len(r))
	for k := range r {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Resolve returns the kind of s, checking that its models are known.
func (r Registry) Resolve(s *Spec) (Kind, error) {
	k, ok := r[s.Kind]
	if !ok {
		return Kind{}, s.Errorf([]string{"kind"}, "unknown kind %q (known: %v)", s.Kind, r.Names())
	}
	for _, m := range s.Models {
		if !slices.Contains(k.Models, m) {
			return Kind{}, s.Errorf([]string{"models"}, "kind %q has no model %q (known: %v)", s.Kind, m, k.Models)
		}
	}
	return k, nil
}

// Env is what a RunFunc gets.
type Env struct {
	Spec *Spec
	// Root is the repository root; input paths are relative to it.
	Root string
	Mem  memory.Allocator
	// reads records the inputs the kind reads (inputs.go).
	reads *inputReads
	// charged is the work the kind's checks admitted (CheckEvents,
	// CheckModelWork); events and model count the work it did (Done).
	charged Work
	events  atomic.Int64
	model   float64
	// estimates is the converged-estimate cache of the Run the experiment
	// is part of (Estimates).
	estimates *sim.EstimateCache
}

// Estimates returns the converged-estimate cache the experiments of one
// Run share (sim.EstimateCache), so an estimate two experiments need is
// simulated once: set it as sim.Config.Estimates (or
// predict.Cluster.Estimates). Nil for an Env built outside Run, which
// then shares nothing.
func (e *Env) Estimates() *sim.EstimateCache { return e.estimates }

// Params decodes the spec's [params] table into v strictly: unknown keys
// and wrong types are errors naming file:line. Fields keep their values
// (defaults) when the key is absent.
func (e *Env) Params(v any) error {
	if e.Spec.file == nil {
		return nil
	}
	return e.Spec.file.DecodePrimitive("params", e.Spec.Params, v)
}

// Rand returns a random source seeded by the spec's seed and id, so two
// experiments with the same seed still draw different streams.
func (e *Env) Rand() *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(e.Spec.ID))
	return rand.New(rand.NewPCG(e.Spec.Seed, h.Sum64()))
}

// InputPath returns the absolute path of the named input.
func (e *Env) InputPath(name string) (string, error) {
	p, ok := e.Spec.Inputs[name]
	if !ok {
		return "", e.Spec.Errorf([]string{"inputs"}, "missing required input %q", name)
	}
	e.reads.mark(name)
	return filepath.Join(e.Root, p), nil
}

// HasInput reports whether the spec names the input.
func (e *Env) HasInput(name string) bool {
	_, ok := e.Spec.Inputs[name]
	return ok
}

// Input reads the named input dataset with schema s (nil: any columns).
// Errors name the spec line and the dataset file.
func (e *Env) Input(name string, s *dataset.Schema) (*dataset.Table, error) {
	p, err := e.InputPath(name)
	if err != nil {
		return nil, err
	}
	t, err := dataset.Read(p, s, e.Mem)
	if err != nil {
		return nil, e.Spec.Errorf([]string{"inputs", name}, "input %q: %v", name, err)
	}
	return t, nil
}

// UsesModel reports whether the spec runs model m (all of the kind's models
// when the spec lists none).
func (e *Env) UsesModel(m string) bool {
	return len(e.Spec.Models) == 0 || slices.Contains(e.Spec.Models, m)
}

// Errorf returns an error located at a key of the spec's [params] table.
func (e *Env) Errorf(param string, format string, args ...any) error {
	return e.Spec.Errorf([]string{"params", param}, format, args...)
}

// Result is what an experiment computes.
type Result struct {
	// Table holds the rows behind the figure (dataset.ResultSchema).
	Table *dataset.Table
	// Metrics are named scalars that golden checks test.
	Metrics map[string]float64
	// Notes are lines about the run (assumptions, deviations) for reports.
	Notes []string
	// Accuracy, when not nil, holds per-point errors against measured data
	// (predict.AccuracySchema), written beside the figure as
	// figures/<paper>/<name>.accuracy.arrow: what pslab predict's trust
	// bands are computed from.
	Accuracy *dataset.Table
}

// NewResult returns an empty result.
func NewResult() *Result {
	return &Result{Table: dataset.NewTable(dataset.ResultSchema, dataset.Provenance{}), Metrics: map[string]float64{}}
}

// Point adds a point of a curve without error bar.
func (r *Result) Point(series, model, origin string, x, y float64) {
	r.add(series, "", x, y, y, y, model, origin, 0)
}

// PointRange adds a point with an error bar from lo to hi.
func (r *Result) PointRange(series, model, origin string, x, y, lo, hi float64) {
	r.add(series, "", x, y, lo, hi, model, origin, 0)
}

// PointError adds a predicted point with its relative error against a
// measurement.
func (r *Result) PointError(series, model, origin string, x, y, relErr float64) {
	r.add(series, "", x, y, y, y, model, origin, relErr)
}

// PointRangeError adds a predicted point with an error bar from lo to hi
// (its 95% interval) and its relative error against a measurement.
func (r *Result) PointRangeError(series, model, origin string, x, y, lo, hi, relErr float64) {
	r.add(series, "", x, y, lo, hi, model, origin, relErr)
}

// Bar adds a bar of a bar chart: series is the bar group's legend entry,
// category its label on the x axis.
func (r *Result) Bar(series, category, model, origin string, y float64) {
	r.add(series, category, 0, y, y, y, model, origin, 0)
}

func (r *Result) add(series, category string, x, y, lo, hi float64, model, origin string, relErr float64) {
	if err := r.Table.Append(series, category, x, y, lo, hi, model, origin, relErr); err != nil {
		panic(fmt.Sprintf("experiment: %v", err))
	}
}

// RowWork is the model work of r's output, RowWork units per row, metric
// and note: what the kind's CheckRows estimated.
func (r *Result) RowWork() float64 {
	return RowWork * float64(r.Table.Len()+len(r.Metrics)+len(r.Notes))
}

// Metric records a named scalar for golden checks.
func (r *Result) Metric(name string, v float64) { r.Metrics[name] = v }

// Note records a line for reports.
func (r *Result) Note(format string, args ...any) {
	r.Notes = append(r.Notes, fmt.Sprintf(format, args...))
}

// Lookup finds a value for a golden check: a metric by name, else the y of
// the row of series at x (category empty) or at category.
func (r *Result) Lookup(metric, series string, x float64, category string) (float64, bool) {
	if metric != "" {
		v, ok := r.Metrics[metric]
		return v, ok
	}
	if i := r.row(series, x, category); i >= 0 {
		return r.Table.Floats("y")[i], true
	}
	return 0, false
}

// Interval finds the interval around the value Lookup finds: for a
// metric, its 95% confidence interval (the metrics <metric>.ci95_lo and
// .ci95_hi; origin empty); for a row, its y_lo and y_hi where they differ
// from y, and the row's origin (a derived row's interval is the 95%
// confidence interval of an estimate, a measured row's the error bar its
// kind draws; dataset.ResultSchema). ok is false where the result records
// none.
func (r *Result) Interval(metric, series string, x float64, category string) (lo, hi float64, origin string, ok bool) {
	if metric != "" {
		lo, okLo := r.Metrics[metric+".ci95_lo"]
		hi, okHi := r.Metrics[metric+".ci95_hi"]
		return lo, hi, "", okLo && okHi
	}
	i := r.row(series, x, category)
	if i < 0 {
		return 0, 0, "", false
	}
	lo, hi = r.Table.Floats("y_lo")[i], r.Table.Floats("y_hi")[i]
	finite := !math.IsNaN(lo) && !math.IsNaN(hi) && !math.IsInf(lo, 0) && !math.IsInf(hi, 0)
	return lo, hi, r.Table.Strings("origin")[i], finite && lo < hi
}

// row is the index of the row of series at x (category empty) or at
// category, −1 if none.
func (r *Result) row(series string, x float64, category string) int {
	ser, cat, xs := r.Table.Strings("series"), r.Table.Strings("category"), r.Table.Floats("x")
	for i := range ser {
		if ser[i] != series {
			continue
		}
		if category != "" && cat[i] == category || category == "" && cat[i] == "" && xs[i] == x {
			return i
		}
	}
	return -1
}
