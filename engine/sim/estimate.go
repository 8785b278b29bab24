package sim

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// DefaultTarget is Precision.Target when zero: a 95% confidence interval
// of ±1% of the throughput.
const DefaultTarget = 0.01

// MaxTarget is the largest Precision.Target accepted (±50%).
const MaxTarget = 0.5

// DefaultMaxEvents is Precision.MaxEvents when zero: the simulated events
// of all replications of one estimate together.
const DefaultMaxEvents = 400_000_000

// DefaultReplications is Precision.Replications when zero.
const DefaultReplications = 10

// MaxDoublings bounds how often Estimate doubles the run length while a
// replication's MSER-5 transient lies beyond half of its run. A trace
// whose workers drift in phase without ever settling (two workers on a
// link are neutrally stable, see Start) never passes that test; after
// MaxDoublings the first half of each run is deleted (Law & Kelton's
// rule of thumb) and Estimate.Clipped counts those replications.
const MaxDoublings = 3

// DefaultEstimateSteps is the initial run length of every replication,
// steps per worker, when Config.Steps is zero and W ≤ 10 (InitialSteps).
const DefaultEstimateSteps = 100

// EstimateCompletions and MinEstimateSteps set the initial run length of
// a replication above W = 10 when Config.Steps is zero: about
// EstimateCompletions step completions of all workers together (200
// MSER-5 groups), at least MinEstimateSteps steps per worker.
const (
	EstimateCompletions = 1000
	MinEstimateSteps    = 10
)

// InitialSteps is the initial run length of a replication of W workers
// when Config.Steps is zero: DefaultEstimateSteps up to W = 10, then
// ⌈EstimateCompletions/W⌉ steps per worker, at least MinEstimateSteps.
// The interval is over replications, and each replication's MSER-5
// analysis is over the completions of all workers, so at large W a
// replication needs fewer steps per worker for as many observations; the
// run still doubles while its transient is too long. Measured on
// predict's 1..64 nodes × 8 GPUs BSP sweep: see README, Performance, and
// TestInitialStepsRunLength.
func InitialSteps(w int) int {
	if w <= EstimateCompletions/DefaultEstimateSteps {
		return DefaultEstimateSteps
	}
	return max((EstimateCompletions+w-1)/w, MinEstimateSteps)
}

// replicationSeed is the fixed rule that gives replication r of an
// estimate with Config.Seed seed its own seed: the increment of SplitMix64
// (Steele, Lea, Flood, OOPSLA 2014), so no seed is ever chosen by outcome.
func replicationSeed(seed uint64, r int) uint64 { return seed + uint64(r)*0x9e3779b97f4a7c15 }

// Precision configures Estimate's sequential stopping.
type Precision struct {
	// Target is the relative half-width of the 95% confidence interval to
	// reach, in (0, MaxTarget]; 0 means DefaultTarget.
	Target float64
	// MaxEvents bounds the simulated events of all replications
	// together; 0 means DefaultMaxEvents.
	MaxEvents int64
	// Replications is the number of independent replications to start
	// with (≥ 2); 0 means DefaultReplications.
	Replications int
}

func (p Precision) resolve() (Precision, error) {
	if p.Target == 0 {
		p.Target = DefaultTarget
	}
	if math.IsNaN(p.Target) || p.Target <= 0 || p.Target > MaxTarget {
		return p, fmt.Errorf("sim: Precision.Target: %g; want a relative half-width in (0, %g]", p.Target, MaxTarget)
	}
	if p.MaxEvents == 0 {
		p.MaxEvents = DefaultMaxEvents
	}
	if p.MaxEvents < 0 {
		return p, fmt.Errorf("sim: Precision.MaxEvents: %d; want > 0", p.MaxEvents)
	}
	if p.Replications == 0 {
		p.Replications = DefaultReplications
	}
	if p.Replications < 2 {
		return p, fmt.Errorf("sim: Precision.Replications: %d; want ≥ 2 (an interval needs two replications)", p.Replications)
	}
	return p, nil
}

