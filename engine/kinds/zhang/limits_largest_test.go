package zhang

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/experiment"
	"pslab/engine/experiment/experimenttest"
)

// The tests of this file hold every zhang kind to its limits. A zhang
// kind's work is its predictions, each PredictWork units (the M iterations
// of every layer's pipelines), and its result's rows; it estimates both
// before it predicts. For each kind the largest input the default
// [limits] model_work admits is found (experimenttest.Largest: its
// estimate, read without running it, is within the limit, and one percent
// more is refused before any prediction, naming the key), and a run of the
// committed experiment grown tenfold does at most the work it was
// admitted for, measured in model-work units and result rows, not timed.

// largestRoot is the repository root, relative to this package.
const largestRoot = "../../.."

// zhangRun runs kind fn on spec as <tmp>/zhang/<name>.toml with the
// repository's inputs.
func zhangRun(t *testing.T, fn experiment.RunFunc, name, spec string) (*experiment.Result, *experiment.Env, error) {
	t.Helper()
	return experimenttest.RunEnv(t, fn, t.TempDir(), filepath.Join("zhang", name+".toml"), spec, largestRoot, nil)
}

// zhangLargest checks kind fn on the family spec(n) of the committed
// experiment name (experimenttest.Largest from n0) and runs spec(grown)
// (a spec may read a negative grown as its own grown run), which must do
// at most its admitted work; it returns the largest n.
func zhangLargest(t *testing.T, fn experiment.RunFunc, name string, spec func(n int) string, n0, grown int) int {
	t.Helper()
	run := func(s string) (*experiment.Env, error) {
		_, env, err := zhangRun(t, fn, name, s)
		return env, err
	}
	n, est, _ := experimenttest.Largest(t, run, spec, "model_work", experiment.DefaultMaxModelWork, n0)
	res, env, err := zhangRun(t, fn, name, spec(grown))
	require.NoError(t, err)
	done := experimenttest.Bounded(t, env, res)
	require.Positive(t, env.Done().Model)
	t.Logf("%s: largest admitted n = %d (estimate %.3g units); the grown run did %.3g of %.3g admitted", name, n, est, done.Model, env.Charged().Model)
	return n
}

// TestLargestIterationTime: zhang-iteration-time (fig3) over a bandwidth
// sweep of n points (three DNNs each, plus the measured and ratio
// bandwidths) is admitted up to about 4,000 points, not the 65,536 a sweep
// may have; the committed constants (M = 100 iterations) set the cost.
func TestLargestIterationTime(t *testing.T) {
	experimenttest.LimitsFullSuiteOnly(t)
	t.Parallel()
	spec := func(n int) string {
		return experimenttest.Edited(t, largestRoot, "experiments/zhang/fig3.toml",
			"values = [1, 2, 5, 10, 20, 50, 100]\n", fmt.Sprintf("from = 1\nto = %d\n", n))
	}
	n := zhangLargest(t, zhangIterationTime, "fig3", spec, 100, 70)
	require.Less(t, n, experiment.MaxSweepPoints)
}

// TestLargestSweeps: zhang-sweeps (fig4, 22 configurations of one DNN)
// grows with zhang's constant M (constants.iterations, at most 10^6); a
// run with ten times the committed compute capabilities does at most its
// admitted work.
func TestLargestSweeps(t *testing.T) {
	experimenttest.LimitsFullSuiteOnly(t)
	t.Parallel()
	spec := func(n int) string {
		s := experimenttest.Edited(t, largestRoot, "experiments/zhang/fig4.toml")
		if n < 0 { // the grown run
			return experimenttest.ReplaceLine(t, s, "compute = [", "compute = "+experimenttest.Seq(60, 0.25))
		}
		return experimenttest.ReplaceLine(t, s, "iterations = ", fmt.Sprintf("iterations = %d", n))
	}
	zhangLargest(t, zhangSweeps, "fig4", spec, 50000, -1)
}

// TestLargestScalability: zhang-scalability (fig5) over a bandwidth sweep
// of n points: for each of four compute capabilities a prediction and a
// speedup (three runs of the pipelines).
func TestLargestScalability(t *testing.T) {
	experimenttest.LimitsFullSuiteOnly(t)
	t.Parallel()
	spec := func(n int) string {
		return experimenttest.Edited(t, largestRoot, "experiments/zhang/fig5.toml",
			"values = [1, 2, 5, 10, 20, 50, 100]\n", fmt.Sprintf("from = 1\nto = %d\n", n))
	}
	zhangLargest(t, zhangScalability, "fig5", spec, 1000, 70)
}

// TestLargestCompression: zhang-compression (fig6) with n cost factors,
// one curve of the twenty compression rates each.
func TestLargestCompression(t *testing.T) {
	experimenttest.LimitsFullSuiteOnly(t)
	t.Parallel()
	spec := func(n int) string {
		s := experimenttest.Edited(t, largestRoot, "experiments/zhang/fig6.toml")
		return experimenttest.ReplaceLine(t, s, "cost_factors = [", "cost_factors = "+experimenttest.Seq(n, 0.5))
	}
	zhangLargest(t, zhangCompression, "fig6", spec, 100, 20)
}

// TestLargestTestbedIterationTime: zhang-testbed-iteration-time
// (fig3-testbed, one AlexNet and one ResNet-50 configuration here, which
// keeps the test short) predicts each measured configuration once; its
// work grows with zhang's constant M (constants.iterations, at most 10^6),
// which the default model_work admits up to about 5·10^5 for them.
func TestLargestTestbedIterationTime(t *testing.T) {
	experimenttest.LimitsFullSuiteOnly(t)
	t.Parallel()
	spec := func(n int) string {
		// Two of the six configurations, and no ratio (it needs two of
		// each DNN).
		drop := []string{`ratio = ["AlexNet", "ResNet-50"]`, ""}
		for _, c := range []string{"alexnet-bsp-1000\"\ndnn = \"AlexNet", "resnet50-bsp-1000\"\ndnn = \"ResNet-50",
			"vgg16-bsp-100\"\ndnn = \"VGG-16", "vgg16-bsp-1000\"\ndnn = \"VGG-16"} {
			drop = append(drop, "[[params.dataset]]\ninput = \""+c+"\"\n", "")
		}
		s := experimenttest.Edited(t, largestRoot, "experiments/zhang/fig3-testbed.toml", drop...)
		return experimenttest.ReplaceLine(t, s, "iterations = ", fmt.Sprintf("iterations = %d", n))
	}
	zhangLargest(t, zhangTestbedIterationTime, "fig3-testbed", spec, 200000, 1000)
}
