package accounting

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The fixture testdata/proc holds process 4242 (a command name with
// spaces and parentheses, utime 150 + stime 50 ticks, two threads with
// 0.3 s and 0.1 s of run-queue wait) and a 2-CPU /proc/stat.
func TestReadProcFixture(t *testing.T) {
	t.Parallel()
	p, err := readProcSample("testdata/proc", 4242)
	require.NoError(t, err)
	require.InDelta(t, 2.0, p.CPU, 1e-9, "(150+50) ticks of 10 ms")
	require.Equal(t, [2]float64{10000, 10}, [2]float64{p.OutSegs, p.RetransSegs}, "Tcp OutSegs and RetransSegs of net/snmp")
	require.Equal(t, 4.0, p.DSACKSegs, "TcpExt TCPDSACKRecvSegs of net/netstat, not TCPDSACKRecv")
	require.InDelta(t, 0.4, p.totalRunDelay(), 1e-9, "schedstat field 2 summed over threads")
	require.Equal(t, map[int]threadSched{4242: {0.3, 50}, 4243: {0.1, 20}}, p.Threads, "schedstat fields 2 (ns) and 3")
	h, err := readHostSample("testdata/proc")
	require.NoError(t, err)
	require.InDelta(t, 100.0, h.Total, 1e-9)
	require.InDelta(t, 15.0, h.Busy, 1e-9, "user+system; idle and iowait are not busy")
	require.Equal(t, 2, hostCPUs("testdata/proc"))
	_, err = readProcSample("testdata/proc", 1)
	require.Error(t, err)
}

// Run-queue wait accumulates per thread: a thread that exits between
// samples keeps what it had accrued, a thread that appears counts whole
// (a difference of per-process sums would give max(0, 0.16 − 0.4) = 0).
func TestSamplerRunQueuePerThread(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	copyTree(t, "testdata/proc", root)
	s := NewSampler(root, time.Hour)
	s.Add("ps 0", 4242) // threads 4242 (0.3 s) and 4243 (0.1 s)
	require.NoError(t, os.RemoveAll(filepath.Join(root, "4242/task/4242")))
	require.NoError(t, os.WriteFile(filepath.Join(root, "4242/task/4243/schedstat"), []byte("500000000 110000000 20\n"), 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(root, "4242/task/4250"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, "4242/task/4250/schedstat"), []byte("1000 50000000 3\n"), 0o644))
	p := s.procs[0]
	s.sample(p, p.firstT.Add(time.Second))
	u := s.Usage()
	require.InDelta(t, 0.06, u.Procs[0].RunQueue, 1e-9, "+0.01 s of thread 4243 and 0.05 s of the new thread 4250")
}

// The sampler's shares are the differences between its first and last
// reading over the wall time between them.
func TestSamplerUsageOnFixture(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	copyTree(t, "testdata/proc", root)
	s := NewSampler(root, time.Hour) // samples only at add, stop and by hand
	s.Add("worker 0", 4242)
	// one second later: +0.5 s CPU, +0.01 s run-queue wait, host +50 ticks busy of 200
	rewrite := func(name, content string) {
		require.NoError(t, os.WriteFile(filepath.Join(root, name), []byte(content), 0o644))
	}
	rewrite("4242/stat", "4242 (pslab (test) x) S 1 4242 4242 0 -1 4194560 100 0 0 0 190 60 0 0 20 0 5 0 100 0 0\n")
	rewrite("4242/task/4243/schedstat", "500000000 110000000 40\n")
	rewrite("4242/net/snmp", "Tcp: OutSegs RetransSegs\nTcp: 12000 14\n")
	rewrite("4242/net/netstat", "TcpExt: TCPDSACKRecv TCPDSACKRecvSegs\nTcpExt: 5 7\n")
	rewrite("stat", "cpu  1040 0 510 8150 500 0 0 0 0 0\ncpu0 1 0 0 0 0 0 0 0 0 0\ncpu1 1 0 0 0 0 0 0 0 0 0\n")
	p := s.procs[0]
	s.sample(p, p.firstT.Add(time.Second))
	u := s.Usage()
	require.Len(t, u.Procs, 1)
	require.InDelta(t, 1.0, u.Procs[0].Wall, 1e-9)
	require.InDelta(t, 0.5, u.Procs[0].CPU, 1e-9)
	require.InDelta(t, 0.01, u.Procs[0].RunQueue, 1e-9)
	require.InDelta(t, 20, u.Procs[0].Slices, 1e-9, "20 more scheduling events")
	require.InDelta(t, 0.5e-3, u.Procs[0].WaitPerSlice, 1e-12)
	require.InDelta(t, 4.0/2000, u.Procs[0].Retrans, 1e-12, "4 of 2000 segments retransmitted")
	require.InDelta(t, 3.0/2000, u.Procs[0].Spurious, 1e-12, "3 of them D-SACKed (TCPDSACKRecvSegs 4 → 7)")
	require.InDelta(t, 1.0/2000, u.Procs[0].Lost(), 1e-12)
	require.InDelta(t, 0.25, u.HostCPU, 1e-9, "50 busy of 200 ticks")
	require.Equal(t, 2, u.HostCPUs)

	var a Accounting
	// the probe: 0.3 s of wait over 1200 scheduling events → 0.25 ms each
	a.SetBaseline(RunUsage{Procs: []ProcUsage{{Wall: 2, RunQueue: 0.1, Slices: 1000}, {Wall: 2, RunQueue: 0.05, Slices: 200}}})
	require.InDelta(t, 0.25e-3, a.Baseline, 1e-12)
	a.AddUsage(u, "W=1 rep 0")
	require.InDelta(t, 0.005, a.Contention, 1e-12, "(0.01 s − 20 × 0.25 ms)/1 s")
	require.InDelta(t, 0.005, u.Procs[0].Contention, 1e-12, "set on the run's usage too")
	require.Equal(t, "worker 0, W=1 rep 0", a.ContentionAt)
	a.Unscaled = UnscaledShare(20e-6, 100, 50e-6, 1e-3, 10, 0.01)
	require.InDelta(t, (2e-3+50e-6+1e-3)*0.9/0.01, a.Unscaled, 1e-12)
	require.Contains(t, a.UnscaledBreach(), "unscaled share 27.5%", "a 27% unscaled share is over the budget")
	require.InDelta(t, 4.0/2000, a.Retrans, 1e-12)
	require.InDelta(t, 1.0/2000, a.Lost, 1e-12)
	require.Equal(t, "worker 0, W=1 rep 0", a.LostAt)
	require.Contains(t, a.Summary(), "retransmitted ≤ 0.20% (not reported duplicate ≤ 0.05%)")
}

func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	require.NoError(t, filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if info.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	}))
}

func TestReadTCPSegmentsErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for content, want := range map[string]string{
		"Udp: InDatagrams\nUdp: 1\n":           "no Tcp table",
		"Tcp: OutSegs InSegs\nTcp: 1 2\n":      "no Tcp OutSegs and RetransSegs",
		"Tcp: OutSegs RetransSegs\nTcp: 1 x\n": "Tcp RetransSegs",
	} {
		p := filepath.Join(dir, "snmp")
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
		_, _, err := readTCPSegments(p)
		require.ErrorContains(t, err, want)
	}
}

func TestReadDSACKSegs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := filepath.Join(dir, "netstat")
	for content, want := range map[string]any{
		"TcpExt: TCPDSACKRecv TCPDSACKRecvSegs\nTcpExt: 2 9\n": 9.0,
		"TcpExt: TCPDSACKRecv\nTcpExt: 2\n":                    2.0, // before Linux 5.10: blocks
		"IpExt: InNoRoutes\nIpExt: 0\n":                        "no TcpExt table",
		"TcpExt: SyncookiesSent\nTcpExt: 0\n":                  "no TcpExt TCPDSACKRecvSegs or TCPDSACKRecv",
		"TcpExt: TCPDSACKRecvSegs\nTcpExt: x\n":                "TcpExt TCPDSACKRecvSegs",
		"TcpExt: A TCPDSACKRecvSegs\nTcpExt: 1\n":              "2 names and 1 values",
	} {
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
		got, err := readDSACKSegs(p)
		if s, ok := want.(string); ok {
			require.ErrorContains(t, err, s)
			continue
		}
		require.NoError(t, err)
		require.Equal(t, want, got)
	}
	_, err := readDSACKSegs(filepath.Join(dir, "absent"))
	require.Error(t, err)
}
