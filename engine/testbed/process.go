package testbed

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"time"

	"google.golang.org/grpc"
)

// psMain is `pslab testbed ps`: serve one parameter server until every
// worker of the job has called Done. The first line on stdout is
// "listening <host:port>".
func psMain(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("testbed ps", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var job Job
	job.RegisterFlags(fs)
	listen := fs.String("listen", "127.0.0.1:0", "address to listen on (host:port)")
	index := fs.Int("index", 0, "index of this PS (0-based)")
	tap := fs.Bool("tap", false, "dissect the wire to report gradient arrival times (profiling)")
	shape := fs.Float64("shape-rate", 0, "loopback fallback: shape this host's NIC to this many bytes/s per direction (0: off)")
	timeout := fs.Duration("timeout", 0, "fail after this long (0: never)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("testbed ps: unexpected arguments %v", fs.Args())
	}
	plan, err := job.LoadPlan()
	if err != nil {
		return err
	}
	srv, err := newPSServer(plan, *index)
	if err != nil {
		return err
	}
	if *timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *timeout)
		defer cancel()
	}
	lis, err := net.Listen("tcp", *listen)
	if err != nil {
		return fmt.Errorf("testbed ps: %w", err)
	}
	var shaper *Shaper
	if *shape > 0 {
		shaper = NewShaper(*shape)
	}
	wrapped := &wrapListener{Listener: lis, wrap: func(c net.Conn) net.Conn {
		c = shaper.Wrap(c)
		if *tap {
			c = newTapConn(c, false, srv.onTapRead, nil)
		}
		return c
	}}
	win, conn := job.Windows()
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
		return fmt.Errorf("testbed ps %d: %w", *index, ctx.Err())
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

// workerMain is `pslab testbed worker`: train and write the WorkerResult
// as JSON to stdout (or -out).
func workerMain(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("testbed worker", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o WorkerOptions
	o.Job.RegisterFlags(fs)
	fs.IntVar(&o.ID, "id", 0, "worker index (0-based)")
	ps := fs.String("ps", "", "comma-separated PS addresses host:port, in PS index order")
	fs.IntVar(&o.Steps, "steps", 100, "training steps")
	fs.BoolVar(&o.Trace, "trace", false, "record the profiling trace and wire times")
	fs.IntVar(&o.FailAt, "fail-at", -1, "fault injection: fail at the start of this step (-1: never)")
	shape := fs.Float64("shape-rate", 0, "loopback fallback: shape this host's NIC to this many bytes/s per direction (0: off)")
	out := fs.String("out", "-", "where to write the result JSON (-: stdout)")
	timeout := fs.Duration("timeout", 0, "fail after this long (0: never)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("testbed worker: unexpected arguments %v", fs.Args())
	}
	if *ps == "" {
		return errors.New("testbed worker: -ps is required")
	}
	o.PS = strings.Split(*ps, ",")
	if *shape > 0 {
		o.Shaper = NewShaper(*shape)
	}
	if *timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *timeout)
		defer cancel()
	}
	res, err := RunWorkerProcess(ctx, o)
	if err != nil {
		return err
	}
	b, err := json.Marshal(res)
	if err != nil {
		return err
	}
	if *out == "-" {
		_, err = stdout.Write(b)
		return err
	}
	return os.WriteFile(*out, b, 0o644)
}
