package config

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// lineOf returns the 1-based line of s on which the first line starting
// with prefix is, at or after line from.
func lineOf(t *testing.T, s string, from int, prefix string) int {
	t.Helper()
	for i, l := range strings.Split(s, "\n") {
		if i+1 >= from && strings.HasPrefix(l, prefix) {
			return i + 1
		}
	}
	t.Fatalf("no line %q", prefix)
	return 0
}

// configIn writes s to root/configs.toml and returns its path.
func configIn(t *testing.T, root, s string) string {
	t.Helper()
	p := filepath.Join(root, "configs.toml")
	require.NoError(t, os.WriteFile(p, []byte(s), 0o644))
	return p
}

// TestDefaultsErrorsNameTheDefaultsKey: an invalid value in [defaults]
// (NaN, ±Inf, out of range) is reported at its own key and line under
// [defaults]. It used to be reported at the header of the first
// configuration that inherits it ("config 1 \"a\": testbed: job: device
// speed NaN"), naming neither [defaults] nor its line.
func TestDefaultsErrorsNameTheDefaultsKey(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ key, value, want string }{
		{"device_speed", "nan", "NaN, need a finite value > 0"},
		{"device_speed", "-inf", "-Inf, need a finite value > 0"},
		{"bandwidth_mbit", "nan", "NaN, need a finite value > 0"},
		{"bandwidth_mbit", "inf", "+Inf, need a finite value > 0"},
		{"bytes_scale", "nan", "NaN, need 0 < bytes_scale ≤ 1"},
		{"batch", "-1", "-1, need ≥ 0"},
		{"servers", "0", "0, need ≥ 1"},
		{"sync", `"ssp"`, `"ssp", want asp or bsp`},
		{"transport", `"udp"`, `"udp", want multiplexed or ordered`},
		{"order", `"sideways"`, `unknown order "sideways"`},
		{"seed", "-1", "negative value -1"},
		{"workers", "[0]", "0, need 1 ≤ W ≤ 256"},
		{"workers", "[]", "empty"},
		{"repetitions", "0", "0, need ≥ 1"},
		{"steps", "1", "1, need 2 ≤ steps ≤ 1000000"},
		{"average", "0", "0, need ≥ 1"},
		{"profile_steps", "1", "1, need ≥ 2"},
		{"phase_skip", "-1", "negative value -1"},
	} {
		t.Run(c.key+"="+c.value, func(t *testing.T) {
			t.Parallel()
			src := strings.Replace(goodConfigs, "\n"+c.key+" = ", "\n"+c.key+" = "+c.value+" # was ", 1)
			require.NotEqual(t, goodConfigs, src)
			_, err := loadConfigs(t, src)
			want := fmt.Sprintf("configs.toml:%d: [defaults] field %s: %s", lineOf(t, src, 1, c.key+" = "), c.key, c.want)
			require.ErrorContains(t, err, want)
			require.NotContains(t, err.Error(), "config 1")
		})
	}
	// A valid default overridden by every table is still checked, and a
	// bad value in a table stays at that table's header.
	src := strings.Replace(goodConfigs, "device_speed = 40", "device_speed = nan", 1) + "device_speed = 1\n"
	_, err := loadConfigs(t, strings.Replace(src, "batch = 512", "batch = 512\ndevice_speed = 1", 1))
	require.ErrorContains(t, err, fmt.Sprintf("configs.toml:%d: [defaults] field device_speed: NaN", lineOf(t, src, 1, "device_speed")))
	// A name in [defaults] would be ignored (every table needs its own).
	src = strings.Replace(goodConfigs, "batch = 0\n", "batch = 0\nname = \"x\"\n", 1)
	_, err = loadConfigs(t, src)
	require.ErrorContains(t, err, fmt.Sprintf("configs.toml:%d: [defaults] field name: ", lineOf(t, src, 1, "name = ")))
	src = goodConfigs + "device_speed = nan\n"
	_, err = loadConfigs(t, src)
	require.ErrorContains(t, err, fmt.Sprintf("configs.toml:%d: config 2 \"b\": ", lineOf(t, src, 1, `name = "b"`)-1))
}

