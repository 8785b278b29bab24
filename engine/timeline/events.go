package timeline

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Event is one Chrome trace event as read by EventReader. Times are in
// nanoseconds, converted exactly from the file's decimal microseconds.
type Event struct {
	Ph   string // phase: "X" complete, "M" metadata, "s"/"t" flow, "i" instant...
	Cat  string // category, e.g. "Op", "kernel", "cpu_op"; may be empty
	Name string
	// Pid and Tid are the JSON text of the process and thread ids (numbers
	// or strings), usable as map keys: `4037`, `"Spans"`.
	Pid, Tid string
	// Ts and Dur are the start and duration in nanoseconds; HasTs and
	// HasDur say whether the event had them.
	Ts, Dur       int64
	HasTs, HasDur bool
	// Args holds the raw JSON of each argument.
	Args map[string]json.RawMessage
	// Index is the event's position in traceEvents (0-based) and Offset
	// the byte offset in the input where it starts.
	Index  int
	Offset int64
}

// rawEvent is the JSON form of an event.
type rawEvent struct {
	Ph   string                     `json:"ph"`
	Cat  string                     `json:"cat"`
	Name string                     `json:"name"`
	Pid  json.RawMessage            `json:"pid"`
	Tid  json.RawMessage            `json:"tid"`
	Ts   json.Number                `json:"ts"`
	Dur  json.Number                `json:"dur"`
	Args map[string]json.RawMessage `json:"args"`
}

// EventReader streams the events of a Chrome trace (a JSON object with a
// "traceEvents" array, or a bare array of events) one at a time: memory
// is bounded by the largest single event, never by the file. Top-level
// keys other than traceEvents (otherData, distributedInfo...) are kept as
// raw JSON and available from Top once read.
type EventReader struct {
	name  string
	dec   *json.Decoder
	state int // 0 start, 1 in events, 2 after events (object), 3 done
	bare  bool
	index int
	top   map[string]json.RawMessage
}

// NewEventReader returns a reader of the trace in r; name is used in
// errors.
func NewEventReader(r io.Reader, name string) *EventReader {
	dec := json.NewDecoder(bufio.NewReaderSize(r, 1<<16))
	return &EventReader{name: name, dec: dec, top: map[string]json.RawMessage{}}
}

// Top returns the raw JSON of a top-level key, or nil if it has not been
// read (keys after traceEvents are available once Next returned io.EOF).
func (r *EventReader) Top(key string) json.RawMessage { return r.top[key] }

// Events returns the number of events read so far.
func (r *EventReader) Events() int { return r.index }

// Offset returns the number of input bytes consumed so far.
func (r *EventReader) Offset() int64 { return r.dec.InputOffset() }

// errorf formats an error at the current position.
func (r *EventReader) errorf(format string, args ...any) error {
	return fmt.Errorf("%s: byte %d: %s", r.name, r.dec.InputOffset(), fmt.Sprintf(format, args...))
}

// Next returns the next event, or io.EOF after the last one (and after the
// rest of the top-level object has been read and checked). Errors name the
// file, the event index and the byte offset.
func (r *EventReader) Next() (*Event, error) {
	if err := r.advance(); err != nil {
		return nil, err
	}
	if r.state != 1 {
		return nil, io.EOF
	}
	off := r.dec.InputOffset()
	var raw rawEvent
	if err := r.dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("%s: event %d at byte %d: %v", r.name, r.index, off, jsonError(err))
	}
	ev := &Event{Ph: raw.Ph, Cat: raw.Cat, Name: raw.Name, Pid: string(raw.Pid), Tid: string(raw.Tid),
		Args: raw.Args, Index: r.index, Offset: off}
	r.index++
	var err error
	if raw.Ts != "" {
		if ev.Ts, err = MicrosToNanos(string(raw.Ts)); err != nil {
			return nil, fmt.Errorf("%s: event %d at byte %d: ts: %v", r.name, ev.Index, off, err)
		}
		ev.HasTs = true
	}
	if raw.Dur != "" {
		if ev.Dur, err = MicrosToNanos(string(raw.Dur)); err != nil {
			return nil, fmt.Errorf("%s: event %d at byte %d: dur: %v", r.name, ev.Index, off, err)
		}
		ev.HasDur = true
	}
	return ev, nil
}

// advance moves the decoder to the next event, or to the end.
func (r *EventReader) advance() error {
	for {
		switch r.state {
		case 0:
			tok, err := r.dec.Token()
			if err != nil {
				return r.errorf("not a Chrome trace: %v", jsonError(err))
			}
			switch tok {
			case json.Delim('['):
				r.bare, r.state = true, 1
			case json.Delim('{'):
				if err := r.readKeys(true); err != nil {
					return err
				}
			default:
				return r.errorf("not a Chrome trace: want an object or an array, got %v", tok)
			}
		case 1:
			if r.dec.More() {
				return nil
			}
			_, err := r.dec.Token() // ']'
			if r.bare {
				// The array form may omit its closing bracket (Trace Event
				// Format); anything else after the array is an error.
				if err == nil {
					_, err = r.dec.Token()
				}
				if !errors.Is(err, io.EOF) {
					return r.errorf("data after the end of the event array")
				}
				r.state = 3
				continue
			}
			if err != nil {
				return r.errorf("%v", jsonError(err))
			}
			r.state = 2
		case 2:
			if err := r.readKeys(false); err != nil {
				return err
			}
		case 3:
			return nil
		}
	}
}

// readKeys reads top-level keys until traceEvents (if want) or the end of
// the object.
func (r *EventReader) readKeys(want bool) error {
	for r.dec.More() {
		tok, err := r.dec.Token()
		if err != nil {
			return r.errorf("%v", jsonError(err))
		}
		key, ok := tok.(string)
		if !ok {
			return r.errorf("want an object key, got %v", tok)
		}
		if key == "traceEvents" {
			if !want {
				return r.errorf("second traceEvents array")
			}
			t, err := r.dec.Token()
			if err != nil || t != json.Delim('[') {
				return r.errorf("traceEvents is not an array")
			}
			r.state = 1
			return nil
		}
		var v json.RawMessage
		if err := r.dec.Decode(&v); err != nil {
			return r.errorf("top-level key %q: %v", key, jsonError(err))
		}
		r.top[key] = v
	}
	if _, err := r.dec.Token(); err != nil { // '}'
		return r.errorf("%v", jsonError(err))
	}
	if want {
		return r.errorf("no traceEvents array")
	}
	if _, err := r.dec.Token(); !errors.Is(err, io.EOF) {
		return r.errorf("data after the end of the trace")
	}
	r.state = 3
	return nil
}

// jsonError shortens encoding/json errors; an unexpected EOF is named.
func jsonError(err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return errors.New("unexpected end of input (truncated file?)")
	}
	return err
}
