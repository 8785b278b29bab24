package experiment

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"pslab/engine/atomicfile"
	"pslab/engine/dataset"
	"pslab/engine/golden"
	"pslab/engine/sim"
)

// Options configure a run.
type Options struct {
	// Root is the repository root: inputs, experiments/, figures/ and golden/
	// are relative to it.
	Root string
	// Write writes figures/<paper>/<name>.{svg,png,arrow}; without it the
	// experiments run in memory only (checks, tests).
	Write bool
	// Out, if set, is where figures/<paper>/<name>.* are written instead
	// of under Root (a shard directory of `pslab run -shard`).
	Out string
	// Parallel bounds how many experiments run at once; 0 means GOMAXPROCS.
	Parallel int
	// RecordTime writes each experiment's run time into its run file
	// (figures/<paper>/<name>.run.json); without it the recorded time is
	// kept, so that Write gives the same bytes on every run.
	RecordTime bool
	// Progress, if set, is called when an experiment finishes.
	Progress func(Outcome)
	// Draw renders each figure; Write needs it. The caller supplies it
	// (pslab run draws with engine/figure), so that this package and the
	// kinds, which never draw, do not link the plotting library: 1 CPU-s
	// of linking in make test-short (2026-11-28, two runs each).
	Draw DrawFunc

	// estimates is the cache Run gives every experiment (Env.Estimates).
	estimates *sim.EstimateCache
}

// DrawFunc renders the figure of experiment s from its result table t as
// SVG and PNG.
type DrawFunc func(s *Spec, t *dataset.Table) (svg, png []byte, err error)

// Outcome is what happened to one experiment.
type Outcome struct {
	Spec    *Spec
	Result  *Result
	Checks  []golden.Outcome
	Err     error
	Elapsed time.Duration
	// Golden is the golden file, nil if the experiment has none.
	Golden *golden.File
}

// Failed reports whether the run failed or a check failed.
func (o *Outcome) Failed() bool {
	if o.Err != nil {
		return true
	}
	for _, c := range o.Checks {
		if !c.Pass {
			return true
		}
	}
	return false
}

// Find returns the spec files named by args (files, or directories searched
// recursively for *.toml), sorted. With no args it finds every experiment
// under root/experiments. It is an error to find none.
func Find(root string, args []string) ([]string, error) {
	if len(args) == 0 {
		args = []string{filepath.Join(root, "experiments")}
	}
	var out []string
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			out = append(out, a)
			continue
		}
		err = filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".toml") {
				out = append(out, p)
			}
			return err
		})
		if err != nil {
			return nil, err
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no experiment files (*.toml) in %v", args)
	}
	sort.Strings(out)
	return out, nil
}

// GoldenPath returns golden/<paper>/<name>.toml under root.
func GoldenPath(root string, s *Spec) string {
	return filepath.Join(root, "golden", s.Paper, s.Name+".toml")
}

// FigurePath returns figures/<paper>/<name><ext> under root.
func FigurePath(root string, s *Spec, ext string) string {
	return filepath.Join(root, "figures", s.Paper, s.Name+ext)
}

