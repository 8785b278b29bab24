package figure

import (
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// The plotters gonum/plot lacks: intervals as bars with caps or as a
// shaded band, horizontal reference lines (across the panel or over one
// bar), and a cross marker thick enough to read.

// interval is a point with the ends of its interval; off moves it
// sideways on the canvas (a bar beside others in its category).
type interval struct {
	x, y, lo, hi float64
	off          vg.Length
}

// errBars draws a vertical bar with caps from lo to hi at each point.
type errBars struct {
	pts  []interval
	line draw.LineStyle
	cap  vg.Length
}

// Plot implements plot.Plotter.
func (e *errBars) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for _, pt := range e.pts {
		if !(pt.lo < pt.hi) {
			continue
		}
		x, lo, hi := trX(pt.x)+pt.off, trY(pt.lo), trY(pt.hi)
		for _, l := range c.ClipLinesY([]vg.Point{{X: x, Y: lo}, {X: x, Y: hi}}) {
			c.StrokeLines(e.line, l)
		}
		for _, y := range []vg.Length{lo, hi} {
			if c.ContainsY(y) {
				c.StrokeLine2(e.line, x-e.cap/2, y, x+e.cap/2, y)
			}
		}
	}
}

// DataRange implements plot.DataRanger: the bars' ends are data.
func (e *errBars) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax, ymin, ymax = math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, pt := range e.pts {
		xmin, xmax = math.Min(xmin, pt.x), math.Max(xmax, pt.x)
		ymin, ymax = math.Min(ymin, math.Min(pt.lo, pt.y)), math.Max(ymax, math.Max(pt.hi, pt.y))
	}
	return xmin, xmax, ymin, ymax
}

// Thumbnail implements plot.Thumbnailer: a bar across the entry.
func (e *errBars) Thumbnail(c *draw.Canvas) {
	x := c.Center().X
	c.StrokeLine2(e.line, x, c.Min.Y, x, c.Max.Y)
}

// band fills the area between lo and hi along the points.
type band struct {
	pts  []interval
	fill color.Color
}

// Plot implements plot.Plotter.
func (b *band) Plot(c draw.Canvas, p *plot.Plot) {
	if len(b.pts) < 2 {
		return
	}
	trX, trY := p.Transforms(&c)
	poly := make([]vg.Point, 0, 2*len(b.pts))
	for _, pt := range b.pts {
		poly = append(poly, vg.Point{X: trX(pt.x), Y: trY(pt.lo)})
	}
	for i := len(b.pts) - 1; i >= 0; i-- {
		poly = append(poly, vg.Point{X: trX(b.pts[i].x), Y: trY(b.pts[i].hi)})
	}
	c.FillPolygon(b.fill, c.ClipPolygonXY(poly))
}

// DataRange implements plot.DataRanger.
func (b *band) DataRange() (xmin, xmax, ymin, ymax float64) {
	return (&errBars{pts: b.pts}).DataRange()
}

// Thumbnail implements plot.Thumbnailer: a filled box.
func (b *band) Thumbnail(c *draw.Canvas) {
	r := c.Rectangle
	c.FillPolygon(b.fill, []vg.Point{{X: r.Min.X, Y: r.Min.Y + 1}, {X: r.Max.X, Y: r.Min.Y + 1},
		{X: r.Max.X, Y: r.Max.Y - 1}, {X: r.Min.X, Y: r.Max.Y - 1}})
}

// hline is a horizontal reference line at y across the panel.
type hline struct {
	y    float64
	line draw.LineStyle
}

// Plot implements plot.Plotter.
func (h *hline) Plot(c draw.Canvas, p *plot.Plot) {
	_, trY := p.Transforms(&c)
	if y := trY(h.y); c.ContainsY(y) {
		c.StrokeLine2(h.line, c.Min.X, y, c.Max.X, y)
	}
}

// DataRange implements plot.DataRanger: only y is data.
func (h *hline) DataRange() (xmin, xmax, ymin, ymax float64) {
	return math.Inf(1), math.Inf(-1), h.y, h.y
}

// Thumbnail implements plot.Thumbnailer.
func (h *hline) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	c.StrokeLine2(h.line, c.Min.X, y, c.Max.X, y)
}

