package experiment

import (
	"fmt"
	"sync/atomic"
)

// DefaultMaxModelWork bounds the work of one experiment of an analytical
// kind (a closed-form model evaluated over a sweep, no simulator) and the
// work of any kind besides its simulator events, estimated by the kind
// from its sweep, parameters and inputs before anything is evaluated
// (Env.CheckModelWork, Env.CheckRows: one estimate for the whole run). The
// unit is about 70 ns of one core: one model evaluation plus one per
// cluster node the evaluation visits (a homogeneous cluster evaluated in
// closed form costs 1, an explicit cluster of n workers and p PS nodes
// 1+n+p), one layer of one iteration of zhang's pipeline, ten per
// population level of an MVA curve (what the slowest variant costs),
// SynthOpWork per synthesized trace op, a few per enumerated link state,
// and RowWork per row, metric and note of the result. 10^8 units, about 7 s on one core at the
// ~70 ns per node of an explicit Cynthia cluster, 40× the largest
// committed Cynthia experiment (cynthia-fig13's plans, 2.4·10^6). Raise it
// in the spec:
//
//	[limits]
//	model_work = 1e9
const DefaultMaxModelWork = 1e8

// ModelWorkLimit is the spec's [limits] model_work, or DefaultMaxModelWork.
func (e *Env) ModelWorkLimit() float64 {
	if e.Spec.Limits.ModelWork > 0 {
		return e.Spec.Limits.ModelWork
	}
	return DefaultMaxModelWork
}

// CheckModelWork refuses, before it runs, analytical work of the given
// estimate (units of DefaultMaxModelWork) above the spec's [limits]
// model_work. The estimate is the whole experiment's: a kind that checks
// its evaluations first and then its evaluations and output together
// (CheckRows) passes the total to the last check. key is the spec key that
// drives the estimate (its line is reported), what says how the estimate
// was made; the error gives the estimate and the key that raises the
// limit. An admitted estimate is recorded in Charged.
func (e *Env) CheckModelWork(key []string, units float64, what string) error {
	limit := e.ModelWorkLimit()
	if units <= limit {
		e.charged.Model = max(e.charged.Model, units)
		return nil
	}
	return e.Spec.Errorf(key, "%s: about %.3g units of model work exceed the limit of %.3g; "+
		"ask for less, or raise it with [limits] model_work = %.3g if you mean it", what, units, limit, units)
}

// RowWork is the model work charged for one row, metric or note of a
// Result (units of DefaultMaxModelWork): formatting a metric name and
// appending a row cost about 2.4 µs on one core, 35 units (measured on
// cynthia-fig6's rows and metrics); 40 covers the notes. A kind whose
// output grows with its input charges it before computing (CheckRows), so
// that the limit bounds the result's size as well as the model's work.
const RowWork = 40

// SynthOpWork is the model work of one op of a synthesized trace
// (zoo.Synthesize, predict.Cluster.Synthesize), in units of
// DefaultMaxModelWork: about 400 ns per op for a one-step trace (ResNet-50,
// 673 ops per step), 140 ns per op over 100 steps. Kinds that synthesize
// traces charge their ops at this rate before synthesizing.
const SynthOpWork = 6

// CheckRows is CheckModelWork of units of model work plus rows rows,
// metrics and notes of the result at RowWork units each: the whole
// experiment's estimate, output included.
func (e *Env) CheckRows(key []string, units, rows float64, what string) error {
	return e.CheckModelWork(key, units+RowWork*rows, fmt.Sprintf("%s and %.3g result rows, metrics and notes", what, rows))
}

// Work is an amount of an experiment's work in the units its [limits]
// bound.
type Work struct {
	// Events are simulator events: chunk completions of engine/sim
	// (sim.Result.Events) and the job arrivals and departures of
	// engine/sched, each weighted by its cost in simulator events (the
	// mascots18 scheduling kinds say how).
	Events float64
	// Model is analytical work in units of DefaultMaxModelWork: model
	// evaluations and the nodes, layers, iterations or population levels
	// they visit, synthesized trace ops, enumerated states, and (in
	// Result.RowWork) RowWork per row, metric and note of the result.
	Model float64
}

// Charged is the largest estimate of each kind of work the kind's checks
// have admitted (CheckEvents, CheckModelWork, CheckRows): at most the
// limits.
func (e *Env) Charged() Work { return e.charged }

// Done is the work the kind reports having done so far: the events
// counted on EventCounter and the model work added by CountModelWork. Add
// Result.RowWork for the result it returned. Tests hold the largest
// inputs the limits admit to Done ≤ Charged ≤ the limits, so the limits
// bound the work the kind actually does, measured, not timed.
func (e *Env) Done() Work {
	return Work{Events: float64(e.events.Load()), Model: e.model}
}

// EventCounter is the counter of the simulator events the kind runs: pass
// it as sim.Config.Progress (or predict.Cluster.Progress), or add weighted
// events of another simulator with Add. Safe for concurrent use.
func (e *Env) EventCounter() *atomic.Int64 { return &e.events }

// CountModelWork adds units of model work the kind did to Done (not safe
// for concurrent use: count after joining goroutines).
func (e *Env) CountModelWork(units float64) { e.model += units }

// WorkerLimit is the spec's [limits] workers, or DefaultMaxWorkers: the
// largest worker count, which kinds also apply to other node counts (PS
// nodes) read from [params] or swept.
func (e *Env) WorkerLimit() int64 {
	if e.Spec.Limits.Workers > 0 {
		return e.Spec.Limits.Workers
	}
	return DefaultMaxWorkers
}
