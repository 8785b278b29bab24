package sim

import (
	"math"
	"math/rand/v2"
	"slices"

	"pslab/engine/trace"
)

// refSim is a deliberately simple second implementation of Algorithm 3.1
// (icpe20 §3.1–3.4, CATALOGUE I-4..I-16) that shares no code with the
// simulator: every chunk keeps its remaining work and every event
// advances all of them by the elapsed time at the current rates (lines
// 16–17 as written, O(running chunks) per event), all completions that
// fall on the same instant are handled together, last worker first, and
// queued ops start only after all of them. Only FIFO order and
// receive-thread overheads are covered. It exists to check that the
// simulator's answer does not depend on its event order or its virtual
// time bookkeeping.
type refSim struct {
	tr        *trace.Trace
	workers   int
	bandwidth float64 // bytes/s
	window    float64 // HTTP/2 WIN bytes; 0: whole streams
	alpha     float64
	beta      float64
	servers   int

	dependents [][]int // by op of step 0 (every step has its structure)
	count      []int
	rate       [][]float64

	now    float64
	ws     []refWorker
	timers []refTimer
	done   []float64 // step completion times, all workers
}

type refWorker struct {
	rng      *rand.Rand
	step     int
	left     int
	waiting  []int
	remBytes []float64
	served   []bool
	res      []refResource // 0: processor; 1+3i: downlink i, 2+3i: uplink i, 3+3i: PS i
	steps    int
	started  bool
}

type refResource struct {
	queue []int
	op    int // running op, −1 when idle
	left  float64
	last  bool
}

type refTimer struct {
	at     float64
	worker int
	op     int // −1: the worker's first step
}

func resourceIndex(r trace.Resource) int {
	switch r.Kind {
	case trace.Downlink:
		return 1 + 3*r.PS
	case trace.Uplink:
		return 2 + 3*r.PS
	case trace.PS:
		return 3 + 3*r.PS
	}
	return 0
}

func newRefSim(tr *trace.Trace, workers int, window float64, seed uint64, offsets []float64) *refSim {
	s := &refSim{tr: tr, workers: workers, bandwidth: tr.Meta.Bandwidth, window: window,
		alpha: tr.Meta.Alpha, beta: tr.Meta.Beta, servers: max(tr.Meta.Servers, 1)}
	for _, op := range tr.Steps[0].Ops {
		s.servers = max(s.servers, op.Resource.PS+1)
	}
	n := len(tr.Steps[0].Ops)
	s.dependents = make([][]int, n)
	for i, op := range tr.Steps[0].Ops {
		for _, d := range op.Deps {
			s.dependents[d] = append(s.dependents[d], i)
		}
	}
	s.count = make([]int, 2*s.servers)
	s.rate = make([][]float64, workers)
	for w := range s.rate {
		s.rate[w] = make([]float64, 1+3*s.servers)
	}
	s.ws = make([]refWorker, workers)
	for w := range s.ws {
		s.ws[w] = refWorker{rng: rand.New(rand.NewPCG(seed, uint64(w))), waiting: make([]int, n),
			remBytes: make([]float64, n), served: make([]bool, n), res: make([]refResource, 1+3*s.servers)}
		for i := range s.ws[w].res {
			s.ws[w].res[i].op = -1
		}
		s.timers = append(s.timers, refTimer{at: offsets[w], worker: w, op: -1})
	}
	return s
}

func (s *refSim) ops(w int) []trace.Op { return s.tr.Steps[s.ws[w].step].Ops }

func (s *refSim) startStep(w int) {
	ws := &s.ws[w]
	ws.step = ws.rng.IntN(len(s.tr.Steps))
	ops := s.ops(w)
	ws.left = len(ops)
	for i, op := range ops {
		ws.waiting[i] = len(op.Deps)
		ws.remBytes[i] = float64(op.Bytes)
		ws.served[i] = false
	}
	for i, op := range ops {
		if len(op.Deps) == 0 {
			ws.res[resourceIndex(op.Resource)].queue = append(ws.res[resourceIndex(op.Resource)].queue, i)
		}
	}
}

// finish completes op of worker w: its dependents wait for the parsing
// overhead of a transfer, if any.
func (s *refSim) finish(w, op int) {
	o := s.ops(w)[op]
	if o.Resource.Kind.IsLink() {
		if d := s.alpha*float64(o.Bytes) + s.beta; d > 0 {
			s.timers = append(s.timers, refTimer{at: s.now + d, worker: w, op: op})
			return
		}
	}
	s.release(w, op)
}

func (s *refSim) release(w, op int) {
	ws := &s.ws[w]
	ws.left--
	for _, i := range s.dependents[op] {
		if ws.waiting[i]--; ws.waiting[i] == 0 {
			r := &ws.res[resourceIndex(s.ops(w)[i].Resource)]
			r.queue = append(r.queue, i)
		}
	}
}

