package sim

// startStep starts worker w's next step at s.now: it samples a profiled
// step (with replacement, Alg. 3.1 line 1) and queues the step's downlinks.
func (s *sim) startStep(w int) {
	ws := &s.workers[w]
	ws.step = ws.rng.IntN(s.g.nSteps) // sampling with replacement (line 1)
	ws.stepStart = s.now
	ws.left = s.n
	base := w * s.n
	copy(s.waiting[base:base+s.n], s.g.indeg)
	copy(s.remBytes[base:base+s.n], s.g.bytes[ws.step*s.n:(ws.step+1)*s.n])
	clear(s.served[base : base+s.n])
	for l := range s.S {
		ss := &s.slots[w*s.S+l]
		ss.qhead, ss.qtail, ss.qseq = 0, 0, 0
	}
	for _, r := range s.g.roots { // each step starts with its downlinks (I-10)
		s.ready(w, r)
	}
	s.startKicked()
}

// stepDone records the completion of worker w's step and starts its next
// one (ASP), waits at the barrier (BSP), or retires the worker after its
// last step (never in an open run).
func (s *sim) stepDone(w int) {
	ws := &s.workers[w]
	ws.done++
	last := ws.done == s.stepsPerWk
	s.st.completion(w, s.now, s.now-ws.stepStart, last)
	if last && !s.open {
		s.finished++
		return
	}
	if s.bar != nil {
		s.bar.arrive(s, w)
		return
	}
	s.startStep(w)
}
