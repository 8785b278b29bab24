package timeline

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// maxMicros bounds the magnitude of a time in microseconds so that its
// nanoseconds fit an int64 (about 292 years).
const maxMicros = math.MaxInt64 / 1000

// MicrosToNanos converts a JSON number of microseconds (Chrome trace ts
// and dur) to nanoseconds. Decimal numbers are converted exactly up to
// three decimals and rounded half away from zero beyond; numbers with an
// exponent go through float64. It returns an error for text that is not a
// number or a value beyond ±292 years.
func MicrosToNanos(s string) (int64, error) {
	if strings.ContainsAny(s, "eE") {
		x, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(x) || math.Abs(x) >= maxMicros {
			return 0, fmt.Errorf("%q is not a time in microseconds within ±292 years", s)
		}
		return int64(math.Round(x * 1000)), nil
	}
	neg := strings.HasPrefix(s, "-")
	body := strings.TrimPrefix(s, "-")
	ip, fp, hasDot := strings.Cut(body, ".")
	if ip == "" || (hasDot && fp == "") || !digits(ip) || !digits(fp) {
		return 0, fmt.Errorf("%q is not a number of microseconds", s)
	}
	whole, err := strconv.ParseInt(ip, 10, 64)
	if err != nil || whole >= maxMicros {
		return 0, fmt.Errorf("%q microseconds is beyond ±292 years", s)
	}
	ns := whole * 1000
	var frac int64
	for i := 0; i < 3; i++ {
		frac *= 10
		if i < len(fp) {
			frac += int64(fp[i] - '0')
		}
	}
	if len(fp) > 3 && fp[3] >= '5' {
		frac++ // round half away from zero on the fourth decimal
	}
	ns += frac
	if neg {
		ns = -ns
	}
	return ns, nil
}

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// appendMicros appends ns nanoseconds as decimal microseconds with up to
// three decimals ("1500", "1500.25"), the exact inverse of MicrosToNanos.
func appendMicros(b []byte, ns int64) []byte {
	if ns < 0 {
		b = append(b, '-')
		ns = -ns // callers write validated, non-negative times; ns > MinInt64
	}
	b = strconv.AppendInt(b, ns/1000, 10)
	if f := ns % 1000; f != 0 {
		b = append(b, '.', byte('0'+f/100), byte('0'+f/10%10), byte('0'+f%10))
		for b[len(b)-1] == '0' {
			b = b[:len(b)-1]
		}
	}
	return b
}
