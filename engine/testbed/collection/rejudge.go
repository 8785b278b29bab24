package collection

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"

	"github.com/apache/arrow/go/v17/arrow/memory"

	"pslab/engine/atomicfile"
	"pslab/engine/dataset"
)

// rejudgeTol is the relative difference below which two float cells of a
// points or modes table are the same judgement: the diagnostics read
// back (ReadCommitted) sum their parts in another order than the
// collection did, and differ from the written ones in the last bits.
const rejudgeTol = 1e-9

// Rejudged computes the points and modes tables (PointsFile, ModesFile)
// of the committed configuration in dir from its committed runs under
// the current rules (ReadCommitted, Judge), with the provenance its
// points table has. A judging rule changes what is derived from the
// runs, never the runs: Rejudge writes these back.
func Rejudged(dir string, mem memory.Allocator) (map[string]*dataset.Table, error) {
	cm, err := ReadCommitted(dir, mem)
	if err != nil {
		return nil, err
	}
	// any schema: only its provenance is kept (an older points table
	// lacks the columns of newer rules)
	old, err := dataset.Read(filepath.Join(dir, PointsFile), nil, mem)
	if err != nil {
		return nil, err
	}
	points, stretched := Judge(cm.Runs, cm.Input)
	pt, err := pointsTable(old.Provenance, points, stretched)
	if err != nil {
		return nil, err
	}
	mt, err := modesTable(old.Provenance, points, stretched)
	if err != nil {
		return nil, err
	}
	return map[string]*dataset.Table{PointsFile: pt, ModesFile: mt}, nil
}

// Stale returns the names of the points and modes files of dir whose
// committed table is not the one Rejudged gives (sameTable), with the
// rejudged tables.
func Stale(dir string, mem memory.Allocator) ([]string, map[string]*dataset.Table, error) {
	tables, err := Rejudged(dir, mem)
	if err != nil {
		return nil, nil, err
	}
	var stale []string
	for _, name := range []string{PointsFile, ModesFile} {
		old, err := dataset.Read(filepath.Join(dir, name), tables[name].Schema, mem)
		if err != nil || !sameTable(old, tables[name]) {
			stale = append(stale, name)
		}
	}
	return stale, tables, nil
}

// Rejudge rewrites the stale points and modes tables of the committed
// configuration in dir (Stale), each atomically, and returns their
// names.
func Rejudge(dir string, mem memory.Allocator) ([]string, error) {
	stale, tables, err := Stale(dir, mem)
	if err != nil {
		return nil, err
	}
	for _, name := range stale {
		b, err := dataset.Encode(tables[name], mem)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", filepath.Join(dir, name), err)
		}
		if err := atomicfile.Write(filepath.Join(dir, name), b); err != nil {
			return nil, err
		}
	}
	return stale, nil
}

// sameTable reports whether a and b have the same schema and cells:
// strings and integers equal, floats equal within rejudgeTol (relative)
// or both NaN.
func sameTable(a, b *dataset.Table) bool {
	if a.Len() != b.Len() || len(a.Schema.Columns) != len(b.Schema.Columns) {
		return false
	}
	for i, c := range a.Schema.Columns {
		if b.Schema.Columns[i].Name != c.Name || b.Schema.Columns[i].Type != c.Type {
			return false
		}
		switch c.Type {
		case dataset.Float64:
			x, y := a.Floats(c.Name), b.Floats(c.Name)
			for k := range x {
				same := x[k] == y[k] || (math.IsNaN(x[k]) && math.IsNaN(y[k])) ||
					math.Abs(x[k]-y[k]) <= rejudgeTol*math.Max(math.Abs(x[k]), math.Abs(y[k]))
				if !same {
					return false
				}
			}
		case dataset.Int64:
			if !slices.Equal(a.Ints(c.Name), b.Ints(c.Name)) {
				return false
			}
		case dataset.String:
			if !slices.Equal(a.Strings(c.Name), b.Strings(c.Name)) {
				return false
			}
		default:
			return false // not a column of these tables
		}
	}
	return true
}

// RejudgeAll rejudges every committed configuration in dir (those with a
// points table), in name order, and prints what changed to w.
func RejudgeAll(dir string, w io.Writer) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	mem := memory.NewGoAllocator()
	for _, e := range entries {
		d := filepath.Join(dir, e.Name())
		if _, err := os.Stat(filepath.Join(d, PointsFile)); err != nil {
			continue
		}
		changed, err := Rejudge(d, mem)
		if err != nil {
			return fmt.Errorf("%s: %w", d, err)
		}
		if len(changed) > 0 {
			fmt.Fprintf(w, "rejudged %s: rewrote %v\n", d, changed)
		}
	}
	return nil
}
