package testbed

import (
	"net"
	"sync"
	"time"
)

// Bucket is a token bucket: a rate limiter of Rate bytes/s with a depth of
// Burst bytes. Take reserves tokens and sleeps until the reservation is
// covered, so concurrent takers are served in reservation order and the
// long-run rate never exceeds Rate. It is the loopback fallback's NIC: one
// bucket per host and direction, shared by all the host's connections.
type Bucket struct {
	rate, burst float64 // bytes/s, bytes
	mu          sync.Mutex
	tokens      float64
	last        time.Time
	now         func() time.Time
	sleep       func(time.Duration)
}

// NewBucket returns a full bucket of rate bytes/s and burst bytes. It
// panics if either is not positive.
func NewBucket(rate, burst float64) *Bucket {
	return newBucketClock(rate, burst, time.Now, time.Sleep)
}

func newBucketClock(rate, burst float64, now func() time.Time, sleep func(time.Duration)) *Bucket {
	if !(rate > 0) || !(burst > 0) {
		panic("testbed: NewBucket needs a positive rate and burst")
	}
	return &Bucket{rate: rate, burst: burst, tokens: burst, last: now(), now: now, sleep: sleep}
}

// Take blocks until n bytes may pass. n larger than the burst is allowed
// (the bucket goes into debt) but callers should chunk to at most Burst.
func (b *Bucket) Take(n int) {
	b.mu.Lock()
	t := b.now()
	b.tokens = min(b.burst, b.tokens+t.Sub(b.last).Seconds()*b.rate)
	b.last = t
	b.tokens -= float64(n)
	wait := time.Duration(0)
	if b.tokens < 0 {
		wait = time.Duration(-b.tokens / b.rate * 1e9)
	}
	b.mu.Unlock()
	if wait > 0 {
		b.sleep(wait)
	}
}

// Burst returns the bucket depth in bytes.
func (b *Bucket) Burst() int { return int(b.burst) }

// Shaper is the emulated NIC of one host: an egress and an ingress bucket
// shared by all its connections.
type Shaper struct {
	Egress, Ingress *Bucket
}

// NewShaper returns a shaper of rate bytes/s in each direction, with a
// burst of 1 ms of traffic but at least 16 KiB (one HTTP/2 frame).
func NewShaper(rate float64) *Shaper {
	burst := max(16*1024, rate*1e-3)
	return &Shaper{Egress: NewBucket(rate, burst), Ingress: NewBucket(rate, burst)}
}

// Wrap returns c shaped by s (c itself when s is nil).
func (s *Shaper) Wrap(c net.Conn) net.Conn {
	if s == nil {
		return c
	}
	return &shapedConn{Conn: c, s: s}
}

// shapedConn passes writes through the egress bucket and delays reads by
// the ingress bucket, in chunks of at most one burst.
type shapedConn struct {
	net.Conn
	s *Shaper
}

func (c *shapedConn) Write(p []byte) (int, error) {
	chunk := c.s.Egress.Burst()
	written := 0
	for len(p) > 0 {
		n := min(len(p), chunk)
		c.s.Egress.Take(n)
		m, err := c.Conn.Write(p[:n])
		written += m
		if err != nil {
			return written, err
		}
		p = p[n:]
	}
	return written, nil
}

func (c *shapedConn) Read(p []byte) (int, error) {
	if chunk := c.s.Ingress.Burst(); len(p) > chunk {
		p = p[:chunk]
	}
	n, err := c.Conn.Read(p)
	if n > 0 {
		c.s.Ingress.Take(n)
	}
	return n, err
}
