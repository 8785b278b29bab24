package timeline

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
)

// EventReader streams the events of a Chrome trace (a JSON object with a
// "traceEvents" array, or a bare array of events) one at a time: memory
// is bounded by the largest single event, never by the file. Each event
// is checked against the JSON grammar by a one-pass validator and its
// fields are picked from its bytes without building a map. Top-level keys
// other than traceEvents (otherData, distributedInfo...) are kept as raw
// JSON.
//
// A value is scanned once however many reads it takes (the scanner
// resumes where the last read ended), so reading is linear in the input.
// A value longer than MaxValueBytes, or an input (after decompression)
// longer than MaxStreamBytes, is refused with a *LimitError naming the
// cap and the offset.
type EventReader struct {
	name   string
	src    io.Reader
	buf    []byte // buf[pos:] is unread input
	pos    int
	base   int64 // input offset of buf[0]
	eof    bool
	rerr   error
	state  int // 0 start, 1 in events, 2 after events (object), 3 done
	bare   bool
	first  bool // no event read yet in the array
	index  int
	top    map[string]json.RawMessage
	ev     Event
	args   []Arg
	intern map[string]string
	sc     scanner
	// maxValue and maxStream are MaxValueBytes and MaxStreamBytes (tests
	// lower them).
	maxValue  int
	maxStream int64
	// scanned counts the bytes the scanner examined, the work of reading
	// values (TestLargeValueLinearWork): each scan call starts where the
	// last one stopped.
	scanned int64
}

// minRead is the initial buffer size and the least room a read is given.
const minRead = 1 << 16

// NewEventReader returns a reader of the trace in r; name is used in
// errors.
func NewEventReader(r io.Reader, name string) *EventReader {
	return &EventReader{name: name, src: r, buf: make([]byte, 0, minRead),
		top: map[string]json.RawMessage{}, intern: map[string]string{},
		maxValue: MaxValueBytes, maxStream: MaxStreamBytes}
}

// Top returns the raw JSON of a top-level key, or nil if it has not been
// read (keys after traceEvents are available once Next returned io.EOF).
func (r *EventReader) Top(key string) json.RawMessage { return r.top[key] }

// Events returns the number of events read so far.
func (r *EventReader) Events() int { return r.index }

// offset returns the input offset of buf[i].
func (r *EventReader) offset(i int) int64 { return r.base + int64(i) }

// posError is an error at an input offset.
type posError struct {
	name string
	off  int64
	msg  string
}

func (e *posError) Error() string { return fmt.Sprintf("%s: byte %d: %s", e.name, e.off, e.msg) }

// errorf formats an error at input offset off.
func (r *EventReader) errorf(off int64, format string, args ...any) error {
	return &posError{name: r.name, off: off, msg: fmt.Sprintf(format, args...)}
}

// fill reads more input, keeping buf[pos:]; it returns false at the end
// of the input, or once the input passed maxStream bytes (then rerr is a
// *LimitError and buf holds the input up to the cap).
func (r *EventReader) fill() bool {
	if r.eof {
		return false
	}
	if r.pos > 0 {
		n := copy(r.buf, r.buf[r.pos:])
		r.base += int64(r.pos)
		r.buf, r.pos = r.buf[:n], 0
	}
	if cap(r.buf)-len(r.buf) < minRead/2 {
		// Double the buffer, but not much beyond the largest value it
		// must hold (a value over maxValue is refused).
		grow := max(len(r.buf), minRead)
		if room := r.maxValue + minRead - len(r.buf); grow > room {
			grow = max(room, minRead)
		}
		r.buf = slices.Grow(r.buf, grow)
	}
	for {
		// Read at most one byte past the stream cap, to see it passed.
		p := r.buf[len(r.buf):cap(r.buf)]
		if room := r.maxStream + 1 - r.offset(len(r.buf)); int64(len(p)) > room {
			p = p[:room]
		}
		n, err := r.src.Read(p)
		r.buf = r.buf[:len(r.buf)+n]
		if over := r.offset(len(r.buf)) - r.maxStream; over > 0 {
			r.buf = r.buf[:len(r.buf)-int(over)]
			r.eof = true
			r.rerr = &LimitError{Cap: "MaxStreamBytes", Limit: r.maxStream, Offset: r.maxStream}
			return n > int(over)
		}
		if err != nil {
			r.eof = true
			if !errors.Is(err, io.EOF) {
				r.rerr = err
			}
			return n > 0
		}
		if n > 0 {
			return true
		}
	}
}

// peek skips white space and returns the next byte; ok is false at the
// end of the input.
func (r *EventReader) peek() (byte, bool) {
	for {
		r.pos = skipSpace(r.buf, r.pos)
		if r.pos < len(r.buf) {
			return r.buf[r.pos], true
		}
		if !r.fill() {
			return 0, false
		}
	}
}

// value scans the JSON value at the read position and returns its bytes
// (valid until the next read) and input offset. The scanner resumes
// after each fill where it stopped: every byte is examined once.
func (r *EventReader) value() ([]byte, int64, error) {
	if _, ok := r.peek(); !ok {
		return nil, r.offset(r.pos), r.truncated()
	}
	r.sc.reset()
	done := 0 // bytes of the value scanned
	for {
		// One byte past maxValue ends a number of maxValue bytes.
		v := r.buf[r.pos:min(len(r.buf), r.pos+r.maxValue+1)]
		end, err := r.sc.scan(v, done)
		r.scanned += int64(end - done)
		done = end
		switch {
		case err == nil && end <= r.maxValue:
			r.pos += end
			return v[:end], r.offset(r.pos - end), nil
		case err == nil || done > r.maxValue:
			return nil, r.offset(r.pos), fmt.Errorf("%s: %w", r.name,
				&LimitError{Cap: "MaxValueBytes", Limit: int64(r.maxValue), Offset: r.offset(r.pos)})
		case err != errShort:
			se := err.(*syntaxError)
			return nil, r.offset(r.pos), r.errorf(r.offset(r.pos+se.at), "%s", se.msg)
		}
		if !r.fill() {
			return nil, r.offset(r.pos), r.truncated()
		}
	}
}

