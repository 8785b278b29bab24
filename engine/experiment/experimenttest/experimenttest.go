// Package experimenttest runs an experiment kind on a spec written into a
// temporary repository, for the tests of the kinds packages (as
// net/http/httptest serves handlers for theirs).
package experimenttest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/dataset"
	"pslab/engine/experiment"
)

// Run writes tables (paths relative to dir) and the experiment
// file dir/<rel> (rel is "<paper>/<name>.toml" below any directory), loads
// it and runs kind fn with input paths resolved against inputRoot.
func Run(t *testing.T, fn experiment.RunFunc, dir, rel, spec, inputRoot string, tables map[string]*dataset.Table) (*experiment.Result, error) {
	t.Helper()
	s, err := experiment.Load(writeSpec(t, dir, rel, spec, tables))
	require.NoError(t, err)
	return fn(context.Background(), &experiment.Env{Spec: s, Root: inputRoot, Mem: dataset.Allocator})
}

// writeSpec writes tables (paths relative to dir) and the experiment file
// dir/<rel>, and returns its path.
func writeSpec(t *testing.T, dir, rel, spec string, tables map[string]*dataset.Table) string {
	t.Helper()
	for name, tab := range tables {
		require.NoError(t, dataset.Write(filepath.Join(dir, name), tab, dataset.Allocator))
	}
	p := filepath.Join(dir, rel)
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(t, os.WriteFile(p, []byte(spec), 0o644))
	return p
}

// CopyTestbed copies the trace, throughput, phases and steps files of the
// named testbed configurations (datasets/testbed/<config>/) and the given
// other files (paths relative to root) from the repository at root into
// dst, keeping their relative paths.
func CopyTestbed(t *testing.T, root, dst string, configs []string, files ...string) {
	t.Helper()
	for _, c := range configs {
		for _, f := range []string{"trace", "throughput", "phases", "steps"} {
			files = append(files, filepath.Join("datasets", "testbed", c, f+".arrow"))
		}
	}
	for _, rel := range files {
		b, err := os.ReadFile(filepath.Join(root, rel))
		require.NoError(t, err)
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dst, rel)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dst, rel), b, 0o644))
	}
}

// RunTemp writes spec as <a temporary directory>/rel and runs fn on it
// with inputRoot's inputs (RunEnv); file is the spec's path, for error
// locations.
func RunTemp(t *testing.T, fn experiment.RunFunc, rel, spec, inputRoot string) (res *experiment.Result, env *experiment.Env, file string, err error) {
	t.Helper()
	dir := t.TempDir()
	res, env, err = RunEnv(t, fn, dir, rel, spec, inputRoot, nil)
	return res, env, filepath.Join(dir, rel), err
}

// RunEnv is Run that also returns the Env the kind ran with, whose Done
// and Charged say what work the kind did and what its checks admitted.
func RunEnv(t *testing.T, fn experiment.RunFunc, dir, rel, spec, inputRoot string, tables map[string]*dataset.Table) (*experiment.Result, *experiment.Env, error) {
	t.Helper()
	s, err := experiment.Load(writeSpec(t, dir, rel, spec, tables))
	if err != nil {
		return nil, nil, err
	}
	env := &experiment.Env{Spec: s, Root: inputRoot, Mem: dataset.Allocator}
	res, err := fn(context.Background(), env)
	return res, env, err
}

// Edited returns the committed experiment file root/rel with the first
// occurrence of each old text replaced by its new text (oldNew alternates
// old and new; each old text must occur).
func Edited(t *testing.T, root, rel string, oldNew ...string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, rel))
	require.NoError(t, err)
	s := string(b)
	require.Zero(t, len(oldNew)%2, "old and new texts come in pairs")
	for i := 0; i < len(oldNew); i += 2 {
		require.Contains(t, s, oldNew[i], rel)
		s = strings.Replace(s, oldNew[i], oldNew[i+1], 1)
	}
	return s
}

// At is "path:line: " for the first line of spec that starts with prefix:
// where an error about that key is located.
func At(t *testing.T, path, spec, prefix string) string {
	t.Helper()
	for i, l := range strings.Split(spec, "\n") {
		if strings.HasPrefix(l, prefix) {
			return fmt.Sprintf("%s:%d: ", path, i+1)
		}
	}
	t.Fatalf("no line of the spec starts with %q", prefix)
	return ""
}

// Bounded checks that the work a kind did on env (Done, plus res's rows,
// metrics and notes at experiment.RowWork each) is at most what its checks
// admitted before it ran (Charged), and that this is within the spec's
// limits, and returns the work done: the limits bound the work the kind
// does, measured in events and model-work units, not in time.
func Bounded(t *testing.T, env *experiment.Env, res *experiment.Result) experiment.Work {
	t.Helper()
	done, charged := env.Done(), env.Charged()
	done.Model += res.RowWork()
	require.LessOrEqual(t, done.Events, charged.Events, "simulator events done vs admitted")
	require.LessOrEqual(t, done.Model, charged.Model, "model work done vs admitted")
	require.LessOrEqual(t, charged.Events, env.EventLimit(), "admitted events vs [limits] events")
	require.LessOrEqual(t, charged.Model, env.ModelWorkLimit(), "admitted model work vs [limits] model_work")
	return done
}

