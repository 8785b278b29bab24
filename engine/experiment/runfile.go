package experiment

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"time"

	"pslab/engine/atomicfile"
)

// RunFile is what `pslab run` keeps of a run besides the figure and the
// result table: the named metrics golden checks test and the run time.
// It is figures/<paper>/<name>.run.json; the report reads it.
type RunFile struct {
	ID string `json:"id"`
	// ElapsedS is the wall time of the experiment's kind in seconds, 0 if
	// never recorded. Only a run with Options.RecordTime (pslab run
	// -record-time) writes it; other runs keep the recorded value, so
	// `make figures` writes the same bytes on every run and machine.
	ElapsedS float64 `json:"elapsed_s"`
	// Metrics are Result.Metrics; non-finite values are the strings "NaN",
	// "+Inf" and "-Inf".
	Metrics map[string]Float `json:"metrics"`
}

// Float is a float64 whose JSON form also holds NaN and ±Inf (as strings).
type Float float64

// MarshalJSON writes the shortest decimal that reads back as f.
func (f Float) MarshalJSON() ([]byte, error) {
	v := float64(f)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return []byte(strconv.Quote(strconv.FormatFloat(v, 'g', -1, 64))), nil
	}
	return []byte(strconv.FormatFloat(v, 'g', -1, 64)), nil
}

// UnmarshalJSON reads a number or one of "NaN", "+Inf", "-Inf".
func (f *Float) UnmarshalJSON(b []byte) error {
	s := string(b)
	if u, err := strconv.Unquote(s); err == nil {
		s = u
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return fmt.Errorf("metric value %s: %w", b, err)
	}
	*f = Float(v)
	return nil
}

// RunFilePath returns figures/<paper>/<name>.run.json under root.
func RunFilePath(root string, s *Spec) string { return FigurePath(root, s, ".run.json") }

// ReadRunFile reads a run file. Errors name the file.
func ReadRunFile(path string) (*RunFile, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseRunFile(path, b)
}

// ParseRunFile decodes the run file path whose content is b: one JSON
// object with known fields only, an id, and a run time that is a finite
// number of seconds ≥ 0. Errors name the file.
func ParseRunFile(path string, b []byte) (*RunFile, error) {
	var r RunFile
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if err := dec.Decode(new(json.RawMessage)); err != io.EOF {
		return nil, fmt.Errorf("%s: data after the run's object", path)
	}
	if r.ID == "" {
		return nil, fmt.Errorf("%s: no id", path)
	}
	if !(r.ElapsedS >= 0) || math.IsInf(r.ElapsedS, 0) {
		return nil, fmt.Errorf("%s: elapsed_s %v is not a run time in seconds (finite, ≥ 0)", path, r.ElapsedS)
	}
	return &r, nil
}

// writeRunFile writes the run file of s under out with the run time
// elapsed if record is set, else with the run time recorded in the run file
// under root (out is root, or a shard directory).
func writeRunFile(root, out string, s *Spec, res *Result, elapsed time.Duration, record bool) error {
	path := RunFilePath(out, s)
	rf := RunFile{ID: s.ID, Metrics: map[string]Float{}}
	if record {
		rf.ElapsedS = roundSig(elapsed.Seconds(), 2)
	} else if old, err := ReadRunFile(RunFilePath(root, s)); err == nil {
		rf.ElapsedS = old.ElapsedS
	} // a missing or unreadable file is (re)written without a run time
	for k, v := range res.Metrics {
		rf.Metrics[k] = Float(v)
	}
	b, err := json.MarshalIndent(rf, "", "  ") // map keys sorted: byte-stable
	if err != nil {
		return fmt.Errorf("%s: %w", s.ID, err)
	}
	return atomicfile.Write(path, append(b, '\n'))
}

// roundSig rounds v to n significant digits.
func roundSig(v float64, n int) float64 {
	if v == 0 {
		return 0
	}
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', n, 64), 64)
	return r
}
