package shard

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestShardCheckPath(t *testing.T) {
	t.Parallel()
	for _, p := range []string{"figures/x.svg", "figures/p/x.svg", "figures/p/x.run.json", "figures/a..b", "figures/über/ü.svg"} {
		require.NoError(t, CheckPath(p), p)
	}
	for _, c := range []struct{ p, want string }{
		{"", "empty"},
		{".git/hooks/pre-commit", "outside figures/"},
		{"figures/.git/hooks/pre-commit", `hidden name ".git"`},
		{"figures/p/.x.svg.tmp123", `hidden name ".x.svg.tmp123"`},
		{"../x", `contains ".."`},
		{"figures/../../x", `contains ".."`},
		{"figures/p/..", `contains ".."`},
		{"/etc/passwd", "absolute"},
		{"/figures/x", "absolute"},
		{"figures", "outside figures/"},
		{"figures/", "not a clean path"},
		{"figures//x", "not a clean path"},
		{"figures/./x", "not a clean path"},
		{"./figures/x", "not a clean path"},
		{"golden/x.toml", "outside figures/"},
		{"Figures/x", "outside figures/"},
		{`figures\..\x`, "backslash"},
		{"figures/x\n.svg", "control character"},
		{"figures/x\x00", "control character"},
		{"figures/\xff", "not UTF-8"},
	} {
		err := CheckPath(c.p)
		require.ErrorContains(t, err, c.want, "%q", c.p)
	}
}

// validMeta is the shard.json of a shard with one file.
const validMeta = `{"command": ["run", "-root", "."], "index": 0, "count": 1, "revision": "r", "modified": false,
 "root": ".", "items": ["p-x"], "total": 1,
 "files": [{"path": "figures/p/x.svg", "size": 3, "sha256": "acdb1373d1761939cb5daa3332223298529581464a90afae39927e7aef8edd46"}]}`

// TestShardParseMetaNamesTheField: a malformed shard.json is refused
// naming the file and the field at fault.
func TestShardParseMetaNamesTheField(t *testing.T) {
	t.Parallel()
	m, err := ParseMeta([]byte(validMeta), "d")
	require.NoError(t, err)
	require.Equal(t, "d", m.Dir)
	edit := func(old, new string) string {
		require.Contains(t, validMeta, old)
		return strings.Replace(validMeta, old, new, 1)
	}
	for _, c := range []struct{ in, field, want string }{
		{edit(`figures/p/x.svg`, `.git/hooks/pre-commit`), "files[0].path", "outside figures/"},
		{edit(`figures/p/x.svg`, `../x`), "files[0].path", `contains ".."`},
		{edit(`"size": 3`, `"size": -3`), "files[0].size", "negative"},
		{edit(`"sha256": "acdb`, `"sha256": "ACDB`), "files[0].sha256", "64 lowercase hex"},
		{edit(`"size": 3`, `"size": "3"`), "files.size", "want int64"},
		{edit(`"index": 0`, `"index": 1`), "index", "want 0..0"},
		{edit(`"count": 1`, `"count": 0`), "count", "want ≥ 1"},
		{edit(`"revision": "r"`, `"revision": ""`), "revision", "empty"},
		{edit(`"command": ["run", "-root", "."]`, `"command": []`), "command", "empty"},
		{edit(`"total": 1`, `"total": 0`), "total", "the shard did 1 items"},
		{edit(`"items": ["p-x"], "total": 1`, `"items": ["p-x", "p-x"], "total": 2`), "items[1]", "done twice"},
		{edit(`"root": "."`, `"root": ".", "failed": ["q"]`), "failed[0]", "not an item"},
		{edit(`"root": "."`, `"root": ".", "dir": "/etc"`), "dir", "unknown field"},
		{edit(`"root": "."`, `"root": ".", "files": []`), "files", "given twice"},
		{edit(`"root": "."`, `"root": ".", "Root": "/elsewhere"`), "Root", "given twice"},
		{edit(`"size": 3`, `"size": 3, "path": "figures/y"`), "files[0].path", "given twice"},
		{edit(`}]}`, `}, {"path": "figures/p/x.svg", "size": 3, "sha256": "acdb1373d1761939cb5daa3332223298529581464a90afae39927e7aef8edd46"}]}`), "files[1].path", "listed twice"},
		{edit(`}]}`, `}, {"path": "figures/P/x.svg", "size": 3, "sha256": "acdb1373d1761939cb5daa3332223298529581464a90afae39927e7aef8edd46"}]}`), "files[1].path", "letter case"},
		{edit(`}]}`, `}, {"path": "figures/p/x.svg/y", "size": 3, "sha256": "acdb1373d1761939cb5daa3332223298529581464a90afae39927e7aef8edd46"}]}`), "files[1].path", "both a file and a directory"},
		{validMeta + ` {}`, "", "data after the JSON object"},
		{`[1]`, "", "not a JSON object"},
		{`{"command": ["run"`, "command", "not valid JSON"},
	} {
		_, err := ParseMeta([]byte(c.in), "d")
		var me *MetaError
		require.True(t, errors.As(err, &me), "%s: %v", c.in, err)
		require.Equal(t, filepath.Join("d", MetaName), me.File)
		require.Equal(t, c.field, me.Field, "%v", err)
		require.ErrorContains(t, err, c.want, c.in)
	}
}

