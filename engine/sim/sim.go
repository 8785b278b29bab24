package sim

import (
	"errors"
	"math"
	"math/rand/v2"
	"sync/atomic"

	"pslab/engine/trace"
)

// Run simulates asynchronous SGD with cfg.Workers workers on the profiled
// steps of tr (icpe20 Algorithm 3.1) and measures throughput. It returns an
// error naming the field for a bad trace or configuration, and the error of
// cfg.Timeline if writing fails. It compiles tr on every call: to run one
// trace many times, Compile it once and use Program.Run.
func Run(tr *trace.Trace, cfg Config) (Result, error) {
	if tr == nil {
		return Result{}, errors.New("sim: nil trace")
	}
	if _, err := resolve(&tr.Meta, &cfg); err != nil { // configuration errors first
		return Result{}, err
	}
	pr, err := Compile(tr)
	if err != nil {
		return Result{}, err
	}
	return pr.Run(cfg)
}

// slotState is scheduler[w, r] of Alg. 3.1 plus an explicit busy flag
// (CATALOGUE I-5): its waiting operations and its running chunk, if any.
type slotState struct {
	worker, class int32
	busy, last    bool
	prioritized   bool
	kicked        bool
	chunk         uint8
	op            int32
	start         float64
	qoff          int32 // queue region in sim.fifo or sim.pq
	qhead, qtail  int32
	qseq          uint32
}

type workerState struct {
	rng       *rand.Rand
	step      int // index of the sampled profiled step
	done      int // completed steps
	left      int // operations of the current step not yet completed
	stepStart float64
	dlBusy    int32 // running downlink chunks
}

type sim struct {
	g          *program
	p          *params
	W, S, n    int
	now        float64
	seq        uint64
	invB       float64
	workers    []workerState
	slots      []slotState
	fifo       []int32
	pq         []qent
	waiting    []int32 // [w·n+op] unfinished dependencies (op.waiting_for)
	remBytes   []int64
	served     []bool // first HTTP/2 service done
	compute    minHeap
	kick       []int32 // idle slots with newly queued ops
	classes    []linkClass
	cq         classQueue // classes by next completion; dirty and alone ones
	anyDirty   bool
	act        []bool
	cnt        []int
	shr        []float64
	st         collector
	events     int64
	progress   *atomic.Int64 // Config.Progress
	finished   int
	open       bool // an open run (run.go): workers never retire
	emit       bool
	onSpan     func(Span)
	delayStart []float64 // [w·n+op] start of a receive-thread delay, kept only for spans
	tl         *timeline
	singlePS   bool
	multiplex  bool
	window     int64
	stepsPerWk int
	cpuBase    int32    // first PS-processor class (Config.SharedPS); = len(classes) without it
	bar        *barrier // BSP barrier (Config.Sync); nil for ASP
	net        *nicNet  // shared node NICs (Config.Colocated); classes is then empty
}

func newSim(g *program, p *params, workers int) *sim {
	s := &sim{
		g: g, p: p, W: workers, S: g.slots, n: g.nOps, invB: 1 / p.bandwidth,
		workers: make([]workerState, workers), slots: make([]slotState, workers*g.slots),
		waiting: make([]int32, workers*g.nOps), remBytes: make([]int64, workers*g.nOps),
		served: make([]bool, workers*g.nOps), classes: make([]linkClass, nClasses(g, p)), cpuBase: int32(2 * g.servers),
		act: make([]bool, g.servers), cnt: make([]int, g.servers), shr: make([]float64, g.servers),
		st: newCollector(p, workers), singlePS: g.servers == 1,
		multiplex: p.mode == Multiplex, window: p.window, stepsPerWk: p.steps,
	}
	s.compute.a = make([]entry, 0, workers*(g.slots+g.nDelay+1))
	s.kick = make([]int32, 0, workers*g.slots)
	for i := range s.classes {
		s.classes[i] = linkClass{h: minHeap{a: make([]entry, 0, workers)}, next: math.Inf(1), dir: i % 2, server: i / 2}
	}
	s.cq = newClassQueue(len(s.classes))
	var fifoLen, pqLen int32
	for w := range workers {
		for l := range g.slots {
			ss := &s.slots[w*g.slots+l]
			ss.worker, ss.class = int32(w), g.slotClass[l]
			ss.prioritized = p.order != FIFO && ss.class >= 0
			size := 2 * g.slotOps[l] // a stream enters at most twice per step
			if ss.prioritized {
				ss.qoff, pqLen = pqLen, pqLen+size
			} else {
				ss.qoff, fifoLen = fifoLen, fifoLen+size
			}
		}
		s.workers[w].rng = rand.New(rand.NewPCG(p.seed, uint64(w)))
	}
	s.fifo = make([]int32, fifoLen)
	s.pq = make([]qent, pqLen)
	s.sharePS(p)
	if p.colocated {
		s.net = newNICNet(workers*g.slots, workers, p.bandwidth, p.fullSharing)
		s.classes, s.cq = nil, classQueue{}
	}
	return s
}

