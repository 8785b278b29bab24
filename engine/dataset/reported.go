package dataset

import (
	"fmt"
	"os"
	"strconv"

	"pslab/engine/tomlfile"
)

// ReportedSource is the human-readable source of a table of numbers printed
// in a paper (datasets/reported/<paper>/<name>.toml). Values are transcribed
// as printed, with the paper section of every row.
type ReportedSource struct {
	ID      string // "<paper>-<name>"
	Paper   string // icpe20, mascots18, cynthia or zhang
	Title   string
	Source  string // citation of where the numbers are printed
	Notes   string
	Columns []ReportedColumn
	Rows    []ReportedRow
}

// ReportedColumn declares one column of a reported table.
type ReportedColumn struct {
	Name        string
	Type        string // float64, int64 or string
	Unit        string
	Description string
}

// ReportedRow is one transcribed row and where it is printed.
type ReportedRow struct {
	Values  []any
	Section string
	Quote   string
}

// ReadReported decodes a reported-table source strictly and converts it to
// a Table whose columns are the declared ones plus "section" and "quote".
// Errors name the file and line.
func ReadReported(path string) (*Table, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseReported(path, b)
}

// ParseReported is ReadReported of the source b of file path.
func ParseReported(path string, b []byte) (*Table, error) {
	var src ReportedSource
	f, err := tomlfile.DecodeBytes(path, b, &src)
	if err != nil {
		return nil, err
	}
	if err := f.Require("id", "paper", "title", "source", "columns", "rows"); err != nil {
		return nil, err
	}
	switch src.Paper {
	case "icpe20", "mascots18", "cynthia", "zhang":
	default:
		return nil, f.Errorf([]string{"paper"}, "unknown paper %q (want icpe20, mascots18, cynthia or zhang)", src.Paper)
	}
	s := &Schema{Name: "reported:" + src.ID}
	for i, c := range src.Columns {
		typ, err := ParseType(c.Type)
		if err != nil || typ == Int32List {
			return nil, f.Errorf([]string{"columns", "type"}, "column %d %q: type %q (want float64, int64 or string)", i, c.Name, c.Type)
		}
		if c.Name == "" || s.Index(c.Name) >= 0 || c.Name == "section" || c.Name == "quote" {
			return nil, f.Errorf([]string{"columns", "name"}, "column %d: empty, duplicate or reserved name %q", i, c.Name)
		}
		s.Columns = append(s.Columns, Column{Name: c.Name, Type: typ, Unit: c.Unit, Doc: c.Description})
	}
	s.Columns = append(s.Columns,
		Column{Name: "section", Type: String, Doc: "where in the paper the row is printed"},
		Column{Name: "quote", Type: String, Doc: "the sentence that gives the number, for numbers in running text"})
	t := NewTable(s, Provenance{Origin: Reported, Source: src.Source, Notes: src.Notes,
		Licence: "facts transcribed from the published paper for research (citation in source)",
		Extra:   map[string]string{"title": src.Title, "paper": src.Paper, "id": src.ID}})
	for r, row := range src.Rows {
		if len(row.Values) != len(src.Columns) {
			return nil, f.Errorf([]string{"rows", "values"}, "row %d has %d values, %d columns declared", r, len(row.Values), len(src.Columns))
		}
		if row.Section == "" {
			return nil, f.Errorf([]string{"rows"}, "row %d: missing section", r)
		}
		vals := make([]any, 0, len(row.Values)+2)
		for i, v := range row.Values {
			cv, err := convert(s.Columns[i].Type, v)
			if err != nil {
				return nil, f.Errorf([]string{"rows", "values"}, "row %d column %q: %v", r, s.Columns[i].Name, err)
			}
			vals = append(vals, cv)
		}
		vals = append(vals, row.Section, row.Quote)
		if err := t.Append(vals...); err != nil {
			return nil, fmt.Errorf("%s: row %d: %w", path, r, err)
		}
	}
	if err := t.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return t, nil
}

func convert(typ Type, v any) (any, error) {
	switch typ {
	case Float64:
		switch x := v.(type) {
		case float64:
			return x, nil
		case int64:
			return float64(x), nil
		}
	case Int64:
		if x, ok := v.(int64); ok {
			return x, nil
		}
	case String:
		switch x := v.(type) {
		case string:
			return x, nil
		}
	}
	return nil, fmt.Errorf("value %s is %T, column is %s", strconv.Quote(fmt.Sprint(v)), v, typ)
}
