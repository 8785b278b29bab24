package testbed

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow/go/v17/arrow/memory"
)

// resultName is the file name of a throughput run's worker result in a
// results directory: w<W>-r<repetition>-worker<id>.json.
var resultName = regexp.MustCompile(`^w(\d+)-r(\d+)-worker(\d+)\.json$`)

// ProfileResultFile is the traced 1-worker run in a results directory.
const ProfileResultFile = "profile.json"

// reduceMain is `pslab testbed reduce`: turn the worker results of runs
// made by hand (PS and workers started on real hosts, see doc.go) into the
// same datasets `pslab testbed run` writes.
func reduceMain(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("testbed reduce", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c Config
	var job Job
	job.RegisterFlags(fs)
	dir := fs.String("results", "", "directory with profile.json and w<W>-r<rep>-worker<id>.json")
	out := fs.String("out", "", "output directory of the datasets (required)")
	fs.StringVar(&c.Name, "name", "", "configuration name (required)")
	fs.Float64Var(&c.BandwidthMbit, "bandwidth-mbit", 0, "NIC bandwidth B of the cluster, Mbit/s (required; e.g. from iperf)")
	fs.IntVar(&c.Average, "average", 50, "time-average over the last this many steps")
	fs.IntVar(&c.PhaseSkip, "phase-skip", 1, "warm-up steps left out of the phase averages")
	netDesc := fs.String("network", "real-cluster", "network description recorded in the metadata")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dir == "" || *out == "" || c.Name == "" || !(c.BandwidthMbit > 0) {
		return fmt.Errorf("testbed reduce: -results, -out, -name and -bandwidth-mbit are required")
	}
	c.Model, c.Batch, c.DeviceSpeed, c.BytesScale = job.Profile, job.Batch, job.DeviceSpeed, job.BytesScale
	c.Servers, c.Sync, c.Transport, c.Order, c.Seed = job.Servers, job.Sync, job.Transport, job.Order, job.Seed
	c.Window, c.ConnWindow, c.Repetitions = job.Window, job.ConnWindow, 1
	job.Workers = 1
	plan, err := job.LoadPlan()
	if err != nil {
		return err
	}
	o, err := reduceResults(*dir, c, plan)
	if err != nil {
		return err
	}
	o.Network = *netDesc
	if err := o.fromProfileFile(filepath.Join(*dir, ProfileResultFile)); err != nil {
		return err
	}
	host := Host{Kernel: readTrim("/proc/sys/kernel/osrelease"), CPU: cpuModel(),
		Date: time.Now().UTC().Format(time.RFC3339), Command: "pslab testbed reduce " + strings.Join(args, " ")}
	if err := o.Write(*out, host, memory.NewGoAllocator()); err != nil {
		return err
	}
	for _, p := range o.Points {
		fmt.Fprintf(stdout, "W=%d %.1f ± %.1f examples/s (%d repetitions)\n", p.Workers, p.Mean, p.Std, len(p.Rates))
	}
	return nil
}

// reduceResults reads the throughput runs of a results directory.
func reduceResults(dir string, c Config, plan *Plan) (*Outcome, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	type key struct{ w, rep int }
	runs := map[key]map[int]*WorkerResult{}
	for _, e := range entries {
		m := resultName.FindStringSubmatch(e.Name())
		if m == nil {
			continue
		}
		w, _ := strconv.Atoi(m[1])
		rep, _ := strconv.Atoi(m[2])
		id, _ := strconv.Atoi(m[3])
		r, err := readResult(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		k := key{w, rep}
		if runs[k] == nil {
			runs[k] = map[int]*WorkerResult{}
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
			run.Steps = append(run.Steps, StepTimes{Start: r.Start, End: r.End})
		}
		x, err := Throughput(run.Steps, plan.Batch, c.Average)
		if err != nil {
			return nil, fmt.Errorf("testbed reduce: W=%d repetition %d: %w", k.w, k.rep, err)
		}
		if n := len(o.Points); n == 0 || o.Points[n-1].Workers != k.w {
			o.Points = append(o.Points, Point{Workers: k.w})
			o.Config.Workers = append(o.Config.Workers, k.w)
		}
		p := &o.Points[len(o.Points)-1]
		p.Rates = append(p.Rates, x)
		o.Runs = append(o.Runs, run)
		o.Config.Steps = len(run.Steps[0].End)
	}
	for i := range o.Points {
		o.Points[i].Mean, o.Points[i].Std = MeanStd(o.Points[i].Rates)
		o.Config.Repetitions = max(o.Config.Repetitions, len(o.Points[i].Rates))
	}
	return o, nil
}

func (o *Outcome) fromProfileFile(path string) error {
	r, err := readResult(path)
	if err != nil {
		return err
	}
	o.Config.ProfileSteps = len(r.Steps)
	o.Profile = Run{Workers: 1, Steps: []StepTimes{{Start: r.Start, End: r.End}}}
	return o.fromProfile(r)
}

func readResult(path string) (*WorkerResult, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r WorkerResult
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &r, nil
}
