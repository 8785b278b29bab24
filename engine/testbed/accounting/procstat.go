package accounting

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// clockTick is USER_HZ, the unit of utime and stime in /proc/PID/stat and
// of /proc/stat (s); 100 on every Linux architecture Go supports.
const clockTick = 0.01

// procSample is one reading of a process's CPU accounting.
type procSample struct {
	// CPU is utime+stime of all its threads (s, /proc/PID/stat fields 14
	// and 15, in clock ticks).
	CPU float64
	// Threads holds, per thread id, its scheduler statistics.
	Threads map[int]threadSched
	// OutSegs and RetransSegs are the TCP segments sent and retransmitted
	// in the process's network namespace (/proc/PID/net/snmp), DSACKSegs
	// the segments its peers reported receiving twice (D-SACK,
	// /proc/PID/net/netstat; readDSACKSegs).
	OutSegs, RetransSegs, DSACKSegs float64
}

// threadSched is one thread's /proc/PID/task/TID/schedstat.
type threadSched struct {
	// RunDelay is the time the thread spent runnable but not running (s,
	// field 2).
	RunDelay float64
	// Slices is the number of times it was scheduled onto a CPU (field 3):
	// one per wake-up or preemption, so RunDelay/Slices is its mean wait
	// for a CPU per scheduling event.
	Slices float64
}

// totalRunDelay is the run-queue wait of the sample's threads (s).
func (x procSample) totalRunDelay() float64 {
	t := 0.0
	for _, d := range x.Threads {
		t += d.RunDelay
	}
	return t
}

// hostSample is one reading of the first line of /proc/stat (s, summed
// over CPUs).
type hostSample struct {
	Busy, Total float64
}

// readProcSample reads the accounting of process pid below procfs
// ("/proc", or a fixture directory in tests).
func readProcSample(procfs string, pid int) (procSample, error) {
	dir := filepath.Join(procfs, strconv.Itoa(pid))
	b, err := os.ReadFile(filepath.Join(dir, "stat"))
	if err != nil {
		return procSample{}, err
	}
	// the command name (field 2) is in parentheses and may hold spaces
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return procSample{}, fmt.Errorf("%s/stat: no command name", dir)
	}
	f := strings.Fields(s[i+1:]) // f[0] is field 3 (state)
	if len(f) < 13 {
		return procSample{}, fmt.Errorf("%s/stat: %d fields after the command name, need ≥ 13", dir, len(f))
	}
	ut, err1 := strconv.ParseUint(f[11], 10, 64) // field 14
	st, err2 := strconv.ParseUint(f[12], 10, 64) // field 15
	if err1 != nil || err2 != nil {
		return procSample{}, fmt.Errorf("%s/stat: bad utime/stime %q %q", dir, f[11], f[12])
	}
	out := procSample{CPU: float64(ut+st) * clockTick, Threads: map[int]threadSched{}}
	if out.OutSegs, out.RetransSegs, err = readTCPSegments(filepath.Join(dir, "net", "snmp")); err != nil {
		return procSample{}, err
	}
	if out.DSACKSegs, err = readDSACKSegs(filepath.Join(dir, "net", "netstat")); err != nil {
		return procSample{}, err
	}
	tasks, err := os.ReadDir(filepath.Join(dir, "task"))
	if err != nil {
		return procSample{}, err
	}
	for _, t := range tasks {
		tid, err := strconv.Atoi(t.Name())
		if err != nil {
			continue // not a thread directory
		}
		b, err := os.ReadFile(filepath.Join(dir, "task", t.Name(), "schedstat"))
		if err != nil {
			continue // the thread exited
		}
		f := strings.Fields(string(b))
		if len(f) < 3 {
			return procSample{}, fmt.Errorf("%s/task/%s/schedstat: %q, want 3 fields", dir, t.Name(), b)
		}
		d, err1 := strconv.ParseUint(f[1], 10, 64)
		n, err2 := strconv.ParseUint(f[2], 10, 64)
		if err := errors.Join(err1, err2); err != nil {
			return procSample{}, fmt.Errorf("%s/task/%s/schedstat: %w", dir, t.Name(), err)
		}
		out.Threads[tid] = threadSched{RunDelay: float64(d) / 1e9, Slices: float64(n)}
	}
	return out, nil
}

