package kinds

import (
	"fmt"

	"pslab/engine/dataset"
	"pslab/engine/experiment"
	"pslab/engine/golden"
)

// shortMaxSeconds is the recorded run time (figures/<paper>/<name>.run.json,
// experiment.RecordedElapsed, written by pslab run -record-time) above
// which `go test -short` does not run an experiment (shortRuns). When
// written, 0.5 s ran 36 of the 56 experiments, 0.2 s of CPU together, and
// left out the simulator sweeps, the scheduler replications and the
// testbed-accuracy comparison (41 s of CPU); `go test` without -short runs
// them all.
const shortMaxSeconds = 0.5

// shortRuns reports whether `go test -short` runs the experiment file
// path: only with a recorded run time of at most shortMaxSeconds. One
// without a recorded time (make figures keeps 0 until pslab run
// -record-time) is not run, so a new heavy experiment cannot slow the
// quick loop unnoticed.
func shortRuns(path string) bool {
	e := experiment.RecordedElapsed(root, path)
	return e > 0 && e <= shortMaxSeconds
}

// recordedOutcome is the outcome of the experiment file path read from its
// recorded result instead of a run: the result table
// figures/<paper>/<name>.arrow and the metrics of its run file, with the
// experiment's golden checks evaluated on them (as the report does). The
// recorded result is what `make figures` wrote from a passing run, so a
// failing check here means the golden file changed without a new run.
func recordedOutcome(path string) experiment.Outcome {
	s, err := experiment.Load(path)
	if err != nil {
		return experiment.Outcome{Err: err}
	}
	o := experiment.Outcome{Spec: s}
	if o.Golden, err = golden.Load(experiment.GoldenPath(root, s)); err != nil {
		o.Err = err
		return o
	}
	rf, err := experiment.ReadRunFile(experiment.RunFilePath(root, s))
	if err != nil {
		o.Err = fmt.Errorf("recorded result: %w (run make figures)", err)
		return o
	}
	tab, err := dataset.Read(experiment.FigurePath(root, s, ".arrow"), dataset.ResultSchema, dataset.Allocator)
	if err != nil {
		o.Err = fmt.Errorf("recorded result: %w (run make figures)", err)
		return o
	}
	o.Result = &experiment.Result{Table: tab, Metrics: map[string]float64{}}
	for k, v := range rf.Metrics {
		o.Result.Metrics[k] = float64(v)
	}
	o.Checks = o.Golden.Evaluate(o.Result.Lookup)
	return o
}