// rates returns the bytes/s of every running link chunk, [worker][res].
func (s *refSim) rates() [][]float64 {
	count := s.count // [2·PS + dir]
	clear(count)
	for w := range s.ws {
		for ps := range s.servers {
			for dir := range 2 {
				if s.ws[w].res[1+3*ps+dir].op >= 0 {
					count[2*ps+dir]++
				}
			}
		}
	}
	out := s.rate
	for w := range s.ws {
		clear(out[w])
		for dir := range 2 {
			// §5: a shared PS gives 1/n; where the worker is alone it gets
			// what its own NIC has left, split among those PSs, at least
			// 1/(PSs it is active with).
			left, alone, active := 1.0, 0, 0
			for ps := range s.servers {
				if s.ws[w].res[1+3*ps+dir].op < 0 {
					continue
				}
				active++
				if n := count[2*ps+dir]; n > 1 {
					left -= 1 / float64(n)
				} else {
					alone++
				}
			}
			for ps := range s.servers {
				if s.ws[w].res[1+3*ps+dir].op < 0 {
					continue
				}
				share := 1 / float64(count[2*ps+dir])
				if count[2*ps+dir] == 1 {
					share = math.Max(left/float64(alone), 1/float64(active))
				}
				out[w][1+3*ps+dir] = share * s.bandwidth
			}
		}
	}
	return out
}

// startIdle starts the head of every idle resource's queue.
func (s *refSim) startIdle() {
	for w := range s.ws {
		ws := &s.ws[w]
		for ri := range ws.res {
			r := &ws.res[ri]
			if r.op >= 0 || len(r.queue) == 0 {
				continue
			}
			op := r.queue[0]
			r.queue = r.queue[1:]
			r.op, r.last = op, true
			o := s.ops(w)[op]
			if !o.Resource.Kind.IsLink() {
				r.left = float64(o.Duration()) * 1e-9
				continue
			}
			b := ws.remBytes[op]
			if s.window > 0 && !ws.served[op] && b > s.window {
				b, r.last = s.window, false
			}
			ws.served[op] = true
			ws.remBytes[op] -= b
			r.left = b
		}
	}
}

// run simulates until the first worker completes steps steps.
func (s *refSim) run(steps int) {
	for {
		rate := s.rates()
		dt := math.Inf(1)
		for w := range s.ws {
			for ri, r := range s.ws[w].res {
				if r.op < 0 {
					continue
				}
				if ri == 0 || (ri-1)%3 == 2 {
					dt = math.Min(dt, r.left)
				} else {
					dt = math.Min(dt, r.left/rate[w][ri])
				}
			}
		}
		for _, t := range s.timers {
			dt = math.Min(dt, t.at-s.now)
		}
		dt = math.Max(dt, 0)
		s.now += dt
		eps := 1e-12 * math.Max(s.now, 1)
		// Advance every chunk and collect what ends now, last worker first.
		type end struct{ w, ri int }
		var ends []end
		for w := s.workers - 1; w >= 0; w-- {
			for ri := range s.ws[w].res {
				r := &s.ws[w].res[ri]
				if r.op < 0 {
					continue
				}
				if ri == 0 || (ri-1)%3 == 2 {
					r.left -= dt
					if r.left <= eps {
						ends = append(ends, end{w, ri})
					}
				} else {
					r.left -= dt * rate[w][ri]
					if r.left <= eps*rate[w][ri] {
						ends = append(ends, end{w, ri})
					}
				}
			}
		}
		var fire []refTimer
		s.timers = slices.DeleteFunc(s.timers, func(t refTimer) bool {
			if t.at <= s.now+eps {
				fire = append(fire, t)
				return true
			}
			return false
		})
		for _, e := range ends {
			r := &s.ws[e.w].res[e.ri]
			op := r.op
			r.op = -1
			if !r.last { // the rest of the stream re-enters at the tail
				r.queue = append(r.queue, op)
				continue
			}
			s.finish(e.w, op)
		}
		for _, t := range fire {
			if t.op < 0 {
				s.ws[t.worker].started = true
				s.startStep(t.worker)
				continue
			}
			s.release(t.worker, t.op)
		}
		for w := range s.ws {
			ws := &s.ws[w]
			if !ws.started || ws.left > 0 {
				continue
			}
			s.done = append(s.done, s.now)
			if ws.steps++; ws.steps == steps {
				return
			}
			s.startStep(w)
		}
		s.startIdle()
	}
}

// throughput is the steady-state throughput of the completions with the
// simulator's own output analysis (MSER-5, batch means), so that the two
// are compared by one estimator and differ only by their event loops.
func (s *refSim) throughput() Output {
	var groups []float64
	last := 0.0
	for i, t := range s.done {
		if (i+1)%MSERBatch == 0 {
			groups = append(groups, t-last)
			last = t
		}
	}
	return analyse(groups, float64(s.tr.Meta.Batch), make([]float64, Batches))
}