// barMark is a horizontal mark at y over one bar of a bar chart: the bar
// of category index cat drawn offset from it, width wide.
type barMark struct {
	cat, y        float64
	offset, width vg.Length
	line          draw.LineStyle
}

// Plot implements plot.Plotter.
func (m *barMark) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	x, y := trX(m.cat)+m.offset, trY(m.y)
	c.StrokeLine2(m.line, x-m.width/2-vg.Points(1.5), y, x+m.width/2+vg.Points(1.5), y)
}

// DataRange implements plot.DataRanger.
func (m *barMark) DataRange() (xmin, xmax, ymin, ymax float64) {
	return m.cat, m.cat, m.y, m.y
}

// Thumbnail implements plot.Thumbnailer.
func (m *barMark) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	c.StrokeLine2(m.line, c.Min.X+2, y, c.Max.X-2, y)
}

// cross is the measurement marker: an × drawn with lines 1.4 points wide.
type cross struct{}

// DrawGlyph implements draw.GlyphDrawer.
func (cross) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: vg.Points(1.4)})
	r := sty.Radius * 0.8
	var p vg.Path
	p.Move(vg.Point{X: pt.X - r, Y: pt.Y - r})
	p.Line(vg.Point{X: pt.X + r, Y: pt.Y + r})
	p.Move(vg.Point{X: pt.X - r, Y: pt.Y + r})
	p.Line(vg.Point{X: pt.X + r, Y: pt.Y - r})
	c.Stroke(p)
}

// thumbs draws several thumbnails on one legend entry.
type thumbs []plot.Thumbnailer

// Thumbnail implements plot.Thumbnailer.
func (t thumbs) Thumbnail(c *draw.Canvas) {
	for _, x := range t {
		x.Thumbnail(c)
	}
}

// bars is one series of a bar chart: a bar width wide at each category
// it has a value in (x: the category's index; off: the bar's place among
// the category's bars); a category it lacks gets no bar, not a bar of
// height 0.
type bars struct {
	pts   []interval
	width vg.Length
	fill  color.Color
	line  draw.LineStyle
}

// Plot implements plot.Plotter.
func (b *bars) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for _, pt := range b.pts {
		x := trX(pt.x) + pt.off
		y0, y1 := trY(0), trY(pt.y)
		poly := []vg.Point{{X: x - b.width/2, Y: y0}, {X: x - b.width/2, Y: y1}, {X: x + b.width/2, Y: y1}, {X: x + b.width/2, Y: y0}}
		c.FillPolygon(b.fill, c.ClipPolygonY(poly))
		for _, l := range c.ClipLinesY(append(poly, poly[0])) {
			c.StrokeLines(b.line, l)
		}
	}
}

// DataRange implements plot.DataRanger: bars start at 0.
func (b *bars) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax, ymin, ymax = math.Inf(1), math.Inf(-1), 0, 0
	for _, pt := range b.pts {
		xmin, xmax = math.Min(xmin, pt.x), math.Max(xmax, pt.x)
		ymin, ymax = math.Min(ymin, pt.y), math.Max(ymax, pt.y)
	}
	return xmin, xmax, ymin, ymax
}

// GlyphBoxes implements plot.GlyphBoxer, so the x axis leaves room for
// the outermost bars.
func (b *bars) GlyphBoxes(p *plot.Plot) []plot.GlyphBox {
	out := make([]plot.GlyphBox, len(b.pts))
	for i, pt := range b.pts {
		out[i] = plot.GlyphBox{X: p.X.Norm(pt.x), Y: p.Y.Norm(pt.y),
			Rectangle: vg.Rectangle{Min: vg.Point{X: pt.off - b.width/2}, Max: vg.Point{X: pt.off + b.width/2}}}
	}
	return out
}

// Thumbnail implements plot.Thumbnailer: a filled, outlined box.
func (b *bars) Thumbnail(c *draw.Canvas) {
	r := c.Rectangle
	poly := []vg.Point{{X: r.Min.X, Y: r.Min.Y + 1}, {X: r.Min.X, Y: r.Max.Y - 1}, {X: r.Max.X, Y: r.Max.Y - 1}, {X: r.Max.X, Y: r.Min.Y + 1}}
	c.FillPolygon(b.fill, poly)
	c.StrokeLines(b.line, append(poly, poly[0]))
}
