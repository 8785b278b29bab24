package beyond

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"pslab/engine/dataset"
	"pslab/engine/experiment"
	"pslab/engine/kinds/zhang"
	"pslab/engine/measured"
	"pslab/engine/predict"
	"pslab/engine/sim"
)

// Model names of testbed-accuracy beyond predict's (metric suffixes).
const (
	// tbaHybridWire is Lin et al.'s hybrid MVA on the testbed's own phase
	// file (phases.arrow, measured on the wire) instead of the phases
	// predict.FromTrace reads from the recorded trace.
	tbaHybridWire = "mva-hybrid-wire"
	// tbaZhang is zhang's synchronous PS model (engine/syncps).
	tbaZhang = "zhang"
	// tbaCynthiaBSP is Cynthia's own BSP model (cynthia.ModelCynthia).
	tbaCynthiaBSP = "cynthia-bsp"
	// tbaSimOnProcessor is the icpe20 simulator with the parsing overhead
	// placed on the receiving processor (sim.Processor, the other reading
	// of CATALOGUE I-15).
	tbaSimOnProcessor = "simulator-processor"
)

// tbaModels are the models of testbed-accuracy in drawing order; the first
// five are predict's.
var tbaModels = []string{string(predict.Simulator), string(predict.MVAExact), string(predict.MVAApproximate),
	string(predict.MVAHybrid), string(predict.Cynthia), tbaSimOnProcessor, tbaHybridWire, tbaZhang, tbaCynthiaBSP}

// tbaDrawn are the models drawn as bars (the others are metrics only).
var tbaDrawn = []string{string(predict.Simulator), string(predict.MVAExact), string(predict.MVAApproximate),
	string(predict.MVAHybrid), string(predict.Cynthia), tbaZhang, tbaCynthiaBSP}

// tbaLabel is a model's legend entry.
func tbaLabel(m string) string {
	switch m {
	case tbaHybridWire:
		return "Lin et al. MVA (hybrid, wire phases)"
	case tbaSimOnProcessor:
		return "icpe20 simulator (overhead on the processor)"
	case tbaZhang:
		return "zhang (BSP)"
	case tbaCynthiaBSP:
		return "Cynthia (own BSP model)"
	}
	return predict.Model(m).Label()
}

// tbaDataset is one [[params.dataset]]: a testbed configuration directory
// (an input) and the figure category it is averaged into.
type tbaDataset struct {
	Input string
	Group string
}

type tbaParams struct {
	// Estimate is how the simulator's throughput is obtained: "paper"
	// (default: icpe20's one run of Steps per worker, the first 50
	// completions excluded) or "converged" (predict's converged estimate,
	// sim.Estimate, until its 95% interval is within Precision; Steps is
	// each replication's initial length, 0 → sim.InitialSteps).
	Estimate string
	// Precision is the converged estimate's target relative half-width
	// (0 → sim.DefaultTarget).
	Precision float64
	// Steps is the number N of simulated steps per worker (paper) or the
	// replications' initial length (converged).
	Steps    int
	Datasets []tbaDataset `toml:"dataset"`
	// Profiles maps a DNN name of the testbed metadata to the input
	// holding its per-layer profile (zhang's layers).
	Profiles map[string]string
	// Constants are zhang's unprinted constants (CATALOGUE Z-10).
	Constants zhang.Constants
}

