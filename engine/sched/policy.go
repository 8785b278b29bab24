package sched

// Env is what a policy learns about the cluster before a run.
type Env struct {
	// Nodes is W, the number of homogeneous nodes.
	Nodes int
	// Types are the job types; Types[t].X has at least Nodes+1 entries.
	Types []JobType
	// Load is the system load λ·E[S(1)]/W of the run (dimensionless). It is
	// the target load for Poisson arrivals; for explicit arrivals it is
	// Config.Load if set, otherwise estimated from the arrival list.
	Load float64
}

// JobState is what a policy sees of one job in the system at a decision
// instant.
type JobState struct {
	ID        int     // arrival index, 0-based; unique within a run
	Type      int     // index into Env.Types
	Arrival   float64 // arrival time, seconds
	Size      float64 // J_i, total examples
	Remaining float64 // J_i^t, examples still to process (> 0)
	Nodes     int     // nodes held until this decision
}

// Policy is a scheduling policy. It is a plain value (a spec); New returns
// the per-run allocator, so one Policy value can be used by concurrent runs.
// Adding a policy means adding one file with a type that implements it.
type Policy interface {
	// Name identifies the policy in results, e.g. "HELL".
	Name() string
	// New validates the policy's parameters against env and returns a fresh
	// allocator for one run.
	New(env Env) (Allocator, error)
}

// Allocator makes the allocation decisions of one run. The simulator calls
// it at every arrival and departure (reallocation is free, CATALOGUE M-10).
type Allocator interface {
	// Allocate writes into alloc[i] (zeroed on entry, len(alloc) ==
	// len(jobs)) the nodes job jobs[i] holds from now until the next event.
	// The sum must not exceed Env.Nodes. jobs are in arrival order and must
	// not be modified. now is in seconds.
	Allocate(now float64, jobs []JobState, alloc []int)
}
