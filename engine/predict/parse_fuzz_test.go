package predict

import (
	"math"
	"strings"
	"testing"
)

// FuzzParseFlags: the parsers of pslab predict's flag values (-bandwidth,
// -window and other sizes, -workers, -calibrate's W:THROUGHPUT) never
// panic, and what they accept keeps their contracts: bandwidths finite,
// > 0 and strictly ascending; sizes whole and ≥ 0; worker counts ≥ 1,
// strictly ascending and at most MaxWorkerCounts; a point's W ≥ 1 and
// throughput finite and > 0.
func FuzzParseFlags(f *testing.F) {
	for _, s := range []string{"10Gbps", "10 Gbit/s,25Gbps", "1.25GB/s", "125MiB/s", "5e", "1e3Mbps", "-1Gbps", "NaN Gbps",
		"28MB", "64KiB", "65535", "1e300GB", "1..16", "1,2,4,8", "1..4,8,16", "1..9223372036854775807", "0", "4,2",
		"1:250", "8: 1e3", "0:1", "1:Inf", ":"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if bws, err := ParseBandwidths(s); err == nil {
			for i, b := range bws {
				if !(b > 0) || math.IsInf(b, 0) || (i > 0 && b <= bws[i-1]) {
					t.Fatalf("ParseBandwidths(%q) = %v", s, bws)
				}
			}
			if len(bws) != strings.Count(s, ",")+1 {
				t.Fatalf("ParseBandwidths(%q) = %v: one per item", s, bws)
			}
		}
		if b, err := ParseBytes(s); err == nil && (b < 0 || float64(b) > math.MaxInt64/2) {
			t.Fatalf("ParseBytes(%q) = %d", s, b)
		}
		if ws, err := ParseWorkers(s); err == nil {
			if len(ws) == 0 || len(ws) > MaxWorkerCounts {
				t.Fatalf("ParseWorkers(%q): %d counts", s, len(ws))
			}
			for i, w := range ws {
				if w < 1 || (i > 0 && w <= ws[i-1]) {
					t.Fatalf("ParseWorkers(%q) = %v", s, ws)
				}
			}
		}
		if p, err := ParsePoint(s); err == nil && (p.Workers < 1 || !(p.Throughput > 0) || math.IsInf(p.Throughput, 0)) {
			t.Fatalf("ParsePoint(%q) = %+v", s, p)
		}
	})
}
