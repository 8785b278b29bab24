package collection

import (
	"math"
	"strconv"
	"strings"

	"pslab/engine/dataset"
)

// Files new with accounting version 3 (issue 29).
const (
	// PointsFile holds one row per point and dilation (PointsSchema).
	PointsFile = "points.arrow"
	// ModesFile holds one row per operating mode of a point (ModesSchema).
	ModesFile = "modes.arrow"
)

// Verdicts of the points file's verdict column: an unstretched point
// holds, fails or is unjudged (PointVerdict); a stretched one agrees
// with it or moves.
const (
	VerdictHolds    = "holds"
	VerdictFails    = "fails"
	VerdictUnjudged = "unjudged"
	VerdictAgrees   = "agrees"
	VerdictMoves    = "moves"
)

// undefined is written for a number that is not defined (an interval of
// one run, a synchrony without step times): Arrow columns hold finite
// values only.
const undefined = -1.0

// PointsSchema is the judgement of every point (Judge), stretched ones
// included: what `pslab testbed verify` prints.
var PointsSchema = &dataset.Schema{Name: "testbed-points", Columns: []dataset.Column{
	{Name: "workers", Type: dataset.Int64, Rule: dataset.Positive, Doc: "W, workers"},
	{Name: "dilation", Type: dataset.Float64, Rule: dataset.Positive, Unit: "1", Doc: "stretch factor k (1: as configured)"},
	{Name: "repetitions", Type: dataset.Int64, Rule: dataset.Positive, Doc: "independent runs of the point"},
	{Name: "throughput", Type: dataset.Float64, Rule: dataset.NonNegative, Unit: "examples/s", Doc: "mean over the runs, on the configuration's time scale"},
	{Name: "throughput_std", Type: dataset.Float64, Rule: dataset.NonNegative, Unit: "examples/s", Doc: "sample standard deviation over the runs"},
	{Name: "ci95_rel", Type: dataset.Float64, Rule: dataset.Any, Unit: "1", Doc: "relative half-width of the 95% Student-t interval over the runs; −1 with one run"},
	{Name: "batch_ci95_rel", Type: dataset.Float64, Rule: dataset.Any, Unit: "1", Doc: "diagnostic: the same by within-run batch means (analysis.BatchCI); −1 undefined"},
	{Name: "step_cv", Type: dataset.Float64, Rule: dataset.Any, Unit: "1", Doc: "diagnostic: coefficient of variation of the step times in the averaging windows; −1 undefined"},
	{Name: "bimodality", Type: dataset.Float64, Rule: dataset.Any, Unit: "1", Doc: "bimodality coefficient of the runs' throughputs (0 with fewer than 4; recorded, not the test)"},
	{Name: "modes", Type: dataset.Int64, Rule: dataset.NonNegative, Doc: "operating modes found (analysis.Modes): 2, 1, or 0 with fewer than 4 runs (not tested)"},
	{Name: "synchrony", Type: dataset.Float64, Rule: dataset.Any, Unit: "1", Doc: "mean over the runs of analysis.Synchrony (1 lockstep, 0 interleaved); −1 undefined"},
	{Name: "start_spread_s", Type: dataset.Float64, Rule: dataset.Any, Unit: "s", Doc: "mean over the runs of analysis.StartSpread; −1 undefined"},
	{Name: "contention", Type: dataset.Float64, Rule: dataset.NonNegative, Unit: "1", Doc: "diagnostic: largest contention of a process in the runs"},
	{Name: "retrans", Type: dataset.Float64, Rule: dataset.NonNegative, Unit: "1", Doc: "largest share of TCP segments a process retransmitted in the runs (limit 0.1%)"},
	{Name: "retrans_lost", Type: dataset.Float64, Rule: dataset.Any, Unit: "1", Doc: "largest share of TCP segments a process retransmitted and its peer did not report as duplicates (D-SACK): what the 0.1% limit judges; −1 when the runs counted no D-SACKs (accounting version 3: the limit judges retrans)"},
	{Name: "other_cores", Type: dataset.Float64, Rule: dataset.NonNegative, Unit: "cores", Doc: "largest CPU of other work on the host during a run (limit 0.25)"},
	{Name: "shift", Type: dataset.Float64, Rule: dataset.Any, Unit: "1", Doc: "stretched points: (mean − unstretched mean)/unstretched mean; 0 for dilation 1"},
	{Name: "joint95_rel", Type: dataset.Float64, Rule: dataset.Any, Unit: "1", Doc: "stretched points: relative half-width of the 95% Welch interval of the difference; −1 undefined or dilation 1"},
	{Name: "verdict", Type: dataset.String, Rule: dataset.Enum, Values: []string{VerdictHolds, VerdictFails, VerdictUnjudged, VerdictAgrees, VerdictMoves},
		Doc: "holds, fails or unjudged (dilation 1); agrees or moves (stretched)"},
	{Name: "dilation_note", Type: dataset.String, Rule: dataset.Any, Doc: "dilation 1: how the point fared under dilation (its stretched runs, or the point that covers it)"},
	{Name: "why", Type: dataset.String, Rule: dataset.Any, Doc: "what the point breaks, or why it is unjudged, \"; \"-separated"},
}}

