package figure

import (
	"bytes"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"

	stdfont "golang.org/x/image/font"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"pslab/engine/dataset"
)

// Type sizes (points), the PNG resolution and the spacing of the layout.
const (
	titleSize      = 12
	panelTitleSize = 10
	captionSize    = 8.5
	labelSize      = 11
	tickSize       = 9.5
	legendSize     = 9.5
	pngDPI         = 144
	maxTitleLines  = 2
)

var (
	legendGap = vg.Points(8)  // between the data area and the legend column
	margin    = vg.Points(8)  // around the title and the caption
	xAxisRoom = vg.Points(34) // tick labels and label of an x axis
	panelGap  = vg.Points(10) // above every panel but the first
)

// sans is the figures' typeface at size points.
func sans(size float64) font.Font {
	return font.Font{Typeface: "Liberation", Variant: "Sans", Size: vg.Points(size)}
}

// textStyle is sans text of size points aligned by x and y.
func textStyle(size float64, x text.XAlignment, y text.YAlignment) text.Style {
	return text.Style{Color: color.Black, Font: sans(size), XAlign: x, YAlign: y, Handler: plot.DefaultTextHandler}
}

// panelTitleStyle is the style of a panel's title: bold, left-aligned,
// hanging from its point.
func panelTitleStyle() text.Style {
	ts := textStyle(panelTitleSize, draw.XLeft, draw.YBottom)
	ts.Font.Weight = stdfont.WeightBold
	return ts
}

// panel is one plot with the legend drawn beside it. The y label is drawn
// by the figure, not by gonum/plot, which shrinks the data area to fit a
// label longer than the axis.
type panel struct {
	p      *plot.Plot
	legend plot.Legend
	ylabel string
	title  string // drawn left-aligned above the data, across the legend column
}

// fig is a figure: a title, panels stacked vertically with legends in a
// right column, a caption.
type fig struct {
	spec   Spec
	panels []panel
}

// build assigns the series to panels and draws each panel's plot and
// legend.
func build(s Spec, t *dataset.Table) (*fig, error) {
	ser := group(t)
	parts, err := panelsOf(s, ser)
	if err != nil {
		return nil, err
	}
	xmin, xmax := math.Inf(1), math.Inf(-1)
	for _, x := range ser {
		for _, v := range x.x {
			xmin, xmax = math.Min(xmin, v), math.Max(xmax, v)
		}
	}
	sweep := sweepValues(ser, s.LogX)
	order := map[*series]int{}
	for i, x := range ser {
		order[x] = i
	}
	f := &fig{spec: s}
	for _, part := range parts {
		p := plot.New()
		for _, a := range []*plot.Axis{&p.X, &p.Y} {
			a.Label.TextStyle.Font = sans(labelSize)
			a.Tick.Label.Font = sans(tickSize)
		}
		p.X.Label.Text = glyphs(s.XLabel)
		g := plotter.NewGrid()
		g.Vertical.Color, g.Horizontal.Color = color.Gray{Y: 0xdd}, color.Gray{Y: 0xdd}
		p.Add(g)
		d := &panelDrawing{spec: s, ser: part.ser, st: styles(part.ser), leg: newLegendBuilder(s), order: order}
		if !s.Bar && (s.XCategories || singleX(part.ser)) {
			d.dots, d.cats = true, distinctX(part.ser)
			d.leg.dots = true
		}
		if s.Bar {
			err = d.bars(p)
		} else {
			err = d.curves(p)
		}
		if err != nil {
			return nil, err
		}
		axes(p, s, d, sweep, xmin, xmax)
		l := plot.NewLegend()
		l.TextStyle.Font = sans(legendSize)
		l.ThumbnailWidth = vg.Points(26)
		l.Padding = vg.Points(1.5)
		l.Top = s.Legend == "" || strings.HasPrefix(s.Legend, "top")
		l.Left = true
		d.leg.fill(&l)
		f.panels = append(f.panels, panel{p: p, legend: l, ylabel: glyphs(s.YLabel), title: glyphs(part.title)})
	}
	return f, nil
}

// singleX reports whether every series of a panel sits at one x value.
func singleX(ser []*series) bool {
	return len(distinctX(ser)) == 1
}

// distinctX returns the x values of the series, sorted.
func distinctX(ser []*series) []float64 {
	var xs []float64
	for _, s := range ser {
		for _, x := range s.x {
			if !slices.Contains(xs, x) {
				xs = append(xs, x)
			}
		}
	}
	slices.Sort(xs)
	return xs
}