// readHostSample reads the aggregate "cpu" line of procfs/stat: busy is
// everything but idle and iowait.
func readHostSample(procfs string) (hostSample, error) {
	b, err := os.ReadFile(filepath.Join(procfs, "stat"))
	if err != nil {
		return hostSample{}, err
	}
	line, _, _ := strings.Cut(string(b), "\n")
	f := strings.Fields(line)
	if len(f) < 5 || f[0] != "cpu" {
		return hostSample{}, fmt.Errorf("%s/stat: first line %q is not the cpu total", procfs, line)
	}
	var h hostSample
	for k, v := range f[1:min(len(f), 9)] { // user nice system idle iowait irq softirq steal
		x, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			return hostSample{}, fmt.Errorf("%s/stat: %w", procfs, err)
		}
		h.Total += float64(x) * clockTick
		if k != 3 && k != 4 {
			h.Busy += float64(x) * clockTick
		}
	}
	return h, nil
}

// ProcUsage is the accounting of one process over a run.
type ProcUsage struct {
	// Name is "ps <i>" or "worker <w>".
	Name string
	// Wall is the time between the first and the last sample (s).
	Wall float64
	// CPU is the CPU time used over Wall divided by Wall (1 = one core
	// busy all the time).
	CPU float64
	// RunQueue is the time runnable but not running over Wall divided by
	// Wall (summed over threads, so it can exceed 1).
	RunQueue float64
	// Slices is the number of scheduling events of its threads over
	// Wall (schedstat field 3), and WaitPerSlice its run-queue wait per
	// event (s): RunQueue·Wall/Slices.
	Slices       float64
	WaitPerSlice float64
	// Retrans is the share of the TCP segments sent in its network
	// namespace over Wall that were retransmissions (0..1), Spurious the
	// share its peers reported receiving twice (D-SACK): retransmissions
	// of segments that had arrived, which lost nothing (0..Retrans).
	Retrans, Spurious float64
	// Contention is the run-queue wait in excess of the host's idle
	// wake-up latency, as a share of Wall: (wait − Slices·baseline)/Wall,
	// the baseline being the probe run's WaitPerSlice (Accounting,
	// engine/testbed doc.go "Artifact accounting"); set by Accounting.AddUsage.
	Contention float64
}

// Lost is the share of the TCP segments sent that were retransmitted
// and not reported as duplicates: the retransmissions of segments the
// network may have lost (0..1), judged against MaxRetrans.
func (u ProcUsage) Lost() float64 { return max(0, u.Retrans-u.Spurious) }

// RunUsage is the accounting of one run: its processes and the host.
type RunUsage struct {
	Procs []ProcUsage
	// HostCPU is the busy share of all host CPUs over the run (0..1), and
	// HostCPUs their number.
	HostCPU  float64
	HostCPUs int
}

// Sampler reads the accounting of a run's processes every interval while
// they run. Usage compares each process's last CPU sample with its first,
// so the accounting covers the process's life up to one interval before it
// exited. Run-queue wait is accumulated per thread between consecutive
// samples (a thread that appeared since the previous sample counts whole):
// a sum over the threads alive at the first and last sample would lose
// every thread that exited in between, and undercount (a Go process starts
// and parks OS threads during a run).
type Sampler struct {
	procfs   string
	interval time.Duration
	mu       sync.Mutex
	procs    []*sampledProc
	host     [2]hostSample
	hostN    int
	stop     chan struct{}
	done     chan struct{}
	once     sync.Once
}

