package predict

import (
	"encoding/json"
	"io"
	"math"
	"strconv"
)

// jsonFloat is a float that writes +Inf (an unknown link bound) as null.
type jsonFloat float64

func (f jsonFloat) MarshalJSON() ([]byte, error) {
	if math.IsInf(float64(f), 0) || math.IsNaN(float64(f)) {
		return []byte("null"), nil
	}
	return []byte(strconv.FormatFloat(float64(f), 'g', -1, 64)), nil
}

type jsonCurve struct {
	Model      Model        `json:"model"`
	Label      string       `json:"label"`
	Status     string       `json:"status"`
	Throughput []jsonFloat  `json:"throughput_examples_per_s,omitempty"`
	PerGPU     []jsonFloat  `json:"throughput_per_gpu_examples_per_s,omitempty"`
	Lo         []jsonFloat  `json:"ci95_lo_examples_per_s,omitempty"`
	Hi         []jsonFloat  `json:"ci95_hi_examples_per_s,omitempty"`
	Converged  []bool       `json:"converged,omitempty"`
	Reps       []int        `json:"replications,omitempty"`
	Modes      [][]jsonMode `json:"modes,omitempty"`
	Steps      []int        `json:"steps_per_replication,omitempty"`
	Knee       int          `json:"knee,omitempty"`
	// The trust band per W: mean and max |error| in percent (null: no
	// comparable measurement), the points (omitted without trust data),
	// and whether the prediction is above the link bound.
	TrustMean  []jsonFloat `json:"trust_mean_abs_err_pct,omitempty"`
	TrustMax   []jsonFloat `json:"trust_max_abs_err_pct,omitempty"`
	TrustN     []int       `json:"trust_points,omitempty"`
	AboveBound []bool      `json:"above_link_bound,omitempty"`
}

// jsonMode is one operating mode of a simulator point, with the 95%
// intervals of its mean (null with one replication) and its frequency.
type jsonMode struct {
	Throughput   float64   `json:"throughput_examples_per_s"`
	Lo           jsonFloat `json:"ci95_lo"`
	Hi           jsonFloat `json:"ci95_hi"`
	Frequency    float64   `json:"frequency"`
	FrequencyLo  float64   `json:"frequency_ci95_lo"`
	FrequencyHi  float64   `json:"frequency_ci95_hi"`
	Replications int       `json:"replications"`
}

type jsonCoarse struct {
	Step float64 `json:"step_1w"`
	SW   float64 `json:"s_w"`
	SU   float64 `json:"s_u"`
	SS   float64 `json:"s_s"`
	SD   float64 `json:"s_d"`
	Tp   float64 `json:"t_p"`
	Tc   float64 `json:"t_c"`
	U1   float64 `json:"u_1"`
}

type jsonRun struct {
	Bandwidth float64     `json:"bandwidth_bytes_per_s"`
	Sync      string      `json:"sync"`
	GPUs      int         `json:"gpus_per_node"`
	Batch     int         `json:"batch_per_node"`
	Servers   int         `json:"ps"`
	Colocated bool        `json:"ps_colocated"`
	LinkBound jsonFloat   `json:"link_bound_examples_per_s"`
	Coarse    *jsonCoarse `json:"coarse_inputs,omitempty"`
	Workers   []int       `json:"workers"`
	Curves    []jsonCurve `json:"models"`
	Notes     []string    `json:"notes,omitempty"`
}

type jsonError struct {
	Model   Model     `json:"model"`
	Workers []int     `json:"workers"`
	Rel     []float64 `json:"rel_error"`
	Mean    float64   `json:"mean_abs_rel_error"`
	Max     float64   `json:"max_abs_rel_error"`
}

