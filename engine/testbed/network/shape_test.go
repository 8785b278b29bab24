package network

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestShapeCommandsSendPureACKsFirst: the tree shapes the link to its
// rate, queues pure ACKs (IP length 40 or 52, TCP) in the priority-0
// class and everything else in the other, each in a 16 MiB FIFO.
func TestShapeCommandsSendPureACKsFirst(t *testing.T) {
	t.Parallel()
	all := strings.Join(shapeCommands("eth0", 12.5e6, Link{Rate: 12.5e6}.BurstBytes(Netns)), "\n")
	for _, want := range []string{
		"qdisc add dev eth0 root handle 1: htb default 20",
		"class add dev eth0 parent 1: classid 1:1 htb rate 100000000bit burst 18030",
		"classid 1:10 htb rate 10000000bit ceil 100000000bit burst 18030 cburst 18030 prio 0",
		"classid 1:20 htb rate 90000000bit ceil 100000000bit burst 18030 cburst 18030 prio 1",
		"qdisc add dev eth0 parent 1:10 bfifo limit 16777216",
		"qdisc add dev eth0 parent 1:20 bfifo limit 16777216",
		"match ip protocol 6 0xff match u16 40 0xffff at 2 flowid 1:10",
		"match ip protocol 6 0xff match u16 52 0xffff at 2 flowid 1:10",
	} {
		require.Contains(t, all, want)
	}
}

// A link stretched k× keeps its burst and queues in bytes and stretches
// TCP's minimum RTO: its shaping commands differ from the unstretched
// link's only in the rate.
func TestStretchedLinkKeepsBytesAndStretchesRTO(t *testing.T) {
	t.Parallel()
	one, two := Link{Rate: 12.5e6}, Link{Rate: 6.25e6, Dilation: 2}
	require.Equal(t, one.BurstBytes(Netns), two.BurstBytes(Netns))
	require.Equal(t, one.BurstBytes(Loopback), two.BurstBytes(Loopback))
	big := Link{Rate: 125e6}
	require.Equal(t, big.BurstBytes(Netns), Link{Rate: 125e6 / 4, Dilation: 4}.BurstBytes(Netns), "1 ms of the unstretched rate")
	a := strings.Join(shapeCommands("eth0", one.Rate, one.BurstBytes(Netns)), "\n")
	b := strings.Join(shapeCommands("eth0", two.Rate, two.BurstBytes(Netns)), "\n")
	b = strings.NewReplacer("50000000bit", "100000000bit", "5000000bit", "10000000bit", "45000000bit", "90000000bit").Replace(b)
	require.Equal(t, a, b)
	require.Equal(t, TCPMinRTO, one.RTOMin())
	require.Equal(t, 800*time.Millisecond, Link{Rate: 1, Dilation: 4}.RTOMin())
	require.Equal(t, []string{"route", "replace", "10.77.0.0/24", "dev", "eth0", "proto", "kernel", "scope", "link", "src", "10.77.0.2"}, routeCommand(1, one))
	require.Equal(t, []string{"route", "replace", "10.77.0.0/24", "dev", "eth0", "proto", "kernel", "scope", "link", "src", "10.77.0.1", "rto_min", "400ms"}, routeCommand(0, two))
	require.InDelta(t, 2*18030/12.5e6, BurstTime(Netns, 12.5e6), 1e-15)
}
