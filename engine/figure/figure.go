// Package figure renders result tables as figures with gonum/plot: lines
// with point markers for predictions (derived or reported values), markers
// with error bars for measurements, grouped bars for bar charts; a title,
// an optional caption line, axis labels with units and a legend. SVG and
// PNG outputs carry no timestamps, so the same table gives the same bytes.
package figure

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"sort"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
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
	// "bottom right".
	Legend string
}

// Size of every figure.
const (
	Width  = 7 * vg.Inch
	Height = 4.5 * vg.Inch
)

// Render draws the result table t and returns the figure as SVG and PNG.
func Render(s Spec, t *dataset.Table) (svg, png []byte, err error) {
	defer func() {
		// gonum/plot panics on some degenerate inputs; report them as errors.
		if r := recover(); r != nil {
			svg, png, err = nil, nil, fmt.Errorf("figure %q: %v", s.Title, r)
		}
	}()
	p, err := build(s, t)
	if err != nil {
		return nil, nil, err
	}
	svg, err = encode(p, "svg")
	if err != nil {
		return nil, nil, err
	}
	png, err = encode(p, "png")
	return svg, png, err
}

func encode(p *plot.Plot, format string) ([]byte, error) {
	w, err := p.WriterTo(Width, Height, format)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if _, err := w.WriteTo(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

type series struct {
	name, origin string
	x, y, lo, hi []float64
	cats         []string
}

// group returns the series in order of first appearance.
func group(t *dataset.Table) []*series {
	names, cats, origins := t.Strings("series"), t.Strings("category"), t.Strings("origin")
	xs, ys, los, his := t.Floats("x"), t.Floats("y"), t.Floats("y_lo"), t.Floats("y_hi")
	var out []*series
	idx := map[string]*series{}
	for i := range names {
		s, ok := idx[names[i]]
		if !ok {
			s = &series{name: names[i], origin: origins[i]}
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

func build(s Spec, t *dataset.Table) (*plot.Plot, error) {
	if t.Len() == 0 {
		return nil, fmt.Errorf("figure %q: no rows to plot", s.Title)
	}
	if s.Bar && s.LogY {
		return nil, fmt.Errorf("figure %q: a bar chart cannot have a log y axis (bars start at 0)", s.Title)
	}
	ys, xs, names := t.Floats("y"), t.Floats("x"), t.Strings("series")
	for i := range ys {
		if s.LogY && !(t.Floats("y_lo")[i] > 0) {
			return nil, fmt.Errorf("figure %q: log y axis needs positive values: series %q at x = %v has %v", s.Title, names[i], xs[i], t.Floats("y_lo")[i])
		}
		if s.LogX && !(xs[i] > 0) {
			return nil, fmt.Errorf("figure %q: log x axis needs positive values: series %q has x = %v", s.Title, names[i], xs[i])
		}
	}
	p := plot.New()
	p.Title.Text = s.Title
	if s.Caption != "" {
		p.Title.Text += "\n" + wrap(s.Caption, 110)
	}
	p.Title.TextStyle.Font.Size = vg.Points(10)
	p.X.Label.Text = s.XLabel
	p.Y.Label.Text = s.YLabel
	p.Add(plotter.NewGrid())
	p.Legend.Top = s.Legend == "" || s.Legend == "top left" || s.Legend == "top right"
	p.Legend.Left = s.Legend == "top left" || s.Legend == "bottom left"
	p.Legend.TextStyle.Font.Size = vg.Points(9)
	ser := group(t)
	var err error
	if s.Bar {
		err = bars(p, ser)
	} else {
		err = curves(p, ser)
	}
	if err != nil {
		return nil, fmt.Errorf("figure %q: %w", s.Title, err)
	}
	if s.LogX {
		p.X.Scale, p.X.Tick.Marker = plot.LogScale{}, plot.LogTicks{}
	}
	if s.LogY {
		p.Y.Scale, p.Y.Tick.Marker = plot.LogScale{}, plot.LogTicks{}
	}
	if !s.LogY && p.Y.Min > 0 && !s.Bar {
		p.Y.Min = 0 // throughput and time axes start at zero
	}
	return p, nil
}

func curves(p *plot.Plot, ser []*series) error {
	for i, s := range ser {
		pts := make(plotter.XYs, len(s.x))
		for k := range s.x {
			pts[k] = plotter.XY{X: s.x[k], Y: s.y[k]}
		}
		sort.SliceStable(pts, func(a, b int) bool { return pts[a].X < pts[b].X })
		c := plotutil.Color(i)
		shape := plotutil.Shape(i)
		label := s.name
		if s.origin != dataset.Derived {
			label += " (" + s.origin + ")"
		}
		if s.origin == dataset.Measured {
			sc, err := plotter.NewScatter(pts)
			if err != nil {
				return err
			}
			sc.GlyphStyle = draw.GlyphStyle{Color: c, Radius: vg.Points(3.5), Shape: draw.CrossGlyph{}}
			errs := make(errPoints, len(s.x))
			for k := range s.x {
				errs[k] = errPoint{x: s.x[k], y: s.y[k], lo: s.y[k] - s.lo[k], hi: s.hi[k] - s.y[k]}
			}
			eb, err := plotter.NewYErrorBars(errs)
			if err != nil {
				return err
			}
			eb.LineStyle.Color = c
			p.Add(sc, eb)
			p.Legend.Add(label, sc)
			continue
		}
		l, sc, err := plotter.NewLinePoints(pts)
		if err != nil {
			return err
		}
		l.Color = c
		l.Width = vg.Points(1.5)
		l.Dashes = plotutil.Dashes(i % 3)
		sc.GlyphStyle = draw.GlyphStyle{Color: c, Radius: vg.Points(2.5), Shape: shape}
		p.Add(l, sc)
		p.Legend.Add(label, l, sc)
	}
	return nil
}

type errPoint struct{ x, y, lo, hi float64 }
type errPoints []errPoint

func (e errPoints) Len() int                        { return len(e) }
func (e errPoints) XY(i int) (float64, float64)     { return e[i].x, e[i].y }
func (e errPoints) YError(i int) (float64, float64) { return e[i].lo, e[i].hi }

func bars(p *plot.Plot, ser []*series) error {
	var cats []string
	seen := map[string]int{}
	for _, s := range ser {
		for _, c := range s.cats {
			if _, ok := seen[c]; !ok {
				seen[c] = len(cats)
				cats = append(cats, c)
			}
		}
	}
	w := vg.Points(math.Max(4, 40/float64(len(ser))))
	for i, s := range ser {
		vals := make(plotter.Values, len(cats))
		for k, c := range s.cats {
			vals[seen[c]] = s.y[k]
		}
		b, err := plotter.NewBarChart(vals, w)
		if err != nil {
			return err
		}
		b.Color = plotutil.Color(i)
		b.LineStyle.Color = color.Black
		b.LineStyle.Width = vg.Points(0.5)
		b.Offset = w * vg.Length(float64(i)-float64(len(ser)-1)/2)
		p.Add(b)
		label := s.name
		if s.origin != dataset.Derived {
			label += " (" + s.origin + ")"
		}
		p.Legend.Add(label, b)
	}
	p.NominalX(cats...)
	return nil
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