// Estimate is a converged estimate of throughput (see doc.go, "Output
// analysis").
type Estimate struct {
	Workers int // W
	// Throughput is the mean over replications of each replication's
	// steady-state throughput (Output.Throughput), examples/s; under BSP
	// (Regenerative) W × batch examples over the mean cycle time.
	Throughput float64
	// Lo and Hi bound its 95% confidence interval, examples/s (Student's
	// t over the replications; under BSP over the cycles, see
	// summarizeCycles).
	Lo, Hi float64
	// HalfWidth is (Hi − Lo) / (2·Throughput).
	HalfWidth float64
	// Replications is the number of independent replications.
	Replications int
	// Steps is each replication's length, steps per worker.
	Steps int
	// Transient is the mean number of step completions (all workers)
	// MSER-5 deleted per replication; under BSP those before the first
	// barrier release.
	Transient float64
	// Regenerative reports a BSP estimate by the regenerative method: each
	// replication's cycles between barrier releases are its observations,
	// with no MSER-5 analysis and no doubling (doc.go).
	Regenerative bool
	// Converged reports HalfWidth ≤ Precision.Target.
	Converged bool
	// Clipped is the number of replications whose MSER-5 truncation
	// point was still at half of the run after MaxDoublings doublings
	// (their first half deleted).
	Clipped int
	// Stop says why the estimate stopped: "precision reached", or the
	// bound that was hit.
	Stop string
	// Events is the number of simulated events of all replications.
	Events int64
	// Samples is each replication's throughput, in replication order.
	Samples []float64
	// Bimodality is the sample bimodality coefficient of Samples,
	// BC = (g² + 1)/(k + 3(n−1)²/((n−2)(n−3))) with g the sample skewness
	// and k the sample excess kurtosis (SAS Institute; Pfister et al.,
	// Front. Psychol. 2013); above 5/9, the value of a uniform
	// distribution, the replications suggest more than one operating mode.
	// 0 when the samples do not vary or n < 4.
	Bimodality float64
	// Modes, when Bimodality > 5/9 and the two groups of replications on
	// either side of the largest gap between sorted samples differ by more
	// than the interval the target allows (2·Target of the throughput), are
	// those groups, low first: operating modes a run can settle in (see
	// doc.go). Nil otherwise.
	Modes []OperatingMode

	// maxEvents is the events bound the estimate ran under; bound is the
	// least bound under which it takes the same path, and boundHit
	// reports that the bound decided the path (EstimateCache).
	maxEvents, bound int64
	boundHit         bool
}

// Estimate simulates cfg.Workers workers in independent replications
// until the 95% confidence interval of throughput is within prec.Target
// (relative) or prec.MaxEvents is reached. Replication r uses seed
// cfg.Seed + r·0x9e3779b97f4a7c15 and starts its workers Staggered, so
// its start offsets and sampled steps are its own; each replication's
// value is its steady-state throughput after the MSER-5 transient. Run
// lengths double (every replication continued, see run.go) while any
// replication's transient lies beyond its first half (at most
// MaxDoublings times); then replications are added to the number the
// interval needs. Under BSP the replications are
// RegenerativeSteps long and analysed by the regenerative method
// (summarizeCycles): no MSER-5, no doubling. cfg.Start, cfg.Warmup and
// cfg.SeriesWindow are ignored; cfg.StartOffsets, cfg.Timeline and
// cfg.OnSpan must be unset.
func (pr *Program) Estimate(cfg Config, prec Precision) (Estimate, error) {
	if cfg.Timeline != nil || cfg.OnSpan != nil || cfg.StartOffsets != nil {
		return Estimate{}, errors.New("sim: Estimate: Config.Timeline, OnSpan and StartOffsets must be nil (they are per run)")
	}
	prec, err := prec.resolve()
	if err != nil {
		return Estimate{}, err
	}
	cfg.Start, cfg.Warmup, cfg.SeriesWindow = Staggered, NoWarmup, 0
	if cfg.Steps == 0 {
		cfg.Steps = EstimateSteps(cfg.Sync, cfg.Workers)
	}
	if cfg.Sync == BSP && cfg.Steps < MinRegenerativeSteps {
		return Estimate{}, fmt.Errorf("sim: Config.Steps: %d; a BSP estimate needs ≥ %d steps per worker (one whole cycle between barrier releases)", cfg.Steps, MinRegenerativeSteps)
	}
	p, err := resolve(&pr.meta, &cfg)
	if err != nil {
		return Estimate{}, err
	}
	if cfg.Workers < 1 {
		return Estimate{}, fmt.Errorf("sim: Config.Workers: %d; want ≥ 1", cfg.Workers)
	}
	g := pr.variant(&p)
	// Every op completes at least once per step: the least work the first
	// stage needs.
	least := int64(prec.Replications) * int64(cfg.Workers) * int64(cfg.Steps) * int64(g.nOps)
	if least > prec.MaxEvents {
		return Estimate{}, fmt.Errorf("sim: Precision.MaxEvents: %d cannot reach the target: %d replications × %d workers × %d steps × ≥ %d events per step need ≥ %d",
			prec.MaxEvents, prec.Replications, cfg.Workers, cfg.Steps, g.nOps, least)
	}
	if cfg.Estimates == nil {
		return pr.estimate(g, &p, cfg, prec, least)
	}
	key := estimateKey{program: pr.digest(), p: p, target: prec.Target, replications: prec.Replications}
	return cfg.Estimates.get(key, prec.MaxEvents, func() (Estimate, error) { return pr.estimate(g, &p, cfg, prec, least) })
}

