package shard

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// FiguresDir is the one directory a run shard's outputs may be listed
// under: every File.Path is "figures/<path>", copied by MergeFiles to
// <path> under the merge's output directory.
const FiguresDir = "figures"

// maxMetaSize bounds the shard.json ParseMeta accepts (a real one is a
// few kB: one line per item and per output file).
const maxMetaSize = 64 << 20

// MetaError is a malformed shard.json: File is its path, Field the JSON
// field at fault as a path into the document ("files[2].path"), or ""
// when the file as a whole is not one JSON object, Reason what is wrong.
type MetaError struct {
	File, Field, Reason string
}

// Error returns "<file>: field <field>: <reason>", or "<file>: <reason>"
// without a field.
func (e *MetaError) Error() string {
	if e.Field == "" {
		return fmt.Sprintf("%s: %s", e.File, e.Reason)
	}
	return fmt.Sprintf("%s: field %s: %s", e.File, e.Field, e.Reason)
}

// ParseMeta parses b as the shard.json of the shard directory dir and
// validates it (Validate), setting Dir. It never panics, whatever b is:
// every error is a *MetaError naming dir's shard.json and, unless b is
// not one JSON object, the field at fault. It refuses what encoding/json
// would let pass silently: unknown fields, a field given twice (in any
// letter case), data after the object.
func ParseMeta(b []byte, dir string) (*Meta, error) {
	file := filepath.Join(dir, MetaName)
	if len(b) > maxMetaSize {
		return nil, &MetaError{file, "", fmt.Sprintf("%d bytes, more than a shard.json can be (%d)", len(b), maxMetaSize)}
	}
	if err := checkKeys(b); err != nil {
		err.File = file
		return nil, err
	}
	var m Meta
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return nil, decodeError(file, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, &MetaError{file, "", "data after the JSON object"}
	}
	m.Dir = dir
	if err := m.Validate(); err != nil {
		var me *MetaError
		if errors.As(err, &me) {
			me.File = file
		}
		return nil, err
	}
	return &m, nil
}

// decodeError turns an encoding/json error into a *MetaError naming the
// field where it can.
func decodeError(file string, err error) *MetaError {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return &MetaError{file, "", fmt.Sprintf("not valid JSON at byte %d: %v", syn.Offset, err)}
	case errors.As(err, &typ) && typ.Field == "":
		return &MetaError{file, "", fmt.Sprintf("not a JSON object but %s", typ.Value)}
	case errors.As(err, &typ):
		return &MetaError{file, typ.Field, fmt.Sprintf("want %s, got JSON %s", typ.Type, typ.Value)}
	}
	if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		if key, err := strconv.Unquote(name); err == nil {
			name = key
		}
		return &MetaError{file, fieldName("", name), "unknown field"}
	}
	return &MetaError{file, "", err.Error()}
}

// checkKeys walks the JSON document b: one object, no key twice in an
// object (encoding/json matches keys to fields ignoring case and keeps
// the last, so "files" given twice would hide the first list).
func checkKeys(b []byte) *MetaError {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return &MetaError{Reason: fmt.Sprintf("not valid JSON: %v", err)}
	}
	if tok != json.Delim('{') {
		return &MetaError{Reason: fmt.Sprintf("not a JSON object but %v", tok)}
	}
	return walkObject(dec, "", 0)
}

// walkObject reads the rest of an object whose '{' dec has read.
func walkObject(dec *json.Decoder, at string, depth int) *MetaError {
	seen := map[string]string{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return &MetaError{Field: at, Reason: fmt.Sprintf("not valid JSON: %v", err)}
		}
		key, _ := tok.(string)
		field := fieldName(at, key)
		if prev, ok := seen[fold(key)]; ok {
			return &MetaError{Field: field, Reason: fmt.Sprintf("given twice (also as %q)", prev)}
		}
		seen[fold(key)] = key
		if err := walkValue(dec, field, depth+1); err != nil {
			return err
		}
	}
	return closing(dec, at)
}

// fieldName returns the path of key in the object at field at ("" for
// the top level): at.key, with an empty key written "".
func fieldName(at, key string) string {
	if key == "" {
		key = `""`
	}
	if at == "" {
		return key
	}
	return at + "." + key
}

