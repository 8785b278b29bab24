package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/shard"
)

// writeFiles writes files (path relative to dir → content) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, c := range files {
		p = filepath.Join(dir, filepath.FromSlash(p))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(c), 0o644))
	}
}

// listed returns the record of dir/p as a shard that lists p would carry
// it: the size and SHA-256 of the bytes read through any symbolic link.
func listed(t *testing.T, dir, p string) shard.File {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(p)))
	require.NoError(t, err)
	sum := sha256.Sum256(b)
	return shard.File{Path: p, Size: int64(len(b)), SHA256: hex.EncodeToString(sum[:])}
}

// fakeShards writes n shards of `pslab run -root root` under base without
// running anything: shard i holds 24 figures (48 in all for n = 2), lists
// them as pslab run does, and then edit(i, dir, m) may change the shard
// before its shard.json is written.
func fakeShards(t *testing.T, base, root string, n int, edit func(i int, dir string, m *shard.Meta)) {
	t.Helper()
	for i := range n {
		dir := shard.Spec{Index: i, Count: n}.Dir(base)
		files := map[string]string{}
		for k := range 24 {
			files[fmt.Sprintf("figures/p%d/f%02d.svg", k%3, i+n*k)] = fmt.Sprintf("<svg>shard %d figure %d</svg>\n", i, k)
		}
		writeFiles(t, dir, files)
		list, err := shard.ListFiles(dir, "figures")
		require.NoError(t, err)
		m := &shard.Meta{Command: []string{"run", "-root", root}, Index: i, Count: n, Revision: "r", Root: root,
			Items: []string{fmt.Sprintf("paper-item%d", i)}, Total: n, Files: list}
		if edit != nil {
			edit(i, dir, m)
		}
		require.NoError(t, m.Write(dir))
	}
}

// snapshot returns every entry under dir by relative path: "dir", the
// target of a symbolic link, or a regular file's mode and content.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	require.NoError(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case d.IsDir():
			out[rel] = "dir"
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			out[rel] = "symlink " + target
			return err
		default:
			b, err := os.ReadFile(p)
			info, _ := d.Info()
			out[rel] = fmt.Sprintf("%v %q", info.Mode(), b)
			return err
		}
		return nil
	}))
	return out
}

// TestMergeRefusesUnsafeShardsWritingNothing: a shard that lists a path
// outside figures/, a file it does not hold, a changed file or a symbolic
// link out of its directory, or paths that collide, is refused naming the
// shard directory, the file and the reason, before anything is written:
// the output root, its neighbours and the shards are as they were, byte
// for byte, with no new file or directory.
func TestMergeRefusesUnsafeShardsWritingNothing(t *testing.T) {
	t.Parallel()
	last := "figures/p2/f47.svg" // shard 1's last file of 2 × 24
	for _, c := range []struct {
		name, path, reason string
		edit               func(t *testing.T, dir string, m *shard.Meta)
	}{
		{"git hook", ".git/hooks/pre-commit", "outside figures/", func(t *testing.T, dir string, m *shard.Meta) {
			writeFiles(t, dir, map[string]string{".git/hooks/pre-commit": "#!/bin/sh\necho pwned\n"})
			m.Files = append(m.Files, listed(t, dir, ".git/hooks/pre-commit"))
		}},
		{"figures git hook", "figures/.git/hooks/pre-commit", "hidden", func(t *testing.T, dir string, m *shard.Meta) {
			writeFiles(t, dir, map[string]string{"figures/.git/hooks/pre-commit": "#!/bin/sh\necho pwned\n"})
			m.Files = append(m.Files, listed(t, dir, "figures/.git/hooks/pre-commit"))
		}},
		{"parent", "../x", `".."`, func(t *testing.T, dir string, m *shard.Meta) {
			writeFiles(t, filepath.Dir(dir), map[string]string{"x": "escaped\n"})
			m.Files = append(m.Files, listed(t, dir, "../x"))
		}},
		{"figures parent", "figures/../../x", `".."`, func(t *testing.T, dir string, m *shard.Meta) {
			writeFiles(t, filepath.Dir(dir), map[string]string{"x": "escaped\n"})
			m.Files = append(m.Files, listed(t, dir, "figures/../../x"))
		}},
		{"absolute", "/", "absolute", func(t *testing.T, dir string, m *shard.Meta) {
			abs := filepath.Join(filepath.Dir(dir), "abs.svg")
			require.NoError(t, os.WriteFile(abs, []byte("abs\n"), 0o644))
			f := listed(t, "/", filepath.ToSlash(abs))
			f.Path = filepath.ToSlash(abs)
			m.Files = append(m.Files, f)
		}},
		{"tampered last byte", last, "changed after the shard finished", func(t *testing.T, dir string, m *shard.Meta) {
			p := filepath.Join(dir, filepath.FromSlash(last))
			b, err := os.ReadFile(p)
			require.NoError(t, err)
			b[len(b)-2] ^= 1
			require.NoError(t, os.WriteFile(p, b, 0o644))
		}},
		{"missing", last, "missing", func(t *testing.T, dir string, m *shard.Meta) {
			require.NoError(t, os.Remove(filepath.Join(dir, filepath.FromSlash(last))))
		}},
		{"symlink out", "figures/p2/zz.svg", "symbolic link", func(t *testing.T, dir string, m *shard.Meta) {
			secret := filepath.Join(t.TempDir(), "secret.svg")
			require.NoError(t, os.WriteFile(secret, []byte("secret\n"), 0o644))
			require.NoError(t, os.Symlink(secret, filepath.Join(dir, "figures", "p2", "zz.svg")))
			m.Files = append(m.Files, listed(t, dir, "figures/p2/zz.svg"))
		}},
		{"symlinked directory out", "figures/zz/s.svg", "symbolic link", func(t *testing.T, dir string, m *shard.Meta) {
			out := t.TempDir()
			require.NoError(t, os.WriteFile(filepath.Join(out, "s.svg"), []byte("secret\n"), 0o644))
			require.NoError(t, os.Symlink(out, filepath.Join(dir, "figures", "zz")))
			m.Files = append(m.Files, listed(t, dir, "figures/zz/s.svg"))
		}},
		{"file and directory", "figures/p0/f00.svg/b.svg", "both a file and a directory", func(t *testing.T, dir string, m *shard.Meta) {
			writeFiles(t, dir, map[string]string{"figures/p0/f00.svg/b.svg": "b\n"}) // f00.svg is shard 0's
			m.Files = append(m.Files, listed(t, dir, "figures/p0/f00.svg/b.svg"))
		}},
		{"case", "figures/P0/f00.svg", "only in letter case", func(t *testing.T, dir string, m *shard.Meta) {
			writeFiles(t, dir, map[string]string{"figures/P0/f00.svg": "b\n"})
			m.Files = append(m.Files, listed(t, dir, "figures/P0/f00.svg"))
		}},
		{"duplicate", last, "twice", func(t *testing.T, dir string, m *shard.Meta) {
			m.Files = append(m.Files, m.Files[len(m.Files)-1])
		}},
		{"conflicting", last, "twice", func(t *testing.T, dir string, m *shard.Meta) {
			f := m.Files[len(m.Files)-1]
			f.SHA256 = m.Files[0].SHA256
			m.Files = append([]shard.File{f}, m.Files...)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			work := t.TempDir() // the output root and its neighbours
			r := filepath.Join(work, "root")
			writeFiles(t, r, map[string]string{"figures/p0/f00.svg": "old\n", "figures/old/keep.svg": "keep\n", "README.md": "r\n"})
			base := filepath.Join(t.TempDir(), "shards")
			fakeShards(t, base, r, 2, func(i int, dir string, m *shard.Meta) {
				if i == 1 {
					c.edit(t, dir, m)
				}
			})
			beforeWork, beforeShards := snapshot(t, work), snapshot(t, base)
			_, err := pslab(t, "merge", "-root", r, base)
			require.Error(t, err)
			require.Equal(t, beforeWork, snapshot(t, work), "a refused merge writes nothing")
			require.Equal(t, beforeShards, snapshot(t, base), "merge does not change the shards")
			require.ErrorContains(t, err, filepath.Join(base, "shard-1-of-2"), "the error names the shard directory")
			require.ErrorContains(t, err, c.path, "the error names the file")
			require.ErrorContains(t, err, c.reason)
		})
	}
}

