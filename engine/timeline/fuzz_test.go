package timeline

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"

	"pslab/engine/trace"
)

// maxFuzzInput bounds a fuzz input of FuzzRead: big enough for a real
// one-step timeline, small enough that each execution takes microseconds
// to a few milliseconds (larger inputs only repeat the same events).
const maxFuzzInput = 16 << 10

// FuzzRead: no input panics; an accepted timeline is a valid trace that
// survives Write and Read unchanged. Gzipped input is read too. Seeds:
// testdata/fuzz/FuzzRead (step 0 of the testbed's AlexNet trace as a
// timeline, plain and gzipped) and the timelines of the unit tests.
func FuzzRead(f *testing.F) {
	f.Add([]byte(stockTF))
	f.Add([]byte(twoSteps))
	f.Add(gz(f, stockTF))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > maxFuzzInput {
			return
		}
		tr, _, err := Read(bytes.NewReader(data), "fuzz.json", trace.Meta{})
		if err != nil {
			return
		}
		if err := tr.Validate(); err != nil {
			t.Fatalf("accepted an invalid trace: %v", err)
		}
		var buf bytes.Buffer
		if err := Write(&buf, tr); err != nil {
			return // e.g. names Read would take for partition naming
		}
		back, _, err := Read(bytes.NewReader(buf.Bytes()), "fuzz.json", trace.Meta{})
		if err != nil {
			t.Fatalf("cannot read back the written trace: %v\n%s", err, buf.Bytes())
		}
		want := nilDeps(tr)
		if len(back.Steps) != len(want.Steps) || back.Meta != want.Meta {
			t.Fatalf("round trip changed the trace: %+v vs %+v", back.Meta, want.Meta)
		}
		for s := range want.Steps {
			a, b := want.Steps[s].Ops, back.Steps[s].Ops
			for i := range a {
				if a[i].Name != b[i].Name || a[i].Resource != b[i].Resource || a[i].Start != b[i].Start ||
					a[i].End != b[i].End || a[i].Bytes != b[i].Bytes || !sameInts(a[i].Deps, b[i].Deps) {
					t.Fatalf("round trip changed step %d op %d: %+v vs %+v", s, i, a[i], b[i])
				}
			}
		}
	})
}

func sameInts(a, b []int32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// FuzzScanValue: the one-pass validator agrees with encoding/json on
// every complete JSON text (nesting below maxDepth) and never panics;
// resumed after every byte (the text given one byte longer each call) it
// gives the same end or error as in one call. Seeds:
// testdata/fuzz/FuzzScanValue.
func FuzzScanValue(f *testing.F) {
	f.Add([]byte(`{"a":[1,-0.5e+3,"x\u00e9\n",true,false,null,{}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		depth, deepest := 0, 0
		for _, c := range data {
			switch c {
			case '[', '{':
				depth++
				deepest = max(deepest, depth)
			case ']', '}':
				depth--
			}
		}
		if deepest >= maxDepth-1 {
			return
		}
		b := append(append([]byte(nil), data...), ' ')
		end, err := scanValue(b, 0)
		ours := err == nil && skipSpace(b, end) == len(b)
		if want := json.Valid(data); ours != want {
			t.Fatalf("scanValue says %v (end %d, err %v), encoding/json says %v for %q", ours, end, err, want, data)
		}
		var s scanner
		i, ierr := 0, errShort
		for n := 1; n <= len(b) && ierr == errShort; n++ {
			if i, ierr = s.scan(b[:n], i); ierr == errShort && i != n {
				t.Fatalf("short at %d of %d for %q", i, n, data)
			}
		}
		if (err == nil) != (ierr == nil) || (err == nil && i != end) || (err != nil && err.Error() != ierr.Error()) {
			t.Fatalf("resumed scan gives end %d, err %v; one call gives end %d, err %v for %q", i, ierr, end, err, data)
		}
		var se, ise *syntaxError
		if errors.As(err, &se) && errors.As(ierr, &ise) && se.at != ise.at {
			t.Fatalf("resumed scan fails at %d, one call at %d for %q", ise.at, se.at, data)
		}
	})
}
