package collection

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"

	"pslab/engine/testbed/analysis"
	"pslab/engine/testbed/config"
	"pslab/engine/testbed/node"
	"pslab/engine/testbed/training"
)

// resultName is the file name of a throughput run's worker result in a
// results directory: w<W>-r<repetition>-worker<id>.json.
var resultName = regexp.MustCompile(`^w(\d+)-r(\d+)-worker(\d+)\.json$`)

// ProfileResultFile is the traced 1-worker run in a results directory.
const ProfileResultFile = "profile.json"

// Reduce reads the throughput runs of a results directory (the worker
// results w<W>-r<rep>-worker<id>.json of runs started by hand, see the
// engine/testbed doc) into an Outcome of c: every W's repetitions, their
// throughput and mean; the profile is added by FromProfileFile.
func Reduce(dir string, c config.Config, plan *training.Plan) (*Outcome, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	type key struct{ w, rep int }
	runs := map[key]map[int]*node.WorkerResult{}
	for _, e := range entries {
		m := resultName.FindStringSubmatch(e.Name())
		if m == nil {
			continue
		}
		w, _ := strconv.Atoi(m[1])
		rep, _ := strconv.Atoi(m[2])
		id, _ := strconv.Atoi(m[3])
		r, err := ReadResult(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		k := key{w, rep}
		if runs[k] == nil {
			runs[k] = map[int]*node.WorkerResult{}
		}
		runs[k][id] = r
	}
	if len(runs) == 0 {
		return nil, fmt.Errorf("testbed reduce: no w<W>-r<rep>-worker<id>.json files in %s", dir)
	}
	keys := make([]key, 0, len(runs))
	for k := range runs {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b key) int {
		if a.w != b.w {
			return a.w - b.w
		}
		return a.rep - b.rep
	})
	o := &Outcome{Config: c, Plan: plan}
	for _, k := range keys {
		if len(runs[k]) != k.w {
			return nil, fmt.Errorf("testbed reduce: run W=%d repetition %d has %d worker results", k.w, k.rep, len(runs[k]))
		}
		run := Run{Workers: k.w, Repetition: k.rep}
		for id := range k.w {
			r, ok := runs[k][id]
			if !ok {
				return nil, fmt.Errorf("testbed reduce: run W=%d repetition %d lacks worker %d", k.w, k.rep, id)
			}
			run.Steps = append(run.Steps, analysis.StepTimes{Start: r.Start, End: r.End})
		}
		x, err := analysis.Throughput(run.Steps, plan.Batch, c.Average)
		if err != nil {
			return nil, fmt.Errorf("testbed reduce: W=%d repetition %d: %w", k.w, k.rep, err)
		}
		if n := len(o.Points); n == 0 || o.Points[n-1].Workers != k.w {
			o.Points = append(o.Points, Point{Workers: k.w, Dilation: 1})
			o.Config.Workers = append(o.Config.Workers, k.w)
		}
		p := &o.Points[len(o.Points)-1]
		p.Rates = append(p.Rates, x)
		run.Dilation, run.Throughput = 1, x
		o.Runs = append(o.Runs, run)
		o.Config.Steps = len(run.Steps[0].End)
	}
	for i := range o.Points {
		o.Points[i].Mean, o.Points[i].Std = analysis.MeanStd(o.Points[i].Rates)
		o.Config.Repetitions = max(o.Config.Repetitions, len(o.Points[i].Rates))
	}
	return o, nil
}

// FromProfileFile fills the profile of o (FromProfile) from the traced
// 1-worker run's result file (ProfileResultFile).
func (o *Outcome) FromProfileFile(path string) error {
	r, err := ReadResult(path)
	if err != nil {
		return err
	}
	o.Config.ProfileSteps = len(r.Steps)
	o.Profile = Run{Workers: 1, Steps: []analysis.StepTimes{{Start: r.Start, End: r.End}}}
	return o.FromProfile(r)
}

// ReadResult reads a worker result file (the JSON `pslab testbed worker
// -out` writes).
func ReadResult(path string) (*node.WorkerResult, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r node.WorkerResult
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &r, nil
}
