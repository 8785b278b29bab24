package timeline

import (
	"bytes"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/trace"
	"pslab/engine/zoo"
)

// nilDeps makes empty dependency lists nil: a timeline cannot tell them
// apart (neither can dataset.Read).
func nilDeps(tr *trace.Trace) *trace.Trace {
	for s := range tr.Steps {
		for i := range tr.Steps[s].Ops {
			if len(tr.Steps[s].Ops[i].Deps) == 0 {
				tr.Steps[s].Ops[i].Deps = nil
			}
		}
	}
	return tr
}

func roundTrip(t *testing.T, tr *trace.Trace) (*trace.Trace, []byte) {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, Write(&buf, tr))
	back, _, err := Read(bytes.NewReader(buf.Bytes()), "rt.json", trace.Meta{})
	require.NoError(t, err)
	return back, buf.Bytes()
}

// TestRoundTripSynthesized: trace → JSON → import gives the identical
// trace for the Fig. 5 toy on 1 and 2 PS with jitter (times not multiples
// of 1 µs), including every metadata field.
func TestRoundTripSynthesized(t *testing.T) {
	t.Parallel()
	for _, servers := range []int{1, 2} {
		tr, err := zoo.Synthesize(zoo.Toy(), zoo.Options{Steps: 4, Servers: servers, Bandwidth: 1.25e8 / 3,
			Window: 1 << 20, Alpha: 1e-9, Beta: 3e-5, Jitter: 0.1, Seed: 7})
		require.NoError(t, err)
		back, js := roundTrip(t, tr)
		require.Equal(t, nilDeps(tr), back)
		require.True(t, bytes.Contains(js, []byte(`"send_device":"/job:ps/replica:0/task:0/device:CPU:0"`)))
	}
}

func TestRoundTripRealProfile(t *testing.T) {
	t.Parallel()
	p, err := parseShared("resnet50")
	if err != nil {
		t.Skipf("profiles not available: %v", err)
	}
	tr, err := zoo.Synthesize(p, zoo.Options{Steps: 2, Servers: 2, Bandwidth: 1.25e9, Window: 28e6, Jitter: 0.05, Seed: 3})
	require.NoError(t, err)
	back, _ := roundTrip(t, tr)
	require.Equal(t, nilDeps(tr), back)
}

// TestRoundTripAwkwardNames: names with JSON specials, slots and suffixes
// TensorFlow gives meaning to survive, because exact names win.
func TestRoundTripAwkwardNames(t *testing.T) {
	t.Parallel()
	names := []string{`d"q\uote`, "x:0", "x", "ü/_", "^y", "<&>"}
	s := trace.Step{Ops: []trace.Op{
		{Name: names[0], Resource: trace.Resource{Kind: trace.Downlink}, End: 5, Bytes: 1},
		{Name: names[1], Resource: trace.Resource{Kind: trace.Worker}, Start: 5, End: 6, Deps: []int32{0}},
		{Name: names[2], Resource: trace.Resource{Kind: trace.Worker}, Start: 6, End: 7, Deps: []int32{1}},
		{Name: names[3], Resource: trace.Resource{Kind: trace.Uplink}, Start: 7, End: 9, Bytes: 3, Deps: []int32{2, 1}},
		{Name: names[4], Resource: trace.Resource{Kind: trace.PS}, Start: 9, End: 9, Deps: []int32{3}},
		{Name: names[5], Resource: trace.Resource{Kind: trace.PS}, Start: 9, End: 10, Deps: []int32{4, 0}},
	}}
	tr := &trace.Trace{Meta: trace.Meta{Source: "hand", Servers: 1}, Steps: []trace.Step{s}}
	back, _ := roundTrip(t, tr)
	require.Equal(t, tr, back)
}

