package predict

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// bandwidthUnits converts a bandwidth unit to bytes/s. Bits are decimal
// (1 Gbit/s = 10⁹ bit/s); bytes have decimal (kB, MB, GB) and binary
// (KiB, MiB, GiB) multiples.
var bandwidthUnits = map[string]float64{
	"bps": 1.0 / 8, "bit/s": 1.0 / 8, "kbps": 1e3 / 8, "kbit/s": 1e3 / 8, "Kbps": 1e3 / 8,
	"Mbps": 1e6 / 8, "Mbit/s": 1e6 / 8, "Mb/s": 1e6 / 8, "Gbps": 1e9 / 8, "Gbit/s": 1e9 / 8, "Gb/s": 1e9 / 8, "Tbps": 1e12 / 8, "Tbit/s": 1e12 / 8,
	"B/s": 1, "kB/s": 1e3, "KB/s": 1e3, "MB/s": 1e6, "GB/s": 1e9,
	"KiB/s": 1 << 10, "MiB/s": 1 << 20, "GiB/s": 1 << 30,
}

// byteUnits converts a size unit to bytes.
var byteUnits = map[string]float64{
	"B": 1, "bytes": 1, "kB": 1e3, "KB": 1e3, "MB": 1e6, "GB": 1e9, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30,
}

// splitNumber splits "10Gbps" or "10 Gbit/s" into 10 and the unit.
func splitNumber(s string) (float64, string, error) {
	s = strings.TrimSpace(s)
	i := strings.IndexFunc(s, func(r rune) bool {
		return !(r >= '0' && r <= '9' || r == '.' || r == 'e' || r == 'E' || r == '+' || r == '-')
	})
	if i < 0 {
		i = len(s)
	}
	// "1e3" is a number, but "5e" followed by a unit letter is not: back
	// off a trailing exponent marker.
	for i > 0 && (s[i-1] == 'e' || s[i-1] == 'E') {
		i--
	}
	v, err := strconv.ParseFloat(s[:i], 64)
	if err != nil {
		return 0, "", fmt.Errorf("%q: not a number followed by a unit", s)
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, "", fmt.Errorf("%q: not a finite number", s)
	}
	return v, strings.TrimSpace(s[i:]), nil
}

// ParseBandwidth parses a bandwidth with its unit, e.g. "10Gbps",
// "10 Gbit/s", "100Mbps", "1.25GB/s", "125MiB/s", into bytes/s (> 0).
func ParseBandwidth(s string) (float64, error) {
	v, u, err := splitNumber(s)
	if err != nil {
		return 0, err
	}
	f, ok := bandwidthUnits[u]
	if u == "" || !ok {
		return 0, fmt.Errorf("%q: want a bandwidth with a unit: bps, Mbps, Gbps (or Gbit/s), B/s, MB/s, GB/s, MiB/s, ...", s)
	}
	if !(v > 0) {
		return 0, fmt.Errorf("%q: bandwidth must be > 0", s)
	}
	return v * f, nil
}

// ParseBandwidths parses a comma-separated list of bandwidths (bytes/s),
// ascending and distinct.
func ParseBandwidths(s string) ([]float64, error) {
	var out []float64
	for _, f := range strings.Split(s, ",") {
		b, err := ParseBandwidth(f)
		if err != nil {
			return nil, err
		}
		if len(out) > 0 && b <= out[len(out)-1] {
			return nil, fmt.Errorf("%q: list bandwidths in ascending order, each once", s)
		}
		out = append(out, b)
	}
	return out, nil
}

// ParseBytes parses a size, e.g. "28MB", "64KiB" or a plain number of
// bytes, "65535", into whole bytes (≥ 0).
func ParseBytes(s string) (int64, error) {
	v, u, err := splitNumber(s)
	if err != nil {
		return 0, err
	}
	f := 1.0
	if u != "" {
		var ok bool
		if f, ok = byteUnits[u]; !ok {
			return 0, fmt.Errorf("%q: unknown size unit %q (want B, kB, MB, GB, KiB, MiB or GiB)", s, u)
		}
	}
	b := v * f
	if b < 0 || b != math.Round(b) || b > math.MaxInt64/2 {
		return 0, fmt.Errorf("%q: want a whole number of bytes ≥ 0", s)
	}
	return int64(b), nil
}

// MaxWorkerCounts caps the worker counts ParseWorkers returns (the
// simulated configurations of one pslab predict run).
const MaxWorkerCounts = 4096

// ParseWorkers parses worker counts: a range "1..16", a list "1,2,4,8"
// or one count "8", into ascending integers ≥ 1. Ranges may be listed:
// "1..4,8,16". More than MaxWorkerCounts counts are refused from the
// bounds of the ranges, before any count is built.
func ParseWorkers(s string) ([]int, error) {
	type span struct{ lo, hi int }
	var spans []span
	total, prev := 0, 0
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		lo, hi, isRange := strings.Cut(f, "..")
		a, err := strconv.Atoi(strings.TrimSpace(lo))
		b := a
		if err == nil && isRange {
			b, err = strconv.Atoi(strings.TrimSpace(hi))
		}
		if err != nil || a < 1 || b < a {
			return nil, fmt.Errorf("%q: want worker counts such as 1..16, 1,2,4,8 or 8 (integers ≥ 1)", s)
		}
		if a <= prev {
			return nil, fmt.Errorf("%q: worker counts must ascend without repeats", s)
		}
		// b−a+1 cannot overflow (a ≥ 1); total stays ≤ MaxWorkerCounts.
		if n := b - a + 1; n > MaxWorkerCounts-total {
			return nil, fmt.Errorf("%q: %d worker counts; at most %d", s, uint64(total)+uint64(n), MaxWorkerCounts)
		}
		total += b - a + 1
		spans, prev = append(spans, span{a, b}), b
	}
	out := make([]int, 0, total)
	for _, sp := range spans {
		for w := sp.lo; w <= sp.hi; w++ {
			out = append(out, w)
		}
	}
	return out, nil
}
