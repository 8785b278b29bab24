package sim

import (
	"fmt"
	"math"
)

// Result is the outcome of one simulation run.
//
// The measurement window (CATALOGUE I-16) starts at the Warmup-th step
// completion counted over all workers (time 0 with NoWarmup) and ends when
// the first worker completes its last step, so that all W workers run
// during the whole window. Throughput and step statistics count the step
// completions inside the window.
type Result struct {
	Workers int // W
	// Throughput is examples/s processed by all workers in the window:
	// Batch × WindowSteps / (WindowEnd − WindowStart).
	Throughput float64
	// StepRate is SGD steps/s completed by all workers in the window.
	StepRate float64
	// WindowStart and WindowEnd bound the measurement window, in seconds.
	WindowStart, WindowEnd float64
	// WindowSteps is the number of step completions in the window.
	WindowSteps int
	// Steps is the number of step completions of the whole run (W·N).
	Steps int
	// Events is the number of simulated events (chunk completions).
	Events int64
	// Duration is the simulated time of the last event, in seconds.
	Duration float64
	// StepTime summarizes the step times (seconds from a step's start to its
	// completion) of the steps completed in the window, all workers pooled.
	StepTime StepStats
	// WorkerStepTime is StepTime per worker.
	WorkerStepTime []StepStats
	// DownlinkOverlap is, within the window, the time during which at least
	// two workers have a downlink transfer running divided by the time
	// during which at least one has (0 when no downlink ran). A worker with
	// transfers from several PSs counts once (Fig. 15: 1 when the workers'
	// downlinks completely overlap, 0 when they completely interleave).
	DownlinkOverlap float64
	// WarmupDownlinkOverlap is the same ratio before the window starts
	// (0 with NoWarmup).
	WarmupDownlinkOverlap float64
	// Output is the steady-state analysis of the run: the MSER-5
	// transient, the throughput after it and its 95% batch-means interval
	// (see Output and doc.go). Throughput above is the paper's fixed
	// window; Output.Throughput is the data-driven one.
	Output Output
	// Series holds consecutive windows of Config.SeriesWindow seconds from
	// time 0 up to the last full window before WindowEnd (nil when
	// SeriesWindow is 0). It covers the warm-up too (Fig. 16).
	Series []Window
}

// StepStats summarizes step times in seconds.
type StepStats struct {
	Count     int     // number of steps
	Mean, Std float64 // Std is the sample standard deviation (0 if Count < 2)
	Min, Max  float64
}

// welford accumulates StepStats online.
type welford struct {
	n                  int
	mean, m2, min, max float64
}

func (s *welford) add(x float64) {
	if s.n == 0 || x < s.min {
		s.min = x
	}
	if s.n == 0 || x > s.max {
		s.max = x
	}
	s.n++
	d := x - s.mean
	s.mean += d / float64(s.n)
	s.m2 += d * (x - s.mean)
}

func (s *welford) final() StepStats {
	out := StepStats{Count: s.n, Mean: s.mean, Min: s.min, Max: s.max}
	if s.n > 1 {
		out.Std = math.Sqrt(max(s.m2, 0) / float64(s.n-1))
	}
	return out
}

// Window is one window of Result.Series.
type Window struct {
	Start, End float64 // seconds
	Steps      int     // step completions in [Start, End)
	// Throughput is examples/s: Batch × Steps / (End − Start).
	Throughput float64
	// DownlinkOverlap is as in Result, within this window.
	DownlinkOverlap float64
}

// collector accumulates the measurements of a run online. Its memory grows
// with the number of steps only in Series and the completion record
// (compWorker, compTime: 12 bytes per completion, preallocated, which
// workerRates needs once the transient is known).
type collector struct {
	batch          float64
	warmup         int
	completions    int
	started        bool
	ended          bool
	wStart, wEnd   float64
	inWindow       int
	lastT          float64
	dlActive       int32      // workers with a running downlink chunk
	anyT, bothT    [2]float64 // [warm-up, window] time with ≥1, ≥2 active
	perWorker      []welford
	all            welford
	series         float64
	bucket         int
	bAny, bBoth    float64
	bSteps         int
	windows        []Window
	workers        int
	stepsPerWorker int
	groups         []float64 // durations of MSERBatch consecutive completions (analysis.go)
	compWorker     []int32   // worker of each completion in groups, in order (analysis.go, workerRates)
	compTime       []float64 // its time, s
	batchMeans     []float64 // scratch of analyse, allocated once
	gCount         int
	gStart         float64
	releases       int     // BSP barrier releases in the window (release)
	lastRelease    float64 // s
	beforeCycles   int     // completions before the first release
	cycles         welford // times between consecutive releases
}

