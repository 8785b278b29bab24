package tomlfile

import (
	"testing"

	"github.com/BurntSushi/toml"
	"github.com/stretchr/testify/require"
)

type spec struct {
	ID     string
	Seed   uint64
	Plot   struct{ Title string }
	Check  []struct{ Metric string }
	Params toml.Primitive
}

func TestStrictErrorsNameFileAndLine(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, src, want string }{
		{"unknown top", "id = \"a\"\nsede = 3\n", `x.toml:2: unknown field "sede"`},
		{"unknown nested", "id = \"a\"\n[plot]\ntitle = \"t\"\ncolour = 1\n", `x.toml:4: unknown field "plot.colour"`},
		{"unknown in array", "[[check]]\nmetric = \"m\"\n\n[[check]]\nmetrc = \"m\"\n", `x.toml:5: unknown field "check.metrc"`},
		{"wrong type", "id = \"a\"\nseed = \"x\"\n", `x.toml:2: field "seed"`},
		{"syntax", "id = \"a\"\nseed = = 3\n", `x.toml:2:`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var s spec
			_, err := DecodeBytes("x.toml", []byte(c.src), &s, "params")
			require.Error(t, err)
			require.Contains(t, err.Error(), c.want)
		})
	}
}

func TestDeferredAndRequired(t *testing.T) {
	t.Parallel()
	src := "id = \"a\"\n[params]\nbandwidth = 1.5\nextra = 2\n"
	var s spec
	f, err := DecodeBytes("x.toml", []byte(src), &s, "params")
	require.NoError(t, err)
	var p struct{ Bandwidth float64 }
	err = f.DecodePrimitive("params", s.Params, &p)
	require.EqualError(t, err, `x.toml:4: unknown field "params.extra"`)
	require.Equal(t, 1.5, p.Bandwidth)
	require.NoError(t, f.Require("id"))
	require.EqualError(t, f.Require("id", "plot.title"), `x.toml:1: missing required field "plot.title"`)
	require.Equal(t, 3, f.Line("params", "bandwidth"))
}

// TestSyntaxErrorAtEndOfLine: an error the lexer meets at a newline (an
// unclosed table header) names the line the newline ends, not the next
// one, and not the key of the table before it.
func TestSyntaxErrorAtEndOfLine(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, src, want string }{
		{"unclosed header", "[inputs]\na = \"x\"\n\n[sweep\nvar = 1\n", "x.toml:4: expected"},
		{"unclosed first header", "[sweep\nvar = 1\n", "x.toml:1: expected"},
		{"mid-line error", "id = \"a\"\nseed = = 3\n", "x.toml:2: field \"seed\""},
		{"unterminated string", "seed = 1\nid = \"a\nseed = 1\n", "x.toml:2: field \"id\": strings cannot contain newlines"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var s spec
			_, err := DecodeBytes("x.toml", []byte(c.src), &s, "params")
			require.Error(t, err)
			require.Contains(t, err.Error(), c.want)
			require.NotContains(t, err.Error(), `field "inputs"`)
		})
	}
}
