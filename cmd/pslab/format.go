package main

import (
	"encoding/csv"
	"encoding/json"
	"flag"
	"io"
	"math"
	"strconv"
)

// Machine-readable output: -format text|json|csv of list, check, run and
// provision. JSON keeps one type per field: numbers are JSON numbers, a
// value that does not exist (an unbounded bound, a check that found no
// value, NaN) is null, never a string; CSV writes the same values, null as
// an empty cell.

// formats are the values of -format of list, check, run and provision.
const formats = "text, json or csv"

// registerFormat adds -format to fs.
func registerFormat(fs *flag.FlagSet, csvDoc string) *string {
	return fs.String("format", "text", "output format: text, json or csv ("+csvDoc+")")
}

// checkFormat refuses a -format other than text, json or csv (a usage
// error naming the flag).
func checkFormat(cmd, format string) error {
	switch format {
	case "text", "json", "csv":
		return nil
	}
	return usagef("%s: -format %q: want %s", cmd, format, formats)
}

// num is x as a JSON number, or null when it is NaN or infinite (JSON
// has no such numbers).
func num(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}

// cell is a CSV cell of a nullable number: empty for null.
func cell(x *float64) string {
	if x == nil {
		return ""
	}
	return strconv.FormatFloat(*x, 'g', -1, 64)
}

// intCell is a CSV cell of a nullable integer: empty for null.
func intCell(x *int) string {
	if x == nil {
		return ""
	}
	return strconv.Itoa(*x)
}

// writeJSON writes v as indented JSON.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// writeCSV writes a header and rows.
func writeCSV(w io.Writer, header []string, rows [][]string) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(header); err != nil {
		return err
	}
	if err := cw.WriteAll(rows); err != nil {
		return err
	}
	return cw.Error()
}
