package network

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
	// Netns shapes every emulated NIC direction with HTB, GSO
	// aggregates of at most gsoMaxSegs MTUs, and sends pure TCP ACKs ahead
	// of queued data (netns.Shape).
	Netns = "netns-veth-bridge-htb-ackfirst-gso2"
	// NetnsNoGSO is the mode of datasets/testbed-next: as
	// Netns with one MTU per packet (gso_max_segs 1).
	NetnsNoGSO = "netns-veth-bridge-htb-ackfirst-nogso"
	// NetnsTBF is the mode of collections before ACKs went first:
	// one tbf FIFO per NIC direction.
	NetnsTBF = "netns-veth-bridge-tbf"
	// Loopback runs every process on 127.0.0.1, each shaping its own
	// connections with token buckets (Shaper).
	Loopback = "loopback-token-bucket"
)

// IsNetns reports whether a dataset's network mode is one of the
// namespace networks (Netns or an earlier one). `pslab testbed
// run` measures a dataset of an earlier namespace network again
// (collection.UpToDate).
func IsNetns(mode string) bool { return strings.HasPrefix(mode, "netns-") }

// gsoMaxSegs is the largest GSO aggregate the veths hand to the shaper,
// in MTUs. HTB shapes an aggregate whole, so large ones (the default, up
// to 7 MTUs of 9001 B) make the link bursty; one MTU per packet makes the
// stack handle every 9 KB packet and raised the processes' CPU contention.
// Probed at W = 6, one repetition each, quiet 2-core VM (2026-11-26; the
// probe runs were not kept), examples/s with the PS's contention in
// parentheses:
//
//	gso_max_segs   vgg16-mux       alexnet-b512-mux   resnet18-ordered-tic
//	1              1,630 (15.5%)   7,241              16,812 (40.6%)
//	2              1,673 (5.9%)    7,564              17,050 (22.8%)
//	4                908 (3.1%)    7,103              16,797 (18.9%)
//	7 (default)      886 (5.4%)    6,294              16,833 (24.0%)
//
// In the probe, two MTUs kept the throughput of one MTU per packet at
// 38–56% of its contention. Over whole collections (datasets/testbed, two
// MTUs, against datasets/testbed-next, one) the throughput is equal or
// higher and the contention mixed: vgg16-mux at W = 6 11.0% against 17.8%,
// resnet18-ordered-tic 26.9% against 23.5% (datasets/testbed/README.md).
const gsoMaxSegs = 2

// pureACKLengths are the IPv4 total lengths (B) of TCP segments without
// payload: 20-byte IP header plus a 20-byte TCP header, or 32 with the
// timestamp option Linux uses by default. Shape sends them ahead of
// queued data. They carry no sequence space, so sending them first
// reorders no connection's data.
var pureACKLengths = []int{40, 52}

// NamespacePrefix starts the name of every network namespace the testbed
// creates; scripts/netns-clean.sh removes them all.
const NamespacePrefix = "pslab-"

// queueLimit is the FIFO of each class of an emulated NIC (B). It must hold every byte
// the run's TCP flows can have in flight through one port, so that the
// shaper delays and never drops: HTTP/2 flow control bounds each
// connection's unacknowledged data to its connection window (at most
// 1.4 MB in the collection), and a port carries at most 11 connections.
// A 5 ms queue (62.5 KB at 100 Mbit/s, the first setting) dropped 17% of
// the PS's packets at W = 6 and made it retransmit 14% of its segments
// (tc -s and /proc/net/snmp, 2026-11-25), a loss no cluster link with the
// emulated buffers shows and whose recovery (200 ms RTO, not scaled by
// device_speed) then dominated the step.
const queueLimit = 16 << 20

// psPort is the port parameter servers listen on inside namespaces.
const psPort = 7070

