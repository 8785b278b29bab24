package sched

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// doneTol is the relative remaining size below which a job counts as done
// (it absorbs the rounding of simultaneous departures).
const doneTol = 1e-9

// Run simulates cfg. With Poisson arrivals rng drives every random draw (same
// seed, same Result); with explicit Arrivals rng is unused and may be nil.
// It returns an error naming the field for bad input, or when the policy
// misbehaves (allocates more than Nodes, or leaves jobs without nodes when no
// arrival is left).
func Run(cfg Config, rng *rand.Rand) (Result, error) {
	cfg = cfg.withDefaults()
	if err := cfg.validate(); err != nil {
		return Result{}, err
	}
	s := &sim{cfg: cfg, trace: len(cfg.Arrivals) > 0}
	var load, lambda float64
	if s.trace {
		load, lambda = cfg.traceLoad()
		s.src = func() (Arrival, bool) {
			if s.arrived >= len(cfg.Arrivals) {
				return Arrival{}, false
			}
			return cfg.Arrivals[s.arrived], true
		}
	} else {
		if rng == nil {
			return Result{}, fmt.Errorf("sched: nil rng with Poisson arrivals")
		}
		var err error
		if lambda, err = cfg.Workload.Lambda(cfg.Load, cfg.Nodes); err != nil {
			return Result{}, err
		}
		load = cfg.Load
		p := newPoisson(rng, lambda, cfg.Workload)
		s.src = func() (Arrival, bool) { return p.next(), true }
	}
	alloc, err := cfg.Policy.New(Env{Nodes: cfg.Nodes, Types: cfg.Workload.Types, Load: load})
	if err != nil {
		return Result{}, err
	}
	s.pol = alloc
	s.res = Result{Policy: cfg.Policy.Name(), Nodes: cfg.Nodes, Load: load, Lambda: lambda}
	if err := s.loop(); err != nil {
		return Result{}, err
	}
	s.finish()
	return s.res, nil
}

type sim struct {
	cfg   Config
	trace bool
	src   func() (Arrival, bool)
	pol   Allocator
	res   Result

	now     float64
	arrived int
	active  []JobState
	rate    []float64 // examples/s of active[i]
	prog    []int     // next Config.Progress index of active[i]
	alloc   []int
	busy    int

	areaN, areaBusy float64             // ∫N dt, ∫busy dt up to now
	jobs            chunked[Job]        // records of s.arrived jobs, by ID
	done            chunked[completion] // completions in order
	progress        []float64           // unused tail of the Job.Progress slab
}

// completion records one departure.
type completion struct {
	id      int     // job ID
	t       float64 // time, seconds
	cumN    float64 // ∫N dt up to t, job-seconds
	cumBusy float64 // ∫busy dt up to t, node-seconds
}

func (s *sim) loop() error {
	next, has := s.src()
	nextCheck := s.cfg.MinJobs
	for {
		dep, dtDep := s.nextDeparture()
		if dep < 0 && !has {
			if len(s.active) > 0 {
				return fmt.Errorf("sched: policy %q leaves %d jobs without nodes at t=%g s with no arrival left", s.res.Policy, len(s.active), s.now)
			}
			s.res.Reason = "all arrivals completed"
			return nil
		}
		if dep >= 0 && (!has || s.now+dtDep <= next.Time) {
			s.advance(s.now + dtDep)
			s.active[dep].Remaining = 0
			s.complete()
			if !s.trace && s.done.len() >= nextCheck {
				nextCheck = s.done.len() + max(s.done.len()/10, 100)
				if s.converged() {
					s.res.Reason = fmt.Sprintf("95%% CI within %g of the mean", s.cfg.Precision)
					return nil
				}
			}
		} else {
			if !s.trace && s.arrived == s.cfg.MaxJobs {
				s.res.Reason = fmt.Sprintf("reached MaxJobs = %d arrivals", s.cfg.MaxJobs)
				return nil
			}
			s.advance(next.Time)
			s.admit(next)
			next, has = s.src()
			// Simultaneous arrivals share one decision.
			for has && next.Time == s.now && (s.trace || s.arrived < s.cfg.MaxJobs) {
				s.admit(next)
				next, has = s.src()
			}
			if !s.trace && len(s.active) > s.cfg.MaxInSystem {
				s.res.Unstable = true
				s.res.Reason = fmt.Sprintf("%d jobs in system > MaxInSystem %d at t=%g s", len(s.active), s.cfg.MaxInSystem, s.now)
				return nil
			}
		}
		if err := s.reallocate(); err != nil {
			return err
		}
	}
}