// WithLimits returns spec with the given "key = value" lines in its
// [limits] table: added to the table, replacing the same keys, or in a
// table appended when spec has none.
func WithLimits(spec string, lines ...string) string {
	keys := map[string]bool{}
	for _, l := range lines {
		k, _, _ := strings.Cut(l, "=")
		keys[strings.TrimSpace(k)] = true
	}
	in := strings.Split(spec, "\n")
	for i, l := range in {
		if strings.TrimSpace(l) != "[limits]" {
			continue
		}
		out := append(append([]string(nil), in[:i+1]...), lines...)
		j := i + 1
		for ; j < len(in) && !strings.HasPrefix(strings.TrimSpace(in[j]), "["); j++ {
			if k, _, ok := strings.Cut(in[j], "="); !ok || !keys[strings.TrimSpace(k)] {
				out = append(out, in[j])
			}
		}
		return strings.Join(append(out, in[j:]...), "\n")
	}
	return spec + "\n[limits]\n" + strings.Join(lines, "\n") + "\n"
}

// estimateRE matches the estimate of a CheckEvents or CheckModelWork
// refusal.
var estimateRE = regexp.MustCompile(`about ([0-9.e+-]+) (simulator events|units of model work) exceed`)

// Estimate is the estimate (events or model-work units, three significant
// digits) that the refusal err of CheckEvents or CheckModelWork gives; it
// fails the test if err is not such a refusal. A spec run under
// WithLimits(spec, "model_work = 1") reads its kind's estimate this way
// without doing the work.
func Estimate(t *testing.T, err error) float64 {
	t.Helper()
	require.Error(t, err)
	m := estimateRE.FindStringSubmatch(err.Error())
	require.NotNil(t, m, "not a refusal of the limits: %v", err)
	v, perr := strconv.ParseFloat(m[1], 64)
	require.NoError(t, perr)
	return v
}

// LimitsFullSuiteOnly skips t under go test -short. The tests that hold a
// kind to its limits bisect the largest admitted input and run the
// committed experiment grown tenfold (about 5 CPU-s over the kinds
// packages, measured); make test runs them, make test-short does not.
func LimitsFullSuiteOnly(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("short: limits at the largest admitted input run in the full suite (make test)")
	}
}

// Largest finds the largest input of a family spec(n), whose estimate
// grows with n, that the limit of key ("model_work" or "events", value
// limit) admits, without running it. Estimates are read from refusals
// under key = 1 (Estimate, three significant digits): doubling n from n0
// and bisecting to 0.2% of n, n is an input whose estimate reads at most
// 99.8% of the limit (so it is below it), and above the next one (at most
// 0.2% more where n is large) whose estimate reads above the limit.
// Largest checks that above is refused under the limit (the spec's own
// default unless limit differs from the default of key) before the kind
// counts any work, and returns n, its estimate and above. run runs a spec
// and returns the Env it ran with.
func Largest(t *testing.T, run func(spec string) (*experiment.Env, error), spec func(n int) string, key string, limit float64, n0 int) (n int, est float64, above int) {
	t.Helper()
	estimate := func(n int) float64 {
		_, err := run(WithLimits(spec(n), key+" = 1"))
		return Estimate(t, err)
	}
	admitted := func(n int) bool { return estimate(n) <= 0.998*limit }
	refused := func(n int) bool { return estimate(n) > limit }
	lo, hi := n0, 2*n0
	require.True(t, admitted(lo), "the first probe n0 = %d is admitted", n0)
	for !refused(hi) {
		if admitted(hi) {
			lo = hi
		}
		hi *= 2
		require.Less(t, hi, 1<<40, "the estimate grows with n")
	}
	// Bisect to 0.2% of n: the largest admitted below hi, then the
	// smallest refused above it.
	for up := hi; up-lo > max(1, lo/500); {
		if mid := lo + (up-lo)/2; admitted(mid) {
			lo = mid
		} else {
			up = mid
		}
	}
	for down := lo; hi-down > max(1, lo/500); {
		if mid := down + (hi-down)/2; refused(mid) {
			hi = mid
		} else {
			down = mid
		}
	}
	spec1 := spec(hi)
	if defaults := map[string]float64{"model_work": experiment.DefaultMaxModelWork, "events": experiment.DefaultMaxEvents}; limit != defaults[key] {
		spec1 = WithLimits(spec1, fmt.Sprintf("%s = %v", key, limit))
	}
	env, err := run(spec1)
	require.GreaterOrEqual(t, Estimate(t, err), limit, "the smallest input estimated above the limit is refused")
	require.NotNil(t, env, "refused by the kind, not when the spec is read")
	require.Zero(t, env.Done(), "refused before any work")
	return lo, estimate(lo), hi
}

// ReplaceLine replaces the first line of spec that starts with prefix by
// line.
func ReplaceLine(t *testing.T, spec, prefix, line string) string {
	t.Helper()
	lines := strings.Split(spec, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, prefix) {
			lines[i] = line
			return strings.Join(lines, "\n")
		}
	}
	t.Fatalf("no line of the spec starts with %q", prefix)
	return ""
}

// Seq is the TOML array [1, 2, ..., n] (scaled by step).
func Seq(n int, step float64) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = strconv.FormatFloat(float64(i+1)*step, 'g', -1, 64)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
