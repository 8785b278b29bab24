package measured

import (
	"fmt"

	"pslab/engine/dataset"
)

// PointsFile is the per-point judgement a testbed configuration directory
// holds since accounting version 3 (engine/testbed/collection,
// PointsSchema): one row per W and dilation, with a verdict.
const PointsFile = "points.arrow"

// VerdictHolds is the verdict of a point that holds every limit, its
// interval and, where stretched, dilation (engine/testbed doc, "Judging a
// point").
const VerdictHolds = "holds"

// pointVerdicts reads the verdicts of the unstretched points of a
// points table: its columns workers (int64), dilation (float64) and
// verdict (string).
func pointVerdicts(t *dataset.Table) (map[int]string, error) {
	for _, c := range []struct {
		name string
		typ  dataset.Type
	}{{"workers", dataset.Int64}, {"dilation", dataset.Float64}, {"verdict", dataset.String}} {
		i := t.Schema.Index(c.name)
		if i < 0 || t.Schema.Columns[i].Type != c.typ {
			return nil, fmt.Errorf("%s: no %s column %q", PointsFile, c.typ, c.name)
		}
	}
	out := map[int]string{}
	ws, ds, vs := t.Ints("workers"), t.Floats("dilation"), t.Strings("verdict")
	for i := range ws {
		if ds[i] != 1 {
			continue
		}
		if _, dup := out[int(ws[i])]; dup {
			return nil, fmt.Errorf("%s: W = %d twice at dilation 1", PointsFile, ws[i])
		}
		out[int(ws[i])] = vs[i]
	}
	return out, nil
}
