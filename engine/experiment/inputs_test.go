package experiment

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// withInput returns goodSpec with an [inputs] table whose key x (line 10)
// is the path p.
func withInput(p string) string {
	return strings.Replace(goodSpec, "[sweep]", "[inputs]\nx = \""+p+"\"\n\n[sweep]", 1)
}

// TestInputSymlinkOutsideTheRepositoryRefused: an input under datasets/
// that is a symbolic link to a file (or through a linked directory) outside
// the repository is refused before the experiment runs, naming the spec
// file:line of the [inputs] key and the resolved target; the tree is left
// unchanged. The check used to be lexical only: "datasets/x.arrow" passed
// and the kind read the outside file.
func TestInputSymlinkOutsideTheRepositoryRefused(t *testing.T) {
	t.Parallel()
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret.arrow")
	require.NoError(t, os.WriteFile(secret, []byte("not a dataset"), 0o644))
	realSecret, err := filepath.EvalSymlinks(secret)
	require.NoError(t, err)
	realOutside, err := filepath.EvalSymlinks(outside)
	require.NoError(t, err)
	cases := []struct {
		name, input, link, target, want string
	}{
		{"file link", "datasets/x.arrow", "datasets/x.arrow", secret, realSecret},
		{"directory link", "datasets/ext/secret.arrow", "datasets/ext", outside, realSecret},
		{"missing file under a directory link", "datasets/ext/none.arrow", "datasets/ext", outside, filepath.Join(realOutside, "none.arrow")},
		{"link to the parent", "datasets/up/x.arrow", "datasets/up", "../..", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			root, sp := repo(t, withInput(c.input), goodGolden)
			link := filepath.Join(root, filepath.FromSlash(c.link))
			require.NoError(t, os.MkdirAll(filepath.Dir(link), 0o755))
			require.NoError(t, os.Symlink(c.target, link))
			before := tree(t, root)
			o := Run(context.Background(), registry(), []string{sp}, Options{Root: root, Write: true, Draw: drawn})[0]
			require.Error(t, o.Err)
			require.ErrorContains(t, o.Err, `toy.toml:10: input "x" = "`+c.input+`" resolves to `+c.want)
			require.ErrorContains(t, o.Err, "outside the repository root")
			require.Equal(t, before, tree(t, root), "the output tree changed")
		})
	}
	t.Run("dangling link", func(t *testing.T) {
		t.Parallel()
		root, sp := repo(t, withInput("datasets/x.arrow"), goodGolden)
		require.NoError(t, os.MkdirAll(filepath.Join(root, "datasets"), 0o755))
		require.NoError(t, os.Symlink(filepath.Join(outside, "none.arrow"), filepath.Join(root, "datasets", "x.arrow")))
		o := Run(context.Background(), registry(), []string{sp}, Options{Root: root})[0]
		require.ErrorContains(t, o.Err, `toy.toml:10: input "x" = "datasets/x.arrow": `)
		require.ErrorContains(t, o.Err, "is a dangling symbolic link (to "+filepath.Join(outside, "none.arrow")+")")
	})
}

// TestInputSymlinkInsideTheRepositoryAccepted: links that stay inside the
// repository, and a repository root that is itself reached through a
// symbolic link, are accepted; a missing input is left to the kind.
func TestInputSymlinkInsideTheRepositoryAccepted(t *testing.T) {
	t.Parallel()
	for _, input := range []string{"datasets/x.arrow", "datasets/missing.arrow"} {
		root, sp := repo(t, withInput(input), goodGolden)
		ds := filepath.Join(root, "datasets")
		require.NoError(t, os.MkdirAll(filepath.Join(ds, "real"), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(ds, "real", "y.arrow"), nil, 0o644))
		require.NoError(t, os.Symlink(filepath.Join("real", "y.arrow"), filepath.Join(ds, "x.arrow")))
		alias := filepath.Join(t.TempDir(), "alias")
		require.NoError(t, os.Symlink(root, alias))
		for _, r := range []string{root, alias} {
			s, err := Load(sp)
			require.NoError(t, err)
			require.NoError(t, s.CheckInputs(r), "root %s", r)
		}
	}
}

// TestInputsUnderALinkedDatasetsDirectory: datasets/ itself may be a link
// (to shared storage, or the scratch roots of the shard tests): an input
// inside where it resolves is accepted, but a link below it that leaves
// it is still refused.
func TestInputsUnderALinkedDatasetsDirectory(t *testing.T) {
	t.Parallel()
	shared := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(shared, "x.arrow"), []byte("data"), 0o644))
	outside := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(outside, "secret"), []byte("s"), 0o644))
	require.NoError(t, os.Symlink(filepath.Join(outside, "secret"), filepath.Join(shared, "leak.arrow")))
	for input, ok := range map[string]bool{"datasets/x.arrow": true, "datasets/leak.arrow": false} {
		root, sp := repo(t, withInput(input), goodGolden)
		require.NoError(t, os.Symlink(shared, filepath.Join(root, "datasets")))
		s, err := Load(sp)
		require.NoError(t, err)
		err = s.CheckInputs(root)
		if ok {
			require.NoError(t, err, input)
		} else {
			require.ErrorContains(t, err, "outside the repository root", input)
		}
	}
}
