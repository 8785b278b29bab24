package figure

import (
	"image/color"
	"math"
	"slices"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// palette is matplotlib's tab10: ten colours told apart by most readers
// and in print.
var palette = []color.Color{
	rgb(0x1f77b4), rgb(0xff7f0e), rgb(0x2ca02c), rgb(0xd62728), rgb(0x9467bd),
	rgb(0x8c564b), rgb(0xe377c2), rgb(0x7f7f7f), rgb(0xbcbd22), rgb(0x17becf),
}

// ink is the colour of reference lines and of the style entries of a
// legend that lists colours and styles apart.
var ink = color.Gray{Y: 0x40}

// rgb is the opaque colour 0xRRGGBB.
func rgb(v uint32) color.Color {
	return color.RGBA{R: uint8(v >> 16), G: uint8(v >> 8), B: uint8(v), A: 0xff}
}

// translucent returns c with alpha a (premultiplied, as image/color wants).
func translucent(c color.Color, a uint8) color.Color {
	r, g, b, _ := c.RGBA()
	f := uint32(a)
	return color.RGBA{R: uint8(r >> 8 * f / 0xff), G: uint8(g >> 8 * f / 0xff), B: uint8(b >> 8 * f / 0xff), A: a}
}

// colourOf is the i-th colour of the palette, cycling.
func colourOf(i int) color.Color { return palette[i%len(palette)] }

// dashes and shapes are the variants' line patterns and markers (the
// cross is kept for measurements).
var (
	dashes = [][]vg.Length{nil, {vg.Points(6), vg.Points(3)}, {vg.Points(1.5), vg.Points(2.5)},
		{vg.Points(7), vg.Points(2.5), vg.Points(1.5), vg.Points(2.5)}, {vg.Points(12), vg.Points(4)}, {vg.Points(3), vg.Points(3)}}
	// Open shapes first: where curves coincide, their markers stay visible
	// one inside another.
	shapes = []draw.GlyphDrawer{draw.RingGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.PlusGlyph{},
		draw.CircleGlyph{}, draw.BoxGlyph{}, draw.PyramidGlyph{}}
)

// maxMarked is the largest number of points a curve shows markers on.
const maxMarked = 45

// lineStyle is the line of a variant in c.
func lineStyle(c color.Color, variant int) draw.LineStyle {
	return draw.LineStyle{Color: c, Width: vg.Points(1.5), Dashes: dashes[variant%len(dashes)]}
}

// glyphStyle is the marker of a variant in c.
func glyphStyle(c color.Color, variant int) draw.GlyphStyle {
	return draw.GlyphStyle{Color: c, Radius: vg.Points(2.8), Shape: shapes[variant%len(shapes)]}
}

// measuredShapes are the marks of measured series by their mark index
// (style.mark): a plain measurement is a cross; measurements of another
// kind (a point its testbed did not judge, an operating mode) take the
// next shapes, hollow, so they never read as the plain ones.
var measuredShapes = []draw.GlyphDrawer{cross{}, draw.RingGlyph{}, draw.TriangleGlyph{}, draw.SquareGlyph{}, draw.PyramidGlyph{}}

// measuredMarks are a measurement's mark (measuredShapes[mark]) and its
// interval bars.
func measuredMarks(c color.Color, pts []interval, mark int) (*errBars, *plotter.Scatter, error) {
	xys := make(plotter.XYs, len(pts))
	for i, p := range pts {
		xys[i] = plotter.XY{X: p.x, Y: p.y}
	}
	sc, err := plotter.NewScatter(xys)
	if err != nil {
		return nil, nil, err
	}
	sc.GlyphStyle = draw.GlyphStyle{Color: c, Radius: vg.Points(4), Shape: measuredShapes[mark%len(measuredShapes)]}
	return &errBars{pts: pts, line: draw.LineStyle{Color: c, Width: vg.Points(1)}, cap: vg.Points(5)}, sc, nil
}

// points returns the series' points sorted by x, each moved to position
// pos(x) + shift.
func points(s *series, pos func(float64) float64, shift float64) []interval {
	out := make([]interval, len(s.x))
	for k := range s.x {
		out[k] = interval{x: pos(s.x[k]) + shift, y: s.y[k], lo: s.lo[k], hi: s.hi[k]}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].x < out[b].x })
	return out
}

// panelDrawing is what drawing a panel needs besides the plot.
type panelDrawing struct {
	spec Spec
	ser  []*series
	st   map[*series]style
	leg  *legendBuilder
	// dots: the x values are categories (drawn at 0..n-1, series side by
	// side, not joined); cats are their labels.
	dots bool
	cats []float64
	// order is each series' index in the figure: a bar's colour, the same
	// in every panel.
	order map[*series]int
}

