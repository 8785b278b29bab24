package report

import (
	"html"
	"html/template"
	"math"
	"slices"
	"strconv"
	"strings"
)

// chart is the small plot of a dataset page: one panel with linear or
// log10 axes, drawn as inline SVG by hand (a few kB: no script, no font
// file, nothing fetched). Its bytes depend only on its fields.
type chart struct {
	XLabel, YLabel string
	XLog, YLog     bool
	// XCats, when set, names x = 0, 1, ... instead of numeric ticks; YCats
	// names y = 0, 1, ... (the lanes of a timeline), top to bottom.
	XCats, YCats []string
	// XTicks, when set, are the x ticks (every W of a sweep); the axis
	// spans them with a margin.
	XTicks []float64
	Series []series
	// Rules are horizontal reference lines (a budget, a bound).
	Rules []rule
}

// seriesKind is how a series is drawn.
type seriesKind uint8

const (
	lines  seriesKind = iota // a polyline with a marker per point
	points                   // markers only
	rects                    // one rectangle per element: [X, X1] × [Y0, Y]
)

// series is one named set of marks in one colour.
type series struct {
	Name string
	Kind seriesKind
	X, Y []float64
	// Lo and Hi, when set, draw an error bar from Lo to Hi at each point.
	Lo, Hi []float64
	// X1 and Y0 close the rectangles of a rects series.
	X1, Y0 []float64
}

// rule is a horizontal reference line at Y labelled Label.
type rule struct {
	Y     float64
	Label string
}

// palette is the colour of series i (mod len), Tableau 10's first six.
var palette = []string{"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b"}

const (
	chartW, chartH = 520, 230
	padL, padR     = 64, 12
	padB           = 40
)

// axis maps data values to pixels along one direction.
type axis struct {
	lo, hi   float64 // data range (log10 of it on a log axis)
	p0, p1   float64 // pixel range
	log      bool
	ticks    []float64 // in data units
	cats     []string
	tickStep float64
}

func (a *axis) px(v float64) float64 {
	if a.log {
		v = math.Log10(v)
	}
	if a.hi == a.lo {
		return (a.p0 + a.p1) / 2
	}
	return a.p0 + (v-a.lo)/(a.hi-a.lo)*(a.p1-a.p0)
}

