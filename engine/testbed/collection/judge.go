package collection

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"pslab/engine/testbed/accounting"
	"pslab/engine/testbed/analysis"
)

// RunFacts is what judging a point needs of one of its runs, from an
// Outcome in memory or read back from a committed dataset (ReadFacts).
type RunFacts struct {
	Workers, Repetition int
	// Dilation is the run's stretch factor k (1: as configured).
	Dilation float64
	// Throughput is the run's throughput on the configuration's time
	// scale (examples/s): its own × Dilation.
	Throughput float64
	// Steps are the step times of every worker (nil if not recorded).
	Steps []analysis.StepTimes
	// Contention and Retrans are the largest of the run's PS and worker
	// processes (shares, 0..1), Other the CPU used by other work on the
	// host during the run (cores).
	Contention, Retrans, Other float64
	// Lost is the largest share of a process's segments retransmitted and
	// not reported as duplicates (accounting.ProcUsage.Lost) when DSACK,
	// the run's accounting counted D-SACKs (version 4); Retrans otherwise.
	Lost  float64
	DSACK bool
}

// JudgeInput is what judging needs of the configuration.
type JudgeInput struct {
	// Batch is the examples per worker step; Average the steps averaged
	// per run (Throughput).
	Batch, Average int
	// Unscaled is the configuration's unscaled share (accounting); it is
	// judged for the configuration as a whole (Verify, Outcome.Judge), not
	// per point.
	Unscaled float64
	// Dilations are the configured stretch factors (config.Config).
	Dilations []float64
}

// ModeSummary is one operating mode of a point.
type ModeSummary struct {
	analysis.Mode
	// CI is the relative half-width of the 95% interval of the mode's
	// mean over its runs (+Inf with one run).
	CI float64
	// Synchrony and StartSpread are its runs' means (analysis.Synchrony,
	// analysis.StartSpread, s): the mode's signature.
	Synchrony, StartSpread float64
}

// PointVerdict is the judgement of one point: a W at one dilation
// (engine/testbed doc, "Judging a point").
type PointVerdict struct {
	Workers  int
	Dilation float64
	Runs     []RunFacts
	// Rates are the runs' throughputs; CI its relative 95% half-width
	// (Student t over the runs; +Inf with one run).
	Rates analysis.Sample
	CI    float64
	// BatchCI (within-run batch means, analysis.BatchCI) and StepCV
	// (analysis.StepCI) are diagnostics; NaN without step times.
	BatchCI, StepCV float64
	// Bimodality is the runs' bimodality coefficient, Modes the
	// operating modes analysis.Modes found (nil: one mode, or too few
	// runs to tell).
	Bimodality float64
	Modes      []ModeSummary
	// Synchrony and StartSpread (s) are the runs' means.
	Synchrony, StartSpread float64
	// Contention, Retrans, Lost (shares) and Other (cores) are the
	// largest of the runs; DSACK says every run counted D-SACKs (else
	// Lost is not known and the limit judges Retrans).
	Contention, Retrans, Lost, Other float64
	DSACK                            bool
	// Agreement compares a stretched point with the unstretched one of
	// its W (zero for Dilation 1).
	Agreement analysis.Agreement
	// Sensitivity says how the point fared under dilation: the stretched
	// points of its W, or the stretched point that covers it.
	Sensitivity string
	// Unjudged says why the point cannot be judged ("" if it can).
	Unjudged string
	// Why lists what the point breaks ("" none).
	Why []string
}

// knownLost is Lost when the runs counted D-SACKs, NaN (not measured)
// otherwise.
func (p *PointVerdict) knownLost() float64 {
	if !p.DSACK {
		return math.NaN()
	}
	return p.Lost
}

// Holds reports whether the point was judged and breaks nothing.
func (p *PointVerdict) Holds() bool { return p.Unjudged == "" && len(p.Why) == 0 }

