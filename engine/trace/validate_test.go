package trace

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// toy is the Fig. 5/6 decomposition of a 2-layer model: downlink → forward
// → backward (reverse) → uplink → update.
func toy() Step {
	ms := int64(1e6)
	return Step{Ops: []Op{
		{Name: "l0/down", Resource: Resource{Kind: Downlink}, Start: 0, End: 2 * ms, Bytes: 100},
		{Name: "l1/down", Resource: Resource{Kind: Downlink}, Start: 0, End: 4 * ms, Bytes: 200},
		{Name: "l0/fwd", Resource: Resource{Kind: Worker}, Start: 2 * ms, End: 3 * ms, Deps: []int32{0}},
		{Name: "l1/fwd", Resource: Resource{Kind: Worker}, Start: 4 * ms, End: 5 * ms, Deps: []int32{1, 2}},
		{Name: "l1/bwd", Resource: Resource{Kind: Worker}, Start: 5 * ms, End: 6 * ms, Deps: []int32{3}},
		{Name: "l0/bwd", Resource: Resource{Kind: Worker}, Start: 6 * ms, End: 7 * ms, Deps: []int32{4}},
		{Name: "l1/up", Resource: Resource{Kind: Uplink}, Start: 6 * ms, End: 8 * ms, Bytes: 200, Deps: []int32{4}},
		{Name: "l0/up", Resource: Resource{Kind: Uplink}, Start: 8 * ms, End: 9 * ms, Bytes: 100, Deps: []int32{5}},
		{Name: "l1/update", Resource: Resource{Kind: PS}, Start: 8 * ms, End: 9 * ms, Deps: []int32{6}},
		{Name: "l0/update", Resource: Resource{Kind: PS}, Start: 9 * ms, End: 10 * ms, Deps: []int32{7}},
	}}
}

func TestValidateAcceptsToy(t *testing.T) {
	t.Parallel()
	s := toy()
	require.NoError(t, s.Validate())
	tr := Trace{Steps: []Step{s, toy()}, Meta: Meta{Servers: 1}}
	require.NoError(t, tr.Validate())
}

func TestValidateRejects(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		edit  func(*Step)
		error string
	}{
		{"cycle", func(s *Step) { s.Ops[2].Deps = append(s.Ops[2].Deps, 5) }, `op 2 "l0/fwd": dependency cycle`},
		{"dangling", func(s *Step) { s.Ops[3].Deps = []int32{42} }, `op 3 "l1/fwd": dangling dependency 42`},
		{"self", func(s *Step) { s.Ops[4].Deps = []int32{4} }, `depends on itself`},
		{"negative", func(s *Step) { s.Ops[4].End = s.Ops[4].Start - 1 }, `op 4 "l1/bwd": negative duration`},
		{"unreachable", func(s *Step) { s.Ops[8].Deps = nil }, `op 8 "l1/update": ps op with no dependencies cannot start`},
		{"no bytes", func(s *Step) { s.Ops[6].Bytes = 0 }, `op 6 "l1/up": uplink transfer with 0 bytes`},
		{"bad kind", func(s *Step) { s.Ops[2].Resource.Kind = 9 }, `unknown resource`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			s := toy()
			c.edit(&s)
			err := s.Validate()
			require.Error(t, err)
			require.Contains(t, err.Error(), c.error)
		})
	}
}

func TestTraceRejectsStructureMismatch(t *testing.T) {
	t.Parallel()
	a, b := toy(), toy()
	b.Ops[3].Deps = []int32{1}
	tr := Trace{Steps: []Step{a, b}}
	require.ErrorContains(t, tr.Validate(), `step 1 op 3 "l1/fwd" differs in structure`)
	require.ErrorContains(t, (&Trace{}).Validate(), "no steps")
}

func TestResourceRoundTrip(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"downlink", "worker", "uplink:1", "ps:2"} {
		r, err := ParseResource(s)
		require.NoError(t, err)
		require.Equal(t, s, r.String())
	}
	_, err := ParseResource("gpu")
	require.ErrorContains(t, err, `unknown resource "gpu"`)
	_, err = ParseResource("uplink:-1")
	require.ErrorContains(t, err, "bad PS index")
}

// TestValidateNamesTheNegativeMetadata: each negative metadata value is
// named (the message used to say "bandwidth, window or overhead").
func TestValidateNamesTheNegativeMetadata(t *testing.T) {
	t.Parallel()
	cases := []struct {
		edit func(*Meta)
		want string
	}{
		{func(m *Meta) { m.Bandwidth = -1 }, "negative bandwidth -1 in metadata (Meta.Bandwidth)"},
		{func(m *Meta) { m.Window = -5 }, "negative window -5 in metadata (Meta.Window)"},
		{func(m *Meta) { m.Alpha = -2 }, "negative overhead alpha -2 in metadata (Meta.Alpha)"},
		{func(m *Meta) { m.Beta = -3 }, "negative overhead beta -3 in metadata (Meta.Beta)"},
	}
	for _, c := range cases {
		tr := &Trace{Steps: []Step{{Ops: []Op{{Name: "d", Resource: Resource{Kind: Downlink}, Bytes: 1, End: 1}}}}}
		c.edit(&tr.Meta)
		require.ErrorContains(t, tr.Validate(), c.want)
	}
}