// newAxis fits an axis to the values vs (non-finite values, and values
// ≤ 0 on a log axis, are left out).
func newAxis(vs []float64, log bool, cats []string, zero bool, p0, p1 float64) *axis {
	a := &axis{p0: p0, p1: p1, log: log, cats: cats}
	if len(cats) > 0 {
		a.lo, a.hi = -0.5, float64(len(cats))-0.5
		for i := range cats {
			a.ticks = append(a.ticks, float64(i))
		}
		return a
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range vs {
		if math.IsNaN(v) || math.IsInf(v, 0) || (log && v <= 0) {
			continue
		}
		if log {
			v = math.Log10(v)
		}
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	if lo > hi {
		lo, hi = 0, 1
	}
	if zero && !log {
		lo, hi = math.Min(lo, 0), math.Max(hi, 0)
	}
	if log {
		a.lo, a.hi = math.Floor(lo), math.Ceil(hi)
		if a.hi == a.lo {
			a.hi++
		}
		for k := a.lo; k <= a.hi; k++ {
			a.ticks = append(a.ticks, math.Pow(10, k))
			if a.hi-a.lo <= 2 && k < a.hi {
				a.ticks = append(a.ticks, 2*math.Pow(10, k), 5*math.Pow(10, k))
			}
		}
		return a
	}
	if hi == lo {
		lo, hi = lo-1, hi+1
		if lo < 0 && zero {
			lo = 0
		}
	}
	step := niceStep((hi - lo) / 5)
	a.lo, a.hi, a.tickStep = math.Floor(lo/step)*step, math.Ceil(hi/step)*step, step
	for v := a.lo; v <= a.hi+step/2; v += step {
		a.ticks = append(a.ticks, math.Round(v/step)*step)
	}
	return a
}

// niceStep rounds x up to 1, 2 or 5 times a power of ten.
func niceStep(x float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= x {
			return m * p
		}
	}
	return 10 * p
}

// label formats tick value v of a.
func (a *axis) label(i int, v float64) string {
	if len(a.cats) > 0 {
		return a.cats[i]
	}
	if v == 0 {
		return "0"
	}
	if a.log || math.Abs(v) >= 1e6 || math.Abs(v) < 1e-3 {
		return strings.Replace(strconv.FormatFloat(v, 'g', 3, 64), "e+0", "e", 1)
	}
	dec := 0
	if a.tickStep > 0 && a.tickStep < 1 {
		dec = int(math.Ceil(-math.Log10(a.tickStep) - 1e-9))
	}
	return strconv.FormatFloat(v, 'f', dec, 64)
}

// coord formats a pixel coordinate.
func coord(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

// svg renders c; title is the plot's accessible name.
func (c *chart) svg(title string) template.HTML {
	var xs, ys []float64
	for _, s := range c.Series {
		xs, ys = append(append(xs, s.X...), s.X1...), append(append(append(append(ys, s.Y...), s.Y0...), s.Lo...), s.Hi...)
	}
	for _, r := range c.Rules {
		ys = append(ys, r.Y)
	}
	top := 12.0
	if c.legend() {
		top = 30
	}
	xa := newAxis(xs, c.XLog, c.XCats, false, padL, chartW-padR)
	if len(c.XTicks) > 0 && !c.XLog && len(c.XCats) == 0 {
		lo, hi := slices.Min(c.XTicks), slices.Max(c.XTicks)
		pad := math.Max(0.5, 0.05*(hi-lo))
		xa.lo, xa.hi, xa.ticks, xa.tickStep = lo-pad, hi+pad, c.XTicks, 1
	}
	ya := newAxis(ys, c.YLog, c.YCats, true, chartH-padB, top) // a linear y axis starts at 0
	if len(c.YCats) > 0 {                                      // lanes top to bottom
		ya.p0, ya.p1 = top, chartH-padB
	}
	var b strings.Builder
	b.WriteString(`<svg class="dsplot" viewBox="0 0 ` + strconv.Itoa(chartW) + " " + strconv.Itoa(chartH) + `" width="` + strconv.Itoa(chartW) +
		`" height="` + strconv.Itoa(chartH) + `" role="img" aria-label="` + html.EscapeString(title) + `" font-family="sans-serif" font-size="11">`)
	// Grid, ticks and tick labels.
	b.WriteString(`<g stroke="#e3e3e3">`)
	for _, v := range ya.ticks {
		b.WriteString(`<path d="M` + coord(padL) + " " + coord(ya.px(v)) + "H" + coord(chartW-padR) + `"/>`)
	}
	b.WriteString(`</g><g fill="#333">`)
	for i, v := range ya.ticks {
		b.WriteString(`<text x="` + coord(padL-4) + `" y="` + coord(ya.px(v)+4) + `" text-anchor="end">` + html.EscapeString(ya.label(i, v)) + `</text>`)
	}
	every := 1 + len(xa.ticks)/12 // at most about 12 x labels
	for i, v := range xa.ticks {
		if i%every == 0 {
			b.WriteString(`<text x="` + coord(xa.px(v)) + `" y="` + coord(chartH-padB+14) + `" text-anchor="middle">` + html.EscapeString(xa.label(i, v)) + `</text>`)
		}
	}
	b.WriteString(`<text x="` + coord((padL+chartW-padR)/2) + `" y="` + coord(chartH-8) + `" text-anchor="middle">` + html.EscapeString(c.XLabel) + `</text>`)
	b.WriteString(`<text transform="rotate(-90)" x="` + coord(-(top+chartH-padB)/2) + `" y="12" text-anchor="middle">` + html.EscapeString(c.YLabel) + `</text></g>`)
	b.WriteString(`<rect x="` + coord(padL) + `" y="` + coord(top) + `" width="` + coord(chartW-padR-padL) + `" height="` + coord(chartH-padB-top) + `" fill="none" stroke="#999"/>`)
	for i, s := range c.Series {
		c.drawSeries(&b, s, palette[i%len(palette)], xa, ya)
	}
	for _, r := range c.Rules {
		y := coord(ya.px(r.Y))
		b.WriteString(`<path d="M` + coord(padL) + " " + y + "H" + coord(chartW-padR) + `" stroke="#d62728" stroke-dasharray="5 3"/>`)
		b.WriteString(`<text x="` + coord(chartW-padR-4) + `" y="` + coord(ya.px(r.Y)-3) + `" text-anchor="end" fill="#d62728">` + html.EscapeString(r.Label) + `</text>`)
	}
	if c.legend() {
		x := float64(padL)
		for i, s := range c.Series {
			if s.Name == "" {
				continue
			}
			b.WriteString(`<rect x="` + coord(x) + `" y="9" width="10" height="10" fill="` + palette[i%len(palette)] + `"/><text x="` + coord(x+14) + `" y="18">` + html.EscapeString(s.Name) + `</text>`)
			x += 24 + 6.2*float64(len([]rune(s.Name)))
		}
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String()) // every text escaped above
}

// legend reports whether the chart has named series.
func (c *chart) legend() bool {
	for _, s := range c.Series {
		if s.Name != "" {
			return true
		}
	}
	return false
}

// drawSeries writes one series in colour col.
func (c *chart) drawSeries(b *strings.Builder, s series, col string, xa, ya *axis) {
	ok := func(x, y float64) bool {
		return !math.IsNaN(x) && !math.IsNaN(y) && (!xa.log || x > 0) && (!ya.log || y > 0)
	}
	switch s.Kind {
	case rects:
		var d strings.Builder
		for i := range s.X {
			x0, x1, y0, y1 := xa.px(s.X[i]), xa.px(s.X1[i]), ya.px(s.Y0[i]), ya.px(s.Y[i])
			if !ok(s.X[i], s.Y[i]) || (xa.log && s.X1[i] <= 0) || (ya.log && s.Y0[i] <= 0) {
				continue
			}
			if y0 < y1 {
				y0, y1 = y1, y0
			}
			w := math.Max(x1-x0, 0.6)
			d.WriteString("M" + coord(x0) + " " + coord(y1) + "h" + coord(w) + "V" + coord(y0) + "h" + coord(-w) + "z")
		}
		b.WriteString(`<path fill="` + col + `" d="` + d.String() + `"/>`)
		return
	case lines:
		var pts []string
		for i := range s.X {
			if ok(s.X[i], s.Y[i]) {
				pts = append(pts, coord(xa.px(s.X[i]))+","+coord(ya.px(s.Y[i])))
			}
		}
		b.WriteString(`<polyline fill="none" stroke="` + col + `" stroke-width="1.5" points="` + strings.Join(pts, " ") + `"/>`)
	}
	if len(s.Lo) == len(s.X) && len(s.Hi) == len(s.X) {
		var d strings.Builder
		for i := range s.X {
			if ok(s.X[i], s.Lo[i]) && ok(s.X[i], s.Hi[i]) && s.Hi[i] > s.Lo[i] {
				x := xa.px(s.X[i])
				d.WriteString("M" + coord(x) + " " + coord(ya.px(s.Lo[i])) + "V" + coord(ya.px(s.Hi[i])) + "M" + coord(x-3) + " " + coord(ya.px(s.Lo[i])) + "h6M" + coord(x-3) + " " + coord(ya.px(s.Hi[i])) + "h6")
			}
		}
		if d.Len() > 0 {
			b.WriteString(`<path fill="none" stroke="` + col + `" d="` + d.String() + `"/>`)
		}
	}
	if len(s.X) <= 200 {
		b.WriteString(`<g fill="` + col + `">`)
		for i := range s.X {
			if ok(s.X[i], s.Y[i]) {
				b.WriteString(`<circle cx="` + coord(xa.px(s.X[i])) + `" cy="` + coord(ya.px(s.Y[i])) + `" r="2.5"/>`)
			}
		}
		b.WriteString(`</g>`)
	}
}