// curves draws a line chart's panel: bands at the paper's bound, then
// model lines with markers (with their intervals as bars, or as a band
// when dense), reference lines, and measurements as crosses with bars.
func (d *panelDrawing) curves(p *plot.Plot) error {
	pos, shifts := d.positions()
	for _, s := range d.ser {
		if d.spec.Bound > 0 && !s.measured() && d.paired(s) {
			pts := points(s, pos, shifts[s])
			if d.dots { // a box around each marker
				var box []interval
				for _, pt := range pts {
					box = append(box, interval{x: pt.x - 0.04, y: pt.y}, interval{x: pt.x + 0.04, y: pt.y})
				}
				pts = box
			}
			for i := range pts {
				pts[i].lo, pts[i].hi = pts[i].y*(1-d.spec.Bound), pts[i].y*(1+d.spec.Bound)
			}
			if d.dots {
				for i := 0; i+1 < len(pts); i += 2 {
					p.Add(&band{pts: pts[i : i+2], fill: translucent(colourOf(d.st[s].colour), 0x30)})
				}
			} else {
				p.Add(&band{pts: pts, fill: translucent(colourOf(d.st[s].colour), 0x30)})
			}
			d.leg.bound(&band{fill: translucent(ink, 0x30)})
		}
	}
	for _, s := range d.ser {
		f, ok := d.spec.Bands[s.name]
		if !ok || s.measured() {
			continue
		}
		pts := points(s, pos, shifts[s])
		for i := range pts {
			pts[i].lo, pts[i].hi = math.Max(1e-3*pts[i].y, pts[i].y*(1-f)), pts[i].y*(1+f) // above 0 on a log axis
		}
		fill := translucent(colourOf(d.st[s].colour), 0x28)
		p.Add(&band{pts: pts, fill: fill})
		label := d.spec.BandsLabel
		if label == "" {
			label = "band: measured mean |error|"
		}
		d.leg.line(label, &band{fill: translucent(ink, 0x28)})
	}
	d.lines(p)
	for _, s := range d.ser {
		v := d.st[s]
		c := colourOf(v.colour)
		pts := points(s, pos, shifts[s])
		if s.measured() {
			eb, sc, err := measuredMarks(c, pts, v.mark)
			if err != nil {
				return err
			}
			p.Add(eb, sc)
			d.leg.add(s, v, thumbs{eb, sc})
			continue
		}
		xys := make(plotter.XYs, len(pts))
		for i, pt := range pts {
			xys[i] = plotter.XY{X: pt.x, Y: pt.y}
		}
		if s.reference() {
			l, err := plotter.NewLine(xys)
			if err != nil {
				return err
			}
			l.LineStyle = draw.LineStyle{Color: ink, Width: vg.Points(1), Dashes: []vg.Length{vg.Points(5), vg.Points(3)}}
			p.Add(l)
			d.leg.add(s, v, l)
			continue
		}
		var th thumbs
		if s.hasCI() {
			if len(pts) > 25 && !d.dots {
				p.Add(&band{pts: pts, fill: translucent(c, 0x40)})
			} else {
				eb := &errBars{pts: pts, line: draw.LineStyle{Color: c, Width: vg.Points(0.9)}, cap: vg.Points(4)}
				p.Add(eb)
				th = append(th, eb)
			}
		}
		if !d.dots && len(xys) > 1 {
			l, err := plotter.NewLine(xys)
			if err != nil {
				return err
			}
			l.LineStyle = lineStyle(c, v.variant)
			p.Add(l)
			th = append(th, l)
		}
		if len(xys) <= maxMarked || d.dots {
			// Dense curves go without markers, which would merge.
			sc, err := plotter.NewScatter(xys)
			if err != nil {
				return err
			}
			sc.GlyphStyle = glyphStyle(c, v.variant)
			if d.dots {
				sc.GlyphStyle.Radius = vg.Points(3.5)
			}
			if len(xys) == 1 && !d.dots { // a lone point (an optimum) stands out
				sc.GlyphStyle.Radius = vg.Points(5)
			}
			p.Add(sc)
			th = append(th, sc)
		}
		d.leg.add(s, v, th)
	}
	return nil
}

// paired reports whether a measurement shares s's colour (the model it is
// judged by).
func (d *panelDrawing) paired(s *series) bool {
	for _, m := range d.ser {
		if m.measured() && d.st[m].grouped && d.st[m].key == d.st[s].key {
			return true
		}
	}
	return false
}

