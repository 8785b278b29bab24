// Package figure renders result tables as figures with gonum/plot: lines
// with point markers for predictions (derived or reported values), markers
// with error bars for measurements, grouped bars for bar charts; a title,
// an optional caption line and axis labels with units.
//
// Readability rules every figure follows:
//   - the legend is outside the data area, in a column to the right of
//     each panel;
//   - no panel mixes series whose values are more than MaxPanelRatio
//     apart: such series are split into panels stacked vertically (one x
//     axis label per panel, the title on the first);
//   - a measured series is drawn in the colour of the model series it is
//     compared with (same name before ": ", or the name without a trailing
//     model name or "measured"), so markers and their model line match;
//     series sharing a colour differ by dash pattern and marker shape.
//
// SVG and PNG outputs carry no timestamps, so the same table gives the same
// bytes.
package figure

import (
	"bytes"
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"pslab/engine/dataset"
)

// Spec says how to draw a figure.
type Spec struct {
	Title   string
	Caption string // second title line, e.g. assumptions
	XLabel  string // with unit
	YLabel  string // with unit
	Bar     bool   // grouped bar chart over categories instead of curves
	LogX    bool
	LogY    bool
	// Legend is "top left", "top right" (default), "bottom left" or
	// "bottom right": the legend column beside the panel is aligned with
	// its top (top …) or bottom (bottom …).
	Legend string
}

// Size of a figure with one panel (without its legend column); each extra
// panel adds PanelHeight.
const (
	Width       = 7 * vg.Inch
	Height      = 4.5 * vg.Inch
	PanelHeight = 3.2 * vg.Inch
)

// MaxPanelRatio is the largest gap allowed between the values of two
// series drawn in one panel (see splitByMagnitude).
const MaxPanelRatio = 100

// legendGap separates the data area from the legend column.
var legendGap = vg.Points(8)

// Render draws the result table t and returns the figure as SVG and PNG.
func Render(s Spec, t *dataset.Table) (svg, png []byte, err error) {
	defer func() {
		// gonum/plot panics on some degenerate inputs; report them as errors.
		if r := recover(); r != nil {
			svg, png, err = nil, nil, fmt.Errorf("figure %q: %v", s.Title, r)
		}
	}()
	if err := validate(s, t); err != nil {
		return nil, nil, err
	}
	f, err := build(s, t)
	if err != nil {
		return nil, nil, err
	}
	if svg, err = f.encode("svg"); err != nil {
		return nil, nil, err
	}
	png, err = f.encode("png")
	return svg, png, err
}

func validate(s Spec, t *dataset.Table) error {
	if t.Len() == 0 {
		return fmt.Errorf("figure %q: no rows to plot", s.Title)
	}
	if s.Bar && s.LogY {
		return fmt.Errorf("figure %q: a bar chart cannot have a log y axis (bars start at 0)", s.Title)
	}
	ys, xs, names, los := t.Floats("y"), t.Floats("x"), t.Strings("series"), t.Floats("y_lo")
	for i := range ys {
		if s.LogY && !(los[i] > 0) {
			return fmt.Errorf("figure %q: log y axis needs positive values: series %q at x = %v has %v", s.Title, names[i], xs[i], los[i])
		}
		if s.LogX && !(xs[i] > 0) {
			return fmt.Errorf("figure %q: log x axis needs positive values: series %q has x = %v", s.Title, names[i], xs[i])
		}
	}
	return nil
}

// panel is one plot with the legend drawn beside it.
type panel struct {
	p      *plot.Plot
	legend plot.Legend
}

// fig is a figure: panels stacked vertically, legends in a right column.
type fig struct {
	spec   Spec
	panels []panel
}

func build(s Spec, t *dataset.Table) (*fig, error) {
	f := &fig{spec: s}
	for i, part := range splitByMagnitude(group(t)) {
		colours := styles(part)
		p := plot.New()
		if i == 0 {
			p.Title.Text = s.Title
			if s.Caption != "" {
				p.Title.Text += "\n" + wrap(s.Caption, 110)
			}
			p.Title.TextStyle.Font.Size = vg.Points(10)
		}
		p.X.Label.Text = s.XLabel
		p.Y.Label.Text = s.YLabel
		p.Add(plotter.NewGrid())
		l := plot.NewLegend()
		l.TextStyle.Font.Size = vg.Points(9)
		l.Top = s.Legend == "" || s.Legend == "top left" || s.Legend == "top right"
		l.Left = true
		var err error
		if s.Bar {
			err = bars(p, &l, part)
		} else {
			err = curves(p, &l, part, colours)
		}
		if err != nil {
			return nil, fmt.Errorf("figure %q: %w", s.Title, err)
		}
		if s.LogX {
			p.X.Scale, p.X.Tick.Marker = plot.LogScale{}, logTicks{}
		}
		if s.LogY {
			p.Y.Scale, p.Y.Tick.Marker = plot.LogScale{}, logTicks{}
		}
		if !s.LogY && p.Y.Min > 0 && !s.Bar {
			p.Y.Min = 0 // throughput and time axes start at zero
		}
		f.panels = append(f.panels, panel{p: p, legend: l})
	}
	return f, nil
}

// size returns the figure's size and the legend column's width.
func (f *fig) size() (w, h, legendW vg.Length) {
	for i := range f.panels {
		r := f.panels[i].legend.Rectangle(draw.Canvas{})
		legendW = max(legendW, r.Max.X-r.Min.X)
	}
	h = Height + vg.Length(len(f.panels)-1)*PanelHeight
	return Width + legendW + 2*legendGap, h, legendW
}

func (f *fig) encode(format string) ([]byte, error) {
	w, h, legendW := f.size()
	c, err := draw.NewFormattedCanvas(w, h, format)
	if err != nil {
		return nil, err
	}
	dc := draw.New(c)
	top := dc.Max.Y
	for i := range f.panels {
		ph := PanelHeight
		if i == 0 {
			ph = Height
		}
		area := dc
		area.Max.Y, area.Min.Y = top, top-ph
		top -= ph
		data := area
		data.Max.X = area.Max.X - legendW - 2*legendGap
		f.panels[i].p.Draw(data)
		// The legend column starts at the data area's top (below the
		// title) and ends at its bottom (above the x axis labels).
		col := area
		col.Min.X = data.Max.X + legendGap
		col.Max.Y -= f.panels[i].p.Title.TextStyle.Rectangle(f.panels[i].p.Title.Text).Size().Y + vg.Points(8)
		col.Min.Y += vg.Points(30)
		f.panels[i].legend.Draw(col)
	}
	var b bytes.Buffer
	if _, err := c.WriteTo(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
