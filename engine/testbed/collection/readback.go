package collection

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/apache/arrow/go/v17/arrow/memory"

	"pslab/engine/dataset"
	"pslab/engine/testbed/accounting"
	"pslab/engine/testbed/analysis"
)

// Committed is a committed configuration directory read back for
// judging (ReadCommitted).
type Committed struct {
	// Extra is the metadata of its throughput.arrow.
	Extra map[string]string
	// Input is what judging needs of the configuration, from Extra.
	Input JudgeInput
	// Runs are its throughput runs, stretched ones included.
	Runs []RunFacts
}

// runKey names one run of a dataset.
type runKey struct {
	w, rep int
	k      float64
}

// ReadCommitted reads the throughput runs of the dataset in dir back as
// Judge takes them: the throughput of each run from runs.arrow, its step
// times from steps.arrow, its processes' largest contention and
// retransmissions (and, from accounting version 4, those not D-SACKed)
// and the host's other work from accounting.arrow (the
// host's busy share × testbed.cpus less the processes' CPU). A file
// without a dilation column (accounting version 2 and before) holds
// unstretched runs only.
func ReadCommitted(dir string, mem memory.Allocator) (*Committed, error) {
	read := func(name string, cols map[string]dataset.Type) (*dataset.Table, error) {
		t, err := dataset.Read(filepath.Join(dir, name), nil, mem)
		if err != nil {
			return nil, err
		}
		for c, typ := range cols {
			if i := t.Schema.Index(c); i < 0 || t.Schema.Columns[i].Type != typ {
				return nil, fmt.Errorf("%s: no %s column %q", filepath.Join(dir, name), typ, c)
			}
		}
		return t, nil
	}
	dil := func(t *dataset.Table, i int) float64 {
		if t.Schema.Index("dilation") < 0 || t.Schema.Columns[t.Schema.Index("dilation")].Type != dataset.Float64 {
			return 1
		}
		return max(1, t.Floats("dilation")[i])
	}
	cm := &Committed{Extra: CommittedExtra(dir)}
	if cm.Extra == nil {
		return nil, fmt.Errorf("%s: unreadable %s", dir, ThroughputFile)
	}
	x := cm.Extra
	in, err := judgeInputOf(x)
	if err != nil {
		return nil, fmt.Errorf("%s: %s metadata: %w", dir, ThroughputFile, err)
	}
	cm.Input = in
	runs, err := read(RunsFile, map[string]dataset.Type{"workers": dataset.Int64, "repetition": dataset.Int64, "throughput": dataset.Float64})
	if err != nil {
		return nil, err
	}
	index := map[runKey]int{}
	for i := range runs.Len() {
		k := runKey{int(runs.Ints("workers")[i]), int(runs.Ints("repetition")[i]), dil(runs, i)}
		if _, dup := index[k]; dup {
			return nil, fmt.Errorf("%s: run W=%d repetition %d dilation %g twice", filepath.Join(dir, RunsFile), k.w, k.rep, k.k)
		}
		index[k] = len(cm.Runs)
		cm.Runs = append(cm.Runs, RunFacts{Workers: k.w, Repetition: k.rep, Dilation: k.k, Throughput: runs.Floats("throughput")[i]})
	}
	steps, err := read(StepsFile, map[string]dataset.Type{"run": dataset.String, "workers": dataset.Int64, "repetition": dataset.Int64,
		"worker": dataset.Int64, "step": dataset.Int64, "start_ns": dataset.Int64, "end_ns": dataset.Int64})
	if err != nil {
		return nil, err
	}
	if err := cm.addSteps(steps, index, dil); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, StepsFile), err)
	}
	acct, err := read(AccountingFile, map[string]dataset.Type{"run": dataset.String, "workers": dataset.Int64, "repetition": dataset.Int64,
		"process": dataset.String, "cpu": dataset.Float64, "retrans": dataset.Float64, "contention": dataset.Float64})
	if err != nil {
		return nil, err
	}
	cpus, _ := strconv.Atoi(x["testbed.cpus"])
	var spurious []float64 // nil before accounting version 4
	if k := acct.Schema.Index("retrans_spurious"); k >= 0 && acct.Schema.Columns[k].Type == dataset.Float64 {
		spurious = acct.Floats("retrans_spurious")
	}
	host := map[int]float64{}
	for i := range acct.Len() {
		k := runKey{int(acct.Ints("workers")[i]), int(acct.Ints("repetition")[i]), dil(acct, i)}
		j, ok := index[k]
		if acct.Strings("run")[i] != "throughput" || !ok {
			continue
		}
		r := &cm.Runs[j]
		if acct.Strings("process")[i] == "host" {
			host[j] += acct.Floats("cpu")[i] * float64(cpus)
			continue
		}
		r.Contention, r.Retrans = max(r.Contention, acct.Floats("contention")[i]), max(r.Retrans, acct.Floats("retrans")[i])
		lost := acct.Floats("retrans")[i]
		if spurious != nil {
			lost = max(0, lost-spurious[i])
		}
		r.Lost = max(r.Lost, lost)
		host[j] -= acct.Floats("cpu")[i]
	}
	for j, v := range host {
		cm.Runs[j].Other = max(0, v)
	}
	for j := range cm.Runs {
		cm.Runs[j].DSACK = spurious != nil
	}
	return cm, nil
}

