package node

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"time"

	"google.golang.org/grpc"

	"pslab/engine/testbed/network"
	"pslab/engine/testbed/training"
)

// GOMAXPROCS is the environment assignment every PS and worker process of
// a run is started with (recorded as testbed.gomaxprocs): one OS thread
// executing Go code at a time, as an emulated host is one process. On a
// 2-core machine the default (one thread per core in every process) let
// the 2 to 11 processes of a run queue for the cores. Measured
// (datasets/testbed/README.md, "Where the run-queue wait comes from"): PS
// run-queue wait 16% → 10% of wall time at W = 1 and 44% → 21% at W = 7,
// alexnet at 100 Mbit/s.
const GOMAXPROCS = "GOMAXPROCS=1"

// PSOptions configure one parameter-server process.
type PSOptions struct {
	Job training.Job
	// Index is the index of this PS, 0 ≤ Index < Job.Servers.
	Index int
	// Listen is the address to listen on (host:port; port 0 picks one).
	Listen string
	// Tap dissects the wire to report gradient arrival times (profiling).
	Tap bool
	// Shaper, if not nil, shapes the PS's connections (loopback
	// fallback).
	Shaper *network.Shaper
}

// ServePS serves one parameter server until every worker of the job has
// called Done, or ctx ends. The first line written to stdout is
// "listening <host:port>".
func ServePS(ctx context.Context, o PSOptions, stdout io.Writer) error {
	plan, err := o.Job.LoadPlan()
	if err != nil {
		return err
	}
	srv, err := newPSServer(plan, o.Index)
	if err != nil {
		return err
	}
	lis, err := net.Listen("tcp", o.Listen)
	if err != nil {
		return fmt.Errorf("testbed ps: %w", err)
	}
	wrapped := &wrapListener{Listener: lis, wrap: func(c net.Conn) net.Conn {
		c = o.Shaper.Wrap(c)
		if o.Tap {
			c = newTapConn(c, false, srv.onTapRead, nil)
		}
		return c
	}}
	win, conn := o.Job.Windows()
	gs := grpc.NewServer(grpc.ForceServerCodec(rawCodec{}),
		grpc.InitialWindowSize(win), grpc.InitialConnWindowSize(conn),
		grpc.MaxRecvMsgSize(maxMessage), grpc.MaxSendMsgSize(maxMessage))
	gs.RegisterService(srv.serviceDesc(), srv)
	fmt.Fprintf(stdout, "listening %s\n", lis.Addr())
	if f, ok := stdout.(*os.File); ok {
		f.Sync()
	}
	served := make(chan error, 1)
	go func() { served <- gs.Serve(wrapped) }()
	select {
	case <-srv.finished:
	case err := <-served:
		return fmt.Errorf("testbed ps: %w", err)
	case <-ctx.Done():
		gs.Stop()
		return fmt.Errorf("testbed ps %d: %w", o.Index, ctx.Err())
	}
	stopped := make(chan struct{})
	go func() { gs.GracefulStop(); close(stopped) }()
	select {
	case <-stopped:
	case <-time.After(5 * time.Second):
		gs.Stop()
	}
	return nil
}

type wrapListener struct {
	net.Listener
	wrap func(net.Conn) net.Conn
}

func (l *wrapListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return l.wrap(c), nil
}
