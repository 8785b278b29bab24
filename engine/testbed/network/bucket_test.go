package network

import (
	"io"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// fakeClock advances only when the bucket sleeps.
type fakeClock struct {
	mu    sync.Mutex
	t     time.Time
	slept time.Duration
}

func (c *fakeClock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fakeClock) sleep(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
	c.slept += d
}

func TestBucketRateOnFakeClock(t *testing.T) {
	t.Parallel()
	c := &fakeClock{t: time.Unix(0, 0)}
	b := newBucketClock(1000, 500, c.now, c.sleep) // 1000 B/s, 500 B deep, full
	b.Take(500)
	require.Zero(t, c.slept, "a full bucket passes one burst at once")
	for range 10 {
		b.Take(250)
	}
	// 2500 more bytes at 1000 B/s
	require.Equal(t, 2500*time.Millisecond, c.slept)
	// idle refills at most one burst
	c.sleep(10 * time.Second)
	c.slept = 0
	b.Take(500)
	b.Take(100)
	require.Equal(t, 100*time.Millisecond, c.slept)
}

func TestBucketPanicsOnBadParameters(t *testing.T) {
	t.Parallel()
	require.PanicsWithValue(t, "testbed: NewBucket needs a positive rate and burst", func() { NewBucket(0, 1) })
	require.Panics(t, func() { NewBucket(1, -1) })
}

// TestShapedConnRate sends 600 kB through a loopback TCP connection
// shaped at 4 MB/s with a 16 KiB burst: about 150 ms.
func TestShapedConnRate(t *testing.T) {
	t.Parallel()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer lis.Close()
	const n, rate = 600_000, 4e6
	got := make(chan time.Duration, 1)
	go func() {
		c, err := lis.Accept()
		if err != nil {
			got <- -1
			return
		}
		defer c.Close()
		t0 := time.Now()
		io.CopyN(io.Discard, c, n)
		got <- time.Since(t0)
	}()
	raw, err := net.Dial("tcp", lis.Addr().String())
	require.NoError(t, err)
	s := &Shaper{Egress: NewBucket(rate, 16*1024), Ingress: NewBucket(rate, 16*1024)}
	c := s.Wrap(raw)
	defer c.Close()
	w, err := c.Write(make([]byte, n))
	require.NoError(t, err)
	require.Equal(t, n, w)
	d := <-got
	// never faster than the rate (after one burst); slower only by
	// scheduling delays, which a loaded machine makes large
	want := time.Duration(float64(n-16*1024) / rate * 1e9)
	require.GreaterOrEqual(t, d, want*9/10, "600 kB at 4 MB/s took %v", d)
	require.Less(t, d, 4*want, "600 kB at 4 MB/s took %v", d)
}