// axes sets the scales, ranges and ticks of a panel: x aligned across
// panels with a tick at every swept value, a linear y from zero up to a
// labelled value.
func axes(p *plot.Plot, s Spec, d *panelDrawing, sweep []float64, xmin, xmax float64) {
	switch {
	case s.Bar:
		p.X.Min, p.X.Max = -0.5, p.X.Max+0.5
	case d.dots:
		p.X.Min, p.X.Max = -0.5, float64(len(d.cats))-0.5
		labels := make(categoryTicks, len(d.cats))
		for i, x := range d.cats {
			labels[i] = strconv.FormatFloat(x, 'g', -1, 64)
		}
		p.X.Tick.Marker = labels
	default:
		p.X.Min, p.X.Max = math.Min(p.X.Min, xmin), math.Max(p.X.Max, xmax)
		switch {
		case sweep != nil:
			p.X.Tick.Marker = valueTicks{values: sweep, log: s.LogX}
		case s.LogX:
			p.X.Tick.Marker = logTicks{}
		default:
			p.X.Tick.Marker = niceTicks{step: niceStep(p.X.Min, p.X.Max, 6)}
		}
		if s.LogX {
			p.X.Scale = plot.LogScale{}
		}
	}
	if s.LogY {
		// A little room above and below, so no curve runs along the frame.
		p.Y.Min, p.Y.Max = p.Y.Min/1.06, p.Y.Max*1.06
		p.Y.Scale, p.Y.Tick.Marker = plot.LogScale{}, logTicks{}
		return
	}
	if p.Y.Min > 0 {
		p.Y.Min = 0 // throughput, time and error axes start at zero
	}
	step := niceStep(p.Y.Min, p.Y.Max, 5)
	p.Y.Max = math.Ceil(p.Y.Max/step-1e-9) * step
	if p.Y.Min < 0 {
		p.Y.Min = math.Floor(p.Y.Min/step+1e-9) * step
	}
	p.Y.Tick.Marker = niceTicks{step: step}
}

// layout is the figure's geometry: its size, the legend column's width,
// and the wrapped title and caption with their heights.
type layout struct {
	w, h, legendW    vg.Length
	title, caption   string
	titleH, captionH vg.Length
}

// layout measures the legend column, the title and the caption.
func (f *fig) layout() layout {
	var lo layout
	for i := range f.panels {
		r := f.panels[i].legend.Rectangle(draw.Canvas{})
		lo.legendW = max(lo.legendW, r.Max.X-r.Min.X)
	}
	lo.w = Width + lo.legendW + 2*legendGap
	ts := textStyle(titleSize, draw.XCenter, draw.YTop)
	lo.title = wrapTo(glyphs(f.spec.Title), ts, lo.w-2*margin)
	caption := glyphs(f.spec.Caption)
	if lines := strings.Split(lo.title, "\n"); len(lines) > maxTitleLines {
		// The title keeps two lines; the caption starts with all of it.
		lo.title = strings.Join(lines[:maxTitleLines], "\n") + " …"
		caption = strings.TrimSpace(glyphs(f.spec.Title) + ". " + caption)
	}
	if lo.title != "" {
		lo.titleH = ts.Rectangle(lo.title).Size().Y + margin
	}
	cs := textStyle(captionSize, draw.XLeft, draw.YTop)
	lo.caption = wrapTo(caption, cs, lo.w-2*margin)
	if lo.caption != "" {
		lo.captionH = cs.Rectangle(lo.caption).Size().Y + 2*margin
	}
	lo.h = Height + vg.Length(len(f.panels)-1)*PanelHeight + lo.captionH
	return lo
}

// canvas returns an empty canvas of size w × h for format ("svg", "png").
func canvas(format string, w, h vg.Length) vg.CanvasWriterTo {
	if format == "png" {
		return vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(pngDPI))}
	}
	return vgsvg.New(w, h)
}

