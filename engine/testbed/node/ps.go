package node

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"pslab/engine/testbed/training"
)

// serviceName is the gRPC service of a parameter server.
const serviceName = "pslab.testbed.PS"

func method(m string) string { return "/" + serviceName + "/" + m }

// learningRate of the emulated SGD update (the values do not matter; the
// arithmetic is real work on the PS).
const learningRate = 1e-6

// psTensor is one tensor held by a PS.
type psTensor struct {
	mu  sync.Mutex
	w   []float32
	acc []float32 // BSP accumulator
	n   int       // BSP gradients accumulated for the current step
}

// psServer is one parameter server.
type psServer struct {
	plan    *training.Plan
	job     training.Job
	index   int
	tensors []*psTensor // by tensor index; nil if held by another PS
	order   []int       // this PS's tensors in the ordered-transport order

	mu       sync.Mutex
	cond     *sync.Cond
	ready    map[uint32]bool
	released bool
	done     map[uint32]bool
	finished chan struct{}
	applied  []int // BSP: tensors fully applied per step
	complete int   // BSP: steps whose every tensor is applied

	wire sync.Mutex
	seen map[header]msgRecord // tap records of pushes not yet acked
}

func newPSServer(plan *training.Plan, index int) (*psServer, error) {
	j := plan.Job
	if index < 0 || index >= j.Servers {
		return nil, fmt.Errorf("testbed: PS index %d, job has %d servers", index, j.Servers)
	}
	order, err := training.DownlinkOrder(plan, j.Order, j.Seed)
	if err != nil {
		return nil, err
	}
	s := &psServer{plan: plan, job: j, index: index, tensors: make([]*psTensor, plan.NT()),
		order: plan.ServerTensors(order, index), ready: map[uint32]bool{}, done: map[uint32]bool{},
		finished: make(chan struct{}), seen: map[header]msgRecord{}}
	s.cond = sync.NewCond(&s.mu)
	for k, t := range plan.Tensors {
		if t.Server != index {
			continue
		}
		pt := &psTensor{w: make([]float32, t.Bytes/4)}
		for i := range pt.w {
			pt.w[i] = float32(i%97) * 1e-3
		}
		if j.Sync == training.BSP {
			pt.acc = make([]float32, len(pt.w))
		}
		s.tensors[k] = pt
	}
	return s, nil
}

// onTapRead records the wire times of pushed gradients.
func (s *psServer) onTapRead(r msgRecord) {
	if r.Head.Kind != kindPush {
		return
	}
	s.wire.Lock()
	s.seen[r.Head] = r
	s.wire.Unlock()
}

func (s *psServer) wireTimes(h header) (first, last int64) {
	s.wire.Lock()
	defer s.wire.Unlock()
	r, ok := s.seen[h]
	if ok {
		delete(s.seen, h)
	}
	return r.First, r.Last
}

func (s *psServer) tensor(k uint32) (*psTensor, error) {
	if int(k) >= len(s.tensors) || s.tensors[k] == nil {
		return nil, status.Errorf(codes.InvalidArgument, "tensor %d is not held by PS %d", k, s.index)
	}
	return s.tensors[k], nil
}

// waitStep blocks a BSP pull of step until every step before it is applied.
func (s *psServer) waitStep(ctx context.Context, step int) error {
	if s.job.Sync != training.BSP {
		return nil
	}
	stop := context.AfterFunc(ctx, func() { s.mu.Lock(); s.cond.Broadcast(); s.mu.Unlock() })
	defer stop()
	s.mu.Lock()
	defer s.mu.Unlock()
	for s.complete < step {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		s.cond.Wait()
	}
	return nil
}

// params serializes tensor k for worker w at step.
func (s *psServer) params(ctx context.Context, w, step, k uint32) ([]byte, error) {
	t, err := s.tensor(k)
	if err != nil {
		return nil, err
	}
	if err := s.waitStep(ctx, int(step)); err != nil {
		return nil, err
	}
	t.mu.Lock()
	b := encodeTensor(header{Kind: kindParams, Worker: w, Step: step, Tensor: k}, t.w)
	t.mu.Unlock()
	return b, nil
}

// decodePush returns a decoder of a pushed gradient and where it lands.
func (s *psServer) decodePush(h *header, g *[]float32) func([]byte) error {
	return func(b []byte) error {
		if len(b) < headerLen {
			return fmt.Errorf("testbed: short push")
		}
		*h = decodeHeader(b)
		t, err := s.tensor(h.Tensor)
		if err != nil {
			return err
		}
		*g = make([]float32, len(t.w))
		_, err = decodeTensor(b, kindPush, *g)
		return err
	}
}

// apply applies (ASP) or accumulates (BSP) a decoded gradient and returns
// the ack.
func (s *psServer) apply(h header, g []float32, decoded int64) ack {
	t := s.tensors[h.Tensor]
	a := ack{Tensor: h.Tensor, Decoded: decoded}
	a.FirstByte, a.LastByte = s.wireTimes(h)
	a.UpdStart = time.Now().UnixNano()
	t.mu.Lock()
	if s.job.Sync == training.ASP {
		for i, x := range g {
			t.w[i] -= learningRate * x
		}
		t.mu.Unlock()
		a.UpdEnd = time.Now().UnixNano()
		return a
	}
	for i, x := range g {
		t.acc[i] += x
	}
	t.n++
	full := t.n == s.job.Workers
	if full {
		scale := float32(learningRate / float64(s.job.Workers))
		for i, x := range t.acc {
			t.w[i] -= scale * x
			t.acc[i] = 0
		}
		t.n = 0
	}
	t.mu.Unlock()
	a.UpdEnd = time.Now().UnixNano()
	if full {
		s.mu.Lock()
		step := int(h.Step)
		for len(s.applied) <= step {
			s.applied = append(s.applied, 0)
		}
		s.applied[step]++
		for s.complete < len(s.applied) && s.applied[s.complete] == len(s.order) {
			s.complete++
		}
		s.cond.Broadcast()
		s.mu.Unlock()
	}
	return a
}

