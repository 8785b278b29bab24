package testbed

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
)

// Network modes recorded in dataset metadata ("network" key).
const (
	NetworkNetns    = "netns-veth-bridge-tbf"
	NetworkLoopback = "loopback-token-bucket"
)

// NamespacePrefix starts the name of every network namespace the testbed
// creates; scripts/netns-clean.sh removes them all.
const NamespacePrefix = "pslab-"

// tbfLimit is the queue of each tbf qdisc (B). It must hold every byte
// the run's TCP flows can have in flight through one port, so that the
// shaper delays and never drops: HTTP/2 flow control bounds each
// connection's unacknowledged data to its connection window (at most
// 1.4 MB in the collection), and a port carries at most 11 connections.
// A 5 ms queue (62.5 KB at 100 Mbit/s, the first setting) dropped 17% of
// the PS's packets at W = 6 and made it retransmit 14% of its segments
// (tc -s and /proc/net/snmp, 2026-11-25), a loss no cluster link with the
// emulated buffers shows and whose recovery (200 ms RTO, not scaled by
// device_speed) then dominated the step.
const tbfLimit = 16 << 20

// psPort is the port parameter servers listen on inside namespaces.
const psPort = 7070

// network is where the coordinator runs the processes of a run. Host h is
// PS h for h < servers, and worker h−maxServers otherwise.
type network interface {
	// Mode is NetworkNetns or NetworkLoopback.
	Mode() string
	// Command wraps argv to run on host h.
	Command(h int, argv []string) []string
	// Listen is the address PS i listens on.
	Listen(h int) string
	// ChildFlags are added to every child's flags (loopback shaping).
	ChildFlags() []string
	// Shape sets every NIC to rate bytes/s in each direction.
	Shape(ctx context.Context, rate float64) error
	// Close removes everything the network created.
	Close() error
}

// loopback runs every host on 127.0.0.1; each process shapes its own
// connections with a token bucket per direction (Shaper), which stands for
// its NIC.
type loopback struct{ rate float64 }

func (l *loopback) Mode() string                          { return NetworkLoopback }
func (l *loopback) Command(_ int, argv []string) []string { return argv }
func (l *loopback) Listen(int) string                     { return "127.0.0.1:0" }
func (l *loopback) ChildFlags() []string {
	return []string{"-shape-rate", strconv.FormatFloat(l.rate, 'g', -1, 64)}
}
func (l *loopback) Shape(_ context.Context, rate float64) error { l.rate = rate; return nil }
func (l *loopback) Close() error                                { return nil }

// netns is one network namespace per host, each with a veth pair into a
// switch namespace holding a Linux bridge, and tc tbf on both ends of
// every veth (egress of the host = its uplink, egress of the switch port =
// its downlink). Addresses are 10.77.0.(h+1)/24, inside the namespaces only.
type netns struct {
	sw    string
	hosts []string
}

// run executes a command and returns its error with its output.
func run(ctx context.Context, argv ...string) error {
	out, err := exec.CommandContext(ctx, argv[0], argv[1:]...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s: %v: %s", strings.Join(argv, " "), err, strings.TrimSpace(string(out)))
	}
	return nil
}

// Leftovers lists network namespaces whose name starts with
// NamespacePrefix.
func Leftovers(ctx context.Context) ([]string, error) {
	out, err := exec.CommandContext(ctx, "ip", "netns", "list").Output()
	if err != nil {
		return nil, fmt.Errorf("ip netns list: %w", err)
	}
	var left []string
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Fields(line); len(f) > 0 && strings.HasPrefix(f[0], NamespacePrefix) {
			left = append(left, f[0])
		}
	}
	return left, nil
}

// leftoverError refuses to start next to existing pslab namespaces.
func leftoverError(left []string) error {
	return fmt.Errorf("testbed: network namespaces %s exist, left by an interrupted run or used by a run in progress; "+
		"if no run is in progress, remove them with scripts/netns-clean.sh (or `ip netns del <name>` for each)", strings.Join(left, " "))
}

// netnsAvailable reports why namespaces cannot be used, or nil.
func netnsAvailable() error {
	if os.Geteuid() != 0 {
		return errors.New("not root")
	}
	for _, tool := range []string{"ip", "tc"} {
		if _, err := exec.LookPath(tool); err != nil {
			return fmt.Errorf("%s not found (apt-get install iproute2)", tool)
		}
	}
	return nil
}

