package node

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"net"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"pslab/engine/testbed/analysis"
	"pslab/engine/testbed/network"
	"pslab/engine/testbed/training"
	"pslab/engine/trace"
)

// maxMessage bounds gRPC messages (bytes); the default 4 MiB is smaller
// than VGG-16's fc6 at bytes scale 1/100.
const maxMessage = 1 << 30

// WorkerResult is what one worker process reports (gob on stdout).
type WorkerResult struct {
	Worker int
	// Start and End of every step, unix ns on the worker's clock.
	Start, End []int64
	// Steps is the recorded trace (profiling runs only): op times in ns
	// from the step's start, in Plan.Ops layout.
	Steps []trace.Step
	// Transfers of every traced step, with wire times (profiling only).
	Transfers []analysis.Transfer
	// Window and ConnWindow are the receive windows the worker announced
	// on the wire (SETTINGS_INITIAL_WINDOW_SIZE; 65535 + first connection
	// WINDOW_UPDATE), −1 if not captured.
	Window, ConnWindow int64
	// Offsets are PS clock − worker clock per PS (ns), and RTTs the round
	// trip of the best clock sample.
	Offsets, RTTs []int64
	// Clamped counts trace times moved to keep start ≤ end after clock
	// conversion.
	Clamped int
}

// WorkerOptions configure one worker process.
type WorkerOptions struct {
	Job training.Job
	// ID is the worker index, 0 ≤ ID < Job.Workers.
	ID int
	// PS are the parameter-server addresses (host:port), by PS index.
	PS []string
	// Steps is the number of training steps.
	Steps int
	// Trace records the TensorFlow-style trace and wire times.
	Trace bool
	// FailAt makes the worker exit with an error at the start of that step
	// (fault injection for tests of the harness; −1: never).
	FailAt int
	// Shaper, if not nil, shapes the worker's connections (loopback
	// fallback).
	Shaper *network.Shaper
}

type worker struct {
	o       WorkerOptions
	plan    *training.Plan
	conns   []*grpc.ClientConn
	taps    []*tapConn
	params  [][]float32
	grads   [][]float32
	tapMu   sync.Mutex
	wire    map[header]msgRecord
	exec    *executor
	offsets []int64
}