// Run loads and runs the experiment files in parallel and returns their
// outcomes in the order of paths. Experiments start longest first by the
// run time recorded in their run files (RecordedElapsed), so that the
// longest one does not start last and leave the other processors idle:
// with beyond-testbed-accuracy (8.6 s of 19 s) started among the last,
// `pslab run` took 19–23 s on 2 cores; longest first, it ends close to
// its CPU time over the processors. The order of starts changes no result.
func Run(ctx context.Context, reg Registry, paths []string, opt Options) []Outcome {
	n := opt.Parallel
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	out := make([]Outcome, len(paths))
	opt.estimates = sim.NewEstimateCache()
	next := make(chan int, len(paths))
	for _, i := range longestFirst(opt.Root, paths) {
		next <- i
	}
	close(next)
	var wg sync.WaitGroup
	var mu sync.Mutex
	for range min(n, len(paths)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				out[i] = runOne(ctx, reg, paths[i], opt)
				if opt.Progress != nil {
					mu.Lock()
					opt.Progress(out[i])
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	return out
}

// longestFirst returns the indices of paths ordered by RecordedElapsed,
// longest first; experiments without a recorded time keep their order
// after the others.
func longestFirst(root string, paths []string) []int {
	elapsed := make([]float64, len(paths))
	order := make([]int, len(paths))
	for i, p := range paths {
		order[i] = i
		elapsed[i] = RecordedElapsed(root, p)
	}
	sort.SliceStable(order, func(a, b int) bool { return elapsed[order[a]] > elapsed[order[b]] })
	return order
}

// RecordedElapsed is the run time in seconds recorded for the experiment
// file path in its run file under root (pslab run -record-time), or 0 if
// the experiment or its run file cannot be read (runOne reports why).
func RecordedElapsed(root, path string) float64 {
	spec, err := Load(path)
	if err != nil {
		return 0
	}
	rf, err := ReadRunFile(RunFilePath(root, spec))
	if err != nil {
		return 0
	}
	return rf.ElapsedS
}

// runOne loads, runs and checks one experiment. Every input is validated
// before anything is written: the spec, its kind, the golden file (and the
// spec's status against it, CheckStatus), the result (every check must
// find its value) and the output directory; only then are the figure and
// result table written, the table with the figure's units and axis labels
// on its columns. Errors do not repeat the experiment id (Outcome.Spec
// carries it).
func runOne(ctx context.Context, reg Registry, path string, opt Options) (o Outcome) {
	start := time.Now()
	defer func() { o.Elapsed = time.Since(start) }()
	if err := ctx.Err(); err != nil {
		return Outcome{Err: err}
	}
	spec, err := Load(path)
	if err != nil {
		return Outcome{Err: err}
	}
	o.Spec = spec
	if err := spec.CheckInputs(opt.Root); err != nil {
		o.Err = err
		return o
	}
	kind, err := reg.Resolve(spec)
	if err != nil {
		o.Err = err
		return o
	}
	gp := GoldenPath(opt.Root, spec)
	g, err := golden.Load(gp)
	if errors.Is(err, fs.ErrNotExist) {
		o.Err = fmt.Errorf("no golden file %s: every experiment is checked", relTo(opt.Root, gp))
		return o
	}
	if err != nil {
		o.Err = err
		return o
	}
	o.Golden = g
	if err := CheckStatus(spec, g); err != nil {
		o.Err = err
		return o
	}
	if opt.Write {
		if opt.Draw == nil {
			o.Err = errors.New("experiment.Options: Write without Draw")
			return o
		}
		if err := Writable(FigurePath(opt.out(), spec, ".svg")); err != nil {
			o.Err = err
			return o
		}
	}
	env := &Env{Spec: spec, Root: opt.Root, Mem: dataset.Allocator, estimates: opt.estimates}
	env.trackInputs()
	res, err := kind.Run(ctx, env)
	if err != nil {
		o.Err = err
		return o
	}
	if err := env.checkInputsRead(); err != nil {
		o.Err = err
		return o
	}
	if res == nil || res.Table.Len() == 0 {
		o.Err = fmt.Errorf("kind %q returned no rows", spec.Kind)
		return o
	}
	o.Result = res
	res.Table.Schema = spec.Plot.resultSchema(res.Table.Schema) // units and axis labels
	res.Table.Provenance = dataset.Provenance{Origin: dataset.Derived,
		Source:  "pslab experiment " + spec.ID + " (" + filepath.ToSlash(relTo(opt.Root, path)) + ")",
		Command: "pslab run " + filepath.ToSlash(relTo(opt.Root, path)),
		Notes:   strings.Join(res.Notes, "\n"),
		Extra:   map[string]string{"title": spec.Title, "seed": fmt.Sprint(spec.Seed)}}
	o.Checks = g.Evaluate(res.Lookup)
	for _, c := range o.Checks {
		if !c.Found {
			o.Err = fmt.Errorf("%s: %s (nothing written)", relTo(opt.Root, gp), c.Message)
			return o
		}
	}
	if opt.Write && !o.Failed() { // a failed check writes nothing: figures/ holds only passing runs
		err := write(opt.out(), spec, res, opt.Draw)
		if err == nil {
			err = writeRunFile(opt.Root, opt.out(), spec, res, time.Since(start), opt.RecordTime)
		}
		if err != nil {
			o.Err = err
			return o
		}
	}
	return o
}

// out is the directory figures/ is written under: Out, or Root.
func (o Options) out() string {
	if o.Out != "" {
		return o.Out
	}
	return o.Root
}

// Writable reports an error if the file path cannot be created: a parent
// that exists but is not a directory, or an existing directory at path.
// It creates nothing, so commands can check every output before writing.
func Writable(path string) error {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return fmt.Errorf("output %s is a directory", path)
	}
	for dir := filepath.Dir(path); ; dir = filepath.Dir(dir) {
		st, err := os.Stat(dir)
		if err == nil {
			if !st.IsDir() {
				return fmt.Errorf("output %s: %s is not a directory", path, dir)
			}
			return nil
		}
		if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
			return fmt.Errorf("output %s: %w", path, err)
		}
		if parent := filepath.Dir(dir); parent == dir {
			return nil
		}
	}
}

func relTo(root, p string) string {
	if r, err := filepath.Rel(root, p); err == nil {
		return r
	}
	return p
}

// write renders and writes the figure and the result table (the run file,
// figures/<paper>/<name>.run.json, is written after it by writeRunFile). Every file is
// written atomically; nothing is written if rendering fails.
func write(root string, s *Spec, res *Result, draw DrawFunc) error {
	svg, png, err := draw(s, res.Table)
	if err != nil {
		return err
	}
	arrow, err := dataset.Encode(res.Table, dataset.Allocator)
	if err != nil {
		return err
	}
	files := map[string][]byte{".svg": svg, ".png": png, ".arrow": arrow}
	if res.Accuracy != nil {
		acc := *res.Accuracy
		acc.Provenance = dataset.Provenance{Origin: dataset.Derived, Source: res.Table.Provenance.Source,
			Command: res.Table.Provenance.Command, Notes: "per-point prediction errors against the measured data of the experiment's inputs"}
		if files[".accuracy.arrow"], err = dataset.Encode(&acc, dataset.Allocator); err != nil {
			return err
		}
	}
	for ext, b := range files {
		if err := atomicfile.Write(FigurePath(root, s, ext), b); err != nil {
			return err
		}
	}
	return nil
}