// positions returns where each x is drawn and how far each series is
// moved sideways: in a dot plot the category index, series of different
// configurations side by side; in a line chart x itself, model series
// with intervals moved apart by a little so their bars do not overlap.
func (d *panelDrawing) positions() (func(float64) float64, map[*series]float64) {
	shifts := map[*series]float64{}
	if d.dots {
		var colours []int
		for _, s := range d.ser {
			if c := d.st[s].colour; !slices.Contains(colours, c) {
				colours = append(colours, c)
			}
		}
		w := math.Min(0.7/float64(len(colours)), 0.15)
		for _, s := range d.ser {
			k := slices.Index(colours, d.st[s].colour)
			shifts[s] = w * (float64(k) - float64(len(colours)-1)/2)
		}
		return func(x float64) float64 { return float64(slices.Index(d.cats, x)) }, shifts
	}
	var withCI []*series
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range d.ser {
		for _, x := range s.x {
			lo, hi = math.Min(lo, x), math.Max(hi, x)
		}
		if !s.measured() && s.hasCI() && len(s.x) <= 25 {
			withCI = append(withCI, s)
		}
	}
	if len(withCI) >= 2 && hi > lo && !d.spec.LogX {
		w := math.Min(0.012*(hi-lo), 0.04*(hi-lo)/float64(len(withCI)))
		for i, s := range withCI {
			shifts[s] = w * (float64(i) - float64(len(withCI)-1)/2)
		}
	}
	return func(x float64) float64 { return x }, shifts
}

// lines draws the spec's reference lines across a line chart's panel.
func (d *panelDrawing) lines(p *plot.Plot) {
	for i, l := range d.spec.Lines {
		h := &hline{y: l.Y, line: refStyle(i)}
		p.Add(h)
		d.leg.line(l.Label, h)
	}
}

// refStyle is the line style of the i-th reference line.
func refStyle(i int) draw.LineStyle {
	return draw.LineStyle{Color: ink, Width: vg.Points(1.2), Dashes: dashes[(i+1)%len(dashes)]}
}

// bars draws a bar chart's panel: grouped bars over its categories, one
// colour per series, the bars of each category side by side and centred
// on it, intervals as bars with caps, and the spec's reference lines
// across the panel or as marks over one series' bars.
func (d *panelDrawing) bars(p *plot.Plot) error {
	var cats []string
	seen := map[string]int{}
	present := map[string][]*series{} // the series with a bar in each category
	for _, s := range d.ser {
		for _, c := range s.cats {
			if _, ok := seen[c]; !ok {
				seen[c] = len(cats)
				cats = append(cats, c)
			}
			if !slices.Contains(present[c], s) {
				present[c] = append(present[c], s)
			}
		}
	}
	most := 1
	for _, in := range present {
		most = max(most, len(in))
	}
	w := vg.Points(math.Max(4, math.Min(24, 330/float64(most*len(cats)))))
	offset := func(s *series, c string) vg.Length {
		in := present[c]
		return w * vg.Length(float64(slices.Index(in, s))-float64(len(in)-1)/2)
	}
	var ebs []*errBars
	for _, s := range d.ser {
		var pts []interval
		for k, c := range s.cats {
			pts = append(pts, interval{x: float64(seen[c]), y: s.y[k], lo: s.lo[k], hi: s.hi[k], off: offset(s, c)})
		}
		b := &bars{pts: pts, width: w, fill: colourOf(d.order[s]), line: draw.LineStyle{Color: color.Black, Width: vg.Points(0.5)}}
		p.Add(b)
		d.leg.add(s, style{colour: d.order[s]}, b)
		if s.hasCI() {
			ebs = append(ebs, &errBars{pts: pts, line: draw.LineStyle{Color: color.Black, Width: vg.Points(0.9)}, cap: w / 2})
		}
	}
	for _, eb := range ebs {
		p.Add(eb)
	}
	for i, l := range d.spec.Lines {
		sty := refStyle(i)
		if l.Series == "" {
			h := &hline{y: l.Y, line: sty}
			p.Add(h)
			d.leg.line(l.Label, h)
			continue
		}
		sty.Width, sty.Dashes = vg.Points(2), nil
		for _, s := range d.ser {
			if s.name != l.Series {
				continue
			}
			for _, c := range s.cats {
				if l.matches(c) {
					m := &barMark{cat: float64(seen[c]), y: l.Y, offset: offset(s, c), width: w, line: sty}
					p.Add(m)
					d.leg.line(l.Label, m)
				}
			}
		}
	}
	labels := make([]string, len(cats))
	for i, c := range cats {
		labels[i] = glyphs(c)
	}
	p.NominalX(labels...)
	if len(cats) > 6 {
		p.X.Tick.Label.Font = sans(tickSize - 1) // room for many categories
	}
	return nil
}
