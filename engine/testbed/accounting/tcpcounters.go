package accounting

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// readTCPSegments returns the OutSegs and RetransSegs counters of the
// "Tcp:" table of a /proc/net/snmp file.
func readTCPSegments(path string) (out, retrans float64, err error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, 0, err
	}
	var head []string
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || f[0] != "Tcp:" {
			continue
		}
		if head == nil {
			head = f
			continue
		}
		got := 0
		for i := 1; i < min(len(f), len(head)); i++ {
			if head[i] != "OutSegs" && head[i] != "RetransSegs" {
				continue
			}
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				return 0, 0, fmt.Errorf("%s: Tcp %s: %w", path, head[i], err)
			}
			if head[i] == "OutSegs" {
				out = v
			} else {
				retrans = v
			}
			got++
		}
		if got != 2 {
			return 0, 0, fmt.Errorf("%s: no Tcp OutSegs and RetransSegs", path)
		}
		return out, retrans, nil
	}
	return 0, 0, fmt.Errorf("%s: no Tcp table", path)
}

// readDSACKSegs returns the segments the peers of a network namespace
// reported receiving twice, from the "TcpExt:" table of its
// /proc/net/netstat: TCPDSACKRecvSegs (Linux ≥ 5.10), else TCPDSACKRecv
// (D-SACK blocks: a block may cover several segments, so the count is a
// lower bound and the retransmissions judged lost an upper one). A D-SACK is the receiver's word
// that the retransmitted segment had arrived (RFC 2883), so such a
// retransmission lost nothing: the testbed's are tail loss probes fired
// when a burst queues at the shaper (engine/testbed doc.go).
func readDSACKSegs(path string) (float64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	var head []string
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || f[0] != "TcpExt:" {
			continue
		}
		if head == nil {
			head = f
			continue
		}
		if len(f) != len(head) {
			return 0, fmt.Errorf("%s: TcpExt has %d names and %d values", path, len(head)-1, len(f)-1)
		}
		for _, name := range []string{"TCPDSACKRecvSegs", "TCPDSACKRecv"} {
			for i := 1; i < len(head); i++ {
				if head[i] != name {
					continue
				}
				v, err := strconv.ParseFloat(f[i], 64)
				if err != nil {
					return 0, fmt.Errorf("%s: TcpExt %s: %w", path, name, err)
				}
				return v, nil
			}
		}
		return 0, fmt.Errorf("%s: no TcpExt TCPDSACKRecvSegs or TCPDSACKRecv", path)
	}
	return 0, fmt.Errorf("%s: no TcpExt table", path)
}
