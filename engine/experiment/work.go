package experiment

// DefaultMaxModelWork bounds the work of one experiment of an analytical
// kind (a closed-form model evaluated over a sweep, no simulator), estimated
// by the kind from its sweep and parameters before anything is evaluated
// (Env.CheckModelWork). The unit is one model evaluation plus one per
// cluster node the evaluation visits (a homogeneous cluster evaluated in
// closed form costs 1, an explicit cluster of n workers and p PS nodes
// 1+n+p): 10^8 units, about 7 s on one core at the ~70 ns per node of an
// explicit Cynthia cluster, 40× the largest committed Cynthia experiment
// (cynthia-fig13's plans, 2.4·10^6). Raise it in the spec:
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
// model_work. key is the spec key that drives the estimate (its line is
// reported), what says how the estimate was made; the error gives the
// estimate and the key that raises the limit.
func (e *Env) CheckModelWork(key []string, units float64, what string) error {
	limit := e.ModelWorkLimit()
	if units <= limit {
		return nil
	}
	return e.Spec.Errorf(key, "%s: about %.3g units of model work exceed the limit of %.3g; "+
		"ask for less, or raise it with [limits] model_work = %.3g if you mean it", what, units, limit, units)
}

// WorkerLimit is the spec's [limits] workers, or DefaultMaxWorkers: the
// largest worker count, which kinds also apply to other node counts (PS
// nodes) read from [params] or swept.
func (e *Env) WorkerLimit() int64 {
	if e.Spec.Limits.Workers > 0 {
		return e.Spec.Limits.Workers
	}
	return DefaultMaxWorkers
}
