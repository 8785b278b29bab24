package testbed

import (
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/apache/arrow/go/v17/arrow/memory"

	"pslab/engine/testbed/collection"
	"pslab/engine/testbed/config"
	"pslab/engine/testbed/training"
)

// reduceMain is `pslab testbed reduce`: turn the worker results of runs
// made by hand (PS and workers started on real hosts, see doc.go) into the
// same datasets `pslab testbed run` writes.
func reduceMain(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("testbed reduce", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c config.Config
	var job training.Job
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
	o, err := collection.Reduce(*dir, c, plan)
	if err != nil {
		return err
	}
	o.Network = *netDesc
	if err := o.FromProfileFile(filepath.Join(*dir, collection.ProfileResultFile)); err != nil {
		return err
	}
	host := collection.Host{Kernel: readTrim("/proc/sys/kernel/osrelease"), CPU: cpuModel(),
		Date: time.Now().UTC().Format(time.RFC3339), Command: "pslab testbed reduce " + strings.Join(args, " ")}
	if err := o.Write(*out, host, memory.NewGoAllocator()); err != nil {
		return err
	}
	for _, p := range o.Points {
		fmt.Fprintf(stdout, "W=%d %.1f ± %.1f examples/s (%d repetitions)\n", p.Workers, p.Mean, p.Std, len(p.Rates))
	}
	return nil
}