// TestMergeIgnoresShardRoot: the "root" a shard records (and the -root
// of its command line) never chooses where merge writes: figures/ goes
// under merge's -root, or the current directory without one.
func TestMergeIgnoresShardRoot(t *testing.T) {
	elsewhere := t.TempDir()
	base := filepath.Join(t.TempDir(), "shards")
	fakeShards(t, base, elsewhere, 2, nil)
	want := map[string]string{}
	for i := range 2 {
		dir := shard.Spec{Index: i, Count: 2}.Dir(base)
		m, err := shard.ReadMeta(dir)
		require.NoError(t, err)
		for _, f := range m.Files {
			b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f.Path)))
			require.NoError(t, err)
			want[filepath.FromSlash(f.Path)] = string(b)
		}
	}
	require.Len(t, want, 48)
	before := snapshot(t, elsewhere)
	files := func(dir string) map[string]string {
		got := map[string]string{}
		for p, b := range tree(t, dir) {
			got[p] = string(b)
		}
		return got
	}

	r := t.TempDir()
	stdout, err := pslab(t, "merge", "-root", r, base)
	require.NoError(t, err)
	require.Contains(t, stdout, "48 files into "+filepath.Join(r, "figures"))
	require.Equal(t, want, files(r))

	cwd := t.TempDir()
	t.Chdir(cwd)
	stdout, err = pslab(t, "merge", base)
	require.NoError(t, err)
	require.Equal(t, before, snapshot(t, elsewhere), "the shards' root is not written")
	require.Equal(t, want, files(cwd), "without -root, figures/ under the current directory")
	require.Contains(t, stdout, "48 files into figures")
}

// TestMergeReplacesFiguresAtomically: a merge into an existing figures/
// replaces the files the shards list, keeps the others, and leaves no
// temporary file.
func TestMergeReplacesFiguresAtomically(t *testing.T) {
	t.Parallel()
	r := t.TempDir()
	writeFiles(t, r, map[string]string{"figures/p0/f00.svg": "old\n", "figures/old/keep.svg": "keep\n"})
	base := filepath.Join(t.TempDir(), "shards")
	fakeShards(t, base, ".", 2, nil)
	_, err := pslab(t, "merge", "-root", r, base)
	require.NoError(t, err)
	got := tree(t, filepath.Join(r, "figures"))
	require.Len(t, got, 49)
	require.Equal(t, "keep\n", string(got[filepath.Join("old", "keep.svg")]))
	require.Equal(t, "<svg>shard 0 figure 0</svg>\n", string(got[filepath.Join("p0", "f00.svg")]))
	var names []string
	for p := range got {
		names = append(names, filepath.Base(p))
	}
	sort.Strings(names)
	for _, n := range names {
		require.NotEqual(t, '.', n[0], "no temporary file left: %s", n)
	}
}
