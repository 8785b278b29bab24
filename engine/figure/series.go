package figure

import (
	"math"
	"sort"
	"strings"

	"pslab/engine/dataset"
)

// series is one series of a result table, in row order.
type series struct {
	name, origin, model string
	x, y, lo, hi        []float64
	cats                []string
}

// group returns the series in order of first appearance.
func group(t *dataset.Table) []*series {
	names, cats, origins, models := t.Strings("series"), t.Strings("category"), t.Strings("origin"), t.Strings("model")
	xs, ys, los, his := t.Floats("x"), t.Floats("y"), t.Floats("y_lo"), t.Floats("y_hi")
	var out []*series
	idx := map[string]*series{}
	for i := range names {
		s, ok := idx[names[i]]
		if !ok {
			s = &series{name: names[i], origin: origins[i], model: models[i]}
			idx[names[i]] = s
			out = append(out, s)
		}
		s.x = append(s.x, xs[i])
		s.y = append(s.y, ys[i])
		s.lo = append(s.lo, los[i])
		s.hi = append(s.hi, his[i])
		s.cats = append(s.cats, cats[i])
	}
	return out
}

// label is the series' legend entry.
func (s *series) label() string {
	if s.origin == dataset.Derived || strings.HasSuffix(s.name, " "+s.origin) {
		return s.name
	}
	return s.name + " (" + s.origin + ")"
}

// span returns the smallest non-zero and the largest |y| of the series,
// error bars included (0, 0 for an all-zero series).
func (s *series) span() (lo, hi float64) {
	lo = math.Inf(1)
	for i := range s.y {
		for _, v := range []float64{s.y[i], s.lo[i], s.hi[i]} {
			if v = math.Abs(v); v > 0 {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	if hi == 0 {
		return 0, 0
	}
	return lo, hi
}

// colourKey is the name a series shares its colour by: the part before
// ": " ("testbed VGG-16 bs 128: icpe20 simulator" and the measured
// "testbed VGG-16 bs 128"), else the name without a trailing "measured" or
// model name ("AlexNet measured", "AlexNet zhang").
func (s *series) colourKey() string {
	n := s.name
	if i := strings.Index(n, ": "); i >= 0 {
		return n[:i]
	}
	for _, suf := range []string{" (measured)", " measured", " " + s.model} {
		if len(suf) > 1 && strings.HasSuffix(n, suf) && len(n) > len(suf) {
			return strings.TrimSuffix(n, suf)
		}
	}
	return n
}

// keys returns the colour key each series is drawn by: its colourKey when
// a measured series and a model series share that key (the measurement
// takes the model's colour), else its own name.
func keys(ser []*series) map[*series]string {
	measured, model := map[string]bool{}, map[string]bool{}
	for _, s := range ser {
		if s.origin == dataset.Measured {
			measured[s.colourKey()] = true
		} else {
			model[s.colourKey()] = true
		}
	}
	out := map[*series]string{}
	for _, s := range ser {
		k := s.colourKey()
		if !measured[k] || !model[k] {
			k = "\x00" + s.name
		}
		out[s] = k
	}
	return out
}

// style is a series' colour index and its variant among the series that
// share the colour.
type style struct{ colour, variant int }

// styles assigns colours by colour key, in order of first appearance.
func styles(ser []*series) map[*series]style {
	out := map[*series]style{}
	ks := keys(ser)
	index := map[string]int{}
	used := map[string]int{}
	for _, s := range ser {
		k := ks[s]
		c, ok := index[k]
		if !ok {
			c = len(index)
			index[k] = c
		}
		out[s] = style{colour: c, variant: used[k]}
		used[k]++
	}
	return out
}

// splitByMagnitude splits the series into panels so that no panel holds
// two series whose values are more than MaxPanelRatio apart: a series
// joins the panel of the series above it unless its largest value is more
// than MaxPanelRatio below the smallest value already in that panel.
// A measurement stays with its model (keys). Panels are ordered by
// decreasing values; series keep their order within a panel.
func splitByMagnitude(ser []*series) [][]*series {
	type grp struct {
		key    string
		lo, hi float64
	}
	var groups []*grp
	byKey := map[string]*grp{}
	ks := keys(ser)
	for _, s := range ser {
		k := ks[s]
		g := byKey[k]
		if g == nil {
			g = &grp{key: k, lo: math.Inf(1)}
			byKey[k] = g
			groups = append(groups, g)
		}
		lo, hi := s.span()
		if hi > 0 {
			g.lo, g.hi = math.Min(g.lo, lo), math.Max(g.hi, hi)
		}
	}
	sorted := append([]*grp(nil), groups...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].hi > sorted[j].hi })
	panelOf := map[string]int{}
	panels, floor := 0, math.Inf(1)
	for _, g := range sorted {
		if panels == 0 || (g.hi > 0 && floor/g.hi > MaxPanelRatio) {
			panels++
			floor = math.Inf(1)
		}
		if g.hi > 0 {
			floor = math.Min(floor, g.lo)
		}
		panelOf[g.key] = panels - 1
	}
	out := make([][]*series, panels)
	for _, s := range ser {
		p := panelOf[ks[s]]
		out[p] = append(out[p], s)
	}
	return out
}
