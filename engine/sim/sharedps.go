package sim

import "pslab/engine/trace"

// cpuDir is linkClass.dir of a shared PS processor (Config.SharedPS);
// links have 0 (downlink) and 1 (uplink).
const cpuDir = 2

// nClasses is the number of classes of a run: a downlink and an uplink
// per PS, and with Config.SharedPS a processor per PS.
func nClasses(g *program, p *params) int {
	if p.sharedPS {
		return 3 * g.servers
	}
	return 2 * g.servers
}

// sharePS makes, with Config.SharedPS, the classes from cpuBase the PS
// processors and moves every worker's PS slot onto its PS's class: one
// processor shared by all workers (processor sharing, like a NIC
// direction) instead of a share of its own per worker.
func (s *sim) sharePS(p *params) {
	if !p.sharedPS {
		return
	}
	for i := int(s.cpuBase); i < len(s.classes); i++ {
		s.classes[i].dir, s.classes[i].server = cpuDir, i-int(s.cpuBase)
	}
	for k := range s.slots {
		if r := s.g.slotRes[k%s.S]; r.Kind == trace.PS {
			s.slots[k].class = s.cpuBase + int32(r.PS)
		}
	}
}

// startShared starts op of worker w on its PS's shared processor: its
// work in seconds at the class's rate (1/n among the n workers with an op
// running there).
func (s *sim) startShared(ss *slotState, slot int32, w int, op int32, seq uint64) {
	ss.last, ss.chunk = true, 0
	c := &s.classes[ss.class]
	c.sync(s.now)
	c.h.push(entry{key: c.v + s.g.work[s.workers[w].step*s.n+int(op)], seq: seq, slot: slot})
	c.count++
	c.wsum += int64(w)
	s.markDirty(ss.class)
}
