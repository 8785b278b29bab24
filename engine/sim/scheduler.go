package sim

// startKicked starts the first chunk on every marked idle slot (line 29).
func (s *sim) startKicked() {
	for _, slot := range s.kick {
		ss := &s.slots[slot]
		ss.kicked = false
		if !ss.busy && ss.qhead != ss.qtail {
			s.startNext(slot)
		}
	}
	s.kick = s.kick[:0]
}

func (s *sim) enqueue(ss *slotState, op int32) {
	if ss.prioritized {
		pushQ(s.pq[ss.qoff:], int(ss.qtail), qent{prio: s.g.prio[op], seq: ss.qseq, op: op})
		ss.qseq++
	} else {
		s.fifo[ss.qoff+ss.qtail] = op
	}
	ss.qtail++
}

func (s *sim) dequeue(ss *slotState) int32 {
	if ss.prioritized {
		e := popQ(s.pq[ss.qoff:], int(ss.qtail))
		ss.qtail--
		return e.op
	}
	op := s.fifo[ss.qoff+ss.qhead]
	ss.qhead++
	return op
}