// Hosts is where the coordinator runs the processes of a run. Host h is
// PS h for h < servers, and worker h−maxServers otherwise.
type Hosts interface {
	// Mode is Netns or Loopback.
	Mode() string
	// Command wraps argv to run on host h.
	Command(h int, argv []string) []string
	// Listen is the address PS i listens on.
	Listen(h int) string
	// ChildFlags are added to every child's flags (loopback shaping).
	ChildFlags() []string
	// Shape shapes every NIC as l says, replacing an earlier Shape.
	Shape(ctx context.Context, l Link) error
	// Close removes everything the network created.
	Close() error
}

// loopback runs every host on 127.0.0.1; each process shapes its own
// connections with a token bucket per direction (Shaper), which stands for
// its NIC.
type loopback struct{ link Link }

func (l *loopback) Mode() string                          { return Loopback }
func (l *loopback) Command(_ int, argv []string) []string { return argv }
func (l *loopback) Listen(int) string                     { return "127.0.0.1:0" }
func (l *loopback) ChildFlags() []string {
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	return []string{"-shape-rate", f(l.link.Rate), "-shape-burst", f(l.link.BurstBytes(Loopback))}
}
func (l *loopback) Shape(_ context.Context, link Link) error { l.link = link; return nil }
func (l *loopback) Close() error                             { return nil }

// netns is one network namespace per host, each with a veth pair into a
// switch namespace holding a Linux bridge, and an HTB shaper (Shape) on
// both ends of every veth (egress of the host = its uplink, egress of the
// switch port = its downlink). Addresses are 10.77.0.(h+1)/24, inside the namespaces only.
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

