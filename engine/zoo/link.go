package zoo

import "slices"

// stream is one transfer in one direction between the worker and a PS.
type stream struct {
	conn    int     // PS index: each PS has its own HTTP/2 connection
	release float64 // request time, seconds from step start
	bytes   float64 // tensor size, bytes (> 0)
}

// connState is one HTTP/2 connection: a FIFO of streams waiting for
// service and the chunk being sent.
type connState struct {
	queue []int // stream indices; queue[head:] are waiting
	head  int
	cur   int     // stream being sent, -1 when idle
	rem   float64 // bytes left in the current chunk
}

// linkSim simulates one direction (downlink or uplink) of a single worker's
// connections to its parameter servers. Buffers are reused between runs.
type linkSim struct {
	conns     []connState
	order     []int
	remaining []float64 // bytes of each stream not yet put in a chunk
	served    []bool    // stream has had its first service
}

// run computes when each stream's last byte arrives (seconds), into done.
//
// Each connection serves one chunk at a time (CATALOGUE §B.1.4). On its
// first selection a stream larger than window sends exactly window bytes
// and is preempted to the tail of its connection's queue; otherwise, and
// always on its second selection, it sends everything left. window ≤ 0
// means flow control off: every stream is one chunk. Streams enter their
// queue in order of release time, ties by index (CATALOGUE I-12: FIFO by
// request order). A stream released at the instant another is preempted
// queues behind the preempted one. The active connections share bandwidth
// (bytes/s) equally: with one worker the worker's NIC is the common
// bottleneck, so two busy PS connections get half each (the n = 1 case of
// CATALOGUE I-17, resolved to 1/2 each).
func (s *linkSim) run(streams []stream, conns int, bandwidth, window float64, done []float64) {
	n := len(streams)
	s.conns = slices.Grow(s.conns[:0], conns)[:conns]
	for c := range s.conns {
		s.conns[c] = connState{queue: s.conns[c].queue[:0], cur: -1}
	}
	s.order = slices.Grow(s.order[:0], n)[:n]
	s.remaining = slices.Grow(s.remaining[:0], n)[:n]
	s.served = slices.Grow(s.served[:0], n)[:n]
	sorted := true
	for i := range streams {
		s.order[i] = i
		s.remaining[i] = streams[i].bytes
		s.served[i] = false
		if i > 0 && streams[i].release < streams[i-1].release {
			sorted = false
		}
	}
	if !sorted {
		slices.SortStableFunc(s.order, func(a, b int) int {
			switch ra, rb := streams[a].release, streams[b].release; {
			case ra < rb:
				return -1
			case ra > rb:
				return 1
			}
			return 0
		})
	}
	now, next := 0.0, 0
	for {
		for next < n && streams[s.order[next]].release <= now {
			i := s.order[next]
			c := &s.conns[streams[i].conn]
			c.queue = append(c.queue, i)
			next++
		}
		active := 0
		minRem := 0.0
		for ci := range s.conns {
			c := &s.conns[ci]
			if c.cur < 0 && c.head < len(c.queue) {
				s.startChunk(c, window)
			}
			if c.cur >= 0 {
				if active == 0 || c.rem < minRem {
					minRem = c.rem
				}
				active++
			}
		}
		if active == 0 {
			if next == n {
				return
			}
			now = streams[s.order[next]].release
			continue
		}
		rate := bandwidth / float64(active)
		if next < n {
			if dtArr := streams[s.order[next]].release - now; dtArr < minRem/rate {
				sent := rate * dtArr
				for ci := range s.conns {
					if c := &s.conns[ci]; c.cur >= 0 {
						c.rem -= sent
					}
				}
				now = streams[s.order[next]].release
				continue
			}
		}
		now += minRem / rate
		for ci := range s.conns {
			c := &s.conns[ci]
			if c.cur < 0 {
				continue
			}
			if c.rem > minRem*(1+1e-12) {
				c.rem -= minRem
				continue
			}
			if s.remaining[c.cur] > 0 {
				c.queue = append(c.queue, c.cur) // preempted: second service later
			} else {
				done[c.cur] = now
			}
			c.cur, c.rem = -1, 0
		}
	}
}

// startChunk takes the head of c's queue and starts its next chunk.
func (s *linkSim) startChunk(c *connState, window float64) {
	i := c.queue[c.head]
	c.head++
	chunk := s.remaining[i]
	if window > 0 && !s.served[i] && chunk > window {
		chunk = window
	}
	s.served[i] = true
	s.remaining[i] -= chunk
	c.cur, c.rem = i, chunk
}
