package report

import (
	"math"
	"slices"
	"sort"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
)

// colFloats returns column name of t as float64s (integers converted),
// or nil if t has no such numeric column.
func colFloats(t arrow.Table, name string) []float64 {
	idx := t.Schema().FieldIndices(name)
	if len(idx) == 0 {
		return nil
	}
	out := make([]float64, 0, t.NumRows())
	for _, ch := range t.Column(idx[0]).Data().Chunks() {
		switch a := ch.(type) {
		case *array.Float64:
			out = append(out, a.Float64Values()...)
		case *array.Int64:
			for _, v := range a.Int64Values() {
				out = append(out, float64(v))
			}
		default:
			return nil
		}
	}
	return out
}

// colStrings returns column name of t as strings (numbers formatted), or
// nil if t has no such column.
func colStrings(t arrow.Table, name string) []string {
	idx := t.Schema().FieldIndices(name)
	if len(idx) == 0 {
		return nil
	}
	out := make([]string, 0, t.NumRows())
	for _, ch := range t.Column(idx[0]).Data().Chunks() {
		for i := 0; i < ch.Len(); i++ {
			out = append(out, ch.ValueStr(i))
		}
	}
	return out
}

// keysOf returns the keys of m in increasing order.
func keysOf[V any](m map[float64]V) []float64 {
	out := make([]float64, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Float64s(out)
	return out
}

// distinct returns the distinct values of v in increasing order.
func distinct(v []float64) []float64 {
	out := slices.Clone(v)
	sort.Float64s(out)
	return slices.Compact(out)
}

// quantile is the q-quantile of sorted d (nearest rank).
func quantile(d []float64, q float64) float64 {
	if len(d) == 0 {
		return math.NaN()
	}
	i := int(math.Ceil(q*float64(len(d)))) - 1
	return d[max(0, min(len(d)-1, i))]
}

// has reports whether t has every named column.
func has(t arrow.Table, names ...string) bool {
	for _, n := range names {
		if len(t.Schema().FieldIndices(n)) == 0 {
			return false
		}
	}
	return true
}

// dilation returns the time-dilation factor k of every row of a testbed
// table (column "dilation", accounting version 3), 1 where the file has
// no such column.
func dilation(t arrow.Table) []float64 {
	if k := colFloats(t, "dilation"); k != nil {
		return k
	}
	k := make([]float64, t.NumRows())
	for i := range k {
		k[i] = 1
	}
	return k
}
