package icpe20

import (
	"math"
	"slices"
	"strings"

	"pslab/engine/experiment"
	"pslab/engine/sim"
)

// check validates the parameters and fills the cases' settings.
func (p *tputParams) check(env *experiment.Env) error {
	if math.IsNaN(p.Precision) || p.Precision < 0 || p.Precision > sim.MaxTarget {
		return env.Errorf("precision", "precision %v: want a relative half-width in (0, %g] (0: %g)", p.Precision, sim.MaxTarget, sim.DefaultTarget)
	}
	for _, s := range p.Series {
		if !slices.Contains(tputSeriesKeys, s) {
			return env.Errorf("series", "unknown series %q (want %v)", s, tputSeriesKeys)
		}
	}
	if len(p.Series) == 0 || (slices.Contains(p.Series, "events") && len(p.Series) > 1) {
		return env.Errorf("series", "series %v: name at least one, and events only alone (it is a bar chart)", p.Series)
	}
	if _, ok := tputLinVariants[p.LinVariant]; !ok {
		return env.Errorf("lin_variant", "unknown MVA variant %q (want exact, approximate or hybrid)", p.LinVariant)
	}
	for _, f := range []struct {
		key string
		v   float64
	}{{"alpha_ns_per_byte", p.AlphaNsPerByte}, {"beta_us", p.BetaUs}, {"jitter", p.Jitter}, {"update_ns_per_byte", p.UpdateNsPerByte}} {
		if !(f.v >= 0) || math.IsInf(f.v, 0) {
			return env.Errorf(f.key, "%v: need a finite value ≥ 0", f.v)
		}
	}
	if !(p.KneeEpsilon > 0) || p.KneeEpsilon >= 1 {
		return env.Errorf("knee_epsilon", "%v: need 0 < ε < 1", p.KneeEpsilon)
	}
	if p.Warmup < 0 || p.ProfileSteps < 0 || p.ExtrapolateSteps < 1 {
		return env.Errorf("warmup", "warmup %d, profile_steps %d, extrapolate_steps %d: need ≥ 0 (extrapolate ≥ 1)", p.Warmup, p.ProfileSteps, p.ExtrapolateSteps)
	}
	if len(p.Cases) == 0 {
		return env.Errorf("case", "no [[params.case]]")
	}
	seen := map[string]bool{}
	for i := range p.Cases {
		c := &p.Cases[i]
		c.tputSettings = c.tputSettings.inherit(p.tputSettings)
		if c.ID == "" || strings.ContainsAny(c.ID, " .") || seen[c.ID] {
			return env.Errorf("case", "case %d: id %q must be set, unique, without spaces or dots", i+1, c.ID)
		}
		seen[c.ID] = true
		if c.Label == "" {
			c.Label = c.ID
		}
		if (c.Model == "") == (c.Trace == "") {
			return env.Errorf("case", "case %q: set exactly one of model (a layer profile) or trace (a recorded trace)", c.ID)
		}
		if c.Batch < 1 {
			return env.Errorf("case", "case %q: batch %d < 1 example", c.ID, c.Batch)
		}
		if _, err := sim.ParseMode(c.Transport); err != nil {
			return env.Errorf("transport", "case %q: %v", c.ID, err)
		}
		if _, err := sim.ParseOrder(c.Order); err != nil {
			return env.Errorf("order", "case %q: %v", c.ID, err)
		}
		if _, err := sim.ParseOverheadPlacement(c.OverheadOn); err != nil {
			return env.Errorf("overhead_on", "case %q: %v", c.ID, err)
		}
		switch {
		case c.Estimate != "paper" && c.Estimate != "converged":
			return env.Errorf("estimate", "case %q: estimate %q (want paper or converged)", c.ID, c.Estimate)
		case c.Estimate == "converged" && slices.Contains(p.Series, "events"):
			return env.Errorf("estimate", "case %q: the events series counts one paper-procedure run; use estimate = \"paper\"", c.ID)
		case c.Estimate == "converged" && p.Warmup != 0:
			return env.Errorf("warmup", "case %q: warmup applies to estimate = \"paper\"; the converged estimate deletes its transient by MSER-5", c.ID)
		case c.Steps == 0 && c.Estimate == "paper":
			c.Steps = sim.DefaultSteps
		}
		if c.Steps < 1 && (c.Estimate == "paper" || c.Steps < 0) {
			return env.Errorf("steps", "case %q: %d simulated steps per worker, need ≥ 1 (converged: ≥ 0, 0 for sim.InitialSteps)", c.ID, c.Steps)
		}
		if c.Servers < 1 || !(c.DeviceSpeed > 0) || !(c.BandwidthGbps > 0) || !(c.WindowMB >= 0) {
			return env.Errorf("case", "case %q: servers %d, device_speed %v, bandwidth_gbps %v, window_mb %v: need ≥ 1, > 0, > 0, ≥ 0", c.ID, c.Servers, c.DeviceSpeed, c.BandwidthGbps, c.WindowMB)
		}
		if c.Series == nil {
			c.Series = p.Series
		}
		for _, s := range c.Series {
			if !slices.Contains(tputSeriesKeys, s) || (s == "events") != slices.Contains(p.Series, "events") {
				return env.Errorf("series", "case %q: series %q (want %v, events only for the whole experiment)", c.ID, s, tputSeriesKeys)
			}
		}
		if c.Servers > 1 && slices.Contains(c.Series, "lin") {
			return env.Errorf("series", "case %q: Lin et al. is computed from a 1-PS profile only (%d PS)", c.ID, c.Servers)
		}
		if c.MeasuredModel == "" {
			c.MeasuredModel = c.Model
		}
	}
	return nil
}
