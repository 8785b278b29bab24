package testbed

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	"pslab/engine/testbed/accounting"
	"pslab/engine/testbed/network"
	"pslab/engine/testbed/node"
	"pslab/engine/testbed/training"
)

// Launcher says how to start a pslab child process: Argv is the command
// that, followed by "ps" or "worker" and flags, runs `pslab testbed ps`
// or `pslab testbed worker` (e.g. [/path/to/pslab testbed]); Env is added
// to the environment.
type Launcher struct {
	Argv []string
	Env  []string
	// Nice, if not 0, is the scheduling priority given to every child
	// (setpriority(2); negative values need root). The coordinator of
	// `pslab testbed run` uses −10 as root so that the emulated compute
	// (sleeps) and the transfers of the testbed's lightly loaded
	// processes are not delayed by other work on a shared machine.
	Nice int
}

// runSpec is one run: one PS process per server and Job.Workers workers.
type runSpec struct {
	job   training.Job
	steps int
	trace bool // worker 0 records the trace, PSs dissect the wire
	// failWorker fails at failAt (fault injection), if failAt ≥ 0.
	failWorker, failAt int
	timeout            time.Duration
}

// child is one started process.
type child struct {
	name   string
	cmd    *exec.Cmd
	stdout *bytes.Buffer
	stderr *tailBuffer
	exited chan struct{} // closed when the process has exited
	err    error         // of cmd.Wait, valid after exited
}

func (c *child) running() bool {
	select {
	case <-c.exited:
		return false
	default:
		return true
	}
}

// tailBuffer keeps the last 4 KiB written to it.
type tailBuffer struct {
	mu sync.Mutex
	b  []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > 4096 {
		t.b = append([]byte(nil), t.b[len(t.b)-4096:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimSpace(string(t.b))
}

func (c *child) failure(err error) error {
	if s := c.stderr.String(); s != "" {
		return fmt.Errorf("%s: %v: %s", c.name, err, s)
	}
	return fmt.Errorf("%s: %v", c.name, err)
}

// start starts argv; its stdout goes to stdout (or a buffer if nil). When
// it exits, its index is sent on exits and stdout is closed if it is a
// pipe.
func (l Launcher) start(name string, argv []string, stdout io.WriteCloser, index int, exits chan<- int) (*child, error) {
	c := &child{name: name, stdout: &bytes.Buffer{}, stderr: &tailBuffer{}, exited: make(chan struct{})}
	c.cmd = exec.Command(argv[0], argv[1:]...)
	c.cmd.Env = append(append(c.cmd.Environ(), node.GOMAXPROCS), l.Env...)
	c.cmd.Stderr = c.stderr
	c.cmd.Stdout = c.stdout
	if stdout != nil {
		c.cmd.Stdout = stdout
	}
	setDeathSignal(c.cmd)
	if err := c.cmd.Start(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if l.Nice != 0 {
		setNice(c.cmd.Process.Pid, l.Nice) // best effort; recorded in metadata
	}
	go func() {
		c.err = c.cmd.Wait()
		if stdout != nil {
			stdout.Close()
		}
		close(c.exited)
		exits <- index
	}()
	return c, nil
}

// sampleInterval is how often the coordinator reads the CPU accounting
// of a run's processes (accounting.Sampler).
const sampleInterval = 200 * time.Millisecond

// runOnce starts the parameter servers and workers of spec on net and
// returns the workers' results and the run's CPU accounting (accounting.RunUsage,
// from /proc). If any process fails, or ctx ends, or the run exceeds
// spec.timeout, every process is killed and the error names the process
// and the end of its stderr.
func (l Launcher) runOnce(ctx context.Context, net network.Hosts, spec runSpec) ([]*node.WorkerResult, accounting.RunUsage, error) {
	job := spec.job
	var children []*child
	exits := make(chan int, job.Servers+job.Workers)
	smp := accounting.NewSampler("/proc", sampleInterval)
	var usage accounting.RunUsage // zero until the run succeeded
	defer func() {
		smp.Usage() // stops the sampler
		for _, c := range children {
			if c.running() {
				c.cmd.Process.Kill()
			}
		}
		for _, c := range children {
			<-c.exited
		}
	}()
	timeout := time.After(spec.timeout)
	addrs := make([]string, job.Servers)
	for i := range job.Servers {
		argv := append(append([]string(nil), l.Argv...), "ps", "-listen", net.Listen(i), "-index", strconv.Itoa(i))
		argv = append(append(argv, job.Args()...), net.ChildFlags()...)
		if spec.trace {
			argv = append(argv, "-tap")
		}
		pr, pw := io.Pipe()
		c, err := l.start(fmt.Sprintf("ps %d", i), net.Command(i, argv), pw, len(children), exits)
		if err != nil {
			return nil, usage, err
		}
		smp.Add(c.name, c.cmd.Process.Pid)
		children = append(children, c)
		line := make(chan string, 1)
		go func() {
			sc := bufio.NewScanner(pr)
			if sc.Scan() {
				line <- sc.Text()
			}
			close(line)
			io.Copy(io.Discard, pr)
		}()
		select {
		case s, ok := <-line:
			addr, found := strings.CutPrefix(s, "listening ")
			if !ok || !found {
				<-c.exited
				return nil, usage, c.failure(fmt.Errorf("did not report its address (got %q, exit %v)", s, c.err))
			}
			addrs[i] = addr
		case <-time.After(30 * time.Second):
			return nil, usage, c.failure(fmt.Errorf("did not start listening within 30 s"))
		case <-ctx.Done():
			return nil, usage, ctx.Err()
		}
	}
	workers := make([]*child, job.Workers)
	for w := range job.Workers {
		argv := append(append([]string(nil), l.Argv...), "worker", "-id", strconv.Itoa(w),
			"-ps", strings.Join(addrs, ","), "-steps", strconv.Itoa(spec.steps))
		argv = append(append(argv, job.Args()...), net.ChildFlags()...)
		if spec.trace && w == 0 {
			argv = append(argv, "-trace")
		}
		if spec.failAt >= 0 && w == spec.failWorker {
			argv = append(argv, "-fail-at", strconv.Itoa(spec.failAt))
		}
		c, err := l.start(fmt.Sprintf("worker %d", w), net.Command(job.Servers+w, argv), nil, len(children), exits)
		if err != nil {
			return nil, usage, err
		}
		smp.Add(c.name, c.cmd.Process.Pid)
		children = append(children, c)
		workers[w] = c
	}
	for range children {
		select {
		case i := <-exits:
			if c := children[i]; c.err != nil {
				return nil, usage, c.failure(c.err)
			}
		case <-timeout:
			return nil, usage, fmt.Errorf("testbed: run of %d workers did not finish within %v", job.Workers, spec.timeout)
		case <-ctx.Done():
			return nil, usage, ctx.Err()
		}
	}
	usage = smp.Usage()
	results := make([]*node.WorkerResult, job.Workers)
	for w, c := range workers {
		var r node.WorkerResult
		if err := json.Unmarshal(c.stdout.Bytes(), &r); err != nil {
			return nil, usage, c.failure(fmt.Errorf("bad result: %w", err))
		}
		results[w] = &r
	}
	return results, usage, nil
}