// estimate is Estimate after its checks, on variant g of pr with the
// resolved parameters p; least is the events the first stage needs at
// least.
func (pr *Program) estimate(g *program, pp *params, cfg Config, prec Precision, least int64) (Estimate, error) {
	p := *pp
	e := Estimate{Workers: cfg.Workers, maxEvents: prec.MaxEvents, bound: least}
	var rs replicas // every replication so far, at the current run length
	defer func() { rs.drop() }()
	want := prec.Replications
	doublings := 0
	for {
		more, err := replicate(pr, g, &p, cfg, len(rs.outs), want)
		if err != nil {
			more.drop()
			return e, err
		}
		if p.sync == BSP || doublings == MaxDoublings {
			more.drop() // no doubling can continue them
		}
		rs.add(more)
		e.Events += more.events() // every event spent
		stage := rs.events()      // the replications' events from their start
		short := false
		for _, o := range rs.outs {
			short = short || (!o.TransientOK && p.sync != BSP) // a BSP run regenerates at each barrier
		}
		perRep := float64(stage) / float64(len(rs.outs))
		// Doubling continues every run to twice its length: about stage
		// events more.
		if short && doublings < MaxDoublings && e.Events+stage > prec.MaxEvents {
			e.boundHit = true // the bound, not the data, ends the doubling
		}
		if short && doublings < MaxDoublings && e.Events+stage <= prec.MaxEvents {
			e.bound = max(e.bound, e.Events+stage)
			cfg.Steps *= 2 // too short to leave the transient: all twice as long
			p.steps = cfg.Steps
			ev, err := extend(pr, g, &p, cfg, &rs)
			if err != nil {
				return e, err
			}
			e.Events += ev
			if doublings++; doublings == MaxDoublings {
				rs.drop()
			}
			continue
		}
		outs := rs.outs
		if p.sync == BSP {
			if err := e.summarizeCycles(outs, cfg.Steps, float64(cfg.Workers*p.batch), p.order != Random); err != nil {
				return e, err
			}
		} else {
			e.summarize(outs, cfg.Steps, prec.Target)
		}
		if e.HalfWidth <= prec.Target {
			e.Converged, e.Stop = true, "precision reached"
			if e.Clipped > 0 {
				e.Stop += fmt.Sprintf(" (%d of %d replications still moving at half their %d steps: first half deleted)", e.Clipped, e.Replications, e.Steps)
			}
			return e, nil
		}
		// The replications the interval needs, at least one more, at most
		// twice as many at once (the variance estimate is itself rough).
		r := len(outs)
		need := int(math.Ceil(float64(r) * (e.HalfWidth / prec.Target) * (e.HalfWidth / prec.Target)))
		need = min(max(need, r+1), 2*r)
		if affordable := r + int(float64(prec.MaxEvents-e.Events)/perRep); need > affordable {
			need, e.boundHit = affordable, true
		} else {
			// The least bound that affords need (+1 event against the
			// rounding of the division above).
			e.bound = max(e.bound, e.Events+int64(math.Ceil(float64(need-r)*perRep))+1)
		}
		if need <= r {
			e.Stop = fmt.Sprintf("max events %d reached at ±%.3g%%", prec.MaxEvents, 100*e.HalfWidth)
			return e, nil
		}
		want = need
	}
}

// summarize fills e from the replications' outputs.
func (e *Estimate) summarize(outs []Output, steps int, target float64) {
	e.Replications, e.Steps = len(outs), steps
	e.Samples = make([]float64, len(outs))
	e.Transient, e.Clipped = 0, 0
	for i, o := range outs {
		if !o.TransientOK {
			e.Clipped++
		}
		e.Samples[i] = o.Throughput
		e.Transient += float64(o.Transient) / float64(len(outs))
	}
	mean, sd := stat.MeanStdDev(e.Samples, nil)
	n := float64(len(outs))
	h := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: n - 1}.Quantile(0.975) * sd / math.Sqrt(n)
	e.Throughput, e.Lo, e.Hi = mean, mean-h, mean+h
	e.HalfWidth = math.Inf(1)
	if mean > 0 {
		e.HalfWidth = h / mean
	}
	e.modes(target)
}

// EstimateSweep runs Estimate for each element of workers, in order. The
// events bound prec.MaxEvents (0: DefaultMaxEvents) is shared among the
// worker counts in proportion to W, as their least work is.
func (pr *Program) EstimateSweep(cfg Config, prec Precision, workers []int) ([]Estimate, error) {
	total := prec.MaxEvents
	if total == 0 {
		total = DefaultMaxEvents
	}
	sumW := 0
	for _, w := range workers {
		sumW += max(w, 1)
	}
	out := make([]Estimate, len(workers))
	for i, w := range workers {
		c, pw := cfg, prec
		c.Workers = w
		if total > 0 {
			pw.MaxEvents = max(int64(float64(total)*float64(max(w, 1))/float64(sumW)), 1)
		}
		e, err := pr.Estimate(c, pw)
		if err != nil {
			return nil, fmt.Errorf("W = %d: %w", w, err)
		}
		out[i] = e
	}
	return out, nil
}