type sampledProc struct {
	name          string
	pid           int
	first, last   procSample
	firstT, lastT time.Time
	n             int
	// runDelay is the run-queue wait accumulated since the first sample
	// (s), slices the scheduling events.
	runDelay, slices float64
}

// NewSampler starts sampling the host's CPU from procfs (the /proc
// mount) every interval; Add adds the processes of the run and Usage
// stops it.
func NewSampler(procfs string, interval time.Duration) *Sampler {
	s := &Sampler{procfs: procfs, interval: interval, stop: make(chan struct{}), done: make(chan struct{})}
	s.sampleHost()
	go s.loop()
	return s
}

// Add starts sampling process pid.
func (s *Sampler) Add(name string, pid int) {
	s.mu.Lock()
	p := &sampledProc{name: name, pid: pid}
	s.procs = append(s.procs, p)
	s.mu.Unlock()
	s.sample(p, time.Now())
}

func (s *Sampler) sample(p *sampledProc, now time.Time) {
	x, err := readProcSample(s.procfs, p.pid)
	if err != nil {
		return // exited (or not yet visible): keep the last sample
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if p.n == 0 {
		p.first, p.firstT = x, now
	} else {
		for tid, d := range x.Threads {
			old := p.last.Threads[tid] // 0 for a thread new since the last sample
			p.runDelay += max(0, d.RunDelay-old.RunDelay)
			p.slices += max(0, d.Slices-old.Slices)
		}
	}
	p.last, p.lastT = x, now
	p.n++
}

func (s *Sampler) sampleHost() {
	h, err := readHostSample(s.procfs)
	if err != nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.hostN == 0 {
		s.host[0] = h
	}
	s.host[1] = h
	s.hostN++
}

func (s *Sampler) loop() {
	defer close(s.done)
	t := time.NewTicker(s.interval)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			s.sampleHost()
			return
		case now := <-t.C:
			s.mu.Lock()
			ps := append([]*sampledProc(nil), s.procs...)
			s.mu.Unlock()
			for _, p := range ps {
				s.sample(p, now)
			}
			s.sampleHost()
		}
	}
}

// Usage stops the sampler (if it still runs) and returns the run's
// accounting. A process sampled fewer than twice (it lived less than one
// interval) has zero shares.
func (s *Sampler) Usage() RunUsage {
	s.once.Do(func() { close(s.stop) })
	<-s.done
	s.mu.Lock()
	defer s.mu.Unlock()
	var u RunUsage
	for _, p := range s.procs {
		pu := ProcUsage{Name: p.name}
		if wall := p.lastT.Sub(p.firstT).Seconds(); p.n >= 2 && wall > 0 {
			pu.Wall = wall
			pu.CPU = (p.last.CPU - p.first.CPU) / wall
			pu.RunQueue = p.runDelay / wall
			pu.Slices = p.slices
			if d := p.last.OutSegs - p.first.OutSegs; d > 0 {
				pu.Retrans = max(0, p.last.RetransSegs-p.first.RetransSegs) / d
				pu.Spurious = min(pu.Retrans, max(0, p.last.DSACKSegs-p.first.DSACKSegs)/d)
			}
			if p.slices > 0 {
				pu.WaitPerSlice = p.runDelay / p.slices
			}
		}
		u.Procs = append(u.Procs, pu)
	}
	if d := s.host[1].Total - s.host[0].Total; d > 0 {
		u.HostCPU = (s.host[1].Busy - s.host[0].Busy) / d
	}
	u.HostCPUs = hostCPUs(s.procfs)
	return u
}

// hostCPUs counts the cpuN lines of procfs/stat.
func hostCPUs(procfs string) int {
	b, err := os.ReadFile(filepath.Join(procfs, "stat"))
	if err != nil {
		return 0
	}
	n := 0
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "cpu") && len(l) > 3 && l[3] >= '0' && l[3] <= '9' {
			n++
		}
	}
	return n
}
