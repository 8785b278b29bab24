package mascots18

import (
	"fmt"
	"math"

	"pslab/engine/experiment"
	"pslab/engine/sched"
)

// Bounded work of the scheduling kinds (issue 28). A scheduling run's
// events are its job arrivals and departures (sched.Result.Arrived +
// Completed, at most twice its arrivals); each visits the jobs in the
// system and the nodes, and the policies' allocations visit node–job
// pairs, 0.3–2 ns each (measured for HELL, KNEE, Waterfill and their
// moldable forms on 100 to 4,000 nodes and 10 to 300 jobs). An event is
// therefore charged against [limits] events at schedEventWeight
// simulator events, which grows with nodes × jobs and is calibrated on the
// mascots18 setting (100 nodes, at most 300 jobs in the system: 0.55 µs
// per event in BenchmarkHELL100Nodes1e5Jobs, ten simulator events; the
// committed fig12a, fig14 and sched-philly run 120–130 ns of one core per
// weighted event, twice a simulator event's). The estimate is made before
// any run, from the arrivals each run may have (max_jobs, the trace
// window's jobs) and the jobs it may hold (max_in_system, or all of a
// trace's), and each run's events are counted as it ends.

// schedEventWeight is the weight of one scheduler event in simulator
// events for nodes nodes and at most jobs jobs in the system:
// ⌈nodes·(jobs + 1)/3300⌉, 10 for the mascots18 setting (100 nodes, 300
// jobs).
func schedEventWeight(nodes, jobs int) float64 {
	return math.Ceil(float64(nodes) * float64(jobs+1) / 3300)
}

// schedEvents is the estimate of runs runs of at most arrivals arrivals
// each on nodes nodes with at most jobs jobs in the system.
func schedEvents(runs, arrivals float64, nodes, jobs int) float64 {
	return runs * 2 * arrivals * schedEventWeight(nodes, jobs)
}

// countSched counts the events of finished runs (their arrivals and
// departures at schedEventWeight) on env's event counter.
func countSched(env *experiment.Env, results []sched.Result, nodes, jobs int) {
	var n float64
	for _, r := range results {
		n += float64(r.Arrived + r.Completed)
	}
	env.EventCounter().Add(int64(n * schedEventWeight(nodes, jobs)))
}

// schedWorkloadWork is the model work of building the workload of types
// job types on nodes nodes: one MVA curve of nodes − 1 population levels
// per type (mvaLevelWork each), and its metrics and notes (three per
// type).
func schedWorkloadWork(types, nodes int) (units, rows float64) {
	return float64(types) * mvaLevelWork * float64(nodes), 3*float64(types) + 1
}

// checkNodes refuses a cluster larger than the node limit ([limits]
// workers): the workload's MVA curves and every allocation grow with it.
func (p schedParams) checkNodes(env *experiment.Env) error {
	if limit := env.WorkerLimit(); int64(p.Nodes) > limit {
		return env.Errorf("nodes", "nodes = %d exceeds the limit of %d nodes; raise it with [limits] workers = %d if you mean it", p.Nodes, limit, p.Nodes)
	}
	return nil
}

// types is the number of job types the workload will have: the named
// ones, or every row of the Table III input (rows).
func (p schedParams) types(rows int) int {
	if len(p.Types) > 0 {
		return len(p.Types)
	}
	return rows
}

// checkSched bounds a scheduling kind's work: events simulator events
// (what names the runs) and units of model work and rows result lines
// besides the workload's (schedWorkloadWork for types types).
func (p schedParams) checkSched(env *experiment.Env, key []string, events, units, rows float64, types int, what string) error {
	if err := env.CheckEvents(events, what); err != nil {
		return err
	}
	wu, wr := schedWorkloadWork(types, p.Nodes)
	return env.CheckRows(key, units+wu, rows+wr, what)
}

// poissonRuns is the number of runs of sched-poisson per load and their
// arrivals: every policy but JSQ-Chunk at max_jobs, JSQ-Chunk at every
// searched chunk size with at most chunk_search_jobs, and its best size
// again at max_jobs.
func (p schedParams) poissonRuns(keys []string) (arrivals float64, runs int) {
	for _, k := range keys {
		if k != "jsq-chunk" {
			arrivals, runs = arrivals+float64(p.MaxJobs), runs+1
			continue
		}
		n := len(schedChunkSizes(p.Nodes, p.ChunkLo, p.ChunkHi, p.FullChunkSearch))
		arrivals += float64(n)*float64(min(p.MaxJobs, p.ChunkSearchJobs)) + float64(p.MaxJobs)
		runs += n + 1
	}
	return arrivals, runs
}

// schedWhat describes runs runs of a scheduling kind for its errors.
func schedWhat(kind string, runs int, nodes int) string {
	return fmt.Sprintf("%s: %d scheduling runs on %d nodes", kind, runs, nodes)
}
