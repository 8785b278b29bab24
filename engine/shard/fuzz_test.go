package shard

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// FuzzShardMeta feeds ParseMeta (shard.json's parser and validator) any
// bytes. It must not panic; every refusal is a *MetaError naming the file
// and either the field at fault (in its message) or why the file as a
// whole is not a shard.json; and every shard.json it accepts names only
// files strictly inside figures/, round-trips through Write's encoding,
// and passes Check alone without panicking.
func FuzzShardMeta(f *testing.F) {
	f.Add([]byte(validMeta))
	f.Fuzz(func(t *testing.T, b []byte) {
		dir := filepath.Join("shards", "shard-0-of-1")
		m, err := ParseMeta(b, dir)
		if err != nil {
			var me *MetaError
			if !errors.As(err, &me) {
				t.Fatalf("%T, not a *MetaError: %v", err, err)
			}
			if me.File != filepath.Join(dir, MetaName) || !strings.HasPrefix(err.Error(), me.File+": ") {
				t.Fatalf("error does not name the file: %v", err)
			}
			if me.Field != "" && !strings.Contains(err.Error(), "field "+me.Field+": ") {
				t.Fatalf("error does not name its field %q: %v", me.Field, err)
			}
			if me.Field == "" && !wholeFileReason(me.Reason) {
				t.Fatalf("error names no field: %v", err)
			}
			return
		}
		if m.Dir != dir {
			t.Fatalf("Dir %q", m.Dir)
		}
		if err := m.Validate(); err != nil {
			t.Fatalf("accepted, then Validate: %v", err)
		}
		out := filepath.Join("root", "figures")
		for _, f := range m.Files {
			if err := CheckPath(f.Path); err != nil {
				t.Fatalf("accepted path %q: %v", f.Path, err)
			}
			dst := filepath.Join(out, filepath.FromSlash(strings.TrimPrefix(f.Path, FiguresDir+"/")))
			rel, err := filepath.Rel(out, dst)
			if err != nil || rel == "." || !filepath.IsLocal(rel) {
				t.Fatalf("accepted path %q lands at %s, outside %s", f.Path, dst, out)
			}
		}
		again, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		m2, err := ParseMeta(again, dir)
		if err != nil {
			t.Fatalf("re-encoded %s: %v", again, err)
		}
		if !reflect.DeepEqual(normal(m), normal(m2)) {
			t.Fatalf("round trip: %+v, then %+v", m, m2)
		}
		_ = Check([]*Meta{m})
	})
}

// wholeFileReason reports whether reason is about the file as a whole,
// where no field is at fault.
func wholeFileReason(reason string) bool {
	for _, p := range []string{"not valid JSON", "not a JSON object", "data after the JSON object", "bytes, more than"} {
		if strings.Contains(reason, p) {
			return true
		}
	}
	return false
}

// normal returns m with empty and nil lists alike (omitempty drops an
// empty failed list).
func normal(m *Meta) Meta {
	c := *m
	for _, l := range []*[]string{&c.Command, &c.Items, &c.Failed} {
		if len(*l) == 0 {
			*l = nil
		}
	}
	if len(c.Files) == 0 {
		c.Files = nil
	}
	return c
}
