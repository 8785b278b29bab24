package importer

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"pslab/engine/dataset"
)

// PhillySchema is one row per job of the Philly cluster trace, in file
// order.
var PhillySchema = &dataset.Schema{Name: "philly_jobs", Columns: []dataset.Column{
	{Name: "timestamp", Type: dataset.Int64, Unit: "s", Rule: dataset.NonNegative,
		Doc: "submission time, seconds since 1970-01-01 00:00:00, reading the file's zone-less wall-clock time as UTC"},
	{Name: "duration", Type: dataset.Float64, Unit: "s", Rule: dataset.NonNegative, Doc: "run time of the job"},
	{Name: "num_gpus", Type: dataset.Int64, Unit: "GPUs", Rule: dataset.Positive, Doc: "GPUs allocated to the job"},
	{Name: "gpu_time", Type: dataset.Float64, Unit: "GPU·s", Rule: dataset.NonNegative, Doc: "duration × num_gpus"},
	{Name: "cluster", Type: dataset.String, Doc: "anonymized virtual-cluster identifier"},
}}

// Provenance facts of the Philly trace as shipped in ../shared/datasets.
const (
	PhillySource = "Microsoft Philly cluster trace (github.com/msr-fiddle/philly-traces) as preprocessed by " +
		"github.com/petuum/adaptdl, branch osdi21-artifact, simulator/traces/philly.csv"
	PhillyLicence = "Apache-2.0 (adaptdl); the Philly trace is released by Microsoft for research"
)

// phillyHeader is the exact header the importer accepts.
var phillyHeader = []string{"timestamp", "duration", "num_gpus", "gpu_time", "cluster"}

// phillyTime is the layout of the timestamp column.
const phillyTime = "2006-01-02 15:04:05"

// ReadPhilly streams the Philly CSV from r (one record in memory at a
// time) into a table of PhillySchema with provenance prov. name is used
// in errors, which give "name:line: column: problem". The header must be
// exactly timestamp,duration,num_gpus,gpu_time,cluster. A row is rejected
// if it has the wrong number of fields, a timestamp not in the form
// "2006-01-02 15:04:05", a duration or gpu_time that is not a finite
// number ≥ 0, a num_gpus that is not a whole number ≥ 1, an empty
// cluster, or a gpu_time that differs from duration × num_gpus by more
// than 1e-9 relative (the column is derived; a mismatch means shifted
// columns). Blank lines are skipped.
func ReadPhilly(r io.Reader, name string, prov dataset.Provenance) (*dataset.Table, error) {
	cr, err := openCSV(r, name, phillyHeader)
	if err != nil {
		return nil, err
	}
	t := dataset.NewTable(PhillySchema, prov)
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, csvError(name, err)
		}
		line, _ := cr.FieldPos(0)
		bad := func(col, format string, args ...any) error {
			return fmt.Errorf("%s:%d: column %s: %s", name, line, col, fmt.Sprintf(format, args...))
		}
		if len(rec) != len(phillyHeader) {
			return nil, fmt.Errorf("%s:%d: %d fields, want %d (%s)", name, line, len(rec), len(phillyHeader), strings.Join(phillyHeader, ","))
		}
		ts, err := time.Parse(phillyTime, rec[0])
		if err != nil {
			return nil, bad("timestamp", "%q is not a time of the form %q", rec[0], phillyTime)
		}
		if ts.Unix() < 0 {
			return nil, bad("timestamp", "%q is before 1970", rec[0])
		}
		dur, err := nonNegative(rec[1])
		if err != nil {
			return nil, bad("duration", "%v", err)
		}
		gpus, err := wholeNumber(rec[2])
		if err != nil || gpus < 1 {
			return nil, bad("num_gpus", "%q is not a whole number ≥ 1", rec[2])
		}
		gt, err := nonNegative(rec[3])
		if err != nil {
			return nil, bad("gpu_time", "%v", err)
		}
		if want := dur * float64(gpus); math.Abs(gt-want) > 1e-9*math.Max(1, want) {
			return nil, bad("gpu_time", "%v GPU·s, but duration × num_gpus = %v", gt, want)
		}
		if strings.TrimSpace(rec[4]) == "" {
			return nil, bad("cluster", "empty")
		}
		if err := t.Append(ts.Unix(), dur, gpus, gt, rec[4]); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
	}
	if t.Len() == 0 {
		return nil, fmt.Errorf("%s: no jobs after the header", name)
	}
	return t, nil
}

// csvError formats an encoding/csv error as "name:line: problem".
func csvError(name string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s:%d: %v", name, pe.Line, pe.Err)
	}
	return fmt.Errorf("%s: %w", name, err)
}

// nonNegative parses a finite number ≥ 0.
func nonNegative(s string) (float64, error) {
	x, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a number", s)
	}
	if math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
		return 0, fmt.Errorf("%v is not a finite number ≥ 0", x)
	}
	return x, nil
}

// wholeNumber parses an integer written as "8" or "8.0".
func wholeNumber(s string) (int64, error) {
	s = strings.TrimSpace(s)
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return n, nil
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil || x != math.Trunc(x) || math.Abs(x) > 1<<53 {
		return 0, fmt.Errorf("%q is not a whole number", s)
	}
	return int64(x), nil
}

// openCSV returns a reader of name positioned after its header, which must
// be exactly want: an empty file or another header is an error naming the
// file (and line 1).
func openCSV(r io.Reader, name string, want []string) (*csv.Reader, error) {
	cr := csv.NewReader(r)
	cr.ReuseRecord = true
	cr.FieldsPerRecord = -1 // checked by the caller, with a clearer message
	head, err := cr.Read()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: empty file, want header %s", name, strings.Join(want, ","))
		}
		return nil, csvError(name, err)
	}
	if strings.Join(head, ",") != strings.Join(want, ",") {
		return nil, fmt.Errorf("%s:1: header %q, want %q", name, strings.Join(head, ","), strings.Join(want, ","))
	}
	return cr, nil
}
