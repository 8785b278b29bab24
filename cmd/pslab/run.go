package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"pslab/engine/experiment"
	"pslab/engine/golden"
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
		"merge":    {"join the shards of 'pslab run -shard i/N' or 'pslab predict -shard i/N' into the outputs of one run: merge DIR...", mergeShards},
		"datasets": {"rebuild every Arrow dataset under datasets/ from its source", buildDatasets},
		"import":   {"convert external data (tf-timeline, kineto, measured-csv) into a dataset: import <format> <files...> -o out.arrow", importData},
		"testbed":  {"real PS training over gRPC/TCP: run (collect datasets), ps, worker", testbedCmd},
		"export":   {"convert an Arrow dataset to Parquet or CSV, keeping units and provenance: export -format parquet|csv FILE.arrow -o OUT", exportData},
		"report":   {"write the HTML report of every experiment, dataset and model from the recorded results: report -o report/", buildReport},
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
	fmt.Fprintln(w, "\nRun 'pslab help <command>' or 'pslab <command> -h' for the flags of a command;\n"+
		"'pslab --version' prints the version.")
}

// help is `pslab help <command> [args]`: the command's usage and flags on
// stdout, as `pslab <command> [args] -h` prints them (args select a
// subcommand: pslab help import kineto).
func help(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c, ok := commands()[args[0]]
	if !ok {
		usage(stderr)
		return usagef("help: unknown command %q", args[0])
	}
	return runCommand(ctx, c, append(append([]string(nil), args[1:]...), "-h"), stdout, stderr)
}

// Run executes one pslab command. Progress goes to stderr, results to stdout.
// A bad command line is a usageError (exit status 2, see exitCode).
func Run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		usage(stderr)
		return usageError{errors.New("no command")}
	}
	name, args := args[0], args[1:]
	switch name {
	case "help", "-h", "-help", "--help":
		if name == "help" && len(args) > 0 {
			return help(ctx, args, stdout, stderr)
		}
		usage(stdout)
		return nil
	case "-version", "--version":
		name = "version"
	}
	c, ok := commands()[name]
	if !ok {
		usage(stderr)
		return usageError{fmt.Errorf("unknown command %q", name)}
	}
	return runCommand(ctx, c, args, stdout, stderr)
}