// NetnsAvailable reports why namespaces cannot be used, or nil.
func NetnsAvailable() error {
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
			// Small GSO aggregates through the shaper (gsoMaxSegs), as tbf
			// splits them and HTB does not (see Shape).
			{"ip", "-n", ns, "link", "set", "eth0", "gso_max_segs", strconv.Itoa(gsoMaxSegs)},
			{"ip", "-n", n.sw, "link", "set", port, "gso_max_segs", strconv.Itoa(gsoMaxSegs)},
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

func (n *netns) Mode() string { return Netns }

func (n *netns) Command(h int, argv []string) []string {
	return append([]string{"ip", "netns", "exec", n.hosts[h]}, argv...)
}

func (n *netns) Listen(h int) string { return fmt.Sprintf("%s:%d", hostAddr(h), psPort) }

func (n *netns) ChildFlags() []string { return nil }

// Shape shapes both ends of every veth to rate (the host's egress and
// its ingress) with an HTB tree: a class at rate for the link and under it
// a class for pure ACKs (pureACKLengths), served first, and one for
// everything else, each with a FIFO of queueLimit; the ACK class is
// guaranteed 10% of the rate, both may borrow up to all of it, so the link
// never exceeds rate. With one tbf FIFO per direction (collections before
// 2026-11-25's change) the ACKs of one direction waited behind the other
// direction's queued tensors (11–15 ms at W = 6, an RTT of 25 ms against
// 5.5 ms at W = 1), which left the PS link idle and cut alexnet-b512-mux
// to 63–72% of its link bound at W = 6–7. The 16 MiB queues stand for a
// switch buffer of gigabytes at emulated scale, where a datacenter switch
// has megabytes and no ACK waits that long. The veths send GSO aggregates
// of at most gsoMaxSegs MTUs (newNetns): tbf cut GSO aggregates into
// segments, HTB shapes them whole, and with them vgg16-mux at W = 6 fell from 1,519
// (tbf) to 884–1,051 examples/s. Measured with both (2026-11-25, one
// repetition; datasets/testbed/README.md, "Why AlexNet's throughput
// falls"): alexnet-b512-mux 6,917 / 6,827 at W = 6 / 7 (tbf: 5,654 mean /
// 5,172), vgg16-mux 1,651 / 1,625 (tbf: 1,519 / 1,184), no retransmission;
// the PS's contention rose to 9–10% (tbf: 4–6%), as the stack handles
// every 9 KB packet. The burst is 1 ms of traffic (at least two full
// frames of frameBytes): a transfer may run above the rate for that much
// data after an idle period. Smaller bursts (0.1 and 0.3 ms were measured
// with tbf) make the shaper's timer-driven dequeue fall behind on a loaded
// 2-core VM and cut the throughput of 7 workers by up to half.
//
// A stretched link (l.Dilation k > 1) keeps the burst and the queues in
// bytes, so they last k times as long at rate, and sets TCP's minimum
// retransmission timeout of every host's route to k·200 ms (route
// attribute rto_min; Link).
func (n *netns) Shape(ctx context.Context, l Link) error {
	burst := l.BurstBytes(Netns)
	for h, ns := range n.hosts {
		for _, dev := range [][2]string{{ns, "eth0"}, {n.sw, fmt.Sprintf("p%d", h)}} {
			_ = run(ctx, "tc", "-n", dev[0], "qdisc", "del", "dev", dev[1], "root") // an earlier Shape's, if any
			if err := runBatch(ctx, dev[0], shapeCommands(dev[1], l.Rate, burst)); err != nil {
				return err
			}
		}
		if err := run(ctx, append([]string{"ip", "-n", ns}, routeCommand(h, l)...)...); err != nil {
			return err
		}
	}
	return nil
}

// routeCommand is the `ip route` command (after `ip -n ns`) that gives
// host h's subnet route the link's minimum retransmission timeout: none
// (the kernel's 200 ms) unstretched, Link.RTOMin stretched.
func routeCommand(h int, l Link) []string {
	cmd := []string{"route", "replace", subnet, "dev", "eth0", "proto", "kernel", "scope", "link", "src", hostAddr(h)}
	if l.dilation() > 1 {
		cmd = append(cmd, "rto_min", strconv.FormatInt(l.RTOMin().Milliseconds(), 10)+"ms")
	}
	return cmd
}

// subnet holds every host address (hostAddr).
const subnet = "10.77.0.0/24"

// shapeCommands are the tc commands (tc -batch syntax) of Shape for device
// dev: class 1:10 for pure ACKs (HTB priority 0), 1:20 for the rest, at
// rate bytes/s; burstBytes is the burst of every class (B).
func shapeCommands(dev string, rate, burstBytes float64) []string {
	bits := func(r float64) string { return strconv.FormatInt(int64(r*8), 10) + "bit" }
	burst := strconv.FormatInt(int64(burstBytes), 10)
	cmds := []string{
		fmt.Sprintf("qdisc add dev %s root handle 1: htb default 20", dev),
		fmt.Sprintf("class add dev %s parent 1: classid 1:1 htb rate %s burst %s cburst %s", dev, bits(rate), burst, burst),
		fmt.Sprintf("class add dev %s parent 1:1 classid 1:10 htb rate %s ceil %s burst %s cburst %s prio 0", dev, bits(rate/10), bits(rate), burst, burst),
		fmt.Sprintf("class add dev %s parent 1:1 classid 1:20 htb rate %s ceil %s burst %s cburst %s prio 1", dev, bits(rate*9/10), bits(rate), burst, burst),
		fmt.Sprintf("qdisc add dev %s parent 1:10 bfifo limit %d", dev, queueLimit),
		fmt.Sprintf("qdisc add dev %s parent 1:20 bfifo limit %d", dev, queueLimit),
	}
	for _, l := range pureACKLengths {
		cmds = append(cmds, fmt.Sprintf("filter add dev %s parent 1: protocol ip prio 1 u32 match ip protocol 6 0xff match u16 %d 0xffff at 2 flowid 1:10", dev, l))
	}
	return cmds
}

// runBatch runs the tc commands in namespace ns as one tc -batch.
func runBatch(ctx context.Context, ns string, cmds []string) error {
	c := exec.CommandContext(ctx, "tc", "-n", ns, "-batch", "-")
	c.Stdin = strings.NewReader(strings.Join(cmds, "\n") + "\n")
	if out, err := c.CombinedOutput(); err != nil {
		return fmt.Errorf("tc -n %s -batch: %v: %s", ns, err, strings.TrimSpace(string(out)))
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