// summarize computes a point's statistics from its runs.
func summarize(runs []RunFacts, in JudgeInput) PointVerdict {
	p := PointVerdict{Workers: runs[0].Workers, Dilation: runs[0].Dilation, Runs: runs,
		BatchCI: math.NaN(), StepCV: math.NaN(), Synchrony: math.NaN(), StartSpread: math.NaN()}
	xs := make([]float64, len(runs))
	var steps [][]analysis.StepTimes
	p.DSACK = true
	for i, r := range runs {
		xs[i] = r.Throughput
		p.Contention, p.Retrans, p.Other = max(p.Contention, r.Contention), max(p.Retrans, r.Retrans), max(p.Other, r.Other)
		p.Lost, p.DSACK = max(p.Lost, r.Lost), p.DSACK && r.DSACK
		if r.Steps != nil {
			steps = append(steps, r.Steps)
		}
	}
	p.Rates = analysis.NewSample(xs)
	p.CI = p.Rates.RelHalfWidth()
	if len(steps) == len(runs) {
		if ci, err := analysis.BatchCI(steps, in.Batch, in.Average, ciBatches); err == nil {
			p.BatchCI = ci
		}
		_, p.StepCV = analysis.StepCI(steps, in.Average)
		p.Synchrony, p.StartSpread = signature(runs, nil, in.Average)
	}
	var modes []analysis.Mode
	p.Bimodality, modes = analysis.Modes(xs, accounting.MaxCI)
	for _, m := range modes {
		var sub []float64
		for _, i := range m.Runs {
			sub = append(sub, xs[i])
		}
		ms := ModeSummary{Mode: m, CI: analysis.NewSample(sub).RelHalfWidth(), Synchrony: math.NaN(), StartSpread: math.NaN()}
		if len(steps) == len(runs) {
			ms.Synchrony, ms.StartSpread = signature(runs, m.Runs, in.Average)
		}
		p.Modes = append(p.Modes, ms)
	}
	return p
}

// signature is the mean synchrony and start spread of the runs with the
// given indices (all if nil).
func signature(runs []RunFacts, idx []int, last int) (sync, spread float64) {
	if idx == nil {
		for i := range runs {
			idx = append(idx, i)
		}
	}
	n := 0
	for _, i := range idx {
		if s := analysis.Synchrony(runs[i].Steps, last); !math.IsNaN(s) {
			sync += s
			n++
		}
		spread += analysis.StartSpread(runs[i].Steps)
	}
	if n == 0 {
		return math.NaN(), spread / float64(len(idx))
	}
	return sync / float64(n), spread / float64(len(idx))
}

// ciBatches is the number of batches each run's averaging window is cut
// into for the batch-means diagnostic (analysis.BatchCI).
const ciBatches = 5

// Judge groups runs into points and judges them (engine/testbed doc,
// "Judging a point"): the unstretched points by W, and the stretched
// points by W and dilation.
func Judge(runs []RunFacts, in JudgeInput) (points, stretched []PointVerdict) {
	type key struct {
		w int
		k float64
	}
	groups := map[key][]RunFacts{}
	var keys []key
	for _, r := range runs {
		k := key{r.Workers, max(1, r.Dilation)}
		r.Dilation = k.k
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], r)
	}
	slices.SortFunc(keys, func(a, b key) int { return cmp.Or(cmp.Compare(a.w, b.w), cmp.Compare(a.k, b.k)) })
	base := map[int]int{}
	for _, k := range keys {
		p := summarize(groups[k], in)
		if k.k == 1 {
			base[k.w] = len(points)
			points = append(points, p)
		} else {
			stretched = append(stretched, p)
		}
	}
	for i := range stretched {
		s := &stretched[i]
		if b, ok := base[s.Workers]; ok {
			s.Agreement = analysis.Agree(points[b].Rates, s.Rates)
		}
		s.Why = limits(s)
	}
	for i := range points {
		judgePoint(&points[i], points, stretched, in)
	}
	return points, stretched
}

// limits lists the limits a point's runs break: retransmissions (those
// not reported as duplicates, when the runs counted D-SACKs) and other
// work.
func limits(p *PointVerdict) []string {
	var why []string
	if p.DSACK && p.Lost > accounting.MaxRetrans {
		why = append(why, fmt.Sprintf("%.2f%% of TCP segments retransmitted and not reported duplicate (D-SACK) > %.1f%%", 100*p.Lost, 100*accounting.MaxRetrans))
	} else if !p.DSACK && p.Retrans > accounting.MaxRetrans {
		why = append(why, fmt.Sprintf("%.2f%% of TCP segments retransmitted > %.1f%%", 100*p.Retrans, 100*accounting.MaxRetrans))
	}
	if p.Other > accounting.MaxOther {
		why = append(why, fmt.Sprintf("other work %.2f cores > %.2f", p.Other, accounting.MaxOther))
	}
	return why
}