func (s *sim) nextDeparture() (int, float64) {
	dep, dt := -1, math.Inf(1)
	for i, j := range s.active {
		if r := s.rate[i]; r > 0 {
			if d := j.Remaining / r; d < dt {
				dep, dt = i, d
			}
		}
	}
	return dep, dt
}

// advance moves time to t, processing work exactly at the current rates and
// recording progress-fraction crossings.
func (s *sim) advance(t float64) {
	dt := t - s.now
	if dt > 0 {
		s.areaN += float64(len(s.active)) * dt
		s.areaBusy += float64(s.busy) * dt
		fr := s.cfg.Progress
		for i := range s.active {
			r := s.rate[i]
			if r == 0 {
				continue
			}
			j := &s.active[i]
			before := j.Remaining
			j.Remaining -= r * dt
			for s.prog[i] < len(fr) {
				target := (1 - fr[s.prog[i]]) * j.Size
				if j.Remaining > target+doneTol*j.Size {
					break
				}
				at := math.Min(s.now+math.Max(before-target, 0)/r, t)
				s.jobs.at(j.ID).Progress[s.prog[i]] = at
				s.prog[i]++
			}
		}
	}
	s.now = t
}

func (s *sim) admit(a Arrival) {
	id := s.arrived
	s.arrived++
	job := s.jobs.add() // zeroed: set fields one by one, no pointer writes
	job.ID, job.Type, job.Size, job.Arrival, job.Start, job.End = id, a.Type, a.Examples, a.Time, -1, -1
	if P := len(s.cfg.Progress); P > 0 {
		if len(s.progress) < P {
			s.progress = make([]float64, P<<chunkBits)
		}
		job.Progress = s.progress[:P:P]
		s.progress = s.progress[P:]
		for k := range job.Progress {
			job.Progress[k] = -1
		}
	}
	s.active = append(s.active, JobState{ID: id, Type: a.Type, Arrival: a.Time, Size: a.Examples, Remaining: a.Examples})
	s.rate = append(s.rate, 0)
	s.prog = append(s.prog, 0)
}

// complete removes every job whose remaining size is (numerically) zero.
func (s *sim) complete() {
	k := 0
	for i := range s.active {
		j := &s.active[i]
		if j.Remaining > doneTol*j.Size {
			if k != i {
				s.active[k], s.rate[k], s.prog[k] = *j, s.rate[i], s.prog[i]
			}
			k++
			continue
		}
		rec := s.jobs.at(j.ID)
		rec.End, rec.Done = s.now, true
		for p := s.prog[i]; p < len(rec.Progress); p++ {
			rec.Progress[p] = s.now
		}
		if s.cfg.History {
			rec.Nodes = append(rec.Nodes, Change{Time: s.now, Nodes: 0})
		}
		s.busy -= j.Nodes
		*s.done.add() = completion{id: j.ID, t: s.now, cumN: s.areaN, cumBusy: s.areaBusy}
	}
	s.active, s.rate, s.prog = s.active[:k], s.rate[:k], s.prog[:k]
}

func (s *sim) reallocate() error {
	n := len(s.active)
	s.alloc = slices.Grow(s.alloc[:0], n)[:n]
	clear(s.alloc)
	s.pol.Allocate(s.now, s.active, s.alloc)
	sum := 0
	for i, w := range s.alloc {
		if w < 0 {
			return fmt.Errorf("sched: policy %q gave job %d %d nodes", s.res.Policy, s.active[i].ID, w)
		}
		sum += w
	}
	if sum > s.cfg.Nodes {
		return fmt.Errorf("sched: policy %q allocated %d nodes, cluster has %d", s.res.Policy, sum, s.cfg.Nodes)
	}
	for i, w := range s.alloc {
		j := &s.active[i]
		if w == j.Nodes {
			continue
		}
		rec := s.jobs.at(j.ID)
		if rec.Start < 0 && w > 0 {
			rec.Start = s.now
		}
		if s.cfg.History {
			rec.Nodes = append(rec.Nodes, Change{Time: s.now, Nodes: w})
		}
		j.Nodes = w
		s.rate[i] = s.cfg.Workload.Types[j.Type].X[w]
		if w == 0 {
			s.rate[i] = 0
		}
	}
	s.busy = sum
	return nil
}
