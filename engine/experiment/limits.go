package experiment

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
)

// Default work limits of a spec. A parameter (under [params], at any depth)
// named "workers" or "*_workers" above Limits.Workers, "steps" or
// "*_steps" above Limits.Steps, "batch" or "*_batch" above Limits.Batch,
// and a workers sweep above Limits.Workers, are refused before the
// experiment runs, with the file:line of the key: work grows with workers ×
// steps, compute time with the batch (a batch of 2^63−1 examples was
// accepted and its times overflowed), and an int32 guard deep in the
// simulator used to be the only limit. Raise them in the spec:
//
//	[limits]
//	workers = 100000
//	steps = 10000000
//	batch = 4194304
//	events = 5e9
//
// DefaultMaxBatch is 2^20 = 1,048,576 examples per step, 512× the largest
// batch of any committed experiment (2,048).
//
// DefaultMaxEvents bounds the simulator events of one experiment, estimated
// by its kind before it simulates (Env.CheckEvents): 2·10^9 events, about two
// minutes on one core at the simulator's 16 M events/s, 5× the largest
// committed experiment.
const (
	DefaultMaxWorkers = 1 << 16
	DefaultMaxSteps   = 1_000_000
	DefaultMaxBatch   = 1 << 20
	DefaultMaxEvents  = 2e9
)

// Limits bound the work an experiment may ask for (see DefaultMaxWorkers).
type Limits struct {
	Workers int64   // largest worker count; 0: DefaultMaxWorkers
	Steps   int64   // largest step count; 0: DefaultMaxSteps
	Batch   int64   // largest batch, examples per step; 0: DefaultMaxBatch
	Events  float64 // largest estimated simulator event count; 0: DefaultMaxEvents
	// ModelWork is the largest estimated work of an analytical kind (see
	// DefaultMaxModelWork); 0: DefaultMaxModelWork.
	ModelWork float64 `toml:"model_work"`
}

// SimEvents estimates the events of simulating steps steps of every worker
// for each worker count in workers, on a trace of opsPerStep ops per step:
// two events (start, end) per op, step and worker.
func SimEvents(opsPerStep, steps int, workers ...int) float64 {
	w := 0
	for _, x := range workers {
		w += x
	}
	return 2 * float64(opsPerStep) * float64(steps) * float64(w)
}

// CheckEvents refuses, before it runs, simulator work of the given
// estimate above the spec's [limits] events (DefaultMaxEvents when unset).
// The estimate is the whole experiment's (every case and point it will
// simulate), so a kind checks once before its first simulation: the limit
// bounds the experiment, not each of its cases. what says which part of
// the spec asks for it (it names the keys that drive the estimate); the
// error gives the estimate and the key that raises the limit. An admitted
// estimate is recorded in Charged.
func (e *Env) CheckEvents(events float64, what string) error {
	limit := e.EventLimit()
	if events <= limit {
		e.charged.Events = max(e.charged.Events, events)
		return nil
	}
	return e.Spec.Errorf([]string{"params"}, "%s: about %.3g simulator events exceed the limit of %.3g; "+
		"lower its workers or steps, or raise it with [limits] events = %.3g if you mean it", what, events, limit, events)
}

// EventLimit is the spec's [limits] events, or DefaultMaxEvents.
func (e *Env) EventLimit() float64 {
	if e.Spec.Limits.Events > 0 {
		return e.Spec.Limits.Events
	}
	return DefaultMaxEvents
}

// checkLimits walks the raw spec b and refuses worker and step counts
// above the limits, naming the key and its line.
func (s *Spec) checkLimits(b []byte) error {
	maxW, maxS, maxB := s.Limits.Workers, s.Limits.Steps, s.Limits.Batch
	if maxW <= 0 {
		maxW = DefaultMaxWorkers
	}
	if maxS <= 0 {
		maxS = DefaultMaxSteps
	}
	if maxB <= 0 {
		maxB = DefaultMaxBatch
	}
	var raw map[string]any
	if _, err := toml.Decode(string(b), &raw); err != nil {
		return nil // Parse already reported syntax errors
	}
	// The limits themselves: absent means the default, anything given
	// must be a finite number > 0 (a NaN or negative limit used to read
	// as unset, a +Inf one as no limit). The seed is a uint64: a negative
	// one must not wrap around.
	if lim, ok := raw["limits"].(map[string]any); ok {
		for _, k := range []string{"workers", "steps", "batch", "events", "model_work"} {
			if v, ok := lim[k]; ok {
				for _, x := range numbers(v) {
					if !(x > 0) || math.IsInf(x, 0) {
						return s.file.Errorf([]string{"limits", k}, "limits.%s = %g: want a finite number > 0 (leave it out for the default)", k, x)
					}
				}
			}
		}
	}
	if v, ok := raw["seed"]; ok {
		if x, isInt := v.(int64); isInt && x < 0 {
			return s.file.Errorf([]string{"seed"}, "seed = %d: want an integer ≥ 0", x)
		}
	}
	check := func(key []string, v any) error {
		name := key[len(key)-1]
		var limit int64
		var what string
		switch {
		case name == "workers" || strings.HasSuffix(name, "_workers"):
			limit, what = maxW, "workers"
		case name == "steps" || strings.HasSuffix(name, "_steps"):
			limit, what = maxS, "steps"
		case name == "batch" || strings.HasSuffix(name, "_batch"):
			limit, what = maxB, "batch"
		default:
			return nil
		}
		for _, x := range numbers(v) {
			if x > float64(limit) || math.IsNaN(x) {
				work := fmt.Sprintf("at least %g worker-steps of work", x)
				if what == "batch" {
					work = "examples per step: compute time grows with it"
				}
				return s.file.Errorf(key, "%s = %g exceeds the limit of %d %s (%s); "+
					"raise it with [limits] %s = %.0f if you mean it", strings.Join(key, "."), x, limit, what, work, what, x)
			}
		}
		return nil
	}
	if s.Sweep.Var == "workers" {
		for _, x := range append(append([]float64(nil), s.Sweep.Values...), s.Sweep.To) {
			if x > float64(maxW) || math.IsNaN(x) {
				return s.file.Errorf([]string{"sweep"}, "sweep workers up to %g exceeds the limit of %d workers; "+
					"raise it with [limits] workers = %.0f if you mean it", x, maxW, x)
			}
		}
	}
	return walk([]string{"params"}, raw["params"], check)
}

// walk calls f on every key path under v (arrays of tables included), in
// sorted key order.
func walk(key []string, v any, f func([]string, any) error) error {
	switch t := v.(type) {
	case map[string]any:
		names := make([]string, 0, len(t))
		for k := range t {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			sub := append(append([]string(nil), key...), k)
			if err := f(sub, t[k]); err != nil {
				return err
			}
			if err := walk(sub, t[k], f); err != nil {
				return err
			}
		}
	case []map[string]any:
		for _, m := range t {
			if err := walk(key, m, f); err != nil {
				return err
			}
		}
	case []any:
		for _, e := range t {
			if err := walk(key, e, f); err != nil {
				return err
			}
		}
	}
	return nil
}

// numbers returns the numbers in v: a number or an array of numbers.
func numbers(v any) []float64 {
	switch t := v.(type) {
	case int64:
		return []float64{float64(t)}
	case float64:
		return []float64{t}
	case []any:
		var out []float64
		for _, e := range t {
			out = append(out, numbers(e)...)
		}
		return out
	}
	return nil
}
