package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strings"

	"pslab/engine/dataset"
	"pslab/engine/importer"
	"pslab/engine/kineto"
	"pslab/engine/timeline"
	"pslab/engine/trace"
	"pslab/engine/zoo"
)

// importFormats lists the formats of `pslab import`.
var importFormats = map[string]struct {
	summary string
	run     func(f *importFlags, files []string, stdout io.Writer) error
}{
	"tf-timeline":  {"TensorFlow Chrome-trace timelines (one or more files) → trace dataset", importTimeline},
	"kineto":       {"one PyTorch Kineto trace (.json or .json.gz) → per-layer profile dataset", importKineto},
	"measured-csv": {"one CSV of measured throughputs with units → measurement dataset", importMeasured},
}

// importFlags are the flags of every format; each format reads its own.
type importFlags struct {
	out, source, licence, notes, origin string
	model, platform, sync, transport    string
	order, clock                        string
	batch, servers, step, steps         int
	gpus                                int
	colocate                            bool
	bandwidth, alpha, beta              float64
	window                              int64
	command                             string
}

// importData converts external data into a pslab dataset:
//
//	pslab import <format> [flags] <files...> -o datasets/<name>/<file>.arrow
func importData(_ context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help") {
		importUsage(stdout)
		return nil
	}
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		importUsage(stderr)
		return usageError{errors.New("import: want a format first")}
	}
	format := args[0]
	spec, ok := importFormats[format]
	if !ok {
		importUsage(stderr)
		return usageError{fmt.Errorf("import: unknown format %q", format)}
	}
	f := &importFlags{command: "pslab import " + strings.Join(args, " ")}
	fs := flag.NewFlagSet("import "+format, flag.ContinueOnError)
	fs.SetOutput(stderr)
	setUsage(fs, "", "import "+format+" [flags] <files...> -o <out.arrow>\n\n"+spec.summary)
	fs.StringVar(&f.out, "o", "", "output Arrow file, e.g. datasets/mine/trace.arrow (required)")
	fs.StringVar(&f.source, "source", "", "where the data comes from: run, machine, date (default: the input file names)")
	fs.StringVar(&f.licence, "licence", "user-provided data; licence not stated", "licence of the data")
	fs.StringVar(&f.notes, "notes", "", "free-text notes stored with the data")
	fs.StringVar(&f.origin, "origin", dataset.Measured, "measured, reported or derived")
	fs.StringVar(&f.model, "model", "", "DNN name (tf-timeline, kineto: default from the file; measured-csv: if no model column)")
	fs.StringVar(&f.platform, "platform", "", "hardware and software of the run (tf-timeline, measured-csv)")
	fs.IntVar(&f.batch, "batch", 0, "examples per step per worker (0: from the file); measured-csv: per GPU, as pslab predict's -batch (the node's batch is -batch × -gpus-per-node)")
	fs.Float64Var(&f.bandwidth, "bandwidth", 0, "tf-timeline: link bandwidth during profiling, bytes/s")
	fs.Int64Var(&f.window, "window", 0, "HTTP/2 flow-control window, bytes (tf-timeline, measured-csv)")
	fs.Float64Var(&f.alpha, "alpha", 0, "tf-timeline: parsing overhead per byte, s/byte")
	fs.Float64Var(&f.beta, "beta", 0, "tf-timeline: parsing overhead per transfer, s")
	fs.IntVar(&f.servers, "servers", 0, "tf-timeline: parameter servers (0: from the file)")
	fs.IntVar(&f.servers, "ps", 0, "parameter servers, as pslab predict's -ps (tf-timeline: = -servers; measured-csv: if no ps column, 0: 1)")
	fs.IntVar(&f.gpus, "gpus-per-node", 0, "measured-csv: GPUs per worker node, as pslab predict's -gpus-per-node, if no gpus_per_node column (recorded in the dataset; 0: not stated, matches any)")
	fs.BoolVar(&f.colocate, "colocate", false, "measured-csv: one PS shard on every worker node, as pslab predict's -colocate (recorded; rows without a ps column get ps = workers)")
	fs.IntVar(&f.step, "step", 0, "kineto: index of the ProfilerStep the layers come from")
	fs.StringVar(&f.clock, "clock", "", "kineto: gpu (kernel time) or cpu (op wall time); default gpu if the trace has kernels")
	fs.StringVar(&f.sync, "sync", "", "measured-csv: asp or bsp, if no sync column")
	fs.StringVar(&f.transport, "transport", "", "measured-csv: transport, if no column")
	fs.StringVar(&f.order, "order", "", "measured-csv: stream order, if no column")
	fs.IntVar(&f.steps, "steps", 0, "measured-csv: steps averaged over, if no column (0: 1)")
	var files []string
	rest := args[1:]
	for { // flags may come before, between or after the files
		if err := fs.Parse(rest); err != nil {
			return err
		}
		if fs.NArg() == 0 {
			break
		}
		files, rest = append(files, fs.Arg(0)), fs.Args()[1:]
	}
	if err := f.check(format, files); err != nil {
		return err
	}
	return spec.run(f, files, stdout)
}

