package accounting

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// procTable reads the table named table ("Tcp", "TcpExt") of a
// /proc/net/snmp or /proc/net/netstat file: its first line holds the
// counter names, its second their values. It returns the counter values
// by name.
func procTable(path, table string) (map[string]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var head []string
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || f[0] != table+":" {
			continue
		}
		if head == nil {
			head = f
			continue
		}
		if len(f) != len(head) {
			return nil, fmt.Errorf("%s: %s has %d names and %d values", path, table, len(head)-1, len(f)-1)
		}
		out := make(map[string]string, len(f)-1)
		for i := 1; i < len(f); i++ {
			out[head[i]] = f[i]
		}
		return out, nil
	}
	return nil, fmt.Errorf("%s: no %s table", path, table)
}

// counter parses the counter name of table (procTable) of the file at
// path: a non-negative integer, as the kernel prints them.
func counter(path, table string, values map[string]string, name string) (float64, error) {
	v, err := strconv.ParseUint(values[name], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s: %s %s: %w", path, table, name, err)
	}
	return float64(v), nil
}

// readTCPSegments returns the OutSegs and RetransSegs counters of the
// "Tcp:" table of a /proc/net/snmp file.
func readTCPSegments(path string) (out, retrans float64, err error) {
	t, err := procTable(path, "Tcp")
	if err != nil {
		return 0, 0, err
	}
	for _, name := range []string{"OutSegs", "RetransSegs"} {
		if _, ok := t[name]; !ok {
			return 0, 0, fmt.Errorf("%s: no Tcp OutSegs and RetransSegs", path)
		}
	}
	if out, err = counter(path, "Tcp", t, "OutSegs"); err != nil {
		return 0, 0, err
	}
	retrans, err = counter(path, "Tcp", t, "RetransSegs")
	return out, retrans, err
}

// readDSACKSegs returns the segments the peers of a network namespace
// reported receiving twice, from the "TcpExt:" table of its
// /proc/net/netstat: TCPDSACKRecvSegs (Linux ≥ 5.10), else TCPDSACKRecv
// (D-SACK blocks: a block may cover several segments, so the count is a
// lower bound and the retransmissions judged lost an upper one). A
// D-SACK is the receiver's word that the retransmitted segment had
// arrived (RFC 2883), so such a retransmission lost nothing: the
// testbed's are tail loss probes fired when a burst queues at the shaper
// (engine/testbed doc.go).
func readDSACKSegs(path string) (float64, error) {
	t, err := procTable(path, "TcpExt")
	if err != nil {
		return 0, err
	}
	for _, name := range []string{"TCPDSACKRecvSegs", "TCPDSACKRecv"} {
		if _, ok := t[name]; ok {
			return counter(path, "TcpExt", t, name)
		}
	}
	return 0, fmt.Errorf("%s: no TcpExt TCPDSACKRecvSegs or TCPDSACKRecv", path)
}
