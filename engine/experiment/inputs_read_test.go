package experiment

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestUnreadInputRefused: an [inputs] name the kind never reads (a typo
// of one it does) is an error at its file:line naming the inputs the kind
// read, and nothing is written; it used to be ignored and the run wrote
// its figures without the input.
func TestUnreadInputRefused(t *testing.T) {
	t.Parallel()
	reg := registry()
	line := reg["line"]
	reg["reads-a"] = Kind{Run: func(ctx context.Context, e *Env) (*Result, error) {
		if _, err := e.InputPath("a"); err != nil {
			return nil, err
		}
		return line.Run(ctx, e)
	}}
	spec := func(inputs string) string {
		s := strings.Replace(goodSpec, `kind = "line"`, `kind = "reads-a"`, 1)
		return strings.Replace(s, "[sweep]", "[inputs]\n"+inputs+"\n[sweep]", 1)
	}
	cases := []struct{ name, inputs, want string }{
		{"read", `a = "datasets/a.arrow"` + "\n", ""},
		{"typo", `a = "datasets/a.arrow"` + "\n" + `b = "datasets/b.arrow"` + "\n",
			`toy.toml:11: input "b" is not read by kind "reads-a" with these parameters and models (it read: a)`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			root, sp := repo(t, spec(c.inputs), strings.Replace(goodGolden, "source = \"regression\"", "source = \"derived: toy\"\nop = \"ge\"", 1))
			o := Run(context.Background(), reg, []string{sp}, Options{Root: root, Write: true, Draw: drawn})[0]
			_, statErr := os.Stat(filepath.Join(root, "figures"))
			if c.want == "" {
				require.NoError(t, o.Err)
				require.NoError(t, statErr, "a passing run writes figures/")
				return
			}
			require.ErrorContains(t, o.Err, c.want)
			require.True(t, os.IsNotExist(statErr), "a refused run wrote figures/")
		})
	}
}

// TestBatchLimit: a [params] batch above [limits] batch (default
// DefaultMaxBatch) is refused at its key's line; raising the limit
// accepts it.
func TestBatchLimit(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, params, limits, want string }{
		{"default limit", "batch = 9223372036854775807", "", `toy.toml:20: params.batch = 9.223372036854776e+18 exceeds the limit of 1048576 batch`},
		{"nested", "[params.profile]\nmax_batch = 2000000", "", `params.profile.max_batch = 2e+06 exceeds the limit of 1048576 batch`},
		{"within", "batch = 1048576", "", ""},
		{"raised", "batch = 2000000", "[limits]\nbatch = 2000000\n", ""},
		{"bad limit", "batch = 1", "[limits]\nbatch = -1\n", "limits.batch = -1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			s := strings.Replace(goodSpec, "slope = 2.0", "slope = 2.0\n"+c.params, 1)
			s = strings.Replace(s, "[plot]", c.limits+"[plot]", 1)
			_, sp := repo(t, s, "")
			_, err := Load(sp)
			if c.want == "" {
				require.NoError(t, err)
				return
			}
			require.ErrorContains(t, err, c.want)
		})
	}
}
