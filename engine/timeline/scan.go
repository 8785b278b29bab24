package timeline

import (
	"errors"
	"fmt"
)

// A hand-written JSON validator: encoding/json's Decoder scans every raw
// value twice, and the importer spends most of its time there. scanValue
// checks the JSON grammar (RFC 8259: no trailing commas, no leading
// zeros, escapes and control characters in strings) in one pass.

// maxDepth bounds the nesting of arrays and objects in one event.
const maxDepth = 1000

// errShort means the value runs past the end of the buffer.
var errShort = errors.New("short buffer")

// syntaxError is a JSON syntax error at an offset in the scanned slice.
type syntaxError struct {
	at  int
	msg string
}

func (e *syntaxError) Error() string { return e.msg }

func bad(at int, format string, args ...any) error {
	return &syntaxError{at: at, msg: fmt.Sprintf(format, args...)}
}

// scanValue returns the index after the JSON value that starts at b[i]
// (after optional white space).
func scanValue(b []byte, i, depth int) (int, error) {
	i = skipSpace(b, i)
	if i >= len(b) {
		return 0, errShort
	}
	switch c := b[i]; {
	case c == '{' || c == '[':
		return scanComposite(b, i, depth)
	case c == '"':
		return scanString(b, i)
	case c == '-' || (c >= '0' && c <= '9'):
		return scanNumber(b, i)
	case c == 't':
		return scanLiteral(b, i, "true")
	case c == 'f':
		return scanLiteral(b, i, "false")
	case c == 'n':
		return scanLiteral(b, i, "null")
	}
	return 0, bad(i, "invalid character %q looking for a value", b[i])
}

func scanComposite(b []byte, i, depth int) (int, error) {
	if depth >= maxDepth {
		return 0, bad(i, "nesting deeper than %d", maxDepth)
	}
	open, close := b[i], byte(']')
	if open == '{' {
		close = '}'
	}
	i = skipSpace(b, i+1)
	if i >= len(b) {
		return 0, errShort
	}
	if b[i] == close {
		return i + 1, nil
	}
	for {
		var err error
		if open == '{' {
			if b[i] != '"' {
				return 0, bad(i, "invalid character %q looking for an object key", b[i])
			}
			if i, err = scanString(b, i); err != nil {
				return 0, err
			}
			i = skipSpace(b, i)
			if i >= len(b) {
				return 0, errShort
			}
			if b[i] != ':' {
				return 0, bad(i, "invalid character %q after object key", b[i])
			}
			i++
		}
		if i, err = scanValue(b, i, depth+1); err != nil {
			return 0, err
		}
		i = skipSpace(b, i)
		if i >= len(b) {
			return 0, errShort
		}
		switch b[i] {
		case close:
			return i + 1, nil
		case ',':
			i = skipSpace(b, i+1)
			if i >= len(b) {
				return 0, errShort
			}
			if b[i] == close {
				return 0, bad(i, "trailing comma")
			}
		default:
			return 0, bad(i, "invalid character %q after a value (want ',' or %q)", b[i], close)
		}
	}
}

func scanString(b []byte, i int) (int, error) {
	for i++; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"':
			return i + 1, nil
		case c < 0x20:
			return 0, bad(i, "control character %#02x in string", c)
		case c == '\\':
			i++
			if i >= len(b) {
				return 0, errShort
			}
			switch b[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				for k := 1; k <= 4; k++ {
					if i+k >= len(b) {
						return 0, errShort
					}
					if !isHex(b[i+k]) {
						return 0, bad(i+k, "invalid \\u escape")
					}
				}
				i += 4
			default:
				return 0, bad(i, "invalid escape \\%c", b[i])
			}
		}
	}
	return 0, errShort
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

func scanNumber(b []byte, i int) (int, error) {
	start := i
	if b[i] == '-' {
		i++
	}
	digitsFrom := func(j int) (int, error) {
		k := j
		for k < len(b) && b[k] >= '0' && b[k] <= '9' {
			k++
		}
		if k == len(b) {
			return 0, errShort
		}
		if k == j {
			return 0, bad(k, "invalid number %q", b[start:k+1])
		}
		return k, nil
	}
	if i >= len(b) {
		return 0, errShort
	}
	if b[i] == '0' {
		i++
		if i >= len(b) {
			return 0, errShort
		}
	} else {
		var err error
		if i, err = digitsFrom(i); err != nil {
			return 0, err
		}
	}
	if b[i] == '.' {
		var err error
		if i, err = digitsFrom(i + 1); err != nil {
			return 0, err
		}
	}
	if b[i] == 'e' || b[i] == 'E' {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		var err error
		if i, err = digitsFrom(i); err != nil {
			return 0, err
		}
	}
	return i, nil
}

func scanLiteral(b []byte, i int, lit string) (int, error) {
	for k := 0; k < len(lit); k++ {
		if i+k >= len(b) {
			return 0, errShort
		}
		if b[i+k] != lit[k] {
			return 0, bad(i+k, "invalid character %q in literal %s", b[i+k], lit)
		}
	}
	return i + len(lit), nil
}