// testbedAccuracy predicts every measured testbed configuration (a
// directory of engine/testbed datasets per input) with every model that
// applies to it, from that configuration's own 1-worker profile only, and
// records the error against its measured throughput. Nothing is fitted to
// the multi-worker measurements. Only the measured points that hold their
// testbed judgement (points.arrow, tbaJudged) are predicted and judge a
// model; measured.judged.<dataset> and measured.unjudged.<dataset> count
// them, and a configuration none of whose points holds judges nothing.
// Metrics, in percent of |predicted − measured|/measured over those
// points, with their 95% intervals (tbaErrors: the converged estimate's
// against the measurement's over repetitions):
// error.mean.<dataset>.<model>, error.max.<dataset>.<model>,
// error.mean.all.<model> (mean over datasets of the per-dataset means,
// its interval the mean of theirs), iter_error.mean/max.zhang (zhang's
// iteration-time error, the quantity zhang states, the mean with its
// interval); and the diagnostics x1_profile_over_measured.<dataset>
// (batch / profiled step time over the measured 1-worker throughput),
// measured_peak_over_bound.<dataset> and
// simulator_peak_over_bound.<dataset> (largest throughput over the PS link
// bound; for converged estimates also simulator_peak_lo_over_bound, the
// largest lower end of their intervals). For a directory without per-point verdicts, with the testbed's
// configuration-wide artifact accounting (metadata
// testbed.acct.host_limited), also host_limited.<dataset> (1 or 0),
// datasets.in_budget and datasets.host_limited (how many), and
// error.mean.in_budget.<model> and error.mean.host_limited.<model> (the
// mean of the per-dataset means over each set). Bars: per group of
// datasets and accounting verdict (the group's label gets a last line
// "in budget" or "host-limited"), the mean of the per-dataset means, so
// that no bar mixes configurations the host limited with ones it did not.
//
// Decisions:
//
//   - ASP configurations get predict.Run on the recorded trace (its
//     bandwidth, WIN, α, β and PS count) with the configuration's transport
//     and order: the icpe20 simulator (params.estimate: converged
//     estimates until params.precision, shared with the run's other
//     experiments, or the paper procedure of params.steps per worker; seed
//     of the spec; parsing overhead α·bytes + β a delay on receive threads,
//     sim.ReceiveThreads, the repository's reading of I-15, and as
//     simulator-processor, a metric only, on the receiving processor,
//     sim.Processor, the other reading), Lin et al.'s exact, approximate and hybrid MVA on
//     predict.FromTrace's tcpdump phases (1 PS only: mascots18's phases are
//     those of one PS link) and Cynthia's formula as icpe20 restates it
//     (I-23, any PS count). The hybrid MVA is also run on the testbed's
//     wire-measured phases (phases.arrow, mascots18 §III-A's procedure) as
//     mva-hybrid-wire, a metric only, so the choice of phase source is
//     visible rather than made.
//   - Orders: tic is TicTac's transfer-count priority in both the testbed
//     and the simulator (sim.TICPriority). The testbed's random order is one
//     permutation for all steps seeded by its job; the simulator draws its
//     own (sim.Random), as icpe20's simulator would not know TensorFlow's.
//   - BSP configurations get zhang's syncps model and Cynthia's own BSP
//     model; the simulator, MVA and the icpe20 restatement of Cynthia model
//     asynchronous SGD only. zhang's layers: the PipeDream profile the
//     testbed emulated (input named by params.profiles), mapped as the
//     testbed maps it (measured.SyncPSLayers; checked against the bytes the
//     testbed sent), at the testbed's bandwidth, with zhang's unprinted
//     constants as stated in params.constants, unscaled (the testbed's
//     per-message costs are real). Cynthia: cynthia.ProfileFromTestbed from the
//     profiling run's mean step (steps.arrow), compute time and bytes
//     (metadata) and S^S (phases.arrow), as the cynthia-measured kind.
//   - The throughput file must describe the trace's configuration (model,
//     batch, PS count, sync, transport, order); a mismatch is an error.
func testbedAccuracy(ctx context.Context, env *experiment.Env) (*experiment.Result, error) {
	p := tbaParams{Estimate: "paper", Constants: zhang.UnsetConstants()}
	if err := env.Params(&p); err != nil {
		return nil, err
	}
	if err := p.check(env); err != nil {
		return nil, err
	}
	res := experiment.NewResult()
	groupSum, groupN := map[string]map[string]float64{}, map[string]map[string]int{}
	var groups []string
	// Over all configurations: the sum of per-configuration means and of
	// their interval ends, and whether any had an interval.
	allSum, allLo, allHi, allN, allCI := map[string]float64{}, map[string]float64{}, map[string]float64{}, map[string]int{}, map[string]bool{}
	// By accounting verdict (in_budget, host_limited): configurations,
	// and the sum and count of per-configuration means per set.model.
	setN, setSum, setModelN := map[string]int{}, map[string]float64{}, map[string]int{}
	var iterErrs []measured.RelError
	// Every configuration is read before any is predicted, so that the
	// work of all of them is bounded first.
	cs := make([]*measured.Config, len(p.Datasets))
	for i, d := range p.Datasets {
		c, err := measured.Load(env, d.Input)
		if err != nil {
			return nil, err
		}
		cs[i] = c
	}
	if err := p.checkWork(env, cs); err != nil {
		return nil, err
	}
	for i, d := range p.Datasets {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		c := cs[i]
		judged := tbaJudged(c)
		if c.Points != nil {
			res.Metric("measured.judged."+c.Name, float64(len(judged)))
			res.Metric("measured.unjudged."+c.Name, float64(len(c.Meas)-len(judged)))
		}
		if len(judged) == 0 {
			res.Note("%s: no measured point holds its testbed judgement (points.arrow, pslab testbed verify): it judges no model", c.Name)
			continue
		}
		var err error
		var rs []tbaResult
		if c.Sync == "asp" {
			rs, err = p.asp(env, res, c, judged)
		} else {
			var it []measured.RelError
			rs, it, err = p.bsp(env, res, c, judged)
			iterErrs = append(iterErrs, it...)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", d.Input, err)
		}
		limited, known, err := tbaBudget(c)
		if err != nil {
			return nil, env.Spec.Errorf([]string{"inputs", d.Input}, "input %q: %v", d.Input, err)
		}
		// Per-point verdicts (points.arrow) replace the configuration's:
		// its points that do not hold are left out above.
		known = known && c.Points == nil
		g := tbaBudgetGroup(d.Group, limited, known)
		if _, ok := groupSum[g]; !ok {
			groups = append(groups, g)
			groupSum[g], groupN[g] = map[string]float64{}, map[string]int{}
		}
		set := ""
		if known {
			set = tbaBudgetSet(limited)
			res.Metric("host_limited."+c.Name, tbaIndicator(limited))
			setN[set]++
		}
		if err := tbaAccuracy(res, c, rs, known && !limited); err != nil {
			return nil, fmt.Errorf("%s: %w", d.Input, err)
		}
		var parts []string
		for _, r := range rs {
			if r.interval {
				res.MetricInterval("error.mean."+c.Name+"."+r.model, r.mean, r.meanLo, r.meanHi)
				res.MetricInterval("error.max."+c.Name+"."+r.model, r.max, r.maxLo, r.maxHi)
			} else {
				res.Metric("error.mean."+c.Name+"."+r.model, r.mean)
				res.Metric("error.max."+c.Name+"."+r.model, r.max)
			}
			groupSum[g][r.model] += r.mean
			groupN[g][r.model]++
			allSum[r.model] += r.mean
			allLo[r.model] += r.meanLo
			allHi[r.model] += r.meanHi
			allCI[r.model] = allCI[r.model] || r.interval
			allN[r.model]++
			if set != "" {
				setSum[set+"."+r.model] += r.mean
				setModelN[set+"."+r.model]++
			}
			parts = append(parts, fmt.Sprintf("%s %.1f/%.1f", r.model, r.mean, r.max))
		}
		res.Note("%s (%s, %s %s, %d PS; %s): mean/max |error| %% %s", c.Name, c.Sync, c.Transport, c.Order, c.Servers,
			tbaBudgetNote(c, limited, known), strings.Join(parts, ", "))
	}
	for _, m := range tbaModels {
		if n := float64(allN[m]); n > 0 {
			if allCI[m] {
				res.MetricInterval("error.mean.all."+m, allSum[m]/n, allLo[m]/n, allHi[m]/n)
			} else {
				res.Metric("error.mean.all."+m, allSum[m]/n)
			}
			res.Metric("datasets."+m, n)
		}
		for _, set := range []string{tbaBudgetSet(false), tbaBudgetSet(true)} {
			if n := setModelN[set+"."+m]; n > 0 {
				res.Metric("error.mean."+set+"."+m, setSum[set+"."+m]/float64(n))
			}
		}
	}
	for set, n := range setN {
		res.Metric("datasets."+set, float64(n))
	}
	if len(iterErrs) > 0 {
		var abs measured.AbsErrors
		for _, re := range iterErrs {
			abs.Add(re.Scaled(100))
		}
		mean, lo, hi := abs.Mean()
		res.MetricInterval("iter_error.mean.zhang", mean, lo, hi)
		res.Metric("iter_error.max.zhang", abs.Max)
	}
	for _, m := range tbaDrawn {
		for _, g := range groups {
			if n := groupN[g][m]; n > 0 {
				res.Bar(tbaLabel(m), g, m, dataset.Derived, groupSum[g][m]/float64(n))
			}
		}
	}
	return res, nil
}

