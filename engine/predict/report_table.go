package predict

import (
	"fmt"
	"io"
	"math"
	"text/tabwriter"
)

// KneeAt is the knee of a throughput curve: the smallest ws[i] whose
// x[i] reaches frac (e.g. 0.95) of the curve's maximum (x in any
// throughput unit, frac in (0, 1]). Unlike Knee (icpe20 Fig. 2's first
// small gain) it is defined for curves that are not monotone. ws and x
// must have the same non-zero length.
func KneeAt(ws []int, x []float64, frac float64) int {
	hi := math.Inf(-1)
	for _, v := range x {
		hi = math.Max(hi, v)
	}
	for i, v := range x {
		if v >= frac*hi {
			return ws[i]
		}
	}
	return ws[len(ws)-1]
}

// cell is model m's entry at row i of p, examples/s of the cluster, or
// per GPU (divided by W·G) when perGPU, or "n/a (reason)".
func cell(p *Prediction, m Model, i int, perGPU bool) string {
	c, ok := p.curve(m)
	if !ok {
		return "n/a (" + p.Why(m) + ")"
	}
	div := 1.0
	if perGPU {
		div = float64(p.Workers[i] * p.gpus())
	}
	s := fmt.Sprintf("%.5g", c.Throughput[i]/div)
	if c.Lo != nil { // the 95% interval's half-width, relative
		if hw := 100 * (c.Hi[i] - c.Lo[i]) / (2 * c.Throughput[i]); hw < 0.001 {
			s += " ±<0.001%"
		} else {
			s += fmt.Sprintf(" ±%.2g%%", hw)
		}
		if !c.Converged[i] {
			s += " (not converged)"
		}
	}
	return s
}

// writeTable writes the workers × model table of p in examples/s of the
// whole cluster (per GPU when perGPU), the measured column when
// withMeasured, and the knee row (KneeAt, r.Knee of the max).
func (r *Report) writeTable(w io.Writer, p *Prediction, withMeasured bool, measured map[int]Measurement, perGPU bool) error {
	withMeasured = withMeasured && len(r.Measured) > 0
	tw := tabwriter.NewWriter(w, 8, 8, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "workers\t")
	for _, m := range p.models() {
		fmt.Fprintf(tw, "%s\t", m)
	}
	if withMeasured {
		fmt.Fprint(tw, "measured\t")
	}
	fmt.Fprintln(tw, "")
	for i, wk := range p.Workers {
		fmt.Fprintf(tw, "%d\t", wk)
		for _, m := range p.models() {
			s := cell(p, m, i, perGPU)
			if _, ok := p.curve(m); ok && !perGPU {
				s += r.trustSuffix(p, m, i)
			}
			fmt.Fprintf(tw, "%s\t", s)
		}
		if m, ok := measured[wk]; withMeasured && ok {
			fmt.Fprintf(tw, "%.5g\t", m.Throughput)
		} else if withMeasured {
			fmt.Fprint(tw, "\t")
		}
		fmt.Fprintln(tw, "")
	}
	fmt.Fprintf(tw, "knee (W at %g%% of max)\t", 100*r.Knee)
	for _, m := range p.models() {
		if y, ok := p.Curve(m); ok {
			fmt.Fprintf(tw, "%d\t", KneeAt(p.Workers, y, r.Knee))
		} else {
			fmt.Fprint(tw, "n/a\t")
		}
	}
	fmt.Fprintln(tw, "")
	return tw.Flush()
}
