// Package tomlfile decodes TOML files strictly, with errors that name the
// file and line: a syntax error, a key the destination does not have, a
// value of the wrong type and a missing required key all read
// "path:line: message".
//
// It wraps github.com/BurntSushi/toml, whose metadata knows which keys were
// decoded but not where keys are, so File keeps its own index of the line
// on which each key is assigned.
package tomlfile

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
)

// File is a decoded TOML file.
type File struct {
	Path  string
	md    toml.MetaData
	lines map[string]int // dotted key path (array indices dropped) → first line
}

// Decode reads path and decodes it into v strictly. Keys under the
// top-level tables named in deferred are not checked: decode them later
// with DecodePrimitive.
func Decode(path string, v any, deferred ...string) (*File, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return DecodeBytes(path, b, v, deferred...)
}

var lineRE = regexp.MustCompile(`^toml: line (\d+) \(last key "([^"]*)"\): (.*)$`)

// DecodeBytes is Decode on the content b of the file named path.
func DecodeBytes(path string, b []byte, v any, deferred ...string) (*File, error) {
	f := &File{Path: path, lines: indexKeys(string(b))}
	md, err := toml.Decode(string(b), v)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			line, key := parseErrorLine(b, pe), pe.LastKey
			if key != "" && line != pe.Position.Line && f.Line(strings.Split(key, ".")...) != line {
				key = "" // the last key read is on another line, not the one at fault
			}
			msg := pe.Message
			if key != "" {
				msg = fmt.Sprintf("field %q: %s", key, pe.Message)
			}
			return nil, fmt.Errorf("%s:%d: %s", path, line, msg)
		}
		if m := lineRE.FindStringSubmatch(err.Error()); m != nil {
			return nil, fmt.Errorf("%s:%s: field %q: %s", path, m[1], m[2], m[3])
		}
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	f.md = md
	return f, f.undecoded(func(k toml.Key) bool {
		for _, d := range deferred {
			if len(k) > 0 && k[0] == d {
				return false
			}
		}
		return true
	})
}

// parseErrorLine is the line of a syntax error. The TOML lexer reports
// some errors it meets at the end of a line (an unclosed "[sweep" header)
// on the next line, having counted the newline it stopped at; an error at
// a newline belongs to the line the newline ends, counted here from the
// error's byte offset.
func parseErrorLine(b []byte, pe toml.ParseError) int {
	if s := pe.Position.Start; s > 0 && s < len(b) && b[s] == '\n' {
		return 1 + bytes.Count(b[:s], []byte{'\n'})
	}
	return pe.Position.Line
}

// DecodePrimitive decodes a deferred value p (of the top-level key name)
// into v strictly.
func (f *File) DecodePrimitive(name string, p toml.Primitive, v any) error {
	if err := f.md.PrimitiveDecode(p, v); err != nil {
		if m := lineRE.FindStringSubmatch(err.Error()); m != nil {
			return fmt.Errorf("%s:%s: field %q: %s", f.Path, m[1], m[2], m[3])
		}
		return fmt.Errorf("%s:%d: %s: %v", f.Path, f.Line(name), name, err)
	}
	return f.undecoded(func(k toml.Key) bool { return len(k) > 0 && k[0] == name })
}

func (f *File) undecoded(consider func(toml.Key) bool) error {
	for _, k := range f.md.Undecoded() {
		if !consider(k) {
			continue
		}
		return fmt.Errorf("%s:%d: unknown field %q", f.Path, f.Line(k...), k.String())
	}
	return nil
}

// Defined reports whether the key path is set in the file.
func (f *File) Defined(key ...string) bool { return f.md.IsDefined(key...) }

// Line returns the line on which the key path is assigned (array-of-table
// indices are not part of the path, so the first occurrence is returned),
// or of its nearest assigned parent; 1 if none is found.
func (f *File) Line(key ...string) int {
	for n := len(key); n > 0; n-- {
		if l, ok := f.lines[strings.Join(key[:n], ".")]; ok {
			return l
		}
	}
	return 1
}

// Errorf returns an error "path:line: message" for the key path.
func (f *File) Errorf(key []string, format string, args ...any) error {
	return fmt.Errorf("%s:%d: %s", f.Path, f.Line(key...), fmt.Sprintf(format, args...))
}

// Require returns an error naming the first of the dotted key paths that is
// not set in the file.
func (f *File) Require(keys ...string) error {
	for _, k := range keys {
		parts := strings.Split(k, ".")
		if !f.md.IsDefined(parts...) {
			return f.Errorf(parts[:len(parts)-1], "missing required field %q", k)
		}
	}
	return nil
}

// indexKeys finds the line of every key assignment and table header.
func indexKeys(s string) map[string]int {
	out := map[string]int{}
	table := ""
	for i, raw := range strings.Split(s, "\n") {
		line := strings.TrimSpace(raw)
		if line == "" || line[0] == '#' {
			continue
		}
		if strings.HasPrefix(line, "[") {
			name := strings.Trim(strings.SplitN(line, "]", 2)[0], "[ ")
			name = strings.Trim(strings.SplitN(name, "#", 2)[0], " ")
			table = unquoteKey(name)
			if _, ok := out[table]; !ok {
				out[table] = i + 1
			}
			continue
		}
		k, _, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		key := unquoteKey(strings.TrimSpace(k))
		if table != "" {
			key = table + "." + key
		}
		if _, ok := out[key]; !ok {
			out[key] = i + 1
		}
		// Inline tables: index their keys on the same line.
		if _, v, _ := strings.Cut(line, "="); strings.HasPrefix(strings.TrimSpace(v), "{") {
			for _, part := range strings.Split(strings.Trim(strings.TrimSpace(v), "{}"), ",") {
				if ik, _, ok := strings.Cut(part, "="); ok {
					full := key + "." + unquoteKey(strings.TrimSpace(ik))
					if _, ok := out[full]; !ok {
						out[full] = i + 1
					}
				}
			}
		}
	}
	return out
}

func unquoteKey(k string) string {
	parts := strings.Split(k, ".")
	for i, p := range parts {
		p = strings.TrimSpace(p)
		if u, err := strconv.Unquote(p); err == nil {
			p = u
		} else {
			p = strings.Trim(p, "'")
		}
		parts[i] = p
	}
	return strings.Join(parts, ".")
}
