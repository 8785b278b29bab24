package timeline

import (
	"errors"
	"fmt"
)

// A hand-written JSON validator: encoding/json's Decoder scans every raw
// value twice, and the importer spends most of its time there. scanner
// checks the JSON grammar (RFC 8259: no trailing commas, no leading
// zeros, escapes and control characters in strings) in one pass, and is
// resumable: when a value runs past the end of the buffer it keeps its
// state (open containers, position in a string, number or literal) and
// the next call continues from the byte where it stopped, so a value
// read in many pieces is still examined once (a value of n bytes read in
// k pieces costs O(n), not O(n·k): issue 28).

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

// Scanner states: what the next byte may be.
const (
	sValue     = iota // a value, after optional white space
	sNext             // a value after ',' in an array (not ']')
	sKey              // a key after ',' in an object (not '}')
	sFirst            // after '{' or '[': the first key or value, or the close
	sColon            // after an object key
	sAfter            // after a value in a container: ',' or the close
	sString           // in a string
	sEscape           // after a backslash in a string
	sUnicode          // in a \u escape, hex digits left in n
	sLiteral          // in true, false or null; lit[n:] left
	sNeg              // after a number's '-'
	sZero             // after a leading 0
	sInt              // in the integer digits
	sDot              // after the '.'
	sFrac             // in the fraction digits
	sExp              // after the 'e'
	sExpSign          // after the exponent's sign
	sExpDigits        // in the exponent digits
)

// scanner validates one JSON value given in growing prefixes: scan(b, i)
// continues from b[i], where the previous call on a shorter prefix of
// the same value stopped. Offsets are indices in b, which starts where
// the value (or white space before it) starts; reset before a new value.
type scanner struct {
	state int
	key   bool   // the string being scanned is an object key
	n     int    // \u hex digits left, or literal bytes matched
	lit   string // the literal being matched
	num   int    // index of the number being scanned
	stack []byte // the closing bytes of the open containers, '}' or ']'
}

func (s *scanner) reset() {
	s.state, s.key, s.stack = sValue, false, s.stack[:0]
}