// check validates the parameters.
func (p *tbaParams) check(env *experiment.Env) error {
	switch {
	case p.Estimate != "paper" && p.Estimate != "converged":
		return env.Errorf("estimate", "estimate %q (want paper or converged)", p.Estimate)
	case p.Steps < 1 && (p.Estimate == "paper" || p.Steps < 0):
		return env.Errorf("steps", "%d simulated steps per worker, need ≥ 1 (converged: ≥ 0, 0 for sim.InitialSteps)", p.Steps)
	case math.IsNaN(p.Precision) || p.Precision < 0 || p.Precision > sim.MaxTarget:
		return env.Errorf("precision", "precision %v: want a relative half-width in (0, %g] (0: %g)", p.Precision, sim.MaxTarget, sim.DefaultTarget)
	}
	if len(p.Datasets) == 0 {
		return env.Errorf("dataset", "no [[params.dataset]]")
	}
	seen := map[string]bool{}
	for i, d := range p.Datasets {
		if d.Input == "" || slices.Contains(tbaReserved, d.Input) || strings.ContainsAny(d.Input, " .") || seen[d.Input] {
			return env.Errorf("dataset", "dataset %d: input %q must be set, unique, not one of %q, without spaces or dots (it names metrics)", i+1, d.Input, tbaReserved)
		}
		if !env.HasInput(d.Input) {
			return env.Errorf("dataset", "dataset %d: no input %q in [inputs]", i+1, d.Input)
		}
		if d.Group == "" {
			return env.Errorf("dataset", "dataset %q: group (the figure category) is empty", d.Input)
		}
		seen[d.Input] = true
	}
	for _, m := range env.Spec.Models {
		if !slices.Contains(tbaModels, m) {
			return env.Spec.Errorf([]string{"models"}, "unknown model %q (want %v)", m, tbaModels)
		}
	}
	return nil
}
