package golden

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/BurntSushi/toml"
)

// checkLines locates the [[check]] entries of a golden file's text: the
// line (1-based) of each "[[check]]" header, in order, so that an error in
// check i names its own line. The TOML decoder keys its positions by key
// path without the array index, so it would give every check the line of
// the last one.
type checkLines struct {
	text    []string // the file's lines
	headers []int    // line of the i-th [[check]] header
}

// newCheckLines indexes the [[check]] headers of b.
func newCheckLines(b []byte) checkLines {
	cl := checkLines{text: strings.Split(string(b), "\n")}
	for i, raw := range cl.text {
		line := strings.Join(strings.Fields(raw), "")
		if strings.HasPrefix(line, "[[check]]") {
			cl.headers = append(cl.headers, i+1)
		}
	}
	return cl
}

// header is the line of check i's [[check]] header (1 if unknown).
func (cl checkLines) header(i int) int {
	if i >= 0 && i < len(cl.headers) {
		return cl.headers[i]
	}
	return 1
}

// key is the line of key inside check i (its header's line if the key is
// not found there).
func (cl checkLines) key(i int, key string) int {
	start := cl.header(i)
	end := len(cl.text)
	if i+1 < len(cl.headers) {
		end = cl.headers[i+1] - 1
	}
	for n := start; n < end; n++ {
		k, _, ok := strings.Cut(cl.text[n], "=")
		if ok && strings.Trim(strings.TrimSpace(k), `"'`) == key {
			return n + 1
		}
	}
	return start
}

// decodeErrorRE is the text of the decoder's type errors, which carry the
// line of the key's last occurrence in the file (the wrong check's).
var decodeErrorRE = regexp.MustCompile(`^toml: line \d+ \(last key "([^"]*)"\): (.*)$`)

// locateDecodeError finds, for a file that failed to decode, the check
// whose value has the wrong type: it decodes the checks one at a time and
// returns the error located at the offending key of the first that fails
// (nil if none does: the error is elsewhere and the decoder's own line
// stands).
func locateDecodeError(path string, b []byte) error {
	var raw struct {
		Check []toml.Primitive `toml:"check"`
	}
	md, err := toml.Decode(string(b), &raw)
	if err != nil {
		return nil
	}
	cl := newCheckLines(b)
	for i, p := range raw.Check {
		var c Check
		err := md.PrimitiveDecode(p, &c)
		if err == nil {
			continue
		}
		last, msg := "", err.Error()
		var pe toml.ParseError
		if errors.As(err, &pe) {
			last, msg = pe.LastKey, pe.Message
		} else if m := decodeErrorRE.FindStringSubmatch(msg); m != nil {
			last, msg = m[1], m[2]
		}
		if last == "" {
			return fmt.Errorf("%s:%d: check %d: %s", path, cl.header(i), i, msg)
		}
		return fmt.Errorf("%s:%d: check %d: field %q: %s", path, cl.key(i, strings.TrimPrefix(last, "check.")), i, last, msg)
	}
	return nil
}
