package sim

// Receive-thread overheads (OverheadOn = ReceiveThreads): each is a timed
// event in the compute heap that takes no slot, so any number run at once.

// startDelay starts the receive-thread delay d of worker w: it completes
// after its overhead seconds whatever else runs (an infinite-server
// station). It shares the compute heap, with slot −(k+1) for k = w·n + d.
func (s *sim) startDelay(w int, d int32) {
	k := w*s.n + int(d)
	if s.delayStart != nil {
		s.delayStart[k] = s.now
	}
	s.compute.push(entry{key: s.now + s.g.work[s.workers[w].step*s.n+int(d)], seq: s.seq, slot: int32(-k - 1)})
	s.seq++
}

// completeDelay ends the receive-thread delay k = w·n + op and releases
// its dependents.
func (s *sim) completeDelay(k int) {
	w, op := k/s.n, int32(k%s.n)
	s.events++
	if s.emit {
		local := s.g.slot[op]
		s.emitSpan(w, local, int32(s.S)+local, op, 0, true, s.delayStart[k])
	}
	s.release(w, op)
	s.startKicked()
	if s.workers[w].left == 0 {
		s.stepDone(w)
	}
}