func (r *EventReader) truncated() error {
	if le, ok := r.rerr.(*LimitError); ok {
		return fmt.Errorf("%s: %w", r.name, le)
	}
	if r.rerr != nil {
		return fmt.Errorf("%s: byte %d: %w", r.name, r.offset(len(r.buf)), r.rerr)
	}
	return r.errorf(r.offset(len(r.buf)), "unexpected end of input (truncated file?)")
}

// expect consumes the byte c after white space.
func (r *EventReader) expect(c byte, what string) error {
	got, ok := r.peek()
	if !ok {
		return r.truncated()
	}
	if got != c {
		return r.errorf(r.offset(r.pos), "invalid character %q, want %s", got, what)
	}
	r.pos++
	return nil
}

// Next returns the next event, or io.EOF after the last one (and after the
// rest of the top-level object has been read and checked). Errors name the
// file, the event index and the byte offset. The event is overwritten by
// the next call.
func (r *EventReader) Next() (*Event, error) {
	if err := r.advance(); err != nil {
		return nil, err
	}
	if r.state != 1 {
		return nil, io.EOF
	}
	raw, off, err := r.value()
	if err != nil {
		var pe *posError
		var le *LimitError
		switch {
		case errors.As(err, &pe):
			return nil, fmt.Errorf("%s: event %d at byte %d: %s (at byte %d)", r.name, r.index, off, pe.msg, pe.off)
		case errors.As(err, &le):
			return nil, fmt.Errorf("%s: event %d: %w", r.name, r.index, le)
		}
		return nil, err
	}
	r.ev = Event{Index: r.index, Offset: off, Args: r.args[:0]}
	r.index++
	if err := r.fields(raw, &r.ev); err != nil {
		return nil, fmt.Errorf("%s: event %d at byte %d: %v", r.name, r.ev.Index, off, err)
	}
	r.args = r.ev.Args
	return &r.ev, nil
}

// advance moves to the next event of the array, or to the end.
func (r *EventReader) advance() error {
	for {
		switch r.state {
		case 0:
			c, ok := r.peek()
			switch {
			case !ok && r.rerr != nil:
				return r.truncated()
			case !ok:
				return r.errorf(0, "not a Chrome trace: unexpected end of input (empty file?)")
			case c == '[':
				r.pos++
				r.bare, r.state, r.first = true, 1, true
			case c == '{':
				r.pos++
				if err := r.readKeys(true); err != nil {
					return err
				}
			default:
				return r.errorf(r.offset(r.pos), "not a Chrome trace: want an object or an array, got %q", c)
			}
		case 1:
			c, ok := r.peek()
			if !ok {
				if r.bare && r.rerr == nil {
					// The array form may omit its closing bracket (Trace
					// Event Format).
					r.state = 3
					continue
				}
				return r.truncated()
			}
			switch {
			case c == ']':
				r.pos++
				if r.bare {
					if _, more := r.peek(); more {
						return r.errorf(r.offset(r.pos), "data after the end of the event array")
					}
					if r.rerr != nil {
						return r.truncated()
					}
					r.state = 3
					continue
				}
				r.state = 2
				if err := r.readKeys(false); err != nil {
					return err
				}
			case r.first:
				r.first = false
				return nil
			case c == ',':
				r.pos++
				if c, ok := r.peek(); ok && c == ']' {
					return r.errorf(r.offset(r.pos), "trailing comma in traceEvents")
				}
				return nil
			default:
				return r.errorf(r.offset(r.pos), "invalid character %q after event %d (want ',' or ']')", c, r.index-1)
			}
		case 2, 3:
			return nil
		}
	}
}

// readKeys reads top-level members until traceEvents (if want) or the end
// of the object; after the object only white space may follow.
func (r *EventReader) readKeys(want bool) error {
	firstKey := want
	for {
		c, ok := r.peek()
		if !ok {
			return r.truncated()
		}
		if c == '}' {
			r.pos++
			if want {
				return r.errorf(r.offset(r.pos), "no traceEvents array")
			}
			if _, more := r.peek(); more {
				return r.errorf(r.offset(r.pos), "data after the end of the trace")
			}
			if r.rerr != nil {
				return r.truncated()
			}
			r.state = 3
			return nil
		}
		if !firstKey {
			if err := r.expect(',', "',' or '}' between top-level keys"); err != nil {
				return err
			}
		}
		firstKey = false
		rawKey, off, err := r.value()
		if err != nil {
			return err
		}
		if len(rawKey) == 0 || rawKey[0] != '"' {
			return r.errorf(off, "want a top-level key, got %.20q", rawKey)
		}
		key, err := unquote(rawKey)
		if err != nil {
			return r.errorf(off, "bad key: %v", err)
		}
		if err := r.expect(':', "':' after a top-level key"); err != nil {
			return err
		}
		if key == "traceEvents" {
			if !want {
				return r.errorf(off, "second traceEvents array")
			}
			if err := r.expect('[', "traceEvents to be an array"); err != nil {
				return fmt.Errorf("traceEvents is not an array: %w", err)
			}
			r.state, r.first = 1, true
			return nil
		}
		v, _, err := r.value()
		if err != nil {
			return fmt.Errorf("top-level key %q: %w", key, err)
		}
		r.top[key] = append(json.RawMessage(nil), v...)
	}
}