func importUsage(w io.Writer) {
	fmt.Fprintln(w, "usage: pslab import <format> [flags] <files...> -o <out.arrow>\n\nformats:")
	names := make([]string, 0, len(importFormats))
	for n := range importFormats {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-13s %s\n", n, importFormats[n].summary)
	}
	fmt.Fprintln(w, "\nRun 'pslab import <format> -h' for the flags.")
}

// check validates what every format shares: -o, the input files,
// -origin, and the counts, which cannot be negative (0: from the file).
// Every problem is a usage error naming the flag.
func (f *importFlags) check(format string, files []string) error {
	if f.out == "" {
		return usagef("import %s: -o <file.arrow> is required", format)
	}
	if !strings.HasSuffix(f.out, ".arrow") {
		return usagef("import %s: -o %s: the output must be an .arrow file", format, f.out)
	}
	if len(files) == 0 {
		return usagef("import %s: no input files", format)
	}
	switch f.origin {
	case dataset.Measured, dataset.Reported, dataset.Derived:
	default:
		return usagef("import %s: -origin %q (want measured, reported or derived)", format, f.origin)
	}
	for _, v := range []struct {
		flag, what string
		x          int64
	}{{"-batch", "examples per step ≥ 0 (0: from the file)", int64(f.batch)}, {"-window", "bytes ≥ 0 (0: from the file)", f.window},
		{"-servers", "parameter servers ≥ 0 (0: from the file)", int64(f.servers)},
		{"-gpus-per-node", "GPUs ≥ 0 (0: not stated)", int64(f.gpus)},
		{"-step", "a profiler step index ≥ 0", int64(f.step)}, {"-steps", "steps ≥ 0 (0: 1)", int64(f.steps)}} {
		if v.x < 0 {
			return usagef("import %s %s: %s %d: want %s", format, strings.Join(files, " "), v.flag, v.x, v.what)
		}
	}
	return nil
}

// provenance is the provenance of an import of files.
func (f *importFlags) provenance(files []string, notes string) dataset.Provenance {
	src := f.source
	if src == "" {
		src = "user-provided files: " + strings.Join(files, ", ")
	}
	if f.notes != "" {
		notes = f.notes + "; " + notes
	}
	return dataset.Provenance{Origin: f.origin, Source: src, Licence: f.licence, Command: f.command, Notes: notes}
}

func importTimeline(f *importFlags, files []string, stdout io.Writer) error {
	for _, v := range []struct {
		flag string
		x    float64
	}{{"-bandwidth", f.bandwidth}, {"-alpha", f.alpha}, {"-beta", f.beta}} {
		if math.IsNaN(v.x) || math.IsInf(v.x, 0) || v.x < 0 {
			return usagef("import tf-timeline: %s %g: want a finite value ≥ 0 (0: from the file)", v.flag, v.x)
		}
	}
	tr, rep, err := timeline.ReadFiles(files, trace.Meta{Source: f.source, Platform: f.platform, Model: f.model,
		Batch: f.batch, Bandwidth: f.bandwidth, Window: f.window, Alpha: f.alpha, Beta: f.beta, Servers: f.servers})
	if err != nil {
		return fmt.Errorf("import tf-timeline: %w", err)
	}
	notes := fmt.Sprintf("TF timeline import (engine/timeline): %d steps of %d ops; %d events, %d dropped ops "+
		"(sends, RecvTensor, PS ops before the step's transfers), %d ops gated on the first downlink, %d unresolved inputs",
		rep.Steps, rep.Ops, rep.Events, rep.Dropped, rep.Gated, rep.Unresolved)
	t := dataset.FromTrace(tr, f.provenance(files, notes))
	if err := dataset.Write(f.out, t, dataset.Allocator); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: %d steps × %d ops (%d downlinks %d B, %d worker, %d uplinks %d B, %d PS) from %d files\n",
		f.out, rep.Steps, rep.Ops, rep.Downlinks, rep.DownBytes, rep.WorkerOps, rep.Uplinks, rep.UpBytes, rep.PSOps, rep.Files)
	fmt.Fprintf(stdout, "events %d, skipped %d, dropped ops %d, gated %d, unresolved inputs %d\n",
		rep.Events, rep.Skipped, rep.Dropped, rep.Gated, rep.Unresolved)
	return nil
}

