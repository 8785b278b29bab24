package mascots18

import (
	"fmt"
	"math"

	"pslab/engine/dataset"
	"pslab/engine/sched"
)

// SchedJobsSchema is the schema of a per-job export of a scheduling run
// (JobsTable) whose sched.Config had the given progress fractions: one
// t_progress_<percent> column (seconds) per fraction, e.g. t_progress_40.
func SchedJobsSchema(progress []float64) *dataset.Schema {
	s := &dataset.Schema{Name: "sched-jobs", Columns: []dataset.Column{
		{Name: "policy", Type: dataset.String, Doc: "scheduling policy of the run"},
		{Name: "job", Type: dataset.Int64, Rule: dataset.NonNegative, Doc: "arrival index, 0-based"},
		{Name: "type", Type: dataset.String, Doc: "job type (DNN) name"},
		{Name: "size", Type: dataset.Float64, Rule: dataset.Positive, Unit: "examples", Doc: "job size J_i"},
		{Name: "arrival", Type: dataset.Float64, Rule: dataset.NonNegative, Unit: "s", Doc: "arrival time"},
		{Name: "start", Type: dataset.Float64, Unit: "s", Doc: "first time the job held nodes; -1 if never"},
		{Name: "end", Type: dataset.Float64, Unit: "s", Doc: "completion time; -1 if not completed when the run stopped"},
		{Name: "response", Type: dataset.Float64, Unit: "s", Doc: "end - arrival; -1 if not completed"},
		{Name: "done", Type: dataset.Int64, Rule: dataset.NonNegative, Doc: "1 if the job completed, else 0"},
	}}
	for _, f := range progress {
		s.Columns = append(s.Columns, dataset.Column{Name: schedProgressColumn(f), Type: dataset.Float64, Unit: "s",
			Doc: fmt.Sprintf("time the job had processed %g%% of its examples; -1 if not reached", 100*f)})
	}
	return s
}

func schedProgressColumn(f float64) string {
	return "t_progress_" + schedKey(math.Round(1e6*100*f)/1e6)
}

// JobsTable returns the per-job records of res, the result of
// sched.Run(cfg, …), as a table of SchedJobsSchema(cfg.Progress) for users
// to analyse (write it with dataset.Write). Type names come from
// cfg.Workload. It returns an error if res does not belong to cfg (a type
// index or a progress list that does not fit).
func JobsTable(res sched.Result, cfg sched.Config) (*dataset.Table, error) {
	prov := dataset.Provenance{Origin: dataset.Derived,
		Source: fmt.Sprintf("pslab sched simulation (mascots18 §IV-VI), policy %s", res.Policy),
		Notes:  res.String(),
		Extra: map[string]string{"nodes": fmt.Sprint(res.Nodes), "load": schedKey(res.Load),
			"lambda_per_s": schedKey(res.Lambda), "warmup_jobs": fmt.Sprint(res.Warmup)}}
	t := dataset.NewTable(SchedJobsSchema(cfg.Progress), prov)
	for _, j := range res.Jobs {
		if j.Type < 0 || j.Type >= len(cfg.Workload.Types) {
			return nil, fmt.Errorf("sched jobs: job %d has type %d, workload has %d types", j.ID, j.Type, len(cfg.Workload.Types))
		}
		if len(j.Progress) != len(cfg.Progress) {
			return nil, fmt.Errorf("sched jobs: job %d has %d progress times, config has %d fractions", j.ID, len(j.Progress), len(cfg.Progress))
		}
		resp, done := -1.0, int64(0)
		if j.Done {
			resp, done = j.End-j.Arrival, 1
		}
		vals := []any{res.Policy, int64(j.ID), cfg.Workload.Types[j.Type].Name, j.Size, j.Arrival, j.Start, j.End, resp, done}
		for _, v := range j.Progress {
			vals = append(vals, v)
		}
		if err := t.Append(vals...); err != nil {
			return nil, fmt.Errorf("sched jobs: job %d: %w", j.ID, err)
		}
	}
	return t, nil
}

// SchedAllocationsSchema is the schema of AllocationsTable: the nodes each
// job held over time, one row per allocation change.
var SchedAllocationsSchema = &dataset.Schema{Name: "sched-allocations", Columns: []dataset.Column{
	{Name: "policy", Type: dataset.String, Doc: "scheduling policy of the run"},
	{Name: "job", Type: dataset.Int64, Rule: dataset.NonNegative, Doc: "arrival index, 0-based (the job column of JobsTable)"},
	{Name: "time", Type: dataset.Float64, Rule: dataset.NonNegative, Unit: "s", Doc: "from this time on the job holds nodes"},
	{Name: "nodes", Type: dataset.Int64, Rule: dataset.NonNegative, Doc: "nodes held (w-1 workers + 1 PS; 0: preempted or finished)"},
}}

// AllocationsTable returns the allocation history of every job of res (the
// nodes over time), which sched.Run records when Config.History is set. It
// returns an error for a run recorded without history.
func AllocationsTable(res sched.Result, cfg sched.Config) (*dataset.Table, error) {
	if !cfg.History {
		return nil, fmt.Errorf("sched allocations: the run was made without Config.History, so no allocation changes were recorded")
	}
	t := dataset.NewTable(SchedAllocationsSchema, dataset.Provenance{Origin: dataset.Derived,
		Source: fmt.Sprintf("pslab sched simulation (mascots18 §IV-VI), policy %s", res.Policy),
		Extra:  map[string]string{"nodes": fmt.Sprint(res.Nodes)}})
	for _, j := range res.Jobs {
		for _, c := range j.Nodes {
			if err := t.Append(res.Policy, int64(j.ID), c.Time, int64(c.Nodes)); err != nil {
				return nil, fmt.Errorf("sched allocations: job %d: %w", j.ID, err)
			}
		}
	}
	return t, nil
}
