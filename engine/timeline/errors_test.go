package timeline

import (
	"io"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/trace"
)

const lanes = `{"ph":"M","name":"process_name","pid":1,"args":{"name":"/job:worker/replica:0/task:0/device:CPU:0 Compute"}},
{"ph":"M","name":"process_name","pid":2,"args":{"name":"/job:ps/replica:0/task:0/device:CPU:0 Compute"}},`

const recvA = `{"ph":"X","pid":1,"ts":0,"dur":1,"args":{"name":"a","op":"_Recv","bytes":4}}`

func doc(events ...string) string {
	return `{"traceEvents":[` + lanes + strings.Join(events, ",") + `]}`
}

func TestReadRejects(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, in, want string }{
		{"empty", ``, "f.json: byte 0: not a Chrome trace: unexpected end of input"},
		{"number", `42`, "not a Chrome trace: want an object or an array"},
		{"no events", `{"x":1}`, "no traceEvents array"},
		{"events not array", `{"traceEvents":{}}`, "traceEvents is not an array"},
		{"truncated", `{"traceEvents":[` + lanes + recvA, "unexpected end of input"},
		{"trailing", doc(recvA) + `{}`, "data after the end of the trace"},
		{"bad event", doc(recvA, `{"ph":1}`), "event 3 at byte"},
		{"bad ts", doc(`{"ph":"X","pid":1,"ts":"soon","dur":1,"args":{"name":"a","op":"_Recv","bytes":4}}`), "event 2 at byte"},
		{"no name", doc(`{"ph":"X","pid":1,"ts":0,"dur":1,"args":{"op":"_Recv","bytes":4}}`), "event 2 at byte 2"},
		{"name not string", doc(`{"ph":"X","pid":1,"ts":0,"dur":1,"args":{"name":3,"op":"_Recv"}}`), "args.name is not a string"},
		{"no op", doc(`{"ph":"X","pid":1,"ts":0,"dur":1,"args":{"name":"a"}}`), `op "a": missing args.op`},
		{"no dur", doc(`{"ph":"X","pid":1,"ts":0,"args":{"name":"a","op":"_Recv","bytes":4}}`), `op "a": missing ts or dur`},
		{"negative dur", doc(`{"ph":"X","pid":1,"ts":0,"dur":-1,"args":{"name":"a","op":"_Recv","bytes":4}}`), "negative dur -1000 ns"},
		{"no bytes", doc(`{"ph":"X","pid":1,"ts":0,"dur":1,"args":{"name":"a","op":"_Recv"}}`), `transfer "a": args.bytes: missing`},
		{"zero bytes", doc(`{"ph":"X","pid":1,"ts":0,"dur":1,"args":{"name":"a","op":"_Recv","bytes":0}}`), "0 is not a whole number of bytes > 0"},
		{"fractional bytes", doc(`{"ph":"X","pid":1,"ts":0,"dur":1,"args":{"name":"a","op":"_Recv","bytes":"1.5"}}`), "is not a whole number of bytes"},
		{"input not string", doc(`{"ph":"X","pid":1,"ts":0,"dur":1,"args":{"name":"a","op":"C","input0":7}}`), "args.input0 is not a string"},
		{"bad send_device", doc(`{"ph":"X","pid":1,"ts":0,"dur":1,"args":{"name":"a","op":"_Recv","bytes":4,"send_device":"/job:worker/replica:0/task:1"}}`), "is not a /job:ps/replica:R/task:K device"},
		{"unknown pid", doc(`{"ph":"X","pid":9,"ts":0,"dur":1,"args":{"name":"a","op":"_Recv","bytes":4}}`), "op on pid 9 before the process_name event"},
		{"two workers", doc(recvA, `{"ph":"M","name":"process_name","pid":7,"args":{"name":"/job:worker/replica:0/task:1/device:CPU:0 Compute"}}`,
			`{"ph":"X","pid":7,"ts":0,"dur":1,"args":{"name":"b","op":"C"}}`), "ops of worker tasks 0 and 1"},
		{"duplicate", doc(recvA, recvA), `event 3 at byte`},
		{"no downlink", doc(`{"ph":"X","pid":1,"ts":0,"dur":1,"args":{"name":"a","op":"C"}}`), "has no downlink"},
		{"no ops", doc(`{"ph":"X","pid":0,"ts":0,"dur":1}`), "no ops on a /job:worker or /job:ps Compute lane"},
		{"marker late", doc(recvA, `{"ph":"i","cat":"Step","ts":0}`), "first step marker after 1 ops"},
		{"empty marker", doc(`{"ph":"i","cat":"Step","ts":0}`, `{"ph":"i","cat":"Step","ts":5}`, recvA), "step marker at event 2 has no ops"},
		{"empty last marker", doc(`{"ph":"i","cat":"Step","ts":0}`, recvA, `{"ph":"i","cat":"Step","ts":5}`), "step marker at event 4 has no ops"},
		{"marker no ts", doc(`{"ph":"X","cat":"Step"}`), "step marker without ts"},
		{"before marker", doc(`{"ph":"i","cat":"Step","ts":5}`, recvA), `op "a" starts 5000 ns before its step marker`},
		{"cycle", doc(`{"ph":"X","pid":1,"ts":0,"dur":1,"args":{"name":"a","op":"_Recv","bytes":4,"input0":"b"}}`,
			`{"ph":"X","pid":1,"ts":0,"dur":1,"args":{"name":"b","op":"C","input0":"a"}}`), "dependency cycle"},
		{"structure", doc(`{"ph":"i","cat":"Step","ts":0}`, recvA, `{"ph":"i","cat":"Step","ts":5}`,
			`{"ph":"X","pid":1,"ts":5,"dur":1,"args":{"name":"b","op":"_Recv","bytes":4}}`), `step 1: op "b" is not in the first step`},
		{"op count", doc(`{"ph":"i","cat":"Step","ts":0}`, recvA, `{"ph":"i","cat":"Step","ts":5}`, strings.Replace(recvA, `"ts":0`, `"ts":5`, 1),
			`{"ph":"X","pid":1,"ts":5,"dur":1,"args":{"name":"b","op":"_Recv","bytes":4}}`), "step 1: 2 ops, the first step has 1"},
		{"other data", `{"otherData":{"batch":"x"},"traceEvents":[` + lanes + recvA + `]}`, "otherData"},
		{"negative meta", `{"otherData":{"bandwidth_bytes_per_s":-1},"traceEvents":[` + lanes + recvA + `]}`, "negative bandwidth"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			_, _, err := Read(strings.NewReader(c.in), "f.json", trace.Meta{})
			require.ErrorContains(t, err, c.want)
			require.Contains(t, err.Error(), "f.json")
		})
	}
}