// register records a worker's Ready and waits until all have registered.
func (s *psServer) register(ctx context.Context, w uint32, fingerprint string) error {
	if fingerprint != s.job.Fingerprint() {
		return status.Errorf(codes.FailedPrecondition, "worker %d job %q differs from PS job %q", w, fingerprint, s.job.Fingerprint())
	}
	stop := context.AfterFunc(ctx, func() { s.mu.Lock(); s.cond.Broadcast(); s.mu.Unlock() })
	defer stop()
	s.mu.Lock()
	defer s.mu.Unlock()
	if int(w) >= s.job.Workers {
		return status.Errorf(codes.InvalidArgument, "worker id %d, job has %d workers", w, s.job.Workers)
	}
	s.ready[w] = true
	if len(s.ready) == s.job.Workers {
		s.released = true
		s.cond.Broadcast()
	}
	for !s.released {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		s.cond.Wait()
	}
	return nil
}

func (s *psServer) finish(w uint32) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.done[w] = true
	if len(s.done) == s.job.Workers {
		select {
		case <-s.finished:
		default:
			close(s.finished)
		}
	}
}

// serviceDesc describes the PS service for grpc.Server.RegisterService.
func (s *psServer) serviceDesc() *grpc.ServiceDesc {
	unary := func(name string, h func(ctx context.Context, dec func(any) error) (any, error)) grpc.MethodDesc {
		return grpc.MethodDesc{MethodName: name, Handler: func(_ any, ctx context.Context, dec func(any) error, _ grpc.UnaryServerInterceptor) (any, error) {
			return h(ctx, dec)
		}}
	}
	return &grpc.ServiceDesc{
		ServiceName: serviceName,
		HandlerType: (*any)(nil),
		Methods: []grpc.MethodDesc{
			unary("Clock", func(_ context.Context, dec func(any) error) (any, error) {
				if err := dec(&wireMsg{}); err != nil {
					return nil, err
				}
				return &wireMsg{B: encodeInt64(time.Now().UnixNano())}, nil
			}),
			unary("Ready", func(ctx context.Context, dec func(any) error) (any, error) {
				var m wireMsg
				if err := dec(&m); err != nil {
					return nil, err
				}
				if len(m.B) < 4 {
					return nil, status.Error(codes.InvalidArgument, "short Ready")
				}
				w := uint32(m.B[0]) | uint32(m.B[1])<<8 | uint32(m.B[2])<<16 | uint32(m.B[3])<<24
				if err := s.register(ctx, w, string(m.B[4:])); err != nil {
					return nil, err
				}
				return &wireMsg{B: encodeInt64(time.Now().UnixNano())}, nil
			}),
			unary("Done", func(_ context.Context, dec func(any) error) (any, error) {
				var m wireMsg
				if err := dec(&m); err != nil || len(m.B) < 4 {
					return nil, status.Error(codes.InvalidArgument, "bad Done")
				}
				s.finish(uint32(m.B[0]) | uint32(m.B[1])<<8 | uint32(m.B[2])<<16 | uint32(m.B[3])<<24)
				return &wireMsg{}, nil
			}),
			unary("Pull", func(ctx context.Context, dec func(any) error) (any, error) {
				var m wireMsg
				if err := dec(&m); err != nil {
					return nil, err
				}
				if len(m.B) < headerLen {
					return nil, status.Error(codes.InvalidArgument, "short Pull")
				}
				h := decodeHeader(m.B)
				b, err := s.params(ctx, h.Worker, h.Step, h.Tensor)
				if err != nil {
					return nil, err
				}
				return &wireMsg{B: b}, nil
			}),
			unary("Push", func(_ context.Context, dec func(any) error) (any, error) {
				var h header
				var g []float32
				if err := dec(&wireMsg{Decode: s.decodePush(&h, &g)}); err != nil {
					return nil, err
				}
				a := s.apply(h, g, time.Now().UnixNano())
				return &wireMsg{B: encodeAcks([]ack{a})}, nil
			}),
		},
		Streams: []grpc.StreamDesc{
			{StreamName: "PullOrdered", ServerStreams: true, Handler: func(_ any, st grpc.ServerStream) error {
				var m wireMsg
				if err := st.RecvMsg(&m); err != nil {
					return err
				}
				if len(m.B) < headerLen {
					return status.Error(codes.InvalidArgument, "short PullOrdered")
				}
				h := decodeHeader(m.B)
				for _, k := range s.order {
					b, err := s.params(st.Context(), h.Worker, h.Step, uint32(k))
					if err != nil {
						return err
					}
					if err := st.SendMsg(&wireMsg{B: b}); err != nil {
						return err
					}
				}
				return nil
			}},
			{StreamName: "PushOrdered", ClientStreams: true, Handler: func(_ any, st grpc.ServerStream) error {
				var acks []ack
				for {
					var h header
					var g []float32
					err := st.RecvMsg(&wireMsg{Decode: s.decodePush(&h, &g)})
					if errors.Is(err, io.EOF) {
						return st.SendMsg(&wireMsg{B: encodeAcks(acks)})
					}
					if err != nil {
						return err
					}
					acks = append(acks, s.apply(h, g, time.Now().UnixNano()))
				}
			}},
		},
	}
}
