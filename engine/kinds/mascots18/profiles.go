package mascots18

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"pslab/engine/dataset"
	"pslab/engine/experiment"
	"pslab/engine/mva"
)

// Origins of a phase time in a profile: the dataset origins plus "assumed",
// a value chosen by pslab where the paper gives none (its reasoning is
// required in the experiment file).
const assumed = "assumed"

// phaseKeys are the TOML keys of the four phase times, in mva.Phases order.
var phaseKeys = []string{"s_w", "s_u", "s_s", "s_d"}

// phaseProfile is a one-worker, one-server step profile of one DNN at one
// batch size: the input of the mascots18 MVA models.
type phaseProfile struct {
	ID     string // metric key
	Name   string // DNN name; matches the model column of measurements
	Label  string // legend prefix
	Batch  int    // examples per step
	Phases mva.Phases
	// Origin and Basis say, per phase key (s_w, s_u, s_s, s_d), where the
	// value comes from and, for assumed values, why it was chosen.
	Origin, Basis map[string]string
}

// profileParams is a profile written in an experiment's [params]. A phase
// left out is computed: a link time (s_u, s_d) as
// model_mb·10^6·8 / (link_gbps·10^9), s_w as batch / worker_rate and s_s as
// server_link_ratio · s_u; such values take the origin given for them
// (default derived).
type profileParams struct {
	ID       string
	Name     string
	Label    string
	Batch    int
	SW       *float64 `toml:"s_w"` // seconds
	SU       *float64 `toml:"s_u"`
	SS       *float64 `toml:"s_s"`
	SD       *float64 `toml:"s_d"`
	ModelMB  float64  `toml:"model_mb"`  // MB = 10^6 bytes, per direction
	LinkGbps float64  `toml:"link_gbps"` // 10^9 bit/s
	// WorkerRate is the single-worker compute rate, examples/s.
	WorkerRate float64 `toml:"worker_rate"`
	// ServerLinkRatio is S^S / S^U.
	ServerLinkRatio float64 `toml:"server_link_ratio"`
	Origin          map[string]string
	Basis           map[string]string
}

// reportedProfileParams names the profile read from a reported phase table
// (input "reported_phases", e.g. mascots18 fig7_phases).
type reportedProfileParams struct {
	ID, Name, Label string
	Batch           int
}

// table3Params selects Table III jobs (input "jobs") whose phases are
// derived as in the job-workload kind.
type table3Params struct {
	Jobs []string
	jobWorkloadParams
}

// reportedPhases is the reported mascots18 Fig. 7 phase table.
var reportedPhases = &dataset.Schema{Name: "reported phases", Columns: []dataset.Column{
	{Name: "phase", Type: dataset.String, Rule: dataset.Enum, Values: []string{"worker", "uplink", "server", "downlink"}},
	{Name: "value", Type: dataset.Float64, Rule: dataset.NonNegative},
	{Name: "unit", Type: dataset.String, Rule: dataset.Enum, Values: []string{"s", "ms"}},
}}

func validOrigin(o string) bool {
	return o == dataset.Measured || o == dataset.Reported || o == dataset.Derived || o == assumed
}

// finish fills defaults and checks a profile; key is the [params] key its
// errors point at.
func (p *phaseProfile) finish(env *experiment.Env, key string) error {
	if p.Name == "" {
		return env.Errorf(key, "profile without a name")
	}
	if p.ID == "" {
		p.ID = p.Name
	}
	if p.Label == "" {
		p.Label = p.Name
	}
	if strings.ContainsAny(p.ID, " .") {
		return env.Errorf(key, "profile %q: id %q must not contain spaces or dots (it is part of metric names)", p.Name, p.ID)
	}
	if p.Batch < 1 {
		return env.Errorf(key, "profile %q: batch %d < 1 example", p.ID, p.Batch)
	}
	if err := p.Phases.Validate(); err != nil {
		return env.Errorf(key, "profile %q: %v", p.ID, err)
	}
	for _, k := range phaseKeys {
		o := p.Origin[k]
		if !validOrigin(o) {
			return env.Errorf(key, "profile %q: origin of %s is %q (want measured, reported, derived or assumed)", p.ID, k, o)
		}
		if o == assumed && strings.TrimSpace(p.Basis[k]) == "" {
			return env.Errorf(key, "profile %q: %s is assumed but has no basis (say why this value)", p.ID, k)
		}
	}
	return nil
}