// shardDir writes a shard of n with the given figures (path under
// figures/ → content) in a new directory and returns its metadata.
func shardDir(t *testing.T, i, n int, figs map[string]string) *Meta {
	t.Helper()
	dir := t.TempDir()
	for p, c := range figs {
		p = filepath.Join(dir, "figures", filepath.FromSlash(p))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(c), 0o644))
	}
	files, err := ListFiles(dir, "figures")
	require.NoError(t, err)
	m := &Meta{Command: []string{"run"}, Index: i, Count: n, Revision: "r", Items: []string{fmt.Sprint(i)}, Total: n, Files: files}
	require.NoError(t, m.Write(dir))
	m, err = ReadMeta(dir)
	require.NoError(t, err)
	return m
}

// entries returns every entry under dir: "dir" or a file's content.
func entries(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) && p == dir {
			return nil
		}
		if err != nil || d.IsDir() {
			out[p] = "dir"
			return err
		}
		b, err := os.ReadFile(p)
		out[p] = string(b)
		return err
	})
	require.NoError(t, err)
	return out
}

// TestMergeFilesAllOrNothing: MergeFiles writes every file of the shards
// under out only; a refusal (a changed file in the last shard, a
// destination that is a directory, colliding paths) leaves out as it
// was, not even creating it.
func TestMergeFilesAllOrNothing(t *testing.T) {
	t.Parallel()
	a := shardDir(t, 0, 2, map[string]string{"p/a.svg": "a", "p/c.svg": "c"})
	b := shardDir(t, 1, 2, map[string]string{"p/b.svg": "b", "q/d.svg": "d"})
	parent := t.TempDir()
	out := filepath.Join(parent, "new", "figures")
	require.NoError(t, MergeFiles([]*Meta{a, b}, out))
	require.Equal(t, map[string]string{out: "dir", filepath.Join(out, "p"): "dir", filepath.Join(out, "q"): "dir",
		filepath.Join(out, "p", "a.svg"): "a", filepath.Join(out, "p", "b.svg"): "b", filepath.Join(out, "p", "c.svg"): "c",
		filepath.Join(out, "q", "d.svg"): "d"}, entries(t, out))

	// Tampered: the last file of the last shard.
	require.NoError(t, os.WriteFile(filepath.Join(b.Dir, "figures", "q", "d.svg"), []byte("e"), 0o644))
	for _, dst := range []string{out, filepath.Join(t.TempDir(), "figures")} {
		before := entries(t, filepath.Dir(dst))
		err := MergeFiles([]*Meta{a, b}, dst)
		require.ErrorContains(t, err, b.Name()+": figures/q/d.svg changed after the shard finished: SHA-256")
		require.Equal(t, before, entries(t, filepath.Dir(dst)))
	}
	require.NoError(t, os.WriteFile(filepath.Join(b.Dir, "figures", "q", "d.svg"), []byte("d"), 0o644))

	// A destination that is a directory.
	dst := filepath.Join(t.TempDir(), "figures")
	require.NoError(t, os.MkdirAll(filepath.Join(dst, "q", "d.svg"), 0o755))
	before := entries(t, dst)
	require.ErrorContains(t, MergeFiles([]*Meta{a, b}, dst), "figures/q/d.svg: its destination "+filepath.Join(dst, "q", "d.svg")+" is a directory")
	require.Equal(t, before, entries(t, dst))

	// Paths that collide across shards.
	c := shardDir(t, 1, 2, map[string]string{"P/A.svg": "A"})
	require.ErrorContains(t, MergeFiles([]*Meta{a, c}, dst), c.Name()+" lists figures/P/A.svg, which differs only in letter case")
	require.Equal(t, before, entries(t, dst))
	require.ErrorContains(t, Check([]*Meta{a, c}), "differs only in letter case")
}

// TestMergeFilesRefusesSymlinks: a listed file reached through a symbolic
// link in the shard is refused, even with the right hash.
func TestMergeFilesRefusesSymlinks(t *testing.T) {
	t.Parallel()
	m := shardDir(t, 0, 1, map[string]string{"p/a.svg": "a"})
	outside := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(outside, "s.svg"), []byte("a"), 0o644))
	require.NoError(t, os.Symlink(outside, filepath.Join(m.Dir, "figures", "q")))
	m.Files = append(m.Files, File{Path: "figures/q/s.svg", Size: 1, SHA256: m.Files[0].SHA256})
	require.ErrorContains(t, Verify([]*Meta{m}), m.Name()+": figures/q/s.svg: figures/q is a symbolic link")
	dst := filepath.Join(t.TempDir(), "figures")
	require.Error(t, MergeFiles([]*Meta{m}, dst))
	require.NoDirExists(t, dst)

	// A shard.json that links out of its directory.
	link := t.TempDir()
	require.NoError(t, os.Symlink(filepath.Join(m.Dir, MetaName), filepath.Join(link, MetaName)))
	_, err := ReadMeta(link)
	require.ErrorContains(t, err, filepath.Join(link, MetaName)+": ")
	require.ErrorContains(t, err, "escapes")
}

// TestMergeStageChecksTheCopiedBytes: stage refuses bytes that differ
// from the record (a shard changed after Verify) and leaves no temporary.
func TestMergeStageChecksTheCopiedBytes(t *testing.T) {
	t.Parallel()
	m := shardDir(t, 0, 1, map[string]string{"a.svg": "a"})
	root, err := os.OpenRoot(m.Dir)
	require.NoError(t, err)
	defer root.Close()
	dir := t.TempDir()
	f := m.Files[0]
	f.Size = 2
	_, err = stage(root, m, f, filepath.Join(dir, "a.svg"))
	require.ErrorContains(t, err, "figures/a.svg changed after the shard finished: 1 bytes, 2 recorded")
	require.Empty(t, entries(t, dir)[filepath.Join(dir, "a.svg")])
	ents, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Empty(t, ents, "no temporary left")
}
