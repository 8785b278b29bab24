package network

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestShapeCommandsSendPureACKsFirst: the tree shapes the link to its
// rate, queues pure ACKs (IP length 40 or 52, TCP) in the priority-0
// class and everything else in the other, each in a 16 MiB FIFO.
func TestShapeCommandsSendPureACKsFirst(t *testing.T) {
	t.Parallel()
	all := strings.Join(shapeCommands("eth0", 12.5e6), "\n")
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