// newNetns builds the namespaces for hosts hosts. It refuses to start if
// namespaces of an earlier run are left, and removes what it created if
// any step fails.
func newNetns(ctx context.Context, hosts int) (_ *netns, err error) {
	left, err := Leftovers(ctx)
	if err != nil {
		return nil, err
	}
	if len(left) > 0 {
		return nil, leftoverError(left)
	}
	tag := NamespacePrefix + strconv.Itoa(os.Getpid())
	n := &netns{}
	defer func() {
		if err != nil {
			err = errors.Join(err, n.Close())
		}
	}()
	if err := run(ctx, "ip", "netns", "add", tag+"-sw"); err != nil {
		return nil, err
	}
	n.sw = tag + "-sw"
	steps := [][]string{
		{"ip", "-n", n.sw, "link", "set", "lo", "up"},
		{"ip", "-n", n.sw, "link", "add", "br0", "type", "bridge"},
		{"ip", "-n", n.sw, "link", "set", "br0", "up"},
	}
	for _, s := range steps {
		if err := run(ctx, s...); err != nil {
			return nil, err
		}
	}
	for h := range hosts {
		ns := fmt.Sprintf("%s-h%d", tag, h)
		if err := run(ctx, "ip", "netns", "add", ns); err != nil {
			return nil, err
		}
		n.hosts = append(n.hosts, ns)
		port := fmt.Sprintf("p%d", h)
		for _, s := range [][]string{
			{"ip", "-n", ns, "link", "set", "lo", "up"},
			{"ip", "link", "add", "eth0", "netns", ns, "mtu", mtu, "type", "veth", "peer", "name", port, "netns", n.sw, "mtu", mtu},
			{"ip", "-n", n.sw, "link", "set", port, "master", "br0"},
			{"ip", "-n", n.sw, "link", "set", port, "up"},
			{"ip", "-n", ns, "addr", "add", hostAddr(h) + "/24", "dev", "eth0"},
			{"ip", "-n", ns, "link", "set", "eth0", "up"},
		} {
			if err := run(ctx, s...); err != nil {
				return nil, err
			}
		}
	}
	return n, nil
}

// MTU is the veth MTU (B): AWS's 9001-byte jumbo frames inside a VPC,
// icpe20's setting. Against 1500 it cuts the packets, and so the
// receivers' wake-ups, six-fold: at 100 Mbit/s a 1500-byte MTU woke the PS
// about 7,600 times a second at W = 1 (schedstat field 3), each wake-up
// waiting 20 µs for a CPU on this 2-core VM.
const MTU = 9001

// frameBytes is one full Ethernet frame at MTU (B).
const frameBytes = MTU + 14

var mtu = strconv.Itoa(MTU)

func hostAddr(h int) string { return fmt.Sprintf("10.77.0.%d", h+1) }

func (n *netns) Mode() string { return NetworkNetns }

func (n *netns) Command(h int, argv []string) []string {
	return append([]string{"ip", "netns", "exec", n.hosts[h]}, argv...)
}

func (n *netns) Listen(h int) string { return fmt.Sprintf("%s:%d", hostAddr(h), psPort) }

func (n *netns) ChildFlags() []string { return nil }

// Shape puts tc tbf at rate on both ends of every veth. The burst is 1 ms
// of traffic (at least two full frames of frameBytes): a transfer may run above the rate
// for that much data after an idle period. Smaller bursts (0.1 and 0.3 ms
// were measured) make tbf's timer-driven dequeue fall behind on a loaded
// 2-core VM and cut the throughput of 7 workers by up to half. The queue
// holds tbfLimit bytes.
func (n *netns) Shape(ctx context.Context, rate float64) error {
	bits := strconv.FormatInt(int64(rate*8), 10) + "bit"
	burst := strconv.FormatInt(int64(max(2*frameBytes, rate*1e-3)), 10)
	for h, ns := range n.hosts {
		for _, dev := range [][2]string{{ns, "eth0"}, {n.sw, fmt.Sprintf("p%d", h)}} {
			if err := run(ctx, "tc", "-n", dev[0], "qdisc", "replace", "dev", dev[1], "root", "tbf",
				"rate", bits, "burst", burst, "limit", strconv.Itoa(tbfLimit)); err != nil {
				return err
			}
		}
	}
	return nil
}

// Close kills any process left in the namespaces and deletes them (which
// removes their veths, bridge and qdiscs). It does not use the caller's
// context: cleanup must run after an interrupt too.
func (n *netns) Close() error {
	var errs []error
	ctx := context.Background()
	all := append([]string(nil), n.hosts...)
	if n.sw != "" {
		all = append(all, n.sw)
	}
	for _, ns := range all {
		if out, err := exec.CommandContext(ctx, "ip", "netns", "pids", ns).Output(); err == nil {
			for _, f := range strings.Fields(string(out)) {
				if pid, err := strconv.Atoi(f); err == nil {
					if p, err := os.FindProcess(pid); err == nil {
						p.Kill()
					}
				}
			}
		}
		if err := run(ctx, "ip", "netns", "del", ns); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