// plain[c] is whether c stands for itself in a JSON string (not '"',
// '\\' or a control character).
var plain = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isHex(c byte) bool {
	return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// scanValue returns the index after the JSON value that starts at b[i]
// (after optional white space), errShort if b ends inside it.
func scanValue(b []byte, i int) (int, error) {
	var s scanner
	return s.scan(b, i)
}

// scan continues the value from b[i]. It returns the index after the
// value; or len(b) and errShort if b ends before the value does (call
// again with a longer b and that index); or a *syntaxError and the index
// of the offending byte. The control flow follows the grammar, as a
// recursive-descent scanner would (the open containers are on s.stack):
// the saved state is only consulted on entry, to resume.
func (s *scanner) scan(b []byte, i int) (int, error) {
	st, stack := s.state, s.stack
	var c byte
	switch st {
	case sValue, sNext:
		goto value
	case sKey:
		goto key
	case sFirst:
		goto first
	case sColon:
		goto colon
	case sAfter:
		goto after
	case sString, sEscape, sUnicode:
		goto str
	case sLiteral:
		goto literal
	default:
		goto number
	}

value: // a value, after white space (st is sValue or sNext)
	if i = skipSpace(b, i); i == len(b) {
		goto short
	}
	switch c = b[i]; {
	case c == '"':
		st, s.key = sString, false
		i++
		goto str
	case c >= '1' && c <= '9':
		st, s.num = sInt, i
	case c == '{' || c == '[':
		if len(stack) >= maxDepth {
			return s.fail(st, stack, bad(i, "nesting deeper than %d", maxDepth))
		}
		stack = append(stack, c+2) // '}' or ']'
		st = sFirst
		i++
		goto first
	case c == '-':
		st, s.num = sNeg, i
	case c == '0':
		st, s.num = sZero, i
	case c == 't':
		st, s.n, s.lit = sLiteral, 0, "true"
		goto literal
	case c == 'f':
		st, s.n, s.lit = sLiteral, 0, "false"
		goto literal
	case c == 'n':
		st, s.n, s.lit = sLiteral, 0, "null"
		goto literal
	case c == ']' && st == sNext:
		return s.fail(st, stack, bad(i, "trailing comma"))
	default:
		return s.fail(st, stack, bad(i, "invalid character %q looking for a value", c))
	}
	i++ // the number's first byte

number: // in a number; b[i] may end it
	for i < len(b) {
		if st == sInt || st == sFrac || st == sExpDigits {
			for i < len(b) && isDigit(b[i]) {
				i++
			}
			if i == len(b) {
				break
			}
		}
		var more bool
		var err error
		if st, more, err = s.number(b, i, st); err != nil {
			return s.fail(st, stack, err)
		}
		if !more {
			goto ended
		}
		i++
	}
	goto short

literal: // in true, false or null
	for ; s.n < len(s.lit); s.n++ {
		if i == len(b) {
			goto short
		}
		if b[i] != s.lit[s.n] {
			return s.fail(st, stack, bad(i, "invalid character %q in literal %s", b[i], s.lit))
		}
		i++
	}
	goto ended

first: // after '{' or '[': the close, the first key or the first value
	if i = skipSpace(b, i); i == len(b) {
		goto short
	}
	if b[i] == stack[len(stack)-1] {
		stack = stack[:len(stack)-1]
		i++
		goto ended
	}
	if stack[len(stack)-1] == ']' {
		st = sValue
		goto value
	}
	goto keyStart

key: // a key after ',' in an object
	if i = skipSpace(b, i); i == len(b) {
		goto short
	}
	if b[i] == '}' {
		return s.fail(st, stack, bad(i, "trailing comma"))
	}

keyStart:
	if b[i] != '"' {
		return s.fail(st, stack, bad(i, "invalid character %q looking for an object key", b[i]))
	}
	st, s.key = sString, true
	i++

str: // in a string (st is sString, sEscape or sUnicode)
	for {
		if st == sString {
			for i < len(b) && plain[b[i]] {
				i++
			}
			if i == len(b) {
				goto short
			}
			c = b[i]
			i++
			if c == '"' {
				break
			}
			if c != '\\' {
				return s.fail(st, stack, bad(i-1, "control character %#02x in string", c))
			}
			st = sEscape
		}
		if i == len(b) {
			goto short
		}
		c = b[i]
		if st == sEscape {
			switch c {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				st = sString
			case 'u':
				st, s.n = sUnicode, 4
			default:
				return s.fail(st, stack, bad(i, "invalid escape \\%c", c))
			}
		} else {
			if !isHex(c) {
				return s.fail(st, stack, bad(i, "invalid \\u escape"))
			}
			if s.n--; s.n == 0 {
				st = sString
			}
		}
		i++
	}
	if !s.key {
		goto ended
	}
	st = sColon

colon: // after an object key
	if i = skipSpace(b, i); i == len(b) {
		goto short
	}
	if b[i] != ':' {
		return s.fail(st, stack, bad(i, "invalid character %q after object key", b[i]))
	}
	i++
	st = sValue
	goto value

ended: // a value ended before b[i]
	if len(stack) == 0 {
		s.state, s.stack = sValue, stack
		return i, nil
	}
	st = sAfter

after: // after a value in a container: ',' or the close
	if i = skipSpace(b, i); i == len(b) {
		goto short
	}
	switch c = b[i]; c {
	case ',':
		i++
		if stack[len(stack)-1] == '}' {
			st = sKey
			goto key
		}
		st = sNext
		goto value
	case stack[len(stack)-1]:
		stack = stack[:len(stack)-1]
		i++
		goto ended
	}
	return s.fail(st, stack, bad(i, "invalid character %q after a value (want ',' or %q)", c, stack[len(stack)-1]))

short:
	s.state, s.stack = st, stack
	return i, errShort
}

// fail stores the state and returns a syntax error and its index.
func (s *scanner) fail(st int, stack []byte, err error) (int, error) {
	s.state, s.stack = st, stack
	return err.(*syntaxError).at, err
}

// number handles b[i] in a number state: more is false if the number
// ended before b[i].
func (s *scanner) number(b []byte, i, st int) (int, bool, error) {
	c := b[i]
	switch st {
	case sInt, sFrac, sExpDigits:
		if isDigit(c) {
			return st, true, nil
		}
		switch {
		case c == '.' && st == sInt:
			st = sDot
		case (c == 'e' || c == 'E') && st != sExpDigits:
			st = sExp
		default:
			return st, false, nil
		}
	case sZero, sNeg:
		switch {
		case c == '.' && st == sZero:
			st = sDot
		case (c == 'e' || c == 'E') && st == sZero:
			st = sExp
		case st == sZero:
			return st, false, nil
		case c == '0':
			st = sZero
		case isDigit(c):
			st = sInt
		default:
			return st, false, bad(i, "invalid number %q", b[s.num:i+1])
		}
	case sExp:
		switch {
		case c == '+' || c == '-':
			st = sExpSign
		case isDigit(c):
			st = sExpDigits
		default:
			return st, false, bad(i, "invalid number %q", b[s.num:i+1])
		}
	case sDot, sExpSign:
		if !isDigit(c) {
			return st, false, bad(i, "invalid number %q", b[s.num:i+1])
		}
		st++ // sFrac, sExpDigits
	}
	return st, true, nil
}
