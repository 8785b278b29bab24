package zoo

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// tiny is a 4-node graph listed out of order: Input → conv → relu → fc,
// with batch 2 at 224 px (2·3·224²·4 = 1204224 bytes).
const tiny = `node4 -- Linear(in_features=8, out_features=2, bias=True) -- forward_compute_time=0.500, backward_compute_time=0.250, activation_size=16.000, parameter_size=72.000
node2 -- Conv2d(3, 8, kernel_size=(3, 3)) -- forward_compute_time=2.000, backward_compute_time=4.000, activation_size=3211264.000, parameter_size=896.000
node1 -- Input -- forward_compute_time=100.000, backward_compute_time=0.000, activation_size=1204224.000, parameter_size=0.000
node3 -- ReLU(inplace) -- forward_compute_time=0.100, backward_compute_time=0.050, activation_size=3211264.000, parameter_size=0.000
	node3 -- node4
	node1 -- node2
	node2 -- node3`

func TestParseTiny(t *testing.T) {
	t.Parallel()
	p, err := Parse(strings.NewReader(tiny), "profiles/tiny/graph.txt")
	require.NoError(t, err)
	require.Equal(t, "tiny", p.Model)
	require.Equal(t, 2, p.Batch)
	require.Equal(t, 224, p.InputSide)
	names := make([]string, len(p.Layers))
	for i, l := range p.Layers {
		names[i] = l.Name
	}
	require.Equal(t, []string{"node1", "node2", "node3", "node4"}, names)
	conv := p.Layers[1]
	require.Equal(t, "Conv2d(3, 8, kernel_size=(3, 3))", conv.Description)
	require.InDelta(t, 0.002, conv.Forward, 1e-15)
	require.InDelta(t, 0.004, conv.Backward, 1e-15)
	require.Equal(t, int64(3211264), conv.ActivationBytes)
	require.Equal(t, int64(896), conv.ParamBytes)
	require.Equal(t, []int{0}, conv.Inputs)
	require.Equal(t, []int{2}, p.Layers[3].Inputs)
	require.Equal(t, int64(968), p.ParamBytes())
	require.InDelta(t, 0.0069, p.ComputeSeconds(), 1e-12) // Input's 100 ms excluded
	require.NoError(t, p.Validate())
}

func TestParseTopologicalTieBreak(t *testing.T) {
	t.Parallel()
	// Diamond: node1 feeds node10 and node9, both feed node11. node9 must
	// precede node10 (numeric, not lexical order).
	g := "node11 -- Add -- forward_compute_time=0, backward_compute_time=0, activation_size=0, parameter_size=4\n" +
		"node10 -- B -- forward_compute_time=0, backward_compute_time=0, activation_size=0, parameter_size=0\n" +
		"node9 -- A -- forward_compute_time=0, backward_compute_time=0, activation_size=0, parameter_size=0\n" +
		"node1 -- Input -- forward_compute_time=0, backward_compute_time=0, activation_size=602112, parameter_size=0\n" +
		"\tnode1 -- node10\n\tnode1 -- node9\n\tnode10 -- node11\n\tnode9 -- node11\n"
	p, err := Parse(strings.NewReader(g), "diamond.graph.txt")
	require.NoError(t, err)
	require.Equal(t, "diamond", p.Model)
	require.Equal(t, 1, p.Batch)
	require.Equal(t, "node9", p.Layers[1].Name)
	require.Equal(t, "node10", p.Layers[2].Name)
	require.Equal(t, []int{1, 2}, p.Layers[3].Inputs)
}

