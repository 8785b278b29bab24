package report

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/apache/arrow/go/v17/arrow"

	"pslab/engine/export"
)

// plotDataset draws the small plot of a dataset page for a table of the
// named schema, and says in words what it shows. A table with nothing
// meaningful to plot (no numeric column with one unit) gets no chart and
// a caption that says so.
func plotDataset(schema string, t arrow.Table, meta map[string]string) (*chart, string) {
	if cols, ok := plotColumns[schema]; !ok || !has(t, cols...) {
		return genericPlot(t)
	}
	switch schema {
	case "measurement":
		return measurementPlot(t)
	case "testbed-runs":
		return runsPlot(t)
	case "testbed-steps":
		return stepsPlot(t)
	case "testbed-accounting":
		return accountingPlot(t, meta["testbed.acct"])
	case "trace":
		return tracePlot(t)
	case "phases":
		return phasesPlot(t)
	case "layer_profile":
		return profilePlot(t)
	case "philly_jobs":
		return histogramPlot(t, "duration", "job duration (s)", "jobs")
	}
	return genericPlot(t) // unreachable: plotColumns lists the cases above
}

// plotColumns are the columns the plot of each known schema reads; a
// file that lacks one gets the generic plot.
var plotColumns = map[string][]string{
	"measurement":        {"workers", "throughput"},
	"testbed-runs":       {"workers", "throughput"},
	"testbed-steps":      {"run", "workers", "start_ns", "end_ns"},
	"testbed-accounting": {"run", "workers", "process", "contention"},
	"trace":              {"step", "resource", "ps", "start_ns", "end_ns"},
	"phases":             {"job", "s_w", "s_u", "s_s", "s_d"},
	"layer_profile":      {"forward_s", "backward_s"},
	"philly_jobs":        {"duration"},
}

// measurementPlot is throughput against W with ± one standard deviation,
// one line per measured setting (model, batch, PS, sync, transport,
// order).
func measurementPlot(t arrow.Table) (*chart, string) {
	w, y, sd := colFloats(t, "workers"), colFloats(t, "throughput"), colFloats(t, "throughput_std")
	var keys [][]string
	for _, c := range []string{"model", "batch", "ps", "sync", "transport", "order"} {
		if v := colStrings(t, c); v != nil {
			keys = append(keys, v)
		}
	}
	c := &chart{XLabel: "workers W", YLabel: "throughput (examples/s)", XTicks: distinct(w)}
	idx := map[string]int{}
	for r := range w {
		var parts []string
		for _, k := range keys {
			parts = append(parts, k[r])
		}
		name := strings.Join(parts, " ")
		i, ok := idx[name]
		if !ok {
			if len(c.Series) == len(palette) {
				continue
			}
			i = len(c.Series)
			idx[name] = i
			c.Series = append(c.Series, series{Name: name, Kind: lines})
		}
		s := &c.Series[i]
		s.X, s.Y = append(s.X, w[r]), append(s.Y, y[r])
		if sd != nil {
			s.Lo, s.Hi = append(s.Lo, y[r]-sd[r]), append(s.Hi, y[r]+sd[r])
		}
	}
	if len(c.Series) == 1 {
		c.Series[0].Name = ""
	}
	return c, "Throughput against the number of workers W, with bars at ± one standard deviation over the repetitions."
}

// runsPlot is the throughput of every run against W, one colour per
// time-dilation factor k where the file has stretched runs.
func runsPlot(t arrow.Table) (*chart, string) {
	x, y, k := colFloats(t, "workers"), colFloats(t, "throughput"), dilation(t)
	c := &chart{XLabel: "workers W", YLabel: "throughput (examples/s)", XTicks: distinct(x)}
	for _, kv := range distinct(k) {
		s := series{Name: "k = " + strconv.FormatFloat(kv, 'g', -1, 64), Kind: points}
		for r := range x {
			if k[r] == kv {
				s.X, s.Y = append(s.X, x[r]), append(s.Y, y[r])
			}
		}
		c.Series = append(c.Series, s)
	}
	if len(c.Series) == 1 {
		c.Series[0].Name = ""
		return c, "Throughput of every run (one point per repetition) against the number of workers W."
	}
	return c, "Throughput of every run (one point per repetition) against the number of workers W; k is the run's time-dilation factor (device_speed and bandwidth ÷ k), its throughput on the configuration's time scale."
}

// stepsPlot is the step time per W of the throughput runs: median, and
// bars from the 10th to the 90th percentile over workers, repetitions and
// steps.
func stepsPlot(t arrow.Table) (*chart, string) {
	run, w, s0, s1, k := colStrings(t, "run"), colFloats(t, "workers"), colFloats(t, "start_ns"), colFloats(t, "end_ns"), dilation(t)
	byW := map[float64][]float64{}
	for r := range w {
		if run[r] == "throughput" && k[r] == 1 {
			byW[w[r]] = append(byW[w[r]], (s1[r]-s0[r])/1e6)
		}
	}
	s := series{Kind: lines}
	ws := keysOf(byW)
	for _, x := range ws {
		d := byW[x]
		sort.Float64s(d)
		s.X, s.Y = append(s.X, x), append(s.Y, quantile(d, 0.5))
		s.Lo, s.Hi = append(s.Lo, quantile(d, 0.1)), append(s.Hi, quantile(d, 0.9))
	}
	return &chart{XLabel: "workers W", YLabel: "step time (ms)", XTicks: ws, Series: []series{s}},
		"Step time of the throughput runs (as configured, not time-dilated) against W: median, with bars from the 10th to the 90th percentile over workers, repetitions and steps."
}

