package timeline

import (
	"errors"
	"fmt"
)

// Event is one Chrome trace event as read by EventReader. Times are in
// nanoseconds, converted exactly from the file's decimal microseconds.
// An Event and the bytes it points to are valid until the next call of
// EventReader.Next.
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
	// Args are the members of the event's "args" object, in file order.
	Args []Arg
	// Index is the event's position in traceEvents (0-based) and Offset
	// the byte offset in the input where it starts.
	Index  int
	Offset int64
}

// Arg is one member of an event's args: its key and raw JSON value.
type Arg struct {
	Key   []byte // unescaped key
	Value []byte // raw JSON value
}

// Arg returns the raw JSON value of args[key] and whether it exists.
func (e *Event) Arg(key string) ([]byte, bool) {
	for i := range e.Args {
		if string(e.Args[i].Key) == key {
			return e.Args[i].Value, true
		}
	}
	return nil, false
}

// ArgString returns args[key] as a string; ok is false if it is absent,
// and err is set if it is not a JSON string.
func (e *Event) ArgString(key string) (s string, ok bool, err error) {
	raw, ok := e.Arg(key)
	if !ok {
		return "", false, nil
	}
	s, err = unquote(raw)
	if err != nil {
		return "", true, fmt.Errorf("args.%s is not a string", key)
	}
	return s, true, nil
}

// fields fills e from the raw JSON of one event (already validated by the
// decoder).
func (r *EventReader) fields(b []byte, e *Event) error {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return errors.New("event is not a JSON object")
	}
	return members(b, i, func(key, val []byte) error {
		var err error
		switch string(key) {
		case "ph":
			e.Ph, err = r.str(val, "ph")
		case "cat":
			e.Cat, err = r.str(val, "cat")
		case "name":
			if e.Name, err = unquote(val); err != nil {
				err = errors.New("name is not a string")
			}
		case "pid":
			e.Pid = r.internBytes(val)
		case "tid":
			e.Tid = r.internBytes(val)
		case "ts":
			e.Ts, err = micros(val)
			e.HasTs = true
			if err != nil {
				err = fmt.Errorf("ts: %v", err)
			}
		case "dur":
			e.Dur, err = micros(val)
			e.HasDur = true
			if err != nil {
				err = fmt.Errorf("dur: %v", err)
			}
		case "args":
			if len(val) == 0 || val[0] != '{' {
				return errors.New("args is not an object")
			}
			return members(val, 0, func(k, v []byte) error {
				e.Args = append(e.Args, Arg{Key: k, Value: v})
				return nil
			})
		}
		return err
	})
}

// str returns a short string field, interned.
func (r *EventReader) str(val []byte, field string) (string, error) {
	if len(val) < 2 || val[0] != '"' {
		return "", fmt.Errorf("%s is not a string", field)
	}
	if !hasEscape(val) {
		return r.internBytes(val[1 : len(val)-1]), nil
	}
	return unquote(val)
}

// internBytes returns a string equal to b, shared between events (pids,
// tids, phases and categories repeat).
func (r *EventReader) internBytes(b []byte) string {
	if s, ok := r.intern[string(b)]; ok {
		return s
	}
	s := string(b)
	if len(r.intern) < 1<<16 {
		r.intern[s] = s
	}
	return s
}

// micros converts a JSON number, or a string holding one, of microseconds.
func micros(val []byte) (int64, error) {
	if len(val) > 0 && val[0] == '"' {
		s, err := unquote(val)
		if err != nil {
			return 0, err
		}
		return MicrosToNanos(s)
	}
	return microsToNanos(val)
}