// addSteps fills the step times of cm's runs from a steps table.
func (cm *Committed) addSteps(t *dataset.Table, index map[runKey]int, dil func(*dataset.Table, int) float64) error {
	type row struct{ worker, step int }
	per := map[int]map[row][2]int64{}
	for i := range t.Len() {
		if t.Strings("run")[i] != "throughput" {
			continue
		}
		j, ok := index[runKey{int(t.Ints("workers")[i]), int(t.Ints("repetition")[i]), dil(t, i)}]
		if !ok {
			continue
		}
		if per[j] == nil {
			per[j] = map[row][2]int64{}
		}
		per[j][row{int(t.Ints("worker")[i]), int(t.Ints("step")[i])}] = [2]int64{t.Ints("start_ns")[i], t.Ints("end_ns")[i]}
	}
	for j, rows := range per {
		r := &cm.Runs[j]
		keys := make([]row, 0, len(rows))
		for k := range rows {
			keys = append(keys, k)
		}
		slices.SortFunc(keys, func(a, b row) int { return cmp.Or(cmp.Compare(a.worker, b.worker), cmp.Compare(a.step, b.step)) })
		r.Steps = make([]analysis.StepTimes, r.Workers)
		for _, k := range keys {
			if k.worker >= r.Workers || k.step != len(r.Steps[k.worker].Start) {
				return fmt.Errorf("run W=%d repetition %d: worker %d step %d out of place", r.Workers, r.Repetition, k.worker, k.step)
			}
			st := &r.Steps[k.worker]
			st.Start, st.End = append(st.Start, rows[k][0]), append(st.End, rows[k][1])
		}
	}
	return nil
}

// judgeInputOf reads JudgeInput from a dataset's metadata.
func judgeInputOf(x map[string]string) (JudgeInput, error) {
	var in JudgeInput
	var err error
	if in.Batch, err = strconv.Atoi(x["testbed.batch"]); err != nil || in.Batch < 1 {
		return in, fmt.Errorf("testbed.batch = %q: want a positive integer", x["testbed.batch"])
	}
	if in.Average, err = strconv.Atoi(x["testbed.average"]); err != nil || in.Average < 1 {
		return in, fmt.Errorf("testbed.average = %q: want a positive integer", x["testbed.average"])
	}
	in.Unscaled, _ = strconv.ParseFloat(x["testbed.acct.unscaled_share"], 64)
	for _, f := range strings.Split(x["testbed.dilations"], ",") {
		if f == "" {
			continue
		}
		k, err := strconv.ParseFloat(f, 64)
		if err != nil {
			return in, fmt.Errorf("testbed.dilations = %q: %v", x["testbed.dilations"], err)
		}
		in.Dilations = append(in.Dilations, k)
	}
	return in, nil
}

// CommittedSpread is the between-run spread of the unstretched points of
// the dataset in dir (accounting.RunSpread): each point's coefficient of
// variation over its runs, and their median; ok false without a dataset
// or a point of two or more runs.
func CommittedSpread(dir string, mem memory.Allocator) (s accounting.RunSpread, ok bool) {
	cm, err := ReadCommitted(dir, mem)
	if err != nil {
		return s, false
	}
	by := map[int][]float64{}
	for _, r := range cm.Runs {
		if r.Dilation == 1 {
			by[r.Workers] = append(by[r.Workers], r.Throughput)
		}
	}
	s.PerW = map[int]float64{}
	var cvs []float64
	reps := 0
	for w, xs := range by {
		if sm := analysis.NewSample(xs); sm.N >= 2 && sm.Mean > 0 {
			s.PerW[w] = sm.Std / sm.Mean
			cvs = append(cvs, sm.Std/sm.Mean)
			reps = max(reps, sm.N)
		}
	}
	if len(cvs) == 0 {
		return s, false
	}
	slices.Sort(cvs)
	s.CV = cvs[len(cvs)/2]
	if len(cvs)%2 == 0 {
		s.CV = (cvs[len(cvs)/2-1] + cvs[len(cvs)/2]) / 2
	}
	s.Source = fmt.Sprintf("median over the %d points of the committed dataset, up to %d runs each", len(cvs), reps)
	return s, true
}