// MaxMetaDepth bounds the nesting of shard.json: pslab writes 3 levels,
// and each level costs the path of its field, so deeper input (100,000
// levels took over 20 s) is refused at once.
const MaxMetaDepth = 32

// walkValue reads one value at field at, nested depth levels deep,
// checking the objects in it.
func walkValue(dec *json.Decoder, at string, depth int) *MetaError {
	if depth > MaxMetaDepth {
		return &MetaError{Field: at, Reason: fmt.Sprintf("nested more than %d levels deep (shard.MaxMetaDepth)", MaxMetaDepth)}
	}
	tok, err := dec.Token()
	if err != nil {
		return &MetaError{Field: at, Reason: fmt.Sprintf("not valid JSON: %v", err)}
	}
	switch tok {
	case json.Delim('{'):
		return walkObject(dec, at, depth)
	case json.Delim('['):
		for i := 0; dec.More(); i++ {
			if err := walkValue(dec, fmt.Sprintf("%s[%d]", at, i), depth+1); err != nil {
				return err
			}
		}
		return closing(dec, at)
	}
	return nil
}

// closing reads the '}' or ']' that ends the value at field at.
func closing(dec *json.Decoder, at string) *MetaError {
	if _, err := dec.Token(); err != nil {
		return &MetaError{Field: at, Reason: fmt.Sprintf("not valid JSON: %v", err)}
	}
	return nil
}

// sha256Hex is a SHA-256 as ListFiles records it: 64 lowercase hex digits.
var sha256Hex = regexp.MustCompile(`^[0-9a-f]{64}$`)

// Validate reports the first field of m that no shard writes, as a
// *MetaError (File left empty for the caller): an empty command or
// revision, a shard index outside 0..count-1, more items than the total,
// an empty or repeated item, a failed item that is not an item, and an
// output file whose path CheckPath refuses, whose size is negative, whose
// SHA-256 is not 64 lowercase hex digits, or which collides with another
// (pathSet). A Meta that passes names only files strictly inside
// figures/.
func (m *Meta) Validate() error {
	bad := func(field, format string, args ...any) error {
		return &MetaError{Field: field, Reason: fmt.Sprintf(format, args...)}
	}
	switch {
	case len(m.Command) == 0 || m.Command[0] == "":
		return bad("command", "empty: want the pslab subcommand and its arguments")
	case m.Count < 1:
		return bad("count", "%d: want ≥ 1", m.Count)
	case m.Index < 0 || m.Index >= m.Count:
		return bad("index", "%d: want 0..%d for a shard of %d", m.Index, m.Count-1, m.Count)
	case m.Revision == "":
		return bad("revision", `empty (a binary that records none writes "unknown")`)
	case m.Total < 0 || len(m.Items) > m.Total:
		return bad("total", "%d, but the shard did %d items", m.Total, len(m.Items))
	}
	items := map[string]bool{}
	for i, it := range m.Items {
		if it == "" || items[it] {
			return bad(fmt.Sprintf("items[%d]", i), "%q: empty or done twice", it)
		}
		items[it] = true
	}
	failed := map[string]bool{}
	for i, it := range m.Failed {
		if !items[it] || failed[it] {
			return bad(fmt.Sprintf("failed[%d]", i), "%q: not an item of the shard, or failed twice", it)
		}
		failed[it] = true
	}
	var set pathSet
	for i, f := range m.Files {
		field := fmt.Sprintf("files[%d]", i)
		if err := CheckPath(f.Path); err != nil {
			return bad(field+".path", "%q: %v", f.Path, err)
		}
		if f.Size < 0 {
			return bad(field+".size", "%d: negative", f.Size)
		}
		if !sha256Hex.MatchString(f.SHA256) {
			return bad(field+".sha256", "%q: want 64 lowercase hex digits", f.SHA256)
		}
		if j, why := set.add(f.Path, i); why != "" {
			return bad(field+".path", "%q %s files[%d] %q", f.Path, why, j, m.Files[j].Path)
		}
	}
	return nil
}