// TestProfileDirConfinedToTheRoot: a profile_dir that leaves the root it
// is relative to (lexically, "../../etc", absolutely, "/etc", or through a
// symbolic link) is refused, naming the file, the line of the key and the
// key; the error of a symbolic link names the resolved target. "../../etc"
// used to be accepted and the profile read from /etc.
func TestProfileDirConfinedToTheRoot(t *testing.T) {
	t.Parallel()
	outside := t.TempDir()
	realOutside, err := filepath.EvalSymlinks(outside)
	require.NoError(t, err)
	inDefaults := func(dir string) string {
		return strings.Replace(goodConfigs, `profile_dir = "datasets/pipedream-profiles"`, fmt.Sprintf("profile_dir = %q", dir), 1)
	}
	inTable := func(dir string) string {
		return goodConfigs + fmt.Sprintf("\n[[config]]\nname = \"c\"\nmodel = \"alexnet\"\nprofile_dir = %q\n", dir)
	}
	for _, c := range []struct {
		name, src, key, want string
		link                 string // datasets/zoo links to this
	}{
		{name: "defaults ../../etc", src: inDefaults("../../etc"), key: "[defaults] field profile_dir",
			want: `"../../etc" leaves the root`},
		{name: "table ../../etc", src: inTable("../../etc"), key: `config 3 "c": field profile_dir`,
			want: `"../../etc" leaves the root`},
		{name: "defaults /etc", src: inDefaults("/etc"), key: "[defaults] field profile_dir", want: `"/etc" resolves to /etc, outside the root`},
		{name: "defaults symlink", src: inDefaults("datasets/zoo"), key: "[defaults] field profile_dir", link: outside,
			want: `"datasets/zoo" resolves to ` + realOutside + ", outside the root"},
		{name: "table symlink below", src: inTable("datasets/zoo/sub"), key: `config 3 "c": field profile_dir`, link: outside,
			want: `"datasets/zoo/sub" resolves to ` + filepath.Join(realOutside, "sub") + ", outside the root"},
		{name: "symlink to the parent", src: inDefaults("datasets/zoo"), key: "[defaults] field profile_dir", link: "../..",
			want: `"datasets/zoo" resolves to `},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			root := t.TempDir()
			if c.link != "" {
				require.NoError(t, os.Mkdir(filepath.Join(root, "datasets"), 0o755))
				require.NoError(t, os.Symlink(c.link, filepath.Join(root, "datasets", "zoo")))
			}
			p := configIn(t, root, c.src)
			_, err := LoadConfigs(p, root)
			line := lineOf(t, c.src, 1, "profile_dir = ")
			if !strings.HasPrefix(c.key, "[defaults]") {
				line = lineOf(t, c.src, lineOf(t, c.src, 1, "[[config]]"), "profile_dir = ")
			}
			require.ErrorContains(t, err, fmt.Sprintf("%s:%d: %s: %s", p, line, c.key, c.want))
			realRoot, rerr := filepath.EvalSymlinks(root)
			require.NoError(t, rerr)
			require.Regexp(t, `(leaves|outside) the root (`+regexp.QuoteMeta(root)+`|`+regexp.QuoteMeta(realRoot)+`)`, err.Error())
		})
	}
}

// TestProfileDirInsideTheRootAccepted: a missing directory, a link that
// stays inside the root and a root reached through a link are accepted.
func TestProfileDirInsideTheRootAccepted(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(root, "datasets", "real"), 0o755))
	require.NoError(t, os.Symlink("real", filepath.Join(root, "datasets", "zoo")))
	alias := filepath.Join(t.TempDir(), "alias")
	require.NoError(t, os.Symlink(root, alias))
	for _, dir := range []string{"datasets/zoo", "datasets/missing", ".", filepath.Join(root, "datasets", "zoo")} {
		src := strings.Replace(goodConfigs, `profile_dir = "datasets/pipedream-profiles"`, fmt.Sprintf("profile_dir = %q", dir), 1)
		for _, r := range []string{root, alias} {
			cs, err := LoadConfigs(configIn(t, root, src), r)
			require.NoError(t, err, "profile_dir %q root %s", dir, r)
			require.Len(t, cs, 2)
		}
	}
}
