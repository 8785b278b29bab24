package timeline

import (
	"fmt"
	"math"
	"strconv"
)

// maxMicros bounds the magnitude of a time in microseconds so that its
// nanoseconds fit an int64 (about 292 years).
const maxMicros = math.MaxInt64 / 1000

// MicrosToNanos converts a JSON number of microseconds (Chrome trace ts
// and dur) to nanoseconds. Decimal numbers are converted exactly up to
// three decimals and rounded half away from zero beyond; numbers with an
// exponent go through float64. It returns an error for text that is not a
// number or a value beyond ±292 years.
func MicrosToNanos(s string) (int64, error) { return microsToNanos(s) }

func microsToNanos[T string | []byte](s T) (int64, error) {
	for i := 0; i < len(s); i++ {
		if s[i] == 'e' || s[i] == 'E' {
			x, err := strconv.ParseFloat(string(s), 64)
			if err != nil || math.IsNaN(x) || math.Abs(x) >= maxMicros {
				return 0, fmt.Errorf("%q is not a time in microseconds within ±292 years", s)
			}
			return int64(math.Round(x * 1000)), nil
		}
	}
	i, neg := 0, len(s) > 0 && s[0] == '-'
	if neg {
		i++
	}
	var whole int64
	n := 0
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		whole = whole*10 + int64(s[i]-'0')
		if n++; whole >= maxMicros {
			return 0, fmt.Errorf("%q microseconds is beyond ±292 years", s)
		}
	}
	if n == 0 {
		return 0, fmt.Errorf("%q is not a number of microseconds", s)
	}
	var frac int64
	if i < len(s) && s[i] == '.' {
		i++
		k := 0
		for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
			switch {
			case k < 3:
				frac = frac*10 + int64(s[i]-'0')
			case k == 3 && s[i] >= '5':
				frac++ // round half away from zero on the fourth decimal
			}
			k++
		}
		if k == 0 {
			return 0, fmt.Errorf("%q is not a number of microseconds", s)
		}
		for ; k < 3; k++ {
			frac *= 10
		}
	}
	if i != len(s) {
		return 0, fmt.Errorf("%q is not a number of microseconds", s)
	}
	ns := whole*1000 + frac
	if neg {
		ns = -ns
	}
	return ns, nil
}

func digits[T string | []byte](s T) bool {
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
