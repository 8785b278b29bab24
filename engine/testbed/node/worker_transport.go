package node

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"google.golang.org/grpc"
)

// pullDecoder parses a params message into the worker's copy of the tensor.
func (w *worker) pullDecoder(ps int, h *header) func([]byte) error {
	return func(b []byte) error {
		if len(b) < headerLen {
			return fmt.Errorf("testbed: short params message")
		}
		*h = decodeHeader(b)
		if int(h.Tensor) >= len(w.params) || w.plan.Tensors[h.Tensor].Server != ps {
			return fmt.Errorf("testbed: PS %d sent tensor %d it does not hold", ps, h.Tensor)
		}
		_, err := decodeTensor(b, kindParams, w.params[h.Tensor])
		return err
	}
}

// multiplexed issues one Pull stream per tensor, in topological order,
// all at step start; gradients go out on one Push stream each as soon as
// they are computed. HTTP/2 multiplexes them under flow control.
func (w *worker) multiplexed(ctx context.Context, s int, st *stepState) (func(int, time.Time) error, error) {
	for k, t := range w.plan.Tensors {
		cs, err := w.conns[t.Server].NewStream(ctx, &grpc.StreamDesc{}, method("Pull"))
		if err != nil {
			return nil, err
		}
		h := header{Kind: kindPull, Worker: uint32(w.o.ID), Step: uint32(s), Tensor: uint32(k)}
		req := make([]byte, headerLen)
		h.put(req)
		st.reqDown[k] = time.Now()
		if err := cs.SendMsg(&wireMsg{B: req}); err != nil {
			return nil, err
		}
		if err := cs.CloseSend(); err != nil {
			return nil, err
		}
		go func() {
			var got header
			err := cs.RecvMsg(&wireMsg{Decode: w.pullDecoder(t.Server, &got)})
			now := time.Now()
			if err == nil && int(got.Tensor) != k {
				err = fmt.Errorf("testbed: asked for tensor %d, got %d", k, got.Tensor)
			}
			st.avail[k] = now
			st.arrivals <- arrival{k: k, at: now, err: err}
		}()
	}
	return func(k int, at time.Time) error {
		t := w.plan.Tensors[k]
		cs, err := w.conns[t.Server].NewStream(ctx, &grpc.StreamDesc{}, method("Push"))
		if err != nil {
			return err
		}
		st.reqUp[k] = at
		go func() {
			msg := encodeTensor(header{Kind: kindPush, Worker: uint32(w.o.ID), Step: uint32(s), Tensor: uint32(k)}, w.grads[k])
			err := cs.SendMsg(&wireMsg{B: msg})
			if err == nil {
				err = cs.CloseSend()
			}
			var m wireMsg
			if err == nil {
				err = cs.RecvMsg(&m)
			}
			var as []ack
			if err == nil {
				as, err = decodeAcks(m.B)
			}
			if err == nil && (len(as) != 1 || int(as[0].Tensor) != k) {
				err = fmt.Errorf("testbed: push of tensor %d acked as %v", k, as)
			}
			if err != nil {
				st.errCh <- err
				return
			}
			st.ackCh <- as
		}()
		return nil
	}, nil
}

// ordered opens, per PS, one PullOrdered stream on which the PS sends its
// tensors whole, one after the other, in the job's order, and one
// PushOrdered stream on which gradients go out whole in the order they
// are computed. Windows are OrderedWindow, so flow control never blocks.
func (w *worker) ordered(ctx context.Context, s int, st *stepState) (func(int, time.Time) error, func(), error) {
	queues := make([]chan int, len(w.conns))
	for i, c := range w.conns {
		cs, err := c.NewStream(ctx, &grpc.StreamDesc{ServerStreams: true}, method("PullOrdered"))
		if err != nil {
			return nil, nil, err
		}
		req := make([]byte, headerLen)
		header{Kind: kindPullAll, Worker: uint32(w.o.ID), Step: uint32(s), Tensor: allTensors}.put(req)
		now := time.Now()
		mine := w.plan.ServerTensors(identity(w.plan.NT()), i)
		for _, k := range mine {
			st.reqDown[k] = now
		}
		if err := cs.SendMsg(&wireMsg{B: req}); err != nil {
			return nil, nil, err
		}
		if err := cs.CloseSend(); err != nil {
			return nil, nil, err
		}
		go func() {
			for range mine {
				var h header
				err := cs.RecvMsg(&wireMsg{Decode: w.pullDecoder(i, &h)})
				now := time.Now()
				if err != nil {
					st.arrivals <- arrival{err: err}
					return
				}
				st.avail[h.Tensor] = now
				st.arrivals <- arrival{k: int(h.Tensor), at: now}
			}
			if err := cs.RecvMsg(&wireMsg{}); !errors.Is(err, io.EOF) {
				st.errCh <- fmt.Errorf("testbed: PullOrdered from PS %d: want end of stream, got %v", i, err)
			}
		}()
		up, err := c.NewStream(ctx, &grpc.StreamDesc{ClientStreams: true}, method("PushOrdered"))
		if err != nil {
			return nil, nil, err
		}
		queues[i] = make(chan int, w.plan.NT())
		go func() {
			for k := range queues[i] {
				msg := encodeTensor(header{Kind: kindPush, Worker: uint32(w.o.ID), Step: uint32(s), Tensor: uint32(k)}, w.grads[k])
				if err := up.SendMsg(&wireMsg{B: msg}); err != nil {
					st.errCh <- fmt.Errorf("testbed: PushOrdered to PS %d: %w", i, err)
					return
				}
			}
			var m wireMsg
			err := up.CloseSend()
			if err == nil {
				err = up.RecvMsg(&m)
			}
			var as []ack
			if err == nil {
				as, err = decodeAcks(m.B)
			}
			if err != nil {
				st.errCh <- fmt.Errorf("testbed: PushOrdered to PS %d: %w", i, err)
				return
			}
			st.ackCh <- as
		}()
	}
	onGradient := func(k int, at time.Time) error {
		st.reqUp[k] = at
		queues[w.plan.Tensors[k].Server] <- k
		return nil
	}
	finish := func() {
		for _, q := range queues {
			close(q)
		}
	}
	return onGradient, finish, nil
}

func identity(n int) []int {
	o := make([]int, n)
	for i := range o {
		o[i] = i
	}
	return o
}
