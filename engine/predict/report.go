package predict

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"pslab/engine/dataset"
	"pslab/engine/experiment"
	"pslab/engine/sim"
)

// Report is the predictions of one input at one or more bandwidths, with
// optional measurements, as `pslab predict` prints them.
type Report struct {
	// Input describes the input (files and what they hold); Model is the
	// DNN name; Setup the cluster and simulator settings, one line.
	Input, Model, Setup string
	// Knee is the fraction of a curve's maximum that defines its knee
	// (KneeAt; 0.95 in pslab predict).
	Knee float64
	// Runs are the predictions, one per bandwidth, ascending.
	Runs []*Prediction
	// Measured are the measurements the first run is compared with (nil
	// without), Errors the models' errors against them, Missing the
	// measured worker counts that were not predicted.
	Measured []Measurement
	Errors   []ModelError
	Missing  []int
	// Trust is the evidence of every model's trust band (nil: no bands,
	// and no column says why).
	Trust *TrustData
}

// BandwidthLabel formats a bandwidth in bytes/s as Gbit/s, e.g. "10 Gbit/s".
func BandwidthLabel(bw float64) string { return fmt.Sprintf("%.4g Gbit/s", bw*8/1e9) }

// Series is the legend name of a model's curve at a bandwidth under ASP
// (SeriesFor under either mode).
func Series(bw float64, m Model) string { return SeriesFor(bw, m, sim.ASP) }

// SeriesFor is the legend name of model m's curve at bandwidth bw (bytes/s)
// under synchronization mode y (Model.LabelFor).
func SeriesFor(bw float64, m Model, y sim.Sync) string {
	return BandwidthLabel(bw) + ": " + m.LabelFor(y)
}

// Result returns the report as a result table (dataset.ResultSchema, the
// rows behind a figure): one derived series per bandwidth and model, x =
// workers, y = examples/s, error = the relative error against the
// measurement at the same W (first bandwidth only); and the measured series
// with ± one standard deviation. Notes hold the input, the settings and
// each run's coarse inputs.
func (r *Report) Result() *experiment.Result {
	res := experiment.NewResult()
	res.Note("%s", r.Input)
	res.Note("%s", r.Setup)
	if n := r.trustNote(); n != "" {
		res.Note("%s", n)
	}
	rel := map[Model]map[int]float64{}
	for _, e := range r.Errors {
		rel[e.Model] = map[int]float64{}
		for i, w := range e.Workers {
			rel[e.Model][w] = e.Rel[i]
		}
	}
	for k, p := range r.Runs {
		res.Note("%s", runSummary(p))
		for _, n := range p.Notes {
			res.Note("%s: %s", BandwidthLabel(p.Bandwidth), n)
		}
		for _, u := range p.Unavailable {
			res.Note("%s: %s: n/a (%s)", BandwidthLabel(p.Bandwidth), u.Model.LabelFor(p.Sync), u.Reason)
		}
		for _, n := range modeNotes(p) {
			res.Note("%s: %s", BandwidthLabel(p.Bandwidth), n)
		}
		for _, c := range p.Curves {
			for i, w := range p.Workers {
				e, ok := rel[c.Model][w]
				if c.Lo != nil { // the simulator's 95% interval as y_lo, y_hi
					res.PointRange(SeriesFor(p.Bandwidth, c.Model, p.Sync), c.Model.Tag(), dataset.Derived, float64(w), c.Throughput[i], c.Lo[i], c.Hi[i])
					if k == 0 && ok {
						res.Note("%s at W = %d: relative error %+.4g", SeriesFor(p.Bandwidth, c.Model, p.Sync), w, e)
					}
					continue
				}
				if k == 0 && ok {
					res.PointError(SeriesFor(p.Bandwidth, c.Model, p.Sync), c.Model.Tag(), dataset.Derived, float64(w), c.Throughput[i], e)
				} else {
					res.Point(SeriesFor(p.Bandwidth, c.Model, p.Sync), c.Model.Tag(), dataset.Derived, float64(w), c.Throughput[i])
				}
			}
		}
	}
	for _, m := range r.Measured {
		res.PointRange("measured", "measurement", dataset.Measured, float64(m.Workers), m.Throughput, m.Throughput-m.Std, m.Throughput+m.Std)
	}
	return res
}