func importKineto(f *importFlags, files []string, stdout io.Writer) error {
	if len(files) != 1 {
		return usagef("import kineto: one trace (one rank) at a time, got %d files", len(files))
	}
	switch f.clock {
	case "", "gpu", "cpu":
	default:
		return usagef("import kineto %s: -clock %q: want gpu (kernel time) or cpu (op wall time); leave it out for gpu when the trace has kernels", files[0], f.clock)
	}
	in, err := os.Open(files[0])
	if err != nil {
		return err
	}
	defer in.Close()
	p, rep, err := kineto.Read(in, files[0], kineto.Options{Model: f.model, Batch: f.batch, Step: f.step, Clock: f.clock})
	var se *kineto.StepError
	if errors.As(err, &se) && se.Steps > 0 {
		return usagef("import kineto: -step %d: %s has %d profiler steps (give -step 0 to %d)", f.step, files[0], se.Steps, se.Steps-1)
	}
	if err != nil {
		return fmt.Errorf("import kineto: %w", err)
	}
	notes := fmt.Sprintf("Kineto import (engine/kineto): layers = forward cpu_ops with a sequence number, backward linked by "+
		"sequence number; %s clock; step %s (%d averaged); batch %d%s; %d NCCL kernels (%.6f s) excluded from compute; "+
		"%.6f s of GPU work outside layers; activation sizes unknown (0)",
		rep.Clock, rep.Step, rep.Averaged, rep.Batch, map[bool]string{true: " (inferred)", false: ""}[rep.BatchInferred],
		rep.NCCLKernels, rep.NCCLKernelSeconds, rep.UnattributedGPU)
	prov := f.provenance(files, notes)
	prov.Extra = map[string]string{"kineto_rank": fmt.Sprint(rep.Rank), "kineto_world_size": fmt.Sprint(rep.WorldSize),
		"kineto_backend": rep.Backend, "kineto_clock": rep.Clock}
	t, err := zoo.ProfileTable(p, prov)
	if err != nil {
		return err
	}
	if err := dataset.Write(f.out, t, dataset.Allocator); err != nil {
		return err
	}
	printKineto(stdout, f.out, p, rep)
	return nil
}

func printKineto(w io.Writer, out string, p *zoo.Profile, rep kineto.Report) {
	fmt.Fprintf(w, "%s: model %s, batch %d, %d layers (%d forward, %d backward-only), step %s (%d of %d steps averaged), %s clock\n",
		out, p.Model, p.Batch, rep.Layers, rep.ForwardLayers, rep.BackwardOnly, rep.Step, rep.Averaged, rep.Steps, rep.Clock)
	fmt.Fprintf(w, "forward %.3f ms, backward %.3f ms (%d backward ops linked by sequence number), outside layers %.3f ms GPU + %.3f ms AccumulateGrad; parameters %d bytes\n",
		rep.Forward*1e3, rep.Backward*1e3, rep.MatchedBackward, rep.UnattributedGPU*1e3, rep.UnattributedBwd*1e3, rep.ParamBytes)
	fmt.Fprintf(w, "NCCL kernels: %d, %.3f ms\n", rep.NCCLKernels, rep.NCCLKernelSeconds*1e3)
	for _, k := range rep.Kernels {
		fmt.Fprintf(w, "  %-50s %5d %10.3f ms\n", k.Name, k.Count, k.Seconds*1e3)
	}
	for _, c := range rep.Collectives {
		fmt.Fprintf(w, "  %-50s %5d calls %10.3f ms CPU %14d bytes\n", c.Name, c.Count, c.Seconds*1e3, c.Bytes)
	}
	if rep.ParamBytes == 0 {
		fmt.Fprintln(w, "warning: no layer with parameters: zoo.Synthesize needs at least one")
	}
}

func importMeasured(f *importFlags, files []string, stdout io.Writer) error {
	if len(files) != 1 {
		return usagef("import measured-csv: one CSV at a time, got %d files", len(files))
	}
	switch f.sync {
	case "", "asp", "bsp":
	default:
		return usagef("import measured-csv %s: -sync %q: want asp or bsp", files[0], f.sync)
	}
	in, err := os.Open(files[0])
	if err != nil {
		return err
	}
	defer in.Close()
	if f.colocate && f.servers != 0 {
		return usagef("import measured-csv %s: -colocate puts one PS on every node (ps = workers); leave out -ps", files[0])
	}
	opt := importer.MeasuredOptions{Source: f.source, Platform: f.platform, Model: f.model, Batch: f.batch * max(f.gpus, 1),
		Sync: f.sync, Servers: f.servers, GPUsPerNode: f.gpus, Colocated: f.colocate,
		Transport: f.transport, Order: f.order, Steps: f.steps, Window: f.window}
	t, err := importer.ReadMeasured(in, files[0], opt, f.provenance(files, "measured-csv import (engine/importer): units converted to examples/s and bytes"))
	var oe *importer.OptionError
	if errors.As(err, &oe) {
		flag := map[string]string{"Servers": "ps", "GPUsPerNode": "gpus-per-node"}[oe.Option]
		if flag == "" {
			flag = strings.ToLower(oe.Option)
		}
		return usagef("import measured-csv: %s: %s: give -%s", oe.File, oe.Problem, flag)
	}
	if err != nil {
		return fmt.Errorf("import measured-csv: %w", err)
	}
	if err := dataset.Write(f.out, t, dataset.Allocator); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: %d measurements\n", f.out, t.Len())
	return nil
}