func TestReadSeveralPS(t *testing.T) {
	t.Parallel()
	in := doc(`{"ph":"M","name":"process_name","pid":3,"args":{"name":"/job:ps/replica:0/task:1/device:CPU:0 Compute"}}`, recvA)
	_, _, err := Read(strings.NewReader(in), "f.json", trace.Meta{})
	require.ErrorContains(t, err, "no args.send_device and 2 PS lanes")
}

func TestEventReaderForms(t *testing.T) {
	t.Parallel()
	read := func(in string) ([]*Event, *EventReader, error) {
		r := NewEventReader(strings.NewReader(in), "e.json")
		var evs []*Event
		for {
			e, err := r.Next()
			if err == io.EOF {
				return evs, r, nil
			}
			if err != nil {
				return evs, r, err
			}
			c := *e // e is reused by the next call
			evs = append(evs, &c)
		}
	}
	evs, _, err := read(`[{"ph":"X","ts":1.5,"dur":2,"pid":"Spans","tid":3}]`)
	require.NoError(t, err)
	require.Len(t, evs, 1)
	require.Equal(t, Event{Ph: "X", Pid: `"Spans"`, Tid: "3", Ts: 1500, Dur: 2000, HasTs: true, HasDur: true, Offset: 1}, *evs[0])
	evs, _, err = read(`[{"ph":"M"},{"ph":"X"}`) // closing bracket is optional
	require.NoError(t, err)
	require.Len(t, evs, 2)
	require.Equal(t, []int{0, 1}, []int{evs[0].Index, evs[1].Index})
	require.Equal(t, []string{"M", "X"}, []string{evs[0].Ph, evs[1].Ph})
	_, _, err = read(`[{"ph":"M"}] x`)
	require.ErrorContains(t, err, "data after the end of the event array")
	evs, r, err := read(`{"a":[1],"traceEvents":[],"distributedInfo":{"rank":3}}`)
	require.NoError(t, err)
	require.Empty(t, evs)
	require.JSONEq(t, `[1]`, string(r.Top("a")))
	require.JSONEq(t, `{"rank":3}`, string(r.Top("distributedInfo")))
	_, _, err = read(`{"traceEvents":[],"traceEvents":[]}`)
	require.ErrorContains(t, err, "second traceEvents")
}

func TestMicrosToNanos(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]int64{
		"0": 0, "1": 1000, "1.5": 1500, "1.25": 1250, "1682725898236567": 1682725898236567000,
		"0.001": 1, "0.0004": 0, "0.0005": 1, "2.9999": 3000, "-1.5": -1500, "1e3": 1000000, "1.5E-3": 2,
	} {
		got, err := MicrosToNanos(in)
		require.NoError(t, err, in)
		require.Equal(t, want, got, in)
	}
	for _, in := range []string{"", "-", ".5", "1.", "1x", "1e400", "NaN", "9223372036854776", "1..2"} {
		_, err := MicrosToNanos(in)
		require.Error(t, err, in)
	}
	// appendMicros is the exact inverse on non-negative nanoseconds.
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 2000; i++ {
		ns := rng.Int64N(math.MaxInt64 / 1000 * 999)
		if i%3 == 0 {
			ns = rng.Int64N(5000)
		}
		txt := string(appendMicros(nil, ns))
		got, err := MicrosToNanos(txt)
		require.NoError(t, err, txt)
		require.Equal(t, ns, got, txt)
	}
	require.Equal(t, "1.02", string(appendMicros(nil, 1020)))
	require.Equal(t, "-0.5", string(appendMicros(nil, -500)))
	require.Equal(t, "7", strconv.Quote("7")[1:2])
}
