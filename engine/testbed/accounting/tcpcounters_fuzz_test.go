package accounting

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzTCPCounters: the /proc table readers never panic, and what they
// accept are counters (non-negative), D-SACKs included.
func FuzzTCPCounters(f *testing.F) {
	f.Add("Tcp: OutSegs RetransSegs\nTcp: 12000 14\n")
	f.Add("TcpExt: TCPDSACKRecv TCPDSACKRecvSegs\nTcpExt: 5 7\n")
	f.Add("Tcp: OutSegs RetransSegs\nTcp: 1 -2\nTcpExt: TCPDSACKRecv\nTcpExt: NaN\n")
	f.Fuzz(func(t *testing.T, content string) {
		p := filepath.Join(t.TempDir(), "snmp")
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, retrans, err := readTCPSegments(p); err == nil && (out < 0 || retrans < 0) {
			t.Fatalf("accepted negative counters %g, %g", out, retrans)
		}
		if d, err := readDSACKSegs(p); err == nil && !(d >= 0) {
			t.Fatalf("accepted D-SACK count %g", d)
		}
	})
}