// encode draws the figure in format ("svg" or "png"): the title, each
// panel with its title, y label and legend, and the caption.
func (f *fig) encode(format string) ([]byte, error) {
	lo := f.layout()
	c := canvas(format, lo.w, lo.h)
	dc := draw.New(c)
	dc.SetColor(color.White)
	dc.Fill(dc.Rectangle.Path())
	if lo.title != "" {
		dc.FillText(textStyle(titleSize, draw.XCenter, draw.YTop), vg.Point{X: lo.w / 2, Y: dc.Max.Y - margin/2}, lo.title)
	}
	top := dc.Max.Y - lo.titleH
	areas := make([]draw.Canvas, len(f.panels))
	labels, titles := make([]string, len(f.panels)), make([]string, len(f.panels))
	var left, right vg.Length = 0, lo.w
	for i := range f.panels {
		ph := PanelHeight
		if i == 0 {
			ph = Height - lo.titleH
		}
		area := dc
		area.Max.Y, area.Min.Y = top, top-ph
		if i > 0 {
			area.Max.Y -= panelGap
		}
		top -= ph
		if t := f.panels[i].title; t != "" {
			ts := panelTitleStyle()
			titles[i] = wrapTo(t, ts, lo.w-Width/8-margin)
			area.Max.Y -= ts.Rectangle(titles[i]).Size().Y + vg.Points(4)
		}
		areas[i] = area
		data := f.dataArea(i, area, lo, &labels[i])
		dca := f.panels[i].p.DataCanvas(data)
		left, right = max(left, dca.Min.X), min(right, dca.Max.X)
	}
	for i := range f.panels {
		area, p := areas[i], f.panels[i].p
		data := f.dataArea(i, area, lo, &labels[i])
		// Align the data areas of all panels (tick labels differ in width).
		dca := p.DataCanvas(data)
		data.Min.X += left - dca.Min.X
		data.Max.X -= dca.Max.X - right
		p.Draw(data)
		if titles[i] != "" {
			dc.FillText(panelTitleStyle(), vg.Point{X: p.DataCanvas(data).Min.X, Y: area.Max.Y + vg.Points(2)}, titles[i])
		}
		if labels[i] != "" {
			ls := textStyle(labelSize, draw.XCenter, draw.YBottom)
			h := ls.Rectangle(labels[i]).Size().Y
			ls.Rotation = math.Pi / 2
			dca = p.DataCanvas(data)
			dc.FillText(ls, vg.Point{X: area.Min.X + vg.Points(2) + h - ls.FontExtents().Descent, Y: dca.Center().Y}, labels[i])
		}
		// The legend column starts at the data area's top (below the
		// panel's title) and ends at its bottom (above the x axis).
		col := area
		col.Min.X = area.Max.X - lo.legendW - legendGap
		col.Min.Y += xAxisRoom
		f.panels[i].legend.Draw(col)
	}
	if lo.caption != "" {
		dc.FillText(textStyle(captionSize, draw.XLeft, draw.YTop), vg.Point{X: margin, Y: lo.captionH - margin}, lo.caption)
	}
	var b bytes.Buffer
	if _, err := c.WriteTo(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// dataArea returns the part of panel i's area its plot is drawn in: left
// of the legend column and right of the y label, which it wraps to two
// lines if it is longer than the axis (into *label).
func (f *fig) dataArea(i int, area draw.Canvas, lo layout, label *string) draw.Canvas {
	data := area
	data.Max.X = area.Max.X - lo.legendW - 2*legendGap
	*label = f.panels[i].ylabel
	if *label == "" {
		return data
	}
	ls := textStyle(labelSize, draw.XCenter, draw.YBottom)
	*label = wrapTo(*label, ls, 0.95*(area.Max.Y-area.Min.Y-xAxisRoom))
	data.Min.X += ls.Rectangle(*label).Size().Y + vg.Points(6)
	return data
}

// wrapTo breaks text into lines no wider than width in style sty, at
// spaces; explicit line breaks are kept.
func wrapTo(txt string, sty text.Style, width vg.Length) string {
	var out []string
	for _, para := range strings.Split(txt, "\n") {
		line := ""
		for _, w := range strings.Fields(para) {
			if line != "" && sty.Width(line+" "+w) > width {
				out = append(out, line)
				line = w
				continue
			}
			if line != "" {
				line += " "
			}
			line += w
		}
		out = append(out, line)
	}
	return strings.TrimSpace(strings.Join(out, "\n"))
}

// wrap breaks text into lines of at most width runes at spaces.
func wrap(text string, width int) string {
	var b strings.Builder
	n := 0
	for i, w := range strings.Fields(text) {
		l := len([]rune(w))
		if i > 0 && n+1+l > width {
			b.WriteByte('\n')
			n = 0
		} else if i > 0 {
			b.WriteByte(' ')
			n++
		}
		b.WriteString(w)
		n += l
	}
	return b.String()
}