// contentionBudget is the contention budget of testbed accounting
// version 2 (engine/testbed doc.go, "Artifact accounting"): 2% of wall
// time in every process of every run. Later versions keep it as a
// reference line.
const contentionBudget = 0.02

// accountingPlot is the worst contention of any PS or worker process per
// W, against the budget of accounting version 2 (the file's is version).
func accountingPlot(t arrow.Table, version string) (*chart, string) {
	run, w, proc, cont, k := colStrings(t, "run"), colFloats(t, "workers"), colStrings(t, "process"), colFloats(t, "contention"), dilation(t)
	worst := map[float64]float64{}
	for r := range w {
		if run[r] == "throughput" && proc[r] != "host" && k[r] == 1 {
			worst[w[r]] = math.Max(worst[w[r]], 100*cont[r])
		}
	}
	s := series{Kind: lines}
	ws := keysOf(worst)
	for _, x := range ws {
		s.X, s.Y = append(s.X, x), append(s.Y, worst[x])
	}
	label, why := "2% reference", " (the budget of accounting version 2)."
	if version == "2" {
		label, why = "budget 2%", "; above the dashed budget the configuration is host_limited."
	}
	return &chart{XLabel: "workers W", YLabel: "contention (% of wall time)", XTicks: ws, Series: []series{s},
			Rules: []rule{{Y: 100 * contentionBudget, Label: label}}},
		"Contention of the worst PS or worker process (run-queue wait beyond the host's baseline, share of wall time) in the throughput runs of each W (as configured, not time-dilated)" + why
}

// tracePlot is a timeline of one profiled step: the busy intervals of
// each resource, nearby intervals merged so that a lane has at most 80.
func tracePlot(t arrow.Table) (*chart, string) {
	step, res, ps, s0, s1 := colFloats(t, "step"), colStrings(t, "resource"), colFloats(t, "ps"), colFloats(t, "start_ns"), colFloats(t, "end_ns")
	span := map[float64]float64{}
	multiPS := false
	for r := range step {
		span[step[r]] = math.Max(span[step[r]], s1[r])
		multiPS = multiPS || ps[r] > 0
	}
	if len(span) == 0 {
		return nil, "The trace has no operations."
	}
	steps := keysOf(span)
	sort.SliceStable(steps, func(i, j int) bool { return span[steps[i]] < span[steps[j]] })
	k := steps[len(steps)/2] // the median-length step
	type iv struct{ a, b float64 }
	lanes := map[string][]iv{}
	for r := range step {
		if step[r] == k {
			name := res[r]
			if multiPS && name != "worker" {
				name += " " + strconv.FormatFloat(ps[r], 'f', 0, 64)
			}
			lanes[name] = append(lanes[name], iv{s0[r] / 1e6, s1[r] / 1e6})
		}
	}
	order := map[string]int{"downlink": 0, "worker": 1, "uplink": 2, "ps": 3}
	names := make([]string, 0, len(lanes))
	for n := range lanes {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		ri, _, _ := strings.Cut(names[i], " ")
		rj, _, _ := strings.Cut(names[j], " ")
		a, b := order[ri], order[rj]
		return a < b || a == b && names[i] < names[j]
	})
	ms := span[k] / 1e6
	gap := ms / 500
	s := series{Kind: rects}
	for li, n := range names {
		ivs := lanes[n]
		sort.Slice(ivs, func(i, j int) bool { return ivs[i].a < ivs[j].a || ivs[i].a == ivs[j].a && ivs[i].b < ivs[j].b })
		for g := gap; ; g *= 2 {
			var m []iv
			for _, v := range ivs {
				if len(m) > 0 && v.a <= m[len(m)-1].b+g {
					m[len(m)-1].b = math.Max(m[len(m)-1].b, v.b)
					continue
				}
				m = append(m, v)
			}
			if len(m) <= 80 {
				for _, v := range m {
					s.X, s.X1 = append(s.X, v.a), append(s.X1, v.b)
					s.Y0, s.Y = append(s.Y0, float64(li)-0.35), append(s.Y, float64(li)+0.35)
				}
				break
			}
		}
	}
	return &chart{XLabel: "time from the start of the step (ms)", YCats: names, Series: []series{s}},
		fmt.Sprintf("Timeline of profiled step %g (the step of median length, %s ms): when each resource is busy; gaps under %s ms are not drawn.",
			k, strconv.FormatFloat(ms, 'g', 4, 64), strconv.FormatFloat(gap, 'g', 2, 64))
}