// WriteJSON writes the report as one indented JSON object: input, model,
// setup, knee_fraction_of_max, runs (per bandwidth: sync, GPUs per node,
// node batch, PS, link bound, the coarse inputs in seconds, workers, and per
// model its status, the throughput of the cluster and per GPU with its knee), and with measurements the measured rows and the errors.
func (r *Report) WriteJSON(w io.Writer) error {
	out := struct {
		Input    string        `json:"input"`
		Model    string        `json:"dnn"`
		Setup    string        `json:"setup"`
		Knee     float64       `json:"knee_fraction_of_max"`
		Runs     []jsonRun     `json:"runs"`
		Measured []Measurement `json:"measured,omitempty"`
		Errors   []jsonError   `json:"errors,omitempty"`
		Missing  []int         `json:"measured_not_predicted,omitempty"`
		Trust    string        `json:"trust,omitempty"`
	}{Trust: r.trustNote(), Input: r.Input, Model: r.Model, Setup: r.Setup, Knee: r.Knee, Measured: r.Measured, Missing: r.Missing}
	for _, p := range r.Runs {
		jr := jsonRun{Bandwidth: p.Bandwidth, Sync: p.Sync.String(), GPUs: p.gpus(), Batch: p.Batch, Servers: p.Servers, Colocated: p.Colocated,
			LinkBound: jsonFloat(p.LinkBound), Workers: p.Workers, Notes: p.Notes}
		if p.HasCoarse {
			c := p.Coarse
			ph := c.Phases
			if p.Reading == OpReading {
				ph = c.OpPhases
			}
			jr.Coarse = &jsonCoarse{Step: c.Step, SW: ph.Worker, SU: ph.Uplink, SS: ph.Server, SD: ph.Downlink, Tp: c.Tp, Tc: c.Tc, U1: c.U1}
		}
		for _, m := range p.models() {
			jc := jsonCurve{Model: m, Label: m.LabelFor(p.Sync), Status: "ok"}
			y, ok := p.Curve(m)
			if !ok {
				jc.Status = "n/a (" + p.Why(m) + ")"
			} else {
				jc.Knee = KneeAt(p.Workers, y, r.Knee)
			}
			if c, ok := p.curve(m); ok && c.Lo != nil {
				for i := range c.Lo {
					jc.Lo, jc.Hi = append(jc.Lo, jsonFloat(c.Lo[i])), append(jc.Hi, jsonFloat(c.Hi[i]))
				}
				jc.Converged, jc.Reps, jc.Steps = c.Converged, c.Replications, c.Steps
				for _, ms := range c.Modes {
					var jm []jsonMode
					for _, m := range ms {
						jm = append(jm, jsonMode{m.Throughput, jsonFloat(m.Lo), jsonFloat(m.Hi), m.Frequency, m.FrequencyLo, m.FrequencyHi, m.Replications})
					}
					jc.Modes = append(jc.Modes, jm)
				}
			}
			for i, v := range y {
				if t, ok := r.trust(p, m, i); ok {
					mean, hi := jsonFloat(math.NaN()), jsonFloat(math.NaN())
					if t.N > 0 {
						mean, hi = jsonFloat(100*t.MeanAbs), jsonFloat(100*t.MaxAbs)
					}
					jc.TrustMean, jc.TrustMax, jc.TrustN = append(jc.TrustMean, mean), append(jc.TrustMax, hi), append(jc.TrustN, t.N)
				}
				jc.AboveBound = append(jc.AboveBound, p.AboveLinkBound(m, i))
				jc.Throughput = append(jc.Throughput, jsonFloat(v))
				jc.PerGPU = append(jc.PerGPU, jsonFloat(v/float64(p.Workers[i]*p.gpus())))
			}
			jr.Curves = append(jr.Curves, jc)
		}
		out.Runs = append(out.Runs, jr)
	}
	for _, e := range r.Errors {
		out.Errors = append(out.Errors, jsonError{Model: e.Model, Workers: e.Workers, Rel: e.Rel, Mean: e.MeanAbs, Max: e.MaxAbs})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