// runExperiments is `pslab run` (write) and `pslab check`. Progress, one
// line per finished experiment (k/N, elapsed), goes to stderr; the results,
// grouped by paper, go to stdout.
func runExperiments(ctx context.Context, args []string, write bool, stdout, stderr io.Writer) (err error) {
	name := "check"
	if write {
		name = "run"
	}
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	setUsage(fs, name, name+" [flags] [experiment files or dirs]")
	root := fs.String("root", ".", "repository root (experiments/, datasets/, figures/, golden/)")
	parallel := fs.Int("j", 0, "experiments run at once (0: GOMAXPROCS)")
	verbose := fs.Bool("v", false, "print every check, not only failures and deviations")
	quiet := quietFlag(fs)
	var sh shardFlags // -shard (cmd/pslab/shard.go)
	if write {
		sh.register(fs, args)
	}
	recordTime := fs.Bool("record-time", false, "run: record each experiment's run time in figures/<paper>/<name>.run.json (use with -j 1)")
	format := registerFormat(fs, "one row per check")
	var prof cpuProfile
	prof.register(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := checkFormat(name, *format); err != nil {
		return err
	}
	if *parallel < 0 {
		return usagef("%s: -j %d: want the number of experiments run at once, ≥ 1 (0: GOMAXPROCS)", name, *parallel)
	}
	if err := prof.start(); err != nil {
		return err
	}
	defer func() { err = prof.stop(err) }()
	if err := sh.parse(name); err != nil {
		return err
	}
	paths, err := experiment.Find(*root, fs.Args())
	if err != nil {
		return err
	}
	if err := experiment.CheckUnique(paths); err != nil {
		return usageError{err}
	}
	opt := experiment.Options{Root: *root, Write: write, Parallel: *parallel, RecordTime: *recordTime, Draw: drawFigure}
	all := len(paths)
	if paths, err = sh.experiments(paths, &opt); err != nil {
		return err
	}
	if bar := newBar(stderr, *quiet, int64(len(paths)), name, "experiments"); bar != nil {
		opt.Progress = func(o experiment.Outcome) {
			bar.Describe(fmt.Sprintf("%s: %s %s", name, status(o), outcomeID(o)))
			_ = bar.Add(1)
		}
		defer bar.Close()
	}
	outs := experiment.Run(ctx, kinds.Registry(), paths, opt)
	if err := sh.finishRun(*root, all, outs, stderr); err != nil {
		return err
	}
	if *format != "text" {
		doc := resultsDoc(*root, paths, outs)
		if err := writeResults(stdout, *format, doc); err != nil {
			return err
		}
		if doc.Summary.Failed > 0 {
			return fmt.Errorf("%d of %d experiments failed", doc.Summary.Failed, len(outs))
		}
		return nil
	}
	failed, checks, deviations, inconclusive, written := summarize(stdout, outs, *verbose)
	fmt.Fprintf(stdout, "%d experiments, %d checks, %d recorded deviations, %d inconclusive, %d failed\n", len(outs), checks, deviations, inconclusive, failed)
	if write {
		fmt.Fprintf(stdout, "wrote %d figures and result tables to %s/<paper>/<name>.{svg,png,arrow}\n",
			written, filepath.Join(outRoot(opt), "figures"))
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d experiments failed", failed, len(outs))
	}
	return nil
}

// outRoot is the directory figures/ was written under: a shard's
// directory with -shard, else -root.
func outRoot(opt experiment.Options) string {
	if opt.Out != "" {
		return opt.Out
	}
	return opt.Root
}

func outcomeID(o experiment.Outcome) string {
	if o.Spec != nil {
		return o.Spec.ID
	}
	return "?"
}

func status(o experiment.Outcome) string {
	if o.Failed() {
		return "FAIL"
	}
	return "ok  "
}

// maxColumns bounds the width of result lines; longer messages wrap.
const maxColumns = 120

// summarize prints the outcomes grouped by paper (in experiment.Papers
// order): per experiment its status and check count, then failures,
// deviations and, with verbose, passing checks. It returns the counts and
// how many experiments produced outputs.
func summarize(w io.Writer, outs []experiment.Outcome, verbose bool) (failed, checks, deviations, inconclusive, ok int) {
	byPaper := map[string][]experiment.Outcome{}
	for _, o := range outs {
		paper := "(unreadable)"
		if o.Spec != nil {
			paper = o.Spec.Paper
		}
		byPaper[paper] = append(byPaper[paper], o)
	}
	for _, paper := range append(slices.Clone(experiment.Papers), "(unreadable)") {
		group := byPaper[paper]
		if len(group) == 0 {
			continue
		}
		fmt.Fprintf(w, "%s\n", paper)
		for _, o := range group {
			checks += len(o.Checks)
			if o.Failed() {
				failed++
			} else if o.Result != nil {
				ok++
			}
			if o.Err != nil {
				wrap(w, "  FAIL "+outcomeID(o)+": ", o.Err.Error())
				continue
			}
			fmt.Fprintf(w, "  %s %-28s %3d checks  %v\n", status(o), outcomeID(o), len(o.Checks), o.Elapsed.Round(time.Millisecond))
			for _, c := range o.Checks {
				switch {
				case !c.Pass:
					wrap(w, "       fail: ", c.Message)
				case c.Deviates:
					deviations++
					wrap(w, "       deviation: ", c.Message)
				case c.Verdict == golden.Inconclusive:
					inconclusive++
					wrap(w, "       inconclusive: ", c.Message)
				case verbose:
					wrap(w, "       pass: ", c.Message)
				}
			}
		}
	}
	return failed, checks, deviations, inconclusive, ok
}

// wrap prints prefix+text in lines of at most maxColumns runes, breaking
// at spaces (a word longer than a line is cut) and indenting continuation
// lines under the text.
func wrap(w io.Writer, prefix, text string) {
	indent := strings.Repeat(" ", min(utf8.RuneCountInString(prefix), 40))
	line, width := prefix, utf8.RuneCountInString(prefix)
	for _, word := range strings.Fields(text) {
		n := utf8.RuneCountInString(word)
		if width+1+n > maxColumns && width > len(indent) {
			fmt.Fprintln(w, strings.TrimRight(line, " "))
			line, width = indent, len(indent)
		}
		for width+n > maxColumns { // a word wider than a line
			r := []rune(word)
			cut := maxColumns - width
			fmt.Fprintln(w, line+string(r[:cut]))
			word, n = string(r[cut:]), n-cut
			line, width = indent, len(indent)
		}
		if width > len(indent) && !strings.HasSuffix(line, " ") {
			line += " "
			width++
		}
		line += word
		width += n
	}
	fmt.Fprintln(w, strings.TrimRight(line, " "))
}
