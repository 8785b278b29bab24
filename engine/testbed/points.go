package testbed

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"time"

	"pslab/engine/testbed/accounting"
	"pslab/engine/testbed/analysis"
	"pslab/engine/testbed/collection"
	"pslab/engine/testbed/config"
	"pslab/engine/testbed/network"
	"pslab/engine/testbed/training"
)

// measurer measures the throughput points of one configuration.
type measurer struct {
	l        Launcher
	ctx      context.Context
	net      network.Hosts
	root     string
	c        config.Config
	plan     *training.Plan
	o        *collection.Outcome
	begin    time.Time
	progress io.Writer
	// timeout is the time allowed a run of steps steps of w workers
	// stretched k×.
	timeout func(steps, w int, k float64) time.Duration
}

// point measures W = w with every time stretched k× (1: as configured):
// Repetitions independent runs, then one more at a time while the 95%
// interval over the runs (Student t) is wider than ±accounting.MaxCI,
// up to Config.RepCap runs and, with Config.MaxMinutes set, while the
// next run fits in what is left of it (engine/testbed doc, "Intervals
// from repetitions"). Every run is added to the outcome and its
// accounting; the point's rates are on the configuration's time scale.
func (m *measurer) point(w int, k float64) (collection.Point, []collection.Run, error) {
	c := m.c
	p := collection.Point{Workers: w, Dilation: k}
	var runs []collection.Run
	sc := c.Stretch(k)
	job := sc.Job(m.root, w)
	tag := ""
	if k > 1 {
		tag = fmt.Sprintf(" ×%g", k)
	}
	for rep := 0; ; rep++ {
		if rep >= c.Repetitions {
			p.Stop = stopReason(c, p.Rates, time.Since(m.begin), runs[len(runs)-1].Wall)
			if p.Stop != "" {
				break
			}
		}
		t := time.Now()
		res, u, err := m.l.runOnce(m.ctx, m.net, runSpec{job: job, steps: c.Steps, failAt: -1, timeout: m.timeout(c.Steps, w, k)})
		if err != nil {
			return p, nil, fmt.Errorf("%s: W=%d%s repetition %d: %w", c.Name, w, tag, rep, err)
		}
		run := collection.Run{Workers: w, Repetition: rep, Dilation: k, Wall: time.Since(t), Usage: u}
		m.o.Acct.AddUsage(u, fmt.Sprintf("W=%d%s rep %d", w, tag, rep))
		for _, r := range res {
			run.Steps = append(run.Steps, analysis.StepTimes{Start: r.Start, End: r.End})
		}
		x, err := analysis.Throughput(run.Steps, m.plan.Batch, c.Average)
		if err != nil {
			return p, nil, fmt.Errorf("%s: W=%d%s repetition %d: %w", c.Name, w, tag, rep, err)
		}
		run.Throughput = x * k
		p.Rates = append(p.Rates, run.Throughput)
		runs = append(runs, run)
		m.o.Runs = append(m.o.Runs, run)
	}
	p.Mean, p.Std = analysis.MeanStd(p.Rates)
	return p, runs, nil
}

// stopReason says why a point of the runs' rates needs no further
// repetition ("" if it does), elapsed being the time the configuration
// has taken and last the wall time of the last run.
func stopReason(c config.Config, rates []float64, elapsed, last time.Duration) string {
	ci := analysis.NewSample(rates).RelHalfWidth()
	switch {
	case ci <= accounting.MaxCI:
		return fmt.Sprintf("±%.1f%% ≤ ±%.0f%% reached", 100*ci, 100*accounting.MaxCI)
	case len(rates) >= c.RepCap():
		return fmt.Sprintf("repetition cap %d reached", c.RepCap())
	case c.MaxMinutes > 0 && (elapsed+last).Minutes() > c.MaxMinutes:
		return fmt.Sprintf("time cap %g min reached", c.MaxMinutes)
	}
	return ""
}

// stretch measures the stretched points (engine/testbed doc, "Dilation
// sensitivity"): for each of Config.StretchedPoints W (stretchOrder), the
// point again at every time stretched by the first factor of
// Config.Dilations, and by the next factor as long as the last one moved
// the point by more than its own interval. The network is shaped back
// afterwards.
func (m *measurer) stretch() error {
	c, o := m.c, m.o
	n := c.StretchedPoints()
	if n == 0 {
		return nil
	}
	for _, w := range stretchOrder(o.Points, o.Facts())[:n] {
		i := slices.IndexFunc(o.Points, func(p collection.Point) bool { return p.Workers == w })
		base := analysis.NewSample(o.Points[i].Rates)
		for _, k := range c.Dilations {
			if err := m.net.Shape(m.ctx, network.Link{Rate: c.Bandwidth() / k, Dilation: k}); err != nil {
				return err
			}
			p, _, err := m.point(w, k)
			if err != nil {
				return err
			}
			o.Dilated = append(o.Dilated, p)
			s := analysis.NewSample(p.Rates)
			g := analysis.Agree(base, s)
			moved := !(math.Abs(g.Shift) <= s.RelHalfWidth())
			fmt.Fprintf(m.progress, "%s: W=%d ×%g %.1f ± %.1f examples/s over %d repetitions (%s): %+.1f%% against ×1, joint 95%% interval ±%.1f%%, own ±%.1f%%\n",
				c.Name, w, k, p.Mean, p.Std, len(p.Rates), p.Stop, 100*g.Shift, 100*g.Joint, 100*s.RelHalfWidth())
			if !moved {
				break
			}
		}
	}
	return m.net.Shape(m.ctx, network.Link{Rate: c.Bandwidth()})
}

// stretchOrder orders the W of points for stretching: the one whose runs
// had the highest contention (largest of any process), then the largest
// W, then the others by decreasing contention.
func stretchOrder(points []collection.Point, facts []collection.RunFacts) []int {
	cont := map[int]float64{}
	for _, f := range facts {
		if f.Dilation == 1 {
			cont[f.Workers] = max(cont[f.Workers], f.Contention)
		}
	}
	ws := make([]int, len(points))
	for i, p := range points {
		ws[i] = p.Workers
	}
	slices.SortStableFunc(ws, func(a, b int) int { return cmp.Or(cmp.Compare(cont[b], cont[a]), cmp.Compare(b, a)) })
	if len(ws) > 1 {
		largest := slices.Max(ws)
		j := slices.Index(ws, largest)
		if j > 1 {
			ws = slices.Insert(slices.Delete(ws, j, j+1), 1, largest)
		}
	}
	return ws
}