// judgePoint sets the verdict of the unstretched point p: its precision,
// its limits and its dilation sensitivity, from its own stretched points
// or the stretched point that covers it.
func judgePoint(p *PointVerdict, points, stretched []PointVerdict, in JudgeInput) {
	p.Why = limits(p)
	if !(p.CI <= accounting.MaxCI) && !modesPrecise(p.Modes) {
		why := fmt.Sprintf("CI ±%.1f%% over %d repetitions > ±%.0f%%", 100*p.CI, p.Rates.N, 100*accounting.MaxCI)
		if len(p.Modes) > 0 {
			why += " (modes, not each within it over 2 or more runs)"
		}
		p.Why = append(p.Why, why)
	}
	if d, ok := dilationOf(p.Workers, stretched, in.Dilations); ok {
		p.Sensitivity, p.Unjudged = d.sens, d.unjudged
		p.Why = append(p.Why, d.why...)
		return
	}
	p.Sensitivity, p.Unjudged = covered(p, points, stretched, in.Dilations)
}

// modesPrecise reports whether a point has modes each known within
// ±MaxCI over at least two runs.
func modesPrecise(modes []ModeSummary) bool {
	if len(modes) == 0 {
		return false
	}
	for _, m := range modes {
		if !(m.CI <= accounting.MaxCI) {
			return false
		}
	}
	return true
}

// dilation is how the stretched points of one W fared.
type dilation struct {
	// sens describes them, unjudged says why they cannot settle the
	// point, why lists what they break.
	sens, unjudged string
	why            []string
}

// agrees reports whether the stretched points settle their W: judged
// and breaking nothing.
func (d dilation) agrees() bool { return d.unjudged == "" && len(d.why) == 0 }

// dilationOf judges the stretched points of W (ok false if there are
// none): each must agree with the unstretched point within their joint
// 95% interval and keep the limits. Where all agree but the last one
// moved more than its own interval and dilations holds a larger factor,
// that factor should have been measured, and the point is unjudged
// without it; a point that moves fails whatever a larger factor would
// show.
func dilationOf(w int, stretched []PointVerdict, dilations []float64) (d dilation, ok bool) {
	var last *PointVerdict
	for i := range stretched {
		s := &stretched[i]
		if s.Workers != w {
			continue
		}
		if last != nil {
			d.sens += "; "
		}
		verdict := "agrees"
		if !s.Agreement.Holds {
			verdict = "MOVES"
			d.why = append(d.why, fmt.Sprintf("moves under ×%g dilation: %+.1f%% outside the joint ±%.1f%%", s.Dilation, 100*s.Agreement.Shift, 100*s.Agreement.Joint))
		}
		for _, why := range s.Why {
			d.why = append(d.why, fmt.Sprintf("×%g runs: %s", s.Dilation, why))
		}
		d.sens += fmt.Sprintf("×%g: %+.1f%% (joint ±%.1f%%, %d runs) %s", s.Dilation, 100*s.Agreement.Shift, 100*s.Agreement.Joint, s.Rates.N, verdict)
		last = s
	}
	if last == nil {
		return d, false
	}
	moved := slices.ContainsFunc(stretched, func(s PointVerdict) bool { return s.Workers == w && !s.Agreement.Holds })
	if !moved && math.Abs(last.Agreement.Shift) > last.CI {
		if next := slices.IndexFunc(dilations, func(k float64) bool { return k > last.Dilation }); next >= 0 {
			d.unjudged = fmt.Sprintf("×%g moved %+.1f%%, more than its own ±%.1f%%, and ×%g was not measured",
				last.Dilation, 100*last.Agreement.Shift, 100*last.CI, dilations[next])
		}
	}
	return d, true
}

// covered judges the dilation sensitivity of a point that was not
// stretched by the stretched points of the same configuration: it is
// covered by a W whose stretched points agree (dilationOf) at a
// contention at least its own (the testbed's distortion grows with
// contention; engine/testbed doc, "Dilation sensitivity"), and unjudged
// otherwise.
func covered(p *PointVerdict, points, stretched []PointVerdict, dilations []float64) (sens, unjudged string) {
	if len(stretched) == 0 {
		return "not stretched", "no stretched runs in the dataset"
	}
	var best *PointVerdict
	for i := range points {
		q := &points[i]
		if q.Workers == p.Workers || q.Contention < p.Contention || best != nil && q.Contention <= best.Contention {
			continue
		}
		if d, ok := dilationOf(q.Workers, stretched, dilations); ok && d.agrees() {
			best = q
		}
	}
	if best == nil {
		return "not stretched", fmt.Sprintf("its contention %.1f%% is above that of every W whose stretched runs agree", 100*p.Contention)
	}
	return fmt.Sprintf("not stretched; covered by W=%d (contention %.1f%% ≥ %.1f%%)", best.Workers, 100*best.Contention, 100*p.Contention), ""
}