// checkFiles reports output paths of different shards that collide
// (pathSet), naming both shards and both paths.
func checkFiles(shards []*Meta) error {
	var set pathSet
	var owners []listing
	for _, m := range shards {
		for _, f := range m.Files {
			o, why := set.add(f.Path, len(owners))
			switch {
			case why == "":
				owners = append(owners, listing{m, f})
			case owners[o].m == m:
				return fmt.Errorf("%s: %s %s %s", m.Name(), f.Path, why, owners[o].f.Path)
			case owners[o].f.Path == f.Path:
				return fmt.Errorf("%s and %s both wrote %s", owners[o].m.Name(), m.Name(), f.Path)
			default:
				return fmt.Errorf("%s lists %s, which %s %s of %s", m.Name(), f.Path, why, owners[o].f.Path, owners[o].m.Name())
			}
		}
	}
	return nil
}

// CheckPath reports why p cannot be the path of a shard's output file, or
// nil. p must be slash-separated, relative and clean (no "", "." or ".."
// element, no doubled or trailing slash), inside figures/ ("figures/" and
// at least one more element), with no element starting with "." (hidden
// files; atomicfile's temporaries) and no control character or
// backslash. A path it accepts names a file strictly inside figures/ on
// any operating system, and is a path ListFiles can return.
func CheckPath(p string) error {
	elems := strings.Split(p, "/")
	switch {
	case p == "":
		return errors.New("empty")
	case !utf8.ValidString(p):
		return errors.New("not UTF-8")
	case strings.ContainsFunc(p, func(r rune) bool { return r == '\\' || unicode.IsControl(r) }):
		return errors.New("contains a control character or a backslash")
	case strings.HasPrefix(p, "/") || filepath.IsAbs(filepath.FromSlash(p)):
		return errors.New("an absolute path: want figures/<file>")
	case containsElem(elems, ".."):
		return errors.New(`contains "..": want a path inside figures/`)
	case path.Clean(p) != p || containsElem(elems, "."):
		return fmt.Errorf("not a clean path (%q)", path.Clean(p))
	case len(elems) < 2 || elems[0] != FiguresDir:
		return errors.New("outside figures/: a shard's outputs are figures/<file>")
	}
	for _, e := range elems {
		if strings.HasPrefix(e, ".") {
			return fmt.Errorf("a hidden name %q: a shard lists none", e)
		}
	}
	if !filepath.IsLocal(filepath.FromSlash(p)) {
		return errors.New("not a local path on this system")
	}
	return nil
}

func containsElem(elems []string, e string) bool {
	for _, x := range elems {
		if x == e {
			return true
		}
	}
	return false
}

// pathSet collects output paths and finds those that cannot all be
// written into one directory: the same path twice, paths equal but for
// letter case (one file on a case-insensitive file system), and a path
// that is a file in one listing and a directory in another. Owners are
// the caller's indices.
type pathSet struct {
	files, dirs map[string]int // fold(path) → owner
	names       map[int]string // owner → its path
}

// add adds p of owner; on a collision it returns the owner of the other
// path and why they collide ("" when they do not).
func (s *pathSet) add(p string, owner int) (int, string) {
	if s.files == nil {
		s.files, s.dirs, s.names = map[string]int{}, map[string]int{}, map[int]string{}
	}
	k := fold(p)
	if o, ok := s.files[k]; ok {
		if s.names[o] == p {
			return o, "is listed twice: also as"
		}
		return o, "differs only in letter case (one file on some file systems) from"
	}
	if o, ok := s.dirs[k]; ok {
		return o, "would be both a file and a directory: it is a directory of"
	}
	for d := path.Dir(p); d != "." && d != "/"; d = path.Dir(d) {
		if o, ok := s.files[fold(d)]; ok {
			return o, "would be both a file and a directory: its directory is the file"
		}
	}
	s.files[k], s.names[owner] = owner, p
	for d := path.Dir(p); d != "." && d != "/"; d = path.Dir(d) {
		if _, ok := s.dirs[fold(d)]; !ok {
			s.dirs[fold(d)] = owner
		}
	}
	return 0, ""
}

// fold maps s to a key equal for strings equal under Unicode simple case
// folding (strings.EqualFold): each rune becomes the least of its orbit.
func fold(s string) string {
	return strings.Map(func(r rune) rune {
		least := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			least = min(least, f)
		}
		return least
	}, s)
}
