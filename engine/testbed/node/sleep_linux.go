package node

import (
	"syscall"
	"time"
)

// sleepUntil sleeps until t with nanosleep(2), which on this kind of
// machine overshoots by tens of µs where Go's timers overshoot by about a
// millisecond for sub-millisecond sleeps. It blocks the OS thread, which
// only the worker's executor goroutine does.
func sleepUntil(t time.Time) {
	d := time.Until(t)
	for d > 0 {
		ts := syscall.NsecToTimespec(int64(d))
		if err := syscall.Nanosleep(&ts, nil); err == nil {
			return
		}
		d = time.Until(t) // interrupted (EINTR): sleep the rest
	}
}