// runSummary is one line on a prediction's inputs.
func runSummary(p *Prediction) string {
	ps := fmt.Sprintf("%d PS", p.Servers)
	if p.Colocated {
		ps = "W PS colocated (one per node)"
	}
	s := fmt.Sprintf("%s, %s, %d GPU(s)/node, batch %d per node, %s: link bound %.5g examples/s", BandwidthLabel(p.Bandwidth), p.Sync, p.gpus(), p.Batch, ps, p.LinkBound)
	if p.HasCoarse {
		c := p.Coarse
		ph, what := c.Phases, "tcpdump phases"
		if p.Reading == OpReading {
			ph, what = c.OpPhases, "MVA phases (1 PS: compute, transfer at B, update)"
		}
		s += fmt.Sprintf("; 1-worker step %.4g s; %s S^D %.4g, S^W %.4g, S^U %.4g, S^S %.4g s; Cynthia T_p %.4g s, T_C %.4g s, U_1 %.4g",
			c.Step, what, ph.Downlink, ph.Worker, ph.Uplink, ph.Server, c.Tp, c.Tc, c.U1)
	}
	return s
}

// WriteText writes the report as aligned tables: per bandwidth, workers ×
// model in examples/s with the knee of every curve; with measurements, the
// signed relative error per W in percent and its mean and max |error|.
func (r *Report) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "%s\n%s\n", r.Input, r.Setup)
	if n := r.trustNote(); n != "" {
		fmt.Fprintln(w, n)
	}
	measured := map[int]Measurement{}
	for _, m := range r.Measured {
		measured[m.Workers] = m
	}
	for k, p := range r.Runs {
		fmt.Fprintf(w, "\n%s\n", runSummary(p))
		for _, n := range p.Notes {
			fmt.Fprintf(w, "note: %s\n", n)
		}
		if err := r.writeTable(w, p, k == 0, measured, false); err != nil {
			return err
		}
		for _, n := range modeNotes(p) {
			fmt.Fprintf(w, "note: %s\n", n)
		}
		if p.gpus() > 1 {
			fmt.Fprintf(w, "per GPU (examples/s; %d GPUs per node)\n", p.gpus())
			if err := r.writeTable(w, p, false, nil, true); err != nil {
				return err
			}
		}
	}
	if len(r.Measured) == 0 {
		return nil
	}
	fmt.Fprintf(w, "\nrelative error (predicted − measured)/measured at %s, %%\n", BandwidthLabel(r.Runs[0].Bandwidth))
	if len(r.Missing) > 0 {
		fmt.Fprintf(w, "note: measured worker counts %v are not among the predicted ones\n", r.Missing)
	}
	if len(r.Errors) == 0 {
		_, err := fmt.Fprintln(w, "no measured worker count was predicted")
		return err
	}
	tw := tabwriter.NewWriter(w, 8, 8, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "workers\t")
	for _, e := range r.Errors {
		fmt.Fprintf(tw, "%s\t", e.Model)
	}
	fmt.Fprintln(tw, "")
	for i, wk := range r.Errors[0].Workers {
		fmt.Fprintf(tw, "%d\t", wk)
		for _, e := range r.Errors {
			fmt.Fprintf(tw, "%+.1f\t", 100*e.Rel[i])
		}
		fmt.Fprintln(tw, "")
	}
	for _, row := range []struct {
		name string
		v    func(ModelError) float64
	}{{"mean |error|", func(e ModelError) float64 { return e.MeanAbs }}, {"max |error|", func(e ModelError) float64 { return e.MaxAbs }}} {
		fmt.Fprintf(tw, "%s\t", row.name)
		for _, e := range r.Errors {
			fmt.Fprintf(tw, "%.1f\t", 100*row.v(e))
		}
		fmt.Fprintln(tw, "")
	}
	return tw.Flush()
}

