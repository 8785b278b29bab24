package testbed

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strings"

	"pslab/engine/atomicfile"
	"pslab/engine/testbed/analysis"
	"pslab/engine/testbed/collection"
	"pslab/engine/testbed/config"
	"pslab/engine/testbed/network"
	"pslab/engine/testbed/node"
	"pslab/engine/testbed/training"
	"pslab/engine/trace"
)

// psMain is `pslab testbed ps`: serve one parameter server (node.ServePS)
// until every worker of the job has called Done. The first line on stdout
// is "listening <host:port>".
func psMain(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("testbed ps", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var job training.Job
	job.RegisterFlags(fs)
	listen := fs.String("listen", "127.0.0.1:0", "address to listen on (host:port)")
	index := fs.Int("index", 0, "index of this PS (0-based)")
	tap := fs.Bool("tap", false, "dissect the wire to report gradient arrival times (profiling)")
	shape := fs.Float64("shape-rate", 0, "loopback fallback: shape this host's NIC to this many bytes/s per direction (0: off)")
	burst := fs.Float64("shape-burst", 0, "with -shape-rate: the token buckets' depth in bytes (0: 1 ms of traffic, at least 16 KiB)")
	timeout := fs.Duration("timeout", 0, "fail after this long (0: never)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("testbed ps: unexpected arguments %v", fs.Args())
	}
	if err := checkShape(*shape, *burst); err != nil {
		return fmt.Errorf("testbed ps: %w", err)
	}
	if *timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *timeout)
		defer cancel()
	}
	o := node.PSOptions{Job: job, Index: *index, Listen: *listen, Tap: *tap}
	if *shape > 0 {
		o.Shaper = network.NewShaper(*shape, *burst)
	}
	return node.ServePS(ctx, o, stdout)
}

// checkShape refuses loopback shaping flags that are not finite and
// ≥ 0, naming the flag.
func checkShape(rate, burst float64) error {
	switch {
	case !(rate >= 0) || math.IsInf(rate, 0):
		return fmt.Errorf("-shape-rate %v: need a finite value ≥ 0", rate)
	case !(burst >= 0) || math.IsInf(burst, 0):
		return fmt.Errorf("-shape-burst %v: need a finite value ≥ 0", burst)
	}
	return nil
}

// workerMain is `pslab testbed worker`: train and write the WorkerResult
// as JSON to stdout (or -out).
func workerMain(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("testbed worker", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o node.WorkerOptions
	o.Job.RegisterFlags(fs)
	fs.IntVar(&o.ID, "id", 0, "worker index (0-based)")
	ps := fs.String("ps", "", "comma-separated PS addresses host:port, in PS index order")
	fs.IntVar(&o.Steps, "steps", 100, "training steps")
	fs.BoolVar(&o.Trace, "trace", false, "record the profiling trace and wire times")
	fs.IntVar(&o.FailAt, "fail-at", -1, "fault injection: fail at the start of this step (-1: never)")
	shape := fs.Float64("shape-rate", 0, "loopback fallback: shape this host's NIC to this many bytes/s per direction (0: off)")
	burst := fs.Float64("shape-burst", 0, "with -shape-rate: the token buckets' depth in bytes (0: 1 ms of traffic, at least 16 KiB)")
	out := fs.String("out", "-", "where to write the result JSON (-: stdout)")
	tl := fs.String("timeline", "", "with -trace: also write the recorded trace as a TensorFlow-style timeline (Chrome trace JSON) to this file")
	tlMbit := fs.Float64("bandwidth-mbit", 0, "NIC bandwidth B in Mbit/s recorded in the -timeline metadata (0: the -shape-rate if set, else unknown)")
	timeout := fs.Duration("timeout", 0, "fail after this long (0: never)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("testbed worker: unexpected arguments %v", fs.Args())
	}
	if *ps == "" {
		return errors.New("testbed worker: -ps is required")
	}
	if *tl != "" && !o.Trace {
		return errors.New("testbed worker: -timeline needs -trace")
	}
	if !(*tlMbit >= 0) {
		return fmt.Errorf("testbed worker: -bandwidth-mbit %v: need ≥ 0", *tlMbit)
	}
	if err := checkShape(*shape, *burst); err != nil {
		return fmt.Errorf("testbed worker: %w", err)
	}
	o.PS = strings.Split(*ps, ",")
	if *shape > 0 {
		o.Shaper = network.NewShaper(*shape, *burst)
	}
	if *timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *timeout)
		defer cancel()
	}
	res, err := node.RunWorkerProcess(ctx, o)
	if err != nil {
		return err
	}
	if *tl != "" {
		mbit := *tlMbit
		if mbit == 0 {
			mbit = *shape * 8 / 1e6
		}
		if err := writeWorkerTimeline(*tl, o.Job, res, mbit); err != nil {
			return err
		}
	}
	b, err := json.Marshal(res)
	if err != nil {
		return err
	}
	if *out == "-" {
		_, err = stdout.Write(b)
		return err
	}
	return atomicfile.Write(*out, b)
}

// writeWorkerTimeline writes the trace a -trace worker recorded as a
// TensorFlow-style timeline (collection.EncodeTimeline), atomically, with the
// metadata `pslab testbed run` gives the trace (collection.ProfileMeta): the
// overhead fitted to the worker's wire times (analysis.FitOverhead) and the window
// read from the wire; bandwidth mbit in Mbit/s (0: unknown).
func writeWorkerTimeline(path string, job training.Job, res *node.WorkerResult, mbit float64) error {
	plan, err := job.LoadPlan()
	if err != nil {
		return err
	}
	ov, err := analysis.FitOverhead(res.Transfers)
	if err != nil {
		return fmt.Errorf("testbed worker: -timeline: %w", err)
	}
	c := config.Config{BandwidthMbit: mbit, Servers: job.Servers, Transport: job.Transport, Window: job.Window}
	tr := &trace.Trace{Meta: collection.ProfileMeta("pslab testbed worker (measured)", "hand-started worker", plan, c, res.Window, ov), Steps: res.Steps}
	b, err := collection.EncodeTimeline(tr)
	if err != nil {
		return err
	}
	return atomicfile.Write(path, b)
}
