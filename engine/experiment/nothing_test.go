package experiment

import (
	"context"
	"crypto/sha256"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// tree maps every file and directory under root to a hash of its content
// (of a symbolic link: its target, not followed).
func tree(t *testing.T, root string) map[string][32]byte {
	out := map[string][32]byte{}
	require.NoError(t, filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		var b []byte
		switch {
		case d.Type()&fs.ModeSymlink != 0: // the link, not its target
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			b = []byte(target)
		case !d.IsDir():
			if b, err = os.ReadFile(p); err != nil {
				return err
			}
		}
		out[p] = sha256.Sum256(append([]byte(d.Type().String()), b...))
		return nil
	}))
	return out
}

// TestRunErrorsLeaveTheTreeUnchanged: for each way a run can fail, `pslab
// run` (Options.Write) leaves the repository exactly as it was. Figures
// used to be written before the golden file was loaded.
func TestRunErrorsLeaveTheTreeUnchanged(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, spec, gold string
		setup            func(root string)
		want             string
	}{
		{name: "missing golden file", spec: goodSpec, want: "no golden file"},
		{name: "unknown golden key", spec: goodSpec, gold: strings.Replace(goodGolden, "tol = 1e-12", "tol = 1e-12\ntolerance = 1", 1),
			want: `unknown field "check.tolerance"`},
		{name: "golden metric not in the result", spec: goodSpec, gold: strings.Replace(goodGolden, `metric = "draw"`, `metric = "drew"`, 1),
			want: "no such value in the result"},
		{name: "kind error", spec: strings.Replace(goodSpec, "slope = 2.0", "slope = -1.0", 1), gold: goodGolden, want: "negative slope"},
		{name: "input outside the repository", spec: strings.Replace(goodSpec, "[sweep]", "[inputs]\nprofile = \"../../../etc/passwd\"\n\n[sweep]", 1),
			gold: goodGolden, want: `toy.toml:10: input "profile" = "../../../etc/passwd": path must be relative to the repository root and stay inside it`},
		{name: "figures is a file", spec: goodSpec, gold: goodGolden, want: "is not a directory",
			setup: func(root string) { require.NoError(t, os.WriteFile(filepath.Join(root, "figures"), nil, 0o644)) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			root, sp := repo(t, c.spec, c.gold)
			if c.setup != nil {
				c.setup(root)
			}
			before := tree(t, root)
			o := Run(context.Background(), registry(), []string{sp}, Options{Root: root, Write: true, Draw: drawn})[0]
			require.ErrorContains(t, o.Err, c.want)
			require.NotContains(t, o.Err.Error(), "beyond-toy", "the id is printed by the caller, not repeated in the error")
			require.Equal(t, before, tree(t, root), "the output tree changed")
		})
	}
}

// TestLimitsNameTheKey: a worker or step count above the limits is refused
// at load time with the file:line of the key and the [limits] key that
// raises it (workers = 1e9 used to reach an int32 guard in the simulator
// that named no line); [limits] raises them.
func TestLimitsNameTheKey(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ edit, want string }{
		{"slope = 2.0\nworkers = 1e9", `toy.toml:20: params.workers = 1e+09 exceeds the limit of 65536 workers`},
		{"slope = 2.0\n[[params.case]]\nprofile_steps = [10, 20000000]", `toy.toml:21: params.case.profile_steps = 2e+07 exceeds the limit of 1000000 steps`},
	} {
		_, sp := repo(t, strings.Replace(goodSpec, "slope = 2.0", c.edit, 1), goodGolden)
		_, err := Load(sp)
		require.ErrorContains(t, err, c.want)
		require.ErrorContains(t, err, "[limits]")
	}
	_, sp := repo(t, strings.Replace(strings.Replace(goodSpec, "var = \"x\"", "var = \"workers\"", 1), "to = 3", "to = 100000", 1), goodGolden)
	_, err := Load(sp)
	require.ErrorContains(t, err, "toy.toml:9: sweep workers up to 100000 exceeds the limit of 65536 workers")
	_, sp = repo(t, strings.Replace(goodSpec, "slope = 2.0", "slope = 2.0\nworkers = 100000", 1)+"\n[limits]\nworkers = 100000\n", goodGolden)
	_, err = Load(sp)
	require.NoError(t, err)
}