// csvHeader is the header of WriteCSV.
var csvHeader = []string{"bandwidth_bytes_per_s", "workers", "model", "throughput_examples_per_s", "measured_examples_per_s", "rel_error", "link_bound_examples_per_s",
	"throughput_per_gpu_examples_per_s", "gpus_per_node", "sync", "status", "ci95_lo_examples_per_s", "ci95_hi_examples_per_s", "converged", "replications", "steps_per_replication", "modes"}

// WriteCSV writes one row per bandwidth, worker count and model (long
// format; measured and rel_error are empty where there is no measurement;
// trust_mean_abs_err_pct and trust_max_abs_err_pct are the model's trust
// band in percent, empty without comparable points, trust_points their
// number, empty without trust data, above_link_bound true when the
// prediction exceeds link_bound;
// a model without a curve has empty numbers and status "n/a (reason)";
// ci95_lo, ci95_hi, converged, replications, steps_per_replication and
// modes ("examples/s@fraction;…" when the replications settle in more
// than one operating mode) are the simulator's converged estimate, empty
// for the analytical models and the paper procedure).
func (r *Report) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(append(append([]string{}, csvHeader...), trustHeader...)); err != nil {
		return err
	}
	num := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	measured := map[int]float64{}
	for _, m := range r.Measured {
		measured[m.Workers] = m.Throughput
	}
	for k, p := range r.Runs {
		for i, wk := range p.Workers {
			for _, m := range p.models() {
				row := []string{num(p.Bandwidth), strconv.Itoa(wk), string(m), "", "", "", num(p.LinkBound), "", strconv.Itoa(p.gpus()), p.Sync.String(), "ok", "", "", "", "", "", ""}
				if c, ok := p.curve(m); ok && c.Lo != nil {
					row[11], row[12], row[13] = num(c.Lo[i]), num(c.Hi[i]), strconv.FormatBool(c.Converged[i])
					row[14], row[15], row[16] = strconv.Itoa(c.Replications[i]), strconv.Itoa(c.Steps[i]), modesText(c.Modes[i])
				}
				if y, ok := p.Curve(m); ok {
					row[3], row[7] = num(y[i]), num(y[i]/float64(wk*p.gpus()))
					if meas, ok := measured[wk]; ok && k == 0 {
						row[4], row[5] = num(meas), num((y[i]-meas)/meas)
					}
				} else {
					row[10] = "n/a (" + p.Why(m) + ")"
				}
				if err := cw.Write(append(row, r.trustCells(p, m, i)...)); err != nil {
					return err
				}
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// modesText is a point's operating modes for CSV, "1170@0.2;1309@0.8"
// (examples/s @ fraction of replications), or "".
func modesText(ms []sim.OperatingMode) string {
	var parts []string
	for _, m := range ms {
		parts = append(parts, strconv.FormatFloat(m.Throughput, 'g', 6, 64)+"@"+strconv.FormatFloat(m.Frequency, 'g', 3, 64))
	}
	return strings.Join(parts, ";")
}

// modeNotes are the text notes on the points with operating modes.
func modeNotes(p *Prediction) []string {
	var out []string
	for _, c := range p.Curves {
		for i, ms := range c.Modes {
			if len(ms) == 0 {
				continue
			}
			n := 0
			for _, m := range ms {
				n += m.Replications
			}
			s := fmt.Sprintf("%s at W = %d: the %d replications settle in %d operating modes:", c.Model, p.Workers[i], n, len(ms))
			for k, m := range ms {
				if k > 0 {
					s += ","
				}
				s += fmt.Sprintf(" %.5g examples/s ±%.2g%% in %.0f%% [%.0f%%, %.0f%%] of them", m.Throughput, 100*(m.Hi-m.Lo)/(2*m.Throughput),
					100*m.Frequency, 100*m.FrequencyLo, 100*m.FrequencyHi)
			}
			out = append(out, s+" (95% intervals); the point's interval is that of their mixture")
		}
	}
	return out
}

// Caption is a figure caption line: the input's model and the setup.
func (r *Report) Caption() string {
	return strings.TrimSpace(r.Model + "; " + r.Setup)
}