// phasesPlot is a bar per phase time, one colour per job.
func phasesPlot(t arrow.Table) (*chart, string) {
	cols := []string{"s_w", "s_u", "s_s", "s_d"}
	jobs := colStrings(t, "job")
	c := &chart{YLabel: "time per step (ms)", XCats: []string{"S^W worker", "S^U uplink", "S^S server", "S^D downlink"}}
	n := min(len(jobs), len(palette))
	width := 0.8 / float64(max(n, 1))
	for r := 0; r < n; r++ {
		s := series{Name: jobs[r], Kind: rects}
		for i, col := range cols {
			v := colFloats(t, col)
			x := float64(i) - 0.4 + float64(r)*width
			s.X, s.X1, s.Y0, s.Y = append(s.X, x), append(s.X1, x+width), append(s.Y0, 0), append(s.Y, 1e3*v[r])
		}
		c.Series = append(c.Series, s)
	}
	return c, "mascots18's service times of one step: computation at the worker S^W, uplink S^U, parameter server S^S and downlink S^D."
}

// profilePlot is the forward and backward time per layer, stacked, in at
// most 100 bars (consecutive layers summed).
func profilePlot(t arrow.Table) (*chart, string) {
	fw, bw := colFloats(t, "forward_s"), colFloats(t, "backward_s")
	k := (len(fw) + 99) / 100
	fs, bs := series{Name: "forward", Kind: rects}, series{Name: "backward", Kind: rects}
	for i := 0; i < len(fw); i += k {
		var a, b float64
		for j := i; j < min(i+k, len(fw)); j++ {
			a, b = a+fw[j], b+bw[j]
		}
		x0, x1 := float64(i), float64(i+k)-0.1*float64(k)
		fs.X, fs.X1, fs.Y0, fs.Y = append(fs.X, x0), append(fs.X1, x1), append(fs.Y0, 0), append(fs.Y, 1e3*a)
		bs.X, bs.X1, bs.Y0, bs.Y = append(bs.X, x0), append(bs.X1, x1), append(bs.Y0, 1e3*a), append(bs.Y, 1e3*(a+b))
	}
	what := "Forward and backward compute time of each layer per step, layers in row order."
	if k > 1 {
		what = fmt.Sprintf("Forward and backward compute time per step of every %d consecutive layers (summed), layers in row order.", k)
	}
	return &chart{XLabel: "layer (row)", YLabel: "time per step (ms)", Series: []series{fs, bs}}, what
}

// histogramPlot counts the positive values of column col in bins of a
// quarter decade.
func histogramPlot(t arrow.Table, col, xlabel, what string) (*chart, string) {
	v := colFloats(t, col)
	counts := map[float64]float64{}
	n := 0
	for _, x := range v {
		if x > 0 {
			counts[math.Floor(4*math.Log10(x))]++
			n++
		}
	}
	s := series{Kind: rects}
	for _, b := range keysOf(counts) {
		s.X, s.X1 = append(s.X, math.Pow(10, b/4)), append(s.X1, math.Pow(10, (b+1)/4))
		s.Y0, s.Y = append(s.Y0, 0), append(s.Y, counts[b])
	}
	return &chart{XLabel: xlabel, YLabel: what, XLog: true, Series: []series{s}},
		fmt.Sprintf("Histogram of %s: %s per quarter decade (%d with a positive value).", col, what, n)
}

// genericPlot draws the first numeric column that has a unit, row by row.
func genericPlot(t arrow.Table) (*chart, string) {
	col := -1
	for _, want := range []arrow.Type{arrow.FLOAT64, arrow.INT64} {
		for i, fl := range t.Schema().Fields() {
			if col < 0 && fl.Type.ID() == want && export.Unit(t.Schema(), i) != "" {
				col = i
			}
		}
	}
	if col < 0 {
		return nil, "No plot: no numeric column has a single unit (values with a unit per row are not comparable)."
	}
	name, unit := t.Schema().Field(col).Name, export.Unit(t.Schema(), col)
	y := colFloats(t, name)
	c := &chart{XLabel: "row", YLabel: name + " (" + unit + ")"}
	if len(y) > 200 {
		s := series{Kind: lines}
		for i, v := range y {
			s.X, s.Y = append(s.X, float64(i)), append(s.Y, v)
		}
		c.Series = []series{s}
		return c, fmt.Sprintf("%s of each row.", name)
	}
	s := series{Kind: rects}
	for i, v := range y {
		s.X, s.X1, s.Y0, s.Y = append(s.X, float64(i)-0.4), append(s.X1, float64(i)+0.4), append(s.Y0, 0), append(s.Y, v)
	}
	c.Series = []series{s}
	// Label the bars with the first column where its values fit under
	// them (about 6 px a character).
	labels := colStrings(t, t.Schema().Field(0).Name)
	fits := len(y) > 0 && len(labels) == len(y)
	for _, l := range labels {
		fits = fits && 6*len([]rune(l)) <= (chartW-padL-padR)/len(y)
	}
	if fits {
		c.XCats, c.XLabel = labels, t.Schema().Field(0).Name
	}
	return c, fmt.Sprintf("%s of each row.", name)
}