// loop is the event loop: the next event is the earliest (time, sequence)
// among the fixed-time completions of computation chunks and the head of
// every link class.
func (s *sim) loop() {
	for {
		if s.anyDirty && (s.net == nil || !s.netDeferred()) {
			s.updateRates()
		}
		src := -2
		var best entry
		if len(s.compute.a) > 0 {
			best, src = s.compute.a[0], -1
		}
		if s.cq.scan { // few classes: the scan, written out (classQueue)
			for i := range s.classes {
				c := &s.classes[i]
				if len(c.h.a) == 0 {
					continue
				}
				if e := (entry{key: c.next, seq: c.h.a[0].seq}); src == -2 || e.before(best) {
					best, src = e, i
				}
			}
		} else if i, ok := s.cq.top(s.classes); ok {
			c := &s.classes[i]
			if e := (entry{key: c.next, seq: c.h.a[0].seq}); src == -2 || e.before(best) {
				best, src = e, int(i)
			}
		}
		if s.net != nil {
			if e, ok := s.net.top(); ok && (src == -2 || e.before(best)) {
				best, src = e, -3
			}
		}
		if src == -2 {
			return
		}
		now := max(best.key, s.now) // explicit clock (I-9)
		if s.open && s.st.ended && now > s.st.wEnd {
			return // an open run's window end (run.go)
		}
		s.st.advance(now)
		s.now = now
		if src == -1 {
			if slot := s.compute.take().slot; slot < 0 {
				if k := int(-slot - 1); k < s.W*s.n { // a receive-thread delay
					s.completeDelay(k)
				} else { // a Staggered first step
					s.startStep(k - s.W*s.n)
				}
			} else {
				s.complete(slot)
			}
			s.compute.settle()
			continue
		}
		if src == -3 { // a flow between colocated nodes
			slot := s.net.pop()
			s.anyDirty = true
			s.complete(slot)
			continue
		}
		c := &s.classes[src]
		e := c.h.take()
		c.sync(now)
		c.v = e.key // exact, so chunks with equal tags finish together
		s.markDirty(int32(src))
		s.complete(e.slot)
		c.h.settle()
	}
}

// complete handles the end of the chunk running on slot (Alg. 3.1 lines
// 15–38).
func (s *sim) complete(slot int32) {
	ss := &s.slots[slot]
	w := int(ss.worker)
	op := ss.op
	ss.busy = false
	s.events++
	if s.progress != nil && s.events%progressEvery == 0 {
		s.progress.Add(progressEvery)
	}
	if s.emit {
		local := slot - int32(w*s.S)
		s.emitSpan(w, local, local, op, ss.chunk, ss.last, ss.start)
	}
	if ss.class >= 0 {
		if s.net == nil {
			c := &s.classes[ss.class]
			c.count--
			c.wsum -= int64(w)
			s.markDirty(ss.class)
		}
		if ss.class%2 == 0 && ss.class < s.cpuBase { // a downlink
			ws := &s.workers[w]
			if ws.dlBusy--; ws.dlBusy == 0 {
				s.st.dlActive--
			}
		}
	}
	ws := &s.workers[w]
	if ss.last { // lines 18–29: release dependents
		s.release(w, op)
	} else { // preempted stream re-enters at the tail (I-12)
		s.enqueue(ss, op)
	}
	s.startKicked()
	if !ss.busy && ss.qhead != ss.qtail { // line 31
		s.startNext(slot)
	}
	if ws.left == 0 { // line 35, with I-7: every op of the step completed
		s.stepDone(w)
	}
}

// release completes op of worker w and readies its dependents whose
// dependencies have all completed (lines 18–28).
func (s *sim) release(w int, op int32) {
	s.workers[w].left--
	base := w * s.n
	for _, d := range s.g.deps[s.g.depStart[op]:s.g.depStart[op+1]] {
		if s.waiting[base+int(d)]--; s.waiting[base+int(d)] == 0 {
			s.ready(w, d)
		}
	}
}

// ready queues op d of worker w (lines 22–28). If its resource is idle
// (I-5: idleness is the busy flag, not an empty queue) the slot is marked,
// and startKicked starts it once every op released at the same instant is
// queued, so that the scheduler's order chooses among all of them. A
// receive-thread delay (ReceiveThreads) starts at once: it waits for no
// resource.
func (s *sim) ready(w int, d int32) {
	if s.g.delay[d] {
		s.startDelay(w, d)
		return
	}
	slot := int32(w*s.S) + s.g.slot[d]
	ss := &s.slots[slot]
	s.enqueue(ss, d)
	if !ss.busy && !ss.kicked {
		ss.kicked = true
		s.kick = append(s.kick, slot)
	}
}

// startNext removes the next chunk from the slot's scheduler and starts it
// (remove_chunk of Alg. 3.1; the HTTP/2 chunk rule of B.1.4).
func (s *sim) startNext(slot int32) {
	ss := &s.slots[slot]
	op := s.dequeue(ss)
	w := int(ss.worker)
	ss.busy, ss.op, ss.start = true, op, s.now
	seq := s.seq
	s.seq++
	if ss.class < 0 { // computation: share 1, fixed completion time (I-11)
		ss.last, ss.chunk = true, 0
		s.compute.push(entry{key: s.now + s.g.work[s.workers[w].step*s.n+int(op)], seq: seq, slot: slot})
		return
	}
	if ss.class >= s.cpuBase {
		s.startShared(ss, slot, w, op, seq)
		return
	}
	k := w*s.n + int(op)
	b := s.remBytes[k]
	ss.chunk = 0
	if s.served[k] {
		ss.chunk = 1
	}
	ss.last = true
	if s.multiplex && !s.served[k] && b > s.window {
		b = s.window
		s.served[k] = true
		ss.last = false
	}
	s.remBytes[k] -= b
	if s.net != nil {
		s.startFlow(slot, w, b, seq)
	} else {
		c := &s.classes[ss.class]
		c.sync(s.now)
		c.h.push(entry{key: c.v + float64(b)*s.invB, seq: seq, slot: slot})
		c.count++
		c.wsum += int64(w)
		s.markDirty(ss.class)
	}
	if ss.class%2 == 0 { // a downlink
		ws := &s.workers[w]
		if ws.dlBusy++; ws.dlBusy == 1 {
			s.st.dlActive++
		}
	}
}