// profile builds a profile from its [params] entry.
func (pp profileParams) profile(env *experiment.Env) (phaseProfile, error) {
	const key = "profiles"
	p := phaseProfile{ID: pp.ID, Name: pp.Name, Label: pp.Label, Batch: pp.Batch,
		Origin: map[string]string{}, Basis: map[string]string{}}
	for k, v := range pp.Origin {
		if !slices.Contains(phaseKeys, k) {
			return p, env.Errorf(key, "profile %q: origin of unknown phase %q (want %v)", pp.Name, k, phaseKeys)
		}
		p.Origin[k] = v
	}
	for k, v := range pp.Basis {
		if !slices.Contains(phaseKeys, k) {
			return p, env.Errorf(key, "profile %q: basis of unknown phase %q (want %v)", pp.Name, k, phaseKeys)
		}
		p.Basis[k] = v
	}
	link := 0.0
	if pp.ModelMB != 0 || pp.LinkGbps != 0 {
		if !(pp.ModelMB > 0) || !(pp.LinkGbps > 0) || math.IsInf(pp.ModelMB+pp.LinkGbps, 0) {
			return p, env.Errorf(key, "profile %q: model_mb %v and link_gbps %v must both be positive", pp.Name, pp.ModelMB, pp.LinkGbps)
		}
		link = pp.ModelMB * 1e6 * 8 / (pp.LinkGbps * 1e9)
	}
	for name, v := range map[string]float64{"worker_rate": pp.WorkerRate, "server_link_ratio": pp.ServerLinkRatio} {
		if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
			return p, env.Errorf(key, "profile %q: invalid %s %v", pp.Name, name, v)
		}
	}
	slot := map[string]*float64{"s_w": &p.Phases.Worker, "s_u": &p.Phases.Uplink, "s_s": &p.Phases.Server, "s_d": &p.Phases.Downlink}
	computed := func(k string, v float64, formula string, args ...any) {
		*slot[k] = v
		if p.Origin[k] == "" {
			p.Origin[k] = dataset.Derived
		}
		f := fmt.Sprintf(formula, args...)
		if p.Basis[k] != "" {
			f += "; " + p.Basis[k]
		}
		p.Basis[k] = f
	}
	given := map[string]*float64{"s_w": pp.SW, "s_u": pp.SU, "s_s": pp.SS, "s_d": pp.SD}
	// Links first: s_s may be computed from s_u.
	for _, k := range []string{"s_u", "s_d", "s_w", "s_s"} {
		switch {
		case given[k] != nil:
			*slot[k] = *given[k] // its origin must be given (checked by finish)
		case (k == "s_u" || k == "s_d") && link > 0:
			computed(k, link, "%g MB · 8 / %g Gbps", pp.ModelMB, pp.LinkGbps)
		case k == "s_w" && pp.WorkerRate > 0:
			computed(k, float64(pp.Batch)/pp.WorkerRate, "batch %d / %g examples/s", pp.Batch, pp.WorkerRate)
		case k == "s_s" && pp.ServerLinkRatio > 0:
			computed(k, pp.ServerLinkRatio*p.Phases.Uplink, "%g · S^U", pp.ServerLinkRatio)
		default:
			return p, env.Errorf(key, "profile %q: %s is missing (give it, or model_mb and link_gbps for links, worker_rate for s_w, server_link_ratio for s_s)", pp.Name, k)
		}
	}
	return p, p.finish(env, key)
}

