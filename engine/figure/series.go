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

// scale is the largest |y| of the series, error bars included.
func (s *series) scale() float64 {
	m := 0.0
	for i := range s.y {
		m = math.Max(m, math.Max(math.Abs(s.y[i]), math.Max(math.Abs(s.lo[i]), math.Abs(s.hi[i]))))
	}
	return m
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

// style is a series' colour index and its variant among the series that
// share the colour.
type style struct{ colour, variant int }

// styles assigns colours by colour key, in order of first appearance.
func styles(ser []*series) map[*series]style {
	out := map[*series]style{}
	keys := map[string]int{}
	used := map[string]int{}
	for _, s := range ser {
		k := s.colourKey()
		c, ok := keys[k]
		if !ok {
			c = len(keys)
			keys[k] = c
		}
		out[s] = style{colour: c, variant: used[k]}
		used[k]++
	}
	return out
}

// splitByMagnitude splits the series into panels so that within a panel
// the largest scale is at most MaxPanelRatio times the smallest non-zero
// one; series sharing a colour key stay together. Panels are ordered by
// decreasing scale, series keep their order within a panel.
func splitByMagnitude(ser []*series) [][]*series {
	type grp struct {
		key   string
		scale float64
		first int
	}
	var groups []*grp
	byKey := map[string]*grp{}
	for i, s := range ser {
		k := s.colourKey()
		g := byKey[k]
		if g == nil {
			g = &grp{key: k, first: i}
			byKey[k] = g
			groups = append(groups, g)
		}
		g.scale = math.Max(g.scale, s.scale())
	}
	sorted := append([]*grp(nil), groups...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].scale > sorted[j].scale })
	panelOf := map[string]int{}
	panels, top := 0, 0.0
	for _, g := range sorted {
		switch {
		case panels == 0:
			panels, top = 1, g.scale
		case g.scale > 0 && top/g.scale > MaxPanelRatio:
			panels, top = panels+1, g.scale
		}
		panelOf[g.key] = panels - 1
	}
	out := make([][]*series, panels)
	for _, s := range ser {
		p := panelOf[s.colourKey()]
		out[p] = append(out[p], s)
	}
	return out
}