// TestRoundTripRandomTimes: random nanosecond times in random DAGs.
func TestRoundTripRandomTimes(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 50; trial++ {
		n := 2 + rng.IntN(30)
		s := trace.Step{Ops: make([]trace.Op, n)}
		for i := range s.Ops {
			op := &s.Ops[i]
			op.Name = "op" + string(rune('a'+i%26)) + string(rune('a'+i/26))
			op.Start = rng.Int64N(1e12)
			op.End = op.Start + rng.Int64N(1e9)
			if i == 0 {
				op.Resource = trace.Resource{Kind: trace.Downlink, PS: rng.IntN(3)}
				op.Bytes = 1 + rng.Int64N(1e9)
				continue
			}
			op.Resource = trace.Resource{Kind: trace.Kind(rng.IntN(4)), PS: rng.IntN(3)}
			if op.Resource.Kind == trace.Worker {
				op.Resource.PS = 0
			}
			if op.IsComm() {
				op.Bytes = 1 + rng.Int64N(1e9)
			}
			for k := 0; k < 1+rng.IntN(3); k++ {
				op.Deps = appendUnique(op.Deps, int32(rng.IntN(i)))
			}
		}
		tr := &trace.Trace{Meta: trace.Meta{Servers: 3, Bandwidth: rng.Float64() * 1e10, Alpha: rng.Float64() * 1e-9}, Steps: []trace.Step{s, s}}
		require.NoError(t, tr.Validate())
		back, _ := roundTrip(t, tr)
		tr.Meta.Source = "rt.json"
		require.Equal(t, tr, back, "trial %d", trial)
	}
}

func TestWriterRejects(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	bad := &trace.Trace{Steps: []trace.Step{{Ops: []trace.Op{{Name: "w", Resource: trace.Resource{Kind: trace.Worker}}}}}}
	require.ErrorContains(t, Write(&buf, bad), "cannot start")
	part := &trace.Trace{Meta: trace.Meta{Servers: 1}, Steps: []trace.Step{{Ops: []trace.Op{
		{Name: "x/_1", Resource: trace.Resource{Kind: trace.Downlink}, End: 1, Bytes: 1},
		{Name: "x", Resource: trace.Resource{Kind: trace.Worker}, End: 1, Deps: []int32{0}},
	}}}}
	require.ErrorContains(t, Write(&buf, part), "partition naming")
	wr, err := NewWriter(&buf, trace.Meta{Servers: 1})
	require.NoError(t, err)
	far := trace.Step{Ops: []trace.Op{{Name: "d", Resource: trace.Resource{Kind: trace.Downlink, PS: 1}, End: 1, Bytes: 1}}}
	require.ErrorContains(t, wr.WriteStep(&far), "PS 1, writer has 1 PS lanes")
	wr, err = NewWriter(&buf, trace.Meta{})
	require.NoError(t, err)
	require.ErrorContains(t, wr.Close(), "no steps")
	utf := trace.Step{Ops: []trace.Op{{Name: "\xff", Resource: trace.Resource{Kind: trace.Downlink}, End: 1, Bytes: 1}}}
	require.ErrorContains(t, Write(&buf, &trace.Trace{Steps: []trace.Step{utf}}), "not valid UTF-8")
}

func TestWriteIsValidChromeTrace(t *testing.T) {
	t.Parallel()
	tr, err := zoo.Synthesize(zoo.Toy(), zoo.Options{Steps: 2, Bandwidth: 1e8})
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, Write(&buf, tr))
	r := NewEventReader(&buf, "w.json")
	n := 0
	for {
		e, err := r.Next()
		if err != nil {
			require.ErrorContains(t, err, "EOF")
			break
		}
		require.True(t, e.HasTs || e.Ph == "M")
		n++
	}
	require.Equal(t, 2+2+2*len(tr.Steps[0].Ops), n, "2 lanes, 2 markers, the ops")
	require.True(t, strings.HasPrefix(string(r.Top("otherData")), `{"source":"zoo.Synthesize(icpe20 Fig. 5 toy`))
}

// parseShared parses a PipeDream profile from the shared raw data.
func parseShared(model string) (*zoo.Profile, error) {
	f, err := os.Open("../../../shared/datasets/pipedream-profiles/" + model + ".graph.txt")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return zoo.Parse(f, model+".graph.txt")
}
