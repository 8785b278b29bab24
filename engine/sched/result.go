package sched

// Change is one allocation change of a job: from Time (seconds) on, the job
// holds Nodes nodes.
type Change struct {
	Time  float64
	Nodes int
}

// Job is the record of one arrived job, for export.
type Job struct {
	ID   int // arrival index, 0-based
	Type int // index into Config.Workload.Types
	// Size is J_i, the job size in examples.
	Size float64
	// Arrival, Start and End are times in seconds. Start is the first time
	// the job held nodes (−1 if never); End is its completion (−1 if it was
	// still in the system when the run stopped, then Done is false).
	Arrival, Start, End float64
	Done                bool
	// Progress[k] is the time (seconds) at which the job had processed
	// Config.Progress[k] of its examples, −1 if not reached.
	Progress []float64
	// Nodes lists every allocation change, closed by (End, 0) when the job
	// completes. Recorded only with Config.History.
	Nodes []Change
}

// Result is the outcome of one run.
type Result struct {
	Policy string
	Nodes  int
	// Load is the system load λ·E[S(1)]/W (Env.Load); Lambda the arrival
	// rate in jobs/s (for explicit arrivals: arrivals per second of span).
	Load, Lambda float64
	// MeanResponse is the mean response time (arrival to completion) of the
	// completed jobs after warm-up, in seconds; 0 when Unstable.
	MeanResponse float64
	// HalfWidth is the half-width of its 95% confidence interval by batch
	// means, in seconds (0 when there are too few samples or Unstable).
	HalfWidth float64
	// Converged is true when HalfWidth ≤ Precision·MeanResponse at stop
	// (always false for explicit arrivals, which run to the end instead).
	Converged bool
	// Unstable is true when the backlog grew without bound (see Config).
	Unstable bool
	// Reason says why the run stopped.
	Reason string
	// Arrived and Completed count jobs; Warmup is the number of completed
	// jobs discarded as warm-up (the first ones in departure order).
	Arrived, Completed, Warmup int
	// ResponseTimes are the response times in seconds of the completed jobs
	// after warm-up, in departure order (for CDFs).
	ResponseTimes []float64
	// MeanProgressTime[k] is the mean over the same jobs of the time, in
	// seconds from arrival, to process Config.Progress[k] of the job
	// (mascots18 Fig. 14: time to 40% progress).
	MeanProgressTime []float64
	// MeanInSystem is the time-average number of jobs in the system and
	// Utilization the time-average fraction of busy nodes, both from the
	// warm-up cut to the end of the run.
	MeanInSystem, Utilization float64
	// End is the simulated time at which the run stopped, seconds.
	End float64
	// Jobs are all arrived jobs in arrival order.
	Jobs []Job
}