func newCollector(p *params, workers int) collector {
	c := collector{
		batch: float64(p.batch), warmup: p.warmup, series: p.series,
		perWorker: make([]welford, workers), workers: workers, stepsPerWorker: p.steps,
		groups:     make([]float64, 0, workers*p.steps/MSERBatch+1),
		compWorker: make([]int32, 0, workers*p.steps),
		compTime:   make([]float64, 0, workers*p.steps),
		batchMeans: make([]float64, Batches),
	}
	if c.warmup == 0 {
		c.started = true
	}
	return c
}

// advance integrates the downlink-overlap indicators up to now.
func (c *collector) advance(now float64) {
	dt := now - c.lastT
	if dt <= 0 {
		return
	}
	if c.dlActive > 0 && !c.ended {
		ph := 0
		if c.started {
			ph = 1
		}
		c.anyT[ph] += dt
		if c.dlActive > 1 {
			c.bothT[ph] += dt
		}
	}
	if c.series > 0 && !c.ended {
		t := c.lastT
		for {
			end := float64(c.bucket+1) * c.series
			seg := min(now, end) - t
			if c.dlActive > 0 {
				c.bAny += seg
				if c.dlActive > 1 {
					c.bBoth += seg
				}
			}
			if now < end {
				break
			}
			c.closeBucket()
			t = end
		}
	}
	c.lastT = now
}

func (c *collector) closeBucket() {
	w := Window{
		Start: float64(c.bucket) * c.series, End: float64(c.bucket+1) * c.series,
		Steps: c.bSteps, Throughput: c.batch * float64(c.bSteps) / c.series,
	}
	if c.bAny > 0 {
		w.DownlinkOverlap = c.bBoth / c.bAny
	}
	c.windows = append(c.windows, w)
	c.bucket++
	c.bAny, c.bBoth, c.bSteps = 0, 0, 0
}

// completion records a step completion of worker w at now. The window is
// the half-open interval (wStart, wEnd] in time: completions at the same
// instant as the warm-up's last are warm-up, completions at the same instant
// as the first worker's last step are inside.
func (c *collector) completion(w int, now, stepTime float64, lastOfWorker bool) {
	c.completions++
	if c.ended && now > c.wEnd {
		return
	}
	c.bSteps++
	c.compWorker, c.compTime = append(c.compWorker, int32(w)), append(c.compTime, now)
	if c.gCount++; c.gCount == MSERBatch {
		c.groups = append(c.groups, now-c.gStart)
		c.gStart, c.gCount = now, 0
	}
	switch {
	case !c.started:
		if c.completions == c.warmup {
			c.started = true
			c.wStart = now
		}
	case now > c.wStart:
		c.inWindow++
		c.perWorker[w].add(stepTime)
		c.all.add(stepTime)
	}
	if lastOfWorker && !c.ended {
		c.ended = true
		c.wEnd = now
	}
}

// release records a BSP barrier release at now, the end of one
// regeneration cycle and the start of the next; releases after the window
// end are not counted.
func (c *collector) release(now float64) {
	if c.ended && now > c.wEnd {
		return
	}
	if c.releases == 0 {
		c.beforeCycles = c.completions
	} else {
		c.cycles.add(now - c.lastRelease)
	}
	c.releases++
	c.lastRelease = now
}

func (c *collector) result(events int64, now float64) (Result, error) {
	if !c.started || c.inWindow == 0 || c.wEnd <= c.wStart {
		return Result{}, fmt.Errorf("sim: Config.Warmup: %d step completions leave no measurement window before the first worker finishes its %d steps (W = %d)", c.warmup, c.stepsPerWorker, c.workers)
	}
	r := Result{
		Workers: c.workers, WindowStart: c.wStart, WindowEnd: c.wEnd,
		WindowSteps: c.inWindow, Steps: c.completions, Events: events, Duration: now,
		StepTime: c.all.final(), WorkerStepTime: make([]StepStats, c.workers),
		Series: c.windows, Output: analyse(c.groups, c.batch, c.batchMeans),
	}
	r.Output.Cycles, r.Output.BeforeCycles = c.cycles.final(), c.beforeCycles
	if x, ok := workerRates(c.compWorker, c.compTime, r.Output.Transient, c.workers); ok {
		r.Output.Throughput = c.batch * x
	}
	length := c.wEnd - c.wStart
	r.StepRate = float64(c.inWindow) / length
	r.Throughput = c.batch * r.StepRate
	for i := range c.perWorker {
		r.WorkerStepTime[i] = c.perWorker[i].final()
	}
	if c.anyT[1] > 0 {
		r.DownlinkOverlap = c.bothT[1] / c.anyT[1]
	}
	if c.anyT[0] > 0 {
		r.WarmupDownlinkOverlap = c.bothT[0] / c.anyT[0]
	}
	return r, nil
}