// ModesSchema has one row per operating mode of a point with modes.
var ModesSchema = &dataset.Schema{Name: "testbed-modes", Columns: []dataset.Column{
	{Name: "workers", Type: dataset.Int64, Rule: dataset.Positive, Doc: "W, workers"},
	{Name: "dilation", Type: dataset.Float64, Rule: dataset.Positive, Unit: "1", Doc: "stretch factor k of the point"},
	{Name: "mode", Type: dataset.Int64, Rule: dataset.NonNegative, Doc: "mode index, lowest throughput first"},
	{Name: "throughput", Type: dataset.Float64, Rule: dataset.NonNegative, Unit: "examples/s", Doc: "mean over the mode's runs"},
	{Name: "frequency", Type: dataset.Float64, Rule: dataset.NonNegative, Unit: "1", Doc: "share of the point's runs in the mode"},
	{Name: "repetitions", Type: dataset.String, Rule: dataset.Any, Doc: "repetition indices of the mode's runs, comma-separated"},
	{Name: "ci95_rel", Type: dataset.Float64, Rule: dataset.Any, Unit: "1", Doc: "relative 95% half-width over the mode's runs; −1 with one run"},
	{Name: "synchrony", Type: dataset.Float64, Rule: dataset.Any, Unit: "1", Doc: "mean synchrony of its runs (the mode's signature); −1 undefined"},
	{Name: "start_spread_s", Type: dataset.Float64, Rule: dataset.Any, Unit: "s", Doc: "mean start spread of its runs; −1 undefined"},
}}

// finite returns x, or undefined if it is NaN or infinite.
func finite(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return undefined
	}
	return x
}

// Verdict is the verdict column of a point (PointsSchema).
func (p *PointVerdict) Verdict() string {
	switch {
	case p.Dilation > 1 && p.Agreement.Holds:
		return VerdictAgrees
	case p.Dilation > 1:
		return VerdictMoves
	case p.Unjudged != "":
		return VerdictUnjudged
	case len(p.Why) > 0:
		return VerdictFails
	}
	return VerdictHolds
}

// modeCount is the modes column: 0 untested, else the modes found.
func (p *PointVerdict) modeCount() int {
	switch {
	case p.Rates.N < 4:
		return 0
	case len(p.Modes) == 0:
		return 1
	}
	return len(p.Modes)
}

// pointsTable builds PointsFile.
func pointsTable(prov dataset.Provenance, points, stretched []PointVerdict) (*dataset.Table, error) {
	t := dataset.NewTable(PointsSchema, prov)
	for _, set := range [][]PointVerdict{points, stretched} {
		for i := range set {
			p := &set[i]
			why := p.Why
			if p.Unjudged != "" {
				why = append([]string{"unjudged: " + p.Unjudged}, why...)
			}
			joint := undefined
			if p.Dilation > 1 {
				joint = finite(p.Agreement.Joint)
			}
			if err := t.Append(p.Workers, p.Dilation, p.Rates.N, p.Rates.Mean, p.Rates.Std, finite(p.CI), finite(p.BatchCI), finite(p.StepCV),
				finite(p.Bimodality), p.modeCount(), finite(p.Synchrony), finite(p.StartSpread), p.Contention, p.Retrans, finite(p.knownLost()), p.Other,
				finite(p.Agreement.Shift), joint, p.Verdict(), p.Sensitivity, strings.Join(why, "; ")); err != nil {
				return nil, err
			}
		}
	}
	return t, nil
}

// modesTable builds ModesFile.
func modesTable(prov dataset.Provenance, points, stretched []PointVerdict) (*dataset.Table, error) {
	t := dataset.NewTable(ModesSchema, prov)
	for _, set := range [][]PointVerdict{points, stretched} {
		for _, p := range set {
			for k, m := range p.Modes {
				reps := make([]string, len(m.Runs))
				for j, i := range m.Runs {
					reps[j] = strconv.Itoa(p.Runs[i].Repetition)
				}
				if err := t.Append(p.Workers, p.Dilation, k, m.Mean, m.Frequency, strings.Join(reps, ","), finite(m.CI),
					finite(m.Synchrony), finite(m.StartSpread)); err != nil {
					return nil, err
				}
			}
		}
	}
	return t, nil
}