// RunWorkerProcess trains for o.Steps steps and returns the measurements.
func RunWorkerProcess(ctx context.Context, o WorkerOptions) (*WorkerResult, error) {
	plan, err := o.Job.LoadPlan()
	if err != nil {
		return nil, err
	}
	if o.ID < 0 || o.ID >= o.Job.Workers {
		return nil, fmt.Errorf("testbed: worker id %d, job has %d workers", o.ID, o.Job.Workers)
	}
	if len(o.PS) != o.Job.Servers {
		return nil, fmt.Errorf("testbed: %d PS addresses, job has %d servers", len(o.PS), o.Job.Servers)
	}
	if o.Steps < 1 {
		return nil, fmt.Errorf("testbed: %d steps, need ≥ 1", o.Steps)
	}
	w := &worker{o: o, plan: plan, wire: map[header]msgRecord{}, exec: newExecutor(plan)}
	for _, t := range plan.Tensors {
		w.params = append(w.params, make([]float32, t.Bytes/4))
		g := make([]float32, t.Bytes/4)
		for i := range g {
			g[i] = float32(i%13) * 1e-2
		}
		w.grads = append(w.grads, g)
	}
	defer func() {
		for _, c := range w.conns {
			c.Close()
		}
	}()
	if err := w.connect(); err != nil {
		return nil, err
	}
	res := &WorkerResult{Worker: o.ID, Window: -1, ConnWindow: -1}
	if err := w.syncClocks(ctx, res); err != nil {
		return nil, err
	}
	if err := w.ready(ctx); err != nil {
		return nil, err
	}
	if d := time.Duration(o.ID) * o.Job.StartStagger; d > 0 {
		select { // Job.StartStagger: this worker's initial phase
		case <-time.After(d):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	for s := range o.Steps {
		if s == o.FailAt {
			return nil, fmt.Errorf("testbed: worker %d: injected failure at step %d", o.ID, s)
		}
		if err := w.step(ctx, s, res); err != nil {
			return nil, fmt.Errorf("testbed: worker %d step %d: %w", o.ID, s, err)
		}
	}
	for _, c := range w.conns {
		id := binary.LittleEndian.AppendUint32(nil, uint32(o.ID))
		if err := c.Invoke(ctx, method("Done"), &wireMsg{B: id}, &wireMsg{}); err != nil {
			return nil, fmt.Errorf("testbed: worker %d: Done: %w", o.ID, err)
		}
	}
	if len(w.taps) > 0 {
		local, _ := w.taps[0].Stats()
		res.Window = local.InitialWindow
		if local.FirstConnIncrement > 0 {
			res.ConnWindow = 65535 + local.FirstConnIncrement
		}
	}
	return res, nil
}

func (w *worker) onTapRead(r msgRecord) {
	if r.Head.Kind != kindParams {
		return
	}
	w.tapMu.Lock()
	w.wire[r.Head] = r
	w.tapMu.Unlock()
}

func (w *worker) wireTimes(h header) msgRecord {
	w.tapMu.Lock()
	defer w.tapMu.Unlock()
	r := w.wire[h]
	delete(w.wire, h)
	return r
}

func (w *worker) connect() error {
	win, conn := w.o.Job.Windows()
	for _, addr := range w.o.PS {
		dial := func(ctx context.Context, a string) (net.Conn, error) {
			var d net.Dialer
			c, err := d.DialContext(ctx, "tcp", a)
			if err != nil {
				return nil, err
			}
			c = w.o.Shaper.Wrap(c)
			if w.o.Trace {
				tc := newTapConn(c, true, w.onTapRead, nil)
				w.tapMu.Lock()
				w.taps = append(w.taps, tc)
				w.tapMu.Unlock()
				c = tc
			}
			return c, nil
		}
		cc, err := grpc.NewClient("passthrough:///"+addr,
			grpc.WithTransportCredentials(insecure.NewCredentials()),
			grpc.WithContextDialer(dial),
			grpc.WithInitialWindowSize(win), grpc.WithInitialConnWindowSize(conn),
			grpc.WithDefaultCallOptions(grpc.ForceCodec(rawCodec{}),
				grpc.MaxCallRecvMsgSize(maxMessage), grpc.MaxCallSendMsgSize(maxMessage)))
		if err != nil {
			return fmt.Errorf("testbed: dial PS %s: %w", addr, err)
		}
		w.conns = append(w.conns, cc)
	}
	return nil
}

// syncClocks estimates each PS's clock offset from the fastest of 16
// round trips (NTP-style: offset = PS time − midpoint of the round trip).
func (w *worker) syncClocks(ctx context.Context, res *WorkerResult) error {
	for i, c := range w.conns {
		best, off := int64(math.MaxInt64), int64(0)
		for range 16 {
			var m wireMsg
			t0 := time.Now().UnixNano()
			if err := c.Invoke(ctx, method("Clock"), &wireMsg{}, &m, grpc.WaitForReady(true)); err != nil {
				return fmt.Errorf("testbed: clock of PS %d (%s): %w", i, w.o.PS[i], err)
			}
			t1 := time.Now().UnixNano()
			ps, err := decodeInt64(m.B)
			if err != nil {
				return err
			}
			if t1-t0 < best {
				best, off = t1-t0, ps-(t0+t1)/2
			}
		}
		res.Offsets, res.RTTs = append(res.Offsets, off), append(res.RTTs, best)
	}
	w.offsets = res.Offsets
	return nil
}

// ready registers with every PS and returns when all workers have.
func (w *worker) ready(ctx context.Context) error {
	msg := append(binary.LittleEndian.AppendUint32(nil, uint32(w.o.ID)), w.o.Job.Fingerprint()...)
	errs := make([]error, len(w.conns))
	var wg sync.WaitGroup
	for i, c := range w.conns {
		wg.Go(func() {
			if err := c.Invoke(ctx, method("Ready"), &wireMsg{B: msg}, &wireMsg{}); err != nil {
				errs[i] = fmt.Errorf("testbed: Ready at PS %d: %w", i, err)
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// toWorker converts a PS-clock time of PS i to the worker clock (0 stays 0).
func (w *worker) toWorker(i int, t int64) int64 {
	if t == 0 {
		return 0
	}
	return t - w.offsets[i]
}

// stepState collects the times of one step.
type stepState struct {
	t0       time.Time
	reqDown  []time.Time
	avail    []time.Time
	reqUp    []time.Time
	acks     []ack
	ackCh    chan []ack
	errCh    chan error
	arrivals chan arrival
}

func (w *worker) step(ctx context.Context, s int, res *WorkerResult) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	nT := w.plan.NT()
	st := &stepState{reqDown: make([]time.Time, nT), avail: make([]time.Time, nT), reqUp: make([]time.Time, nT),
		acks: make([]ack, nT), ackCh: make(chan []ack, nT+len(w.conns)), errCh: make(chan error, nT+2*len(w.conns)),
		arrivals: make(chan arrival, nT)}
	st.t0 = time.Now()
	var onGradient func(k int, at time.Time) error
	var finish func()
	var err error
	if w.o.Job.Transport == training.Ordered {
		onGradient, finish, err = w.ordered(ctx, s, st)
	} else {
		onGradient, err = w.multiplexed(ctx, s, st)
		finish = func() {}
	}
	if err != nil {
		return err
	}
	start, end, err := w.exec.run(ctx, st.arrivals, onGradient)
	finish()
	if err != nil {
		return err
	}
	for got := 0; got < nT; {
		select {
		case as := <-st.ackCh:
			for _, a := range as {
				st.acks[a.Tensor] = a
			}
			got += len(as)
		case err := <-st.errCh:
			return err
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	t1 := time.Now()
	res.Start, res.End = append(res.Start, st.t0.UnixNano()), append(res.End, t1.UnixNano())
	if w.o.Trace {
		w.record(s, st, start, end, res)
	}
	return nil
}