func TestParseErrorsNameFileAndLine(t *testing.T) {
	t.Parallel()
	lines := strings.Split(tiny, "\n")
	with := func(i int, s string) string {
		c := append([]string(nil), lines...)
		c[i] = s
		return strings.Join(c, "\n")
	}
	cases := []struct {
		name, input, want string
	}{
		{"bad number", with(1, strings.Replace(lines[1], "2.000", "2.0x0", 1)), `g.txt:2: node node2: forward_compute_time: bad number "2.0x0"`},
		{"NaN", with(3, strings.Replace(lines[3], "0.100", "NaN", 1)), `g.txt:4: node node3: forward_compute_time: NaN is not a finite non-negative number`},
		{"negative", with(0, strings.Replace(lines[0], "parameter_size=72.000", "parameter_size=-72", 1)), `g.txt:1: node node4: parameter_size: -72 is not a finite`},
		{"fractional bytes", with(0, strings.Replace(lines[0], "72.000", "72.5", 1)), `g.txt:1: node node4: parameter_size: 72.5 is not a whole number of bytes`},
		{"missing field", with(0, strings.Replace(lines[0], ", parameter_size=72.000", "", 1)), `g.txt:1: node node4: missing field parameter_size`},
		{"unknown field", with(0, strings.Replace(lines[0], "parameter_size", "params", 1)), `g.txt:1: node node4: unknown field "params"`},
		{"repeated field", with(0, strings.Replace(lines[0], "parameter_size", "activation_size", 1)), `g.txt:1: node node4: repeated field activation_size`},
		{"malformed node", with(0, "node4 Linear"), `g.txt:1: malformed node line`},
		{"malformed edge", with(5, "\tnode1 node2"), `g.txt:6: malformed edge`},
		{"duplicate node", tiny + "\n" + lines[1], `g.txt:8: duplicate node "node2" (first on line 2)`},
		{"duplicate edge", tiny + "\n\tnode1 -- node2", `g.txt:8: duplicate edge node1 -- node2 (first on line 6)`},
		{"unknown node", with(6, "\tnode2 -- node7"), `g.txt:7: edge node2 -- node7 names unknown node "node7"`},
		{"cycle", tiny + "\n\tnode4 -- node2", `g.txt:8: cycle node2 -- node3 -- node4 -- node2`},
		{"self loop", tiny + "\n\tnode3 -- node3", `g.txt:8: cycle node3 -- node3`},
		{"no input", with(2, strings.Replace(lines[2], "Input", "Identity", 1)), `g.txt: no Input node`},
		{"bad batch", with(2, strings.Replace(lines[2], "1204224.000", "1204228", 1)), `zoo: g.txt:3: Input activation 1204228 bytes is not a whole number`},
		{"second input", tiny + "\nnode9 -- Input -- forward_compute_time=0, backward_compute_time=0, activation_size=602112, parameter_size=0", `g.txt:8: second Input node "node9"`},
		{"empty", "\n\n", `g.txt: no nodes`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse(strings.NewReader(c.input), "g.txt")
			require.Error(t, err)
			require.Contains(t, err.Error(), c.want)
		})
	}
}

func TestInferBatch(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		bytes       int64
		batch, side int
	}{
		{154140672, 256, 224}, // alexnet
		{137319936, 128, 299}, // inception_v3
		{1314732 * 3, 3, 331}, // a 331-px batch of 3
		{3 * 224 * 224 * 4, 1, 224},
	} {
		b, s, err := InferBatch(c.bytes)
		require.NoError(t, err)
		require.Equal(t, c.batch, b, "bytes %d", c.bytes)
		require.Equal(t, c.side, s, "bytes %d", c.bytes)
	}
	_, _, err := InferBatch(0)
	require.ErrorContains(t, err, "need > 0")
	_, _, err = InferBatch(602113)
	require.ErrorContains(t, err, "not a whole number")
}

func TestModelName(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"../shared/datasets/pipedream-profiles/vgg16.graph.txt": "vgg16",
		"profiles/resnet50/graph.txt":                           "resnet50",
		"graph.txt":                                             "graph",
		`C:\p\alexnet.graph.txt`:                                "alexnet",
	} {
		require.Equal(t, want, modelName(in), in)
	}
}

func TestProfileValidateRejects(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		edit func(*Profile)
		want string
	}{
		{"batch", func(p *Profile) { p.Batch = 0 }, "Batch 0"},
		{"no layers", func(p *Profile) { p.Layers = nil }, "no layers"},
		{"empty name", func(p *Profile) { p.Layers[1].Name = "" }, "layer 1: empty Name"},
		{"duplicate", func(p *Profile) { p.Layers[2].Name = "conv0" }, `layer 2 "conv0": duplicate of layer 0`},
		{"negative forward", func(p *Profile) { p.Layers[0].Forward = -1 }, `layer "conv0": negative Forward`},
		{"NaN backward", func(p *Profile) { p.Layers[3].Backward = nan() }, `layer "fc1": Backward is NaN`},
		{"negative params", func(p *Profile) { p.Layers[2].ParamBytes = -4 }, `layer "fc0": negative ParamBytes`},
		{"negative activation", func(p *Profile) { p.Layers[2].ActivationBytes = -4 }, `negative ActivationBytes`},
		{"forward ref", func(p *Profile) { p.Layers[1].Inputs = []int{2} }, `input 2 is not an earlier layer`},
		{"repeated input", func(p *Profile) { p.Layers[2].Inputs = []int{1, 1} }, `Inputs not strictly ascending`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p := Toy()
			c.edit(p)
			require.ErrorContains(t, p.Validate(), c.want)
		})
	}
}
