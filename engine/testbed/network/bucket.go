package network

import (
	"net"
	"time"

	"golang.org/x/time/rate"
)

// Bucket is a token bucket: a rate limiter of Rate bytes/s with a depth of
// Burst bytes (golang.org/x/time/rate, one token per byte). Take reserves
// tokens and sleeps until the reservation is covered, so concurrent takers
// are served in reservation order and the long-run rate never exceeds
// Rate. It is the loopback fallback's NIC: one bucket per host and
// direction, shared by all the host's connections.
type Bucket struct {
	lim   *rate.Limiter
	burst int
	now   func() time.Time
	sleep func(time.Duration)
}

// NewBucket returns a full bucket of rate bytes/s and burst bytes. It
// panics if either is not positive.
func NewBucket(rate, burst float64) *Bucket {
	return newBucketClock(rate, burst, time.Now, time.Sleep)
}

func newBucketClock(r, burst float64, now func() time.Time, sleep func(time.Duration)) *Bucket {
	if !(r > 0) || !(burst >= 1) {
		panic("testbed: NewBucket needs a positive rate and burst")
	}
	lim := rate.NewLimiter(rate.Limit(r), int(burst))
	lim.SetBurstAt(now(), int(burst)) // full at the clock's start
	return &Bucket{lim: lim, burst: int(burst), now: now, sleep: sleep}
}

// Take blocks until n bytes may pass. n larger than the burst is reserved
// one burst at a time (callers should chunk to at most Burst).
func (b *Bucket) Take(n int) {
	for n > 0 {
		k := min(n, b.burst)
		t := b.now()
		if d := b.lim.ReserveN(t, k).DelayFrom(t); d > 0 {
			b.sleep(d)
		}
		n -= k
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
// burst of burst bytes; burst 0 means Link.BurstBytes of an unstretched
// link: 1 ms of traffic but at least 16 KiB (one HTTP/2 frame). It panics
// if rate is not positive or burst is negative.
func NewShaper(rate, burst float64) *Shaper {
	if burst == 0 {
		burst = Link{Rate: rate}.BurstBytes(Loopback)
	}
	if !(burst > 0) {
		panic("network: NewShaper needs a burst ≥ 0")
	}
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
