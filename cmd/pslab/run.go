package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"

	"pslab/engine/experiment"
	"pslab/engine/kinds"
)

// command is one pslab subcommand.
type command struct {
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

// commands lists every subcommand; adding one is one entry here.
func commands() map[string]command {
	return map[string]command{
		"run": {"run experiments, write figures/<paper>/<name>.{svg,png,arrow}, check golden values",
			func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
				return runExperiments(ctx, args, true, stdout, stderr)
			}},
		"check": {"run experiments in memory and check golden values",
			func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
				return runExperiments(ctx, args, false, stdout, stderr)
			}},
		"list":     {"list experiments and experiment kinds", list},
		"datasets": {"rebuild every Arrow dataset under datasets/ from its source", buildDatasets},
		"import":   {"convert external data (tf-timeline, kineto, measured-csv) into a dataset: import <format> <files...> -o out.arrow", importData},
		"testbed":  {"real PS training over gRPC/TCP: run (collect datasets), ps, worker", testbedCmd},
		"predict":  {"predict PS throughput vs workers from a trace or per-layer profile: simulator, MVA, Cynthia (+ errors vs -measured)", predictThroughput},

		// Cynthia's Algorithm 1 on an instance catalogue (cmd/pslab/provision.go).
		"provision": {"Cynthia provisioning plan: instance type, workers, PS nodes and cost for a loss and time goal", provision},
		"version":   {"print the module version and VCS revision of this binary", version},
	}
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: pslab <command> [flags] [args]\n\ncommands:")
	cmds := commands()
	names := make([]string, 0, len(cmds))
	for n := range cmds {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, cmds[n].summary)
	}
	fmt.Fprintln(w, "\nRun 'pslab <command> -h' for the flags of a command.")
}

// Run executes one pslab command. Progress goes to stderr, results to stdout.
// A bad command line is a usageError (exit status 2, see exitCode).
func Run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		usage(stderr)
		return usageError{errors.New("no command")}
	}
	name, args := args[0], args[1:]
	if name == "help" || name == "-h" || name == "--help" {
		usage(stdout)
		return nil
	}
	c, ok := commands()[name]
	if !ok {
		usage(stderr)
		return usageError{fmt.Errorf("unknown command %q", name)}
	}
	return runCommand(ctx, c, args, stdout, stderr)
}

func runExperiments(ctx context.Context, args []string, write bool, stdout, stderr io.Writer) error {
	name := "check"
	if write {
		name = "run"
	}
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	root := fs.String("root", ".", "repository root (experiments/, datasets/, figures/, golden/)")
	parallel := fs.Int("j", 0, "experiments run at once (0: GOMAXPROCS)")
	verbose := fs.Bool("v", false, "print every check, not only failures and deviations")
	if err := fs.Parse(args); err != nil {
		return err
	}
	paths, err := experiment.Find(*root, fs.Args())
	if err != nil {
		return err
	}
	opt := experiment.Options{Root: *root, Write: write, Parallel: *parallel,
		Progress: func(o experiment.Outcome) { progress(stderr, o, *verbose) }}
	outs := experiment.Run(ctx, kinds.Registry(), paths, opt)
	failed, checks, deviations := 0, 0, 0
	for _, o := range outs {
		checks += len(o.Checks)
		for _, c := range o.Checks {
			if c.Deviates {
				deviations++
			}
		}
		if o.Failed() {
			failed++
		}
	}
	fmt.Fprintf(stdout, "%d experiments, %d checks, %d recorded deviations, %d failed\n", len(outs), checks, deviations, failed)
	if failed > 0 {
		return fmt.Errorf("%d of %d experiments failed", failed, len(outs))
	}
	return nil
}

func progress(w io.Writer, o experiment.Outcome, verbose bool) {
	id := "?"
	if o.Spec != nil {
		id = o.Spec.ID
	}
	if o.Err != nil {
		fmt.Fprintf(w, "FAIL %s: %v\n", id, o.Err)
		return
	}
	status := "ok  "
	if o.Failed() {
		status = "FAIL"
	}
	fmt.Fprintf(w, "%s %-28s %3d checks  %v\n", status, id, len(o.Checks), o.Elapsed.Round(1e6))
	for _, c := range o.Checks {
		switch {
		case !c.Pass:
			fmt.Fprintf(w, "     fail: %s\n", c.Message)
		case c.Deviates:
			fmt.Fprintf(w, "     deviation: %s\n", c.Message)
		case verbose:
			fmt.Fprintf(w, "     pass: %s\n", c.Message)
		}
	}
}

func list(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("list", flag.ContinueOnError)
	fs.SetOutput(stderr)
	root := fs.String("root", ".", "repository root")
	if err := fs.Parse(args); err != nil {
		return err
	}
	paths, err := experiment.Find(*root, fs.Args())
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(stdout, 2, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "EXPERIMENT\tKIND\tSTATUS\tFILE")
	var errs []error
	for _, p := range paths {
		s, err := experiment.Load(p)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		rel, _ := filepath.Rel(*root, p)
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", s.ID, s.Kind, s.Status, rel)
	}
	tw.Flush()
	reg := kinds.Registry()
	names := reg.Names()
	sort.Strings(names)
	fmt.Fprintln(stdout, "\nKINDS")
	for _, n := range names {
		fmt.Fprintf(stdout, "  %-28s %s (models: %s)\n", n, reg[n].Doc, strings.Join(reg[n].Models, ", "))
	}
	return errors.Join(errs...)
}
