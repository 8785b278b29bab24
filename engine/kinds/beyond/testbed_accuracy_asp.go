package beyond

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"pslab/engine/experiment"
	"pslab/engine/measured"
	"pslab/engine/mva"
	"pslab/engine/predict"
	"pslab/engine/sim"
)

// asp predicts an ASP configuration at its judged points with
// predict.Run (simulator, MVA, Cynthia as icpe20 restates it) and the
// hybrid MVA on the wire phases.
func (p *tbaParams) asp(env *experiment.Env, res *experiment.Result, c *measured.Config, judged []predict.Measurement) ([]tbaResult, error) {
	mode, err := predict.ParseTransport(c.Transport)
	if err != nil {
		return nil, err
	}
	order, err := predict.ParseOrder(c.Order)
	if err != nil {
		return nil, err
	}
	var models []predict.Model
	for _, m := range predict.AllModels() {
		isMVA := strings.HasPrefix(string(m), "mva-")
		if env.UsesModel(string(m)) && (!isMVA || c.Servers == 1) { // Lin et al.'s phases are those of one PS
			models = append(models, m)
		}
	}
	ws := tbaWorkersOf(judged)
	var out []tbaResult
	// The events were bounded by checkWork and are counted as they run;
	// converged estimates are shared with the run's other experiments.
	cl := predict.Cluster{Paper: p.Estimate == "paper", Link: sim.Link{Mode: mode, Order: order}, Steps: p.Steps, Seed: env.Spec.Seed,
		OverheadOn: sim.ReceiveThreads, Progress: env.EventCounter(), Estimates: env.Estimates()}
	if !cl.Paper {
		cl.Precision = sim.Precision{Target: p.Precision, MaxEvents: p.eventShare(env, c, ws)}
	}
	if len(models) > 0 {
		pr, err := predict.Run(c.Trace, cl, ws, models)
		if err != nil {
			return nil, err
		}
		countASP(env, c, ws, models)
		for _, cv := range pr.Curves {
			r := tbaErrors(string(cv.Model), c, judged, cv.Throughput, halfWidths(cv))
			out = append(out, r)
			if cv.Model == predict.Simulator || cv.Model == predict.MVAHybrid {
				signed := make([]string, len(r.signed))
				for i, e := range r.signed {
					signed[i] = fmt.Sprintf("%+.0f", 100*e)
				}
				res.Note("%s: %s signed error %% at W = %v: %s", c.Name, cv.Model, ws, strings.Join(signed, " "))
			}
		}
		for _, cv := range pr.Curves {
			if cv.Model != predict.Simulator || math.IsInf(pr.LinkBound, 0) {
				continue
			}
			res.Metric("simulator_peak_over_bound."+c.Name, slices.Max(cv.Throughput)/pr.LinkBound)
			if cv.Lo != nil { // a converged peak: the lower end of its interval
				res.Metric("simulator_peak_lo_over_bound."+c.Name, slices.Max(cv.Lo)/pr.LinkBound)
			}
		}
		if !math.IsInf(pr.LinkBound, 0) {
			peak := 0.0
			for _, m := range judged {
				peak = math.Max(peak, m.Throughput)
			}
			res.Metric("measured_peak_over_bound."+c.Name, peak/pr.LinkBound)
		}
		if judged[0].Workers == 1 && pr.HasCoarse {
			// The models start from the profiling run: how fast was it
			// against the measured 1-worker runs?
			res.Metric("x1_profile_over_measured."+c.Name, float64(c.Batch)/pr.Coarse.Step/judged[0].Throughput)
		}
	}
	if env.UsesModel(tbaSimOnProcessor) {
		cl.OverheadOn = sim.Processor
		pr, err := predict.Run(c.Trace, cl, ws, []predict.Model{predict.Simulator})
		if err != nil {
			return nil, err
		}
		countASP(env, c, ws, nil)
		cv := pr.Curves[0]
		out = append(out, tbaErrors(tbaSimOnProcessor, c, judged, cv.Throughput, halfWidths(cv)))
	}
	if c.Servers == 1 && env.UsesModel(tbaHybridWire) {
		r, err := tbaHybridOnWire(c, judged)
		if err != nil {
			return nil, err
		}
		env.CountModelWork(tbaMVAWork(ws[len(ws)-1]))
		out = append(out, r)
	}
	return out, nil
}

// tbaHybridOnWire is the hybrid MVA on the phases.arrow row of c, at each
// judged point.
func tbaHybridOnWire(c *measured.Config, judged []predict.Measurement) (tbaResult, error) {
	ph := c.Phases
	if ph.Len() != 1 || ph.Strings("job")[0] != c.Model || int(ph.Ints("batch")[0]) != c.Batch {
		return tbaResult{}, fmt.Errorf("phases.arrow: want one row of %s at batch %d, have %d rows", c.Model, c.Batch, ph.Len())
	}
	phs := mva.Phases{Worker: ph.Floats("s_w")[0], Uplink: ph.Floats("s_u")[0], Server: ph.Floats("s_s")[0], Downlink: ph.Floats("s_d")[0]}
	x, err := mva.Curve(phs, judged[len(judged)-1].Workers, 1, mva.Hybrid)
	if err != nil {
		return tbaResult{}, fmt.Errorf("phases.arrow: %w", err)
	}
	pred := make([]float64, len(judged))
	for i, m := range judged {
		pred[i] = float64(c.Batch) * x[m.Workers-1]
	}
	return tbaErrors(tbaHybridWire, c, judged, pred, nil), nil
}
