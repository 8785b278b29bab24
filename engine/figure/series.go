package figure

import (
	"math"
	"strings"

	"pslab/engine/dataset"
)

// series is one series of a result table, in row order.
type series struct {
	name, origin, model string
	x, y, lo, hi        []float64
	cats                []string
	// prefix is the part of the name its panel's title already says
	// (Panel.Match); the legend leaves it out.
	prefix string
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

// short is the name without its panel's prefix.
func (s *series) short() string {
	if s.prefix == "" || !strings.HasPrefix(s.name, s.prefix) {
		return s.name
	}
	rest := strings.TrimLeft(strings.TrimPrefix(s.name, s.prefix), " ,:")
	if rest == "" {
		return s.name
	}
	return rest
}

// label is the series' legend entry.
func (s *series) label() string {
	n := s.short()
	if s.origin == dataset.Derived || n == s.origin || strings.HasSuffix(n, " "+s.origin) {
		return n
	}
	return n + " (" + s.origin + ")"
}

// measured reports whether the series is a measurement (markers with
// error bars, no line).
func (s *series) measured() bool { return s.origin == dataset.Measured }

// reference reports whether the series is a reference line (a bottleneck
// bound or speedup limit), drawn thin, dark and without markers.
func (s *series) reference() bool { return s.model == "bound" }

// hasCI reports whether any point has an interval (y_lo < y_hi).
func (s *series) hasCI() bool {
	for i := range s.y {
		if s.lo[i] < s.hi[i] {
			return true
		}
	}
	return false
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

// parse splits the name into the configuration it is about (its colour
// key) and what drew it (its style key): "testbed VGG-16 bs 128: icpe20
// simulator" is ("testbed VGG-16 bs 128", "icpe20 simulator"), "AlexNet
// zhang" with model zhang is ("AlexNet", "zhang"), a measurement "AlexNet
// measured" or "testbed VGG-16" is (its configuration, "measured"); a name
// of neither form has no style key.
func (s *series) parse() (key, style string) {
	n := s.name
	if i := strings.Index(n, ": "); i > 0 {
		return n[:i], n[i+2:]
	}
	if s.measured() {
		for _, suf := range []string{" (measured)", " measured"} {
			if strings.HasSuffix(n, suf) && len(n) > len(suf) {
				return strings.TrimSuffix(n, suf), "measured"
			}
		}
		return n, "measured"
	}
	if m := s.model; m != "" && len(n) > len(m)+1 && strings.EqualFold(n[len(n)-len(m)-1:], " "+m) {
		return n[:len(n)-len(m)-1], n[len(n)-len(m):]
	}
	return n, ""
}

// colourKey is the name a series shares its colour by (parse's key).
func (s *series) colourKey() string {
	k, _ := s.parse()
	return k
}

// keys returns the colour key each series is drawn by. Series share a
// colour when they are about one configuration and either a measurement
// of it is drawn (the markers take their model's colour) or the names form
// a grid, several configurations each drawn by several models (icpe20
// Fig. 21's DNNs × simulator, Lin et al., Cynthia): then colour says the
// configuration and line style the model. Any other series gets a colour
// of its own (key "\x00" + name).
func keys(ser []*series) map[*series]string {
	measured, model := map[string]bool{}, map[string]bool{}
	styled := map[string]int{}
	for _, s := range ser {
		k, st := s.parse()
		if s.measured() {
			measured[k] = true
		} else {
			model[k] = true
		}
		if st != "" {
			styled[k]++
		}
	}
	grid := false
	if len(styled) >= 2 {
		for _, n := range styled {
			grid = grid || n >= 2
		}
	}
	out := map[*series]string{}
	for _, s := range ser {
		k, st := s.parse()
		if !(measured[k] && model[k]) && !(grid && st != "") {
			k = "\x00" + s.name
		}
		out[s] = k
	}
	return out
}

// style is how a series is drawn: a colour index and a variant (dash
// pattern and marker shape); grouped says the colour stands for a
// configuration shared with other series and the variant for what drew it
// (the legend can then list colours and variants apart).
type style struct {
	colour, variant int
	// mark indexes measuredShapes for a measured series: 0 for a plain
	// measurement, then one per other style key in order of appearance.
	mark      int
	grouped   bool
	key, what string // the colour key and the style key when grouped
}

// styles assigns colours by colour key in order of first appearance. A
// series sharing its colour takes the variant of its style key, the same
// in every colour (the simulator is solid wherever it appears); a series
// with a colour of its own takes the variant of its colour index, so that
// dash and marker tell series apart where colours cannot.
func styles(ser []*series) map[*series]style {
	out := map[*series]style{}
	ks := keys(ser)
	colour, variant, mark := map[string]int{}, map[string]int{}, map[string]int{"measured": 0}
	for _, s := range ser {
		k := ks[s]
		c, ok := colour[k]
		if !ok {
			c = len(colour)
			colour[k] = c
		}
		st := style{colour: c, variant: c}
		if !strings.HasPrefix(k, "\x00") {
			_, what := s.parse()
			if what == "" {
				what = s.name
			}
			v, ok := variant[what]
			if !ok && what != "measured" {
				v = len(variant)
				variant[what] = v
			}
			st = style{colour: c, variant: v, grouped: true, key: k, what: what}
			if s.measured() {
				m, ok := mark[what]
				if !ok {
					m = len(mark)
					mark[what] = m
				}
				st.mark = m
			}
		}
		out[s] = st
	}
	return out
}

// glyphFallback spells the characters the figures' typeface (Liberation
// Sans) lacks, which would otherwise vanish from the text.
var glyphFallback = strings.NewReplacer("⌈", "ceil(", "⌉", ")", "⌊", "floor(", "⌋", ")", "∝", "~")

// glyphs returns s with every character the typeface lacks spelled out.
func glyphs(s string) string { return glyphFallback.Replace(s) }