// loadProfiles gathers the profiles of an experiment, in this order: the
// reported phase table (input "reported_phases"), Table III jobs (input
// "jobs"), and [params] profiles. A phase table of dataset.PhasesSchema
// (input "phases", e.g. a future measured profile) then replaces the phases
// of the profile with the same name and batch, or adds a profile.
func loadProfiles(env *experiment.Env, p throughputParams) ([]phaseProfile, error) {
	var out []phaseProfile
	if env.HasInput("reported_phases") {
		if p.ReportedProfile == nil {
			return nil, env.Errorf("reported_profile", "input reported_phases needs [params.reported_profile] (id, name, batch)")
		}
		t, err := env.Input("reported_phases", reportedPhases)
		if err != nil {
			return nil, err
		}
		rp := p.ReportedProfile
		prof := phaseProfile{ID: rp.ID, Name: rp.Name, Label: rp.Label, Batch: rp.Batch,
			Origin: map[string]string{}, Basis: map[string]string{}}
		slot := map[string]*float64{"worker": &prof.Phases.Worker, "uplink": &prof.Phases.Uplink, "server": &prof.Phases.Server, "downlink": &prof.Phases.Downlink}
		for i, ph := range t.Strings("phase") {
			v := t.Floats("value")[i]
			if t.Strings("unit")[i] == "ms" {
				v /= 1000
			}
			*slot[ph] = v
			k := phaseKeys[slices.Index([]string{"worker", "uplink", "server", "downlink"}, ph)]
			prof.Origin[k], prof.Basis[k] = dataset.Reported, env.Spec.Inputs["reported_phases"]
		}
		if err := prof.finish(env, "reported_profile"); err != nil {
			return nil, err
		}
		out = append(out, prof)
	}
	if env.HasInput("jobs") {
		if p.Table3 == nil || len(p.Table3.Jobs) == 0 {
			return nil, env.Errorf("table3", "input jobs needs [params.table3] with jobs and the derivation settings")
		}
		if err := p.Table3.validate(env, "table3."); err != nil {
			return nil, err
		}
		t, err := env.Input("jobs", mascotsTable3)
		if err != nil {
			return nil, err
		}
		for _, name := range p.Table3.Jobs {
			i, err := t.RowOf("name", name)
			if err != nil {
				return nil, env.Errorf("table3.jobs", "%v", err)
			}
			ph, _ := p.Table3.phases(t, i)
			basis := fmt.Sprintf("Table III with %g GFLOP/s, %g bit/s, batch %g, MB = %g B, S^S = %g s (job-workload derivation)",
				p.Table3.GFLOPS, p.Table3.Bandwidth, p.Table3.Batch, p.Table3.BytesPerMB, p.Table3.ServerTime)
			prof := phaseProfile{Name: name, Batch: int(p.Table3.Batch), Phases: ph,
				Origin: map[string]string{"s_w": dataset.Derived, "s_u": dataset.Derived, "s_s": assumed, "s_d": dataset.Derived},
				Basis:  map[string]string{"s_w": basis, "s_u": basis, "s_s": "S^S is not given for the synthetic workload (CATALOGUE M-12)", "s_d": basis}}
			if err := prof.finish(env, "table3.jobs"); err != nil {
				return nil, err
			}
			out = append(out, prof)
		}
	}
	for _, pp := range p.Profiles {
		prof, err := pp.profile(env)
		if err != nil {
			return nil, err
		}
		out = append(out, prof)
	}
	if env.HasInput("phases") {
		var err error
		if out, err = overrideProfiles(env, out); err != nil {
			return nil, err
		}
	}
	if len(out) == 0 {
		return nil, env.Errorf("profiles", "no phase profiles: give [[params.profiles]] or a reported_phases, jobs or phases input")
	}
	seen := map[string]bool{}
	for _, prof := range out {
		if seen[prof.ID] {
			return nil, env.Errorf("profiles", "two profiles with id %q (set id to tell them apart)", prof.ID)
		}
		seen[prof.ID] = true
	}
	return out, nil
}

// overrideProfiles applies the rows of the "phases" input (PhasesSchema).
func overrideProfiles(env *experiment.Env, out []phaseProfile) ([]phaseProfile, error) {
	t, err := env.Input("phases", dataset.PhasesSchema)
	if err != nil {
		return nil, err
	}
	src := env.Spec.Inputs["phases"]
	for i, job := range t.Strings("job") {
		ph := mva.Phases{Worker: t.Floats("s_w")[i], Uplink: t.Floats("s_u")[i], Server: t.Floats("s_s")[i], Downlink: t.Floats("s_d")[i]}
		o := t.Strings("origin")[i]
		batch := int(t.Ints("batch")[i])
		j := slices.IndexFunc(out, func(p phaseProfile) bool { return p.Name == job && p.Batch == batch })
		if j < 0 {
			out = append(out, phaseProfile{Name: job, ID: fmt.Sprintf("%s-b%d", job, batch), Batch: batch})
			j = len(out) - 1
		}
		out[j].Phases = ph
		out[j].Origin, out[j].Basis = map[string]string{}, map[string]string{}
		for _, k := range phaseKeys {
			out[j].Origin[k], out[j].Basis[k] = o, src
		}
		if err := out[j].finish(env, "profiles"); err != nil {
			return nil, fmt.Errorf("input phases row %d: %w", i, err)
		}
	}
	return out, nil
}

// describe is a one-line summary of a profile for notes.
func (p phaseProfile) describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "profile %s (%s, batch %d):", p.ID, p.Name, p.Batch)
	for i, v := range []float64{p.Phases.Worker, p.Phases.Uplink, p.Phases.Server, p.Phases.Downlink} {
		k := phaseKeys[i]
		fmt.Fprintf(&b, " S^%s = %.4g s (%s", strings.ToUpper(k[2:]), v, p.Origin[k])
		if p.Basis[k] != "" {
			fmt.Fprintf(&b, ": %s", p.Basis[k])
		}
		b.WriteString(");")
	}
	return strings.TrimSuffix(b.String(), ";")
}
