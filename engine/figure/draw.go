package figure

import (
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

// curves draws the series of one panel as lines (predictions) and markers
// with error bars (measurements), adding their entries to l.
func curves(p *plot.Plot, l *plot.Legend, ser []*series, st map[*series]style) error {
	for _, s := range ser {
		pts := make(plotter.XYs, len(s.x))
		for k := range s.x {
			pts[k] = plotter.XY{X: s.x[k], Y: s.y[k]}
		}
		sort.SliceStable(pts, func(a, b int) bool { return pts[a].X < pts[b].X })
		c := plotutil.Color(st[s].colour)
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
			l.Add(s.label(), sc)
			continue
		}
		line, sc, err := plotter.NewLinePoints(pts)
		if err != nil {
			return err
		}
		v := st[s]
		line.Color = c
		line.Width = vg.Points(1.5)
		line.Dashes = plotutil.Dashes((v.colour%3 + v.variant) % len(plotutil.DefaultDashes))
		sc.GlyphStyle = draw.GlyphStyle{Color: c, Radius: vg.Points(2.5), Shape: plotutil.Shape(v.colour + v.variant)}
		p.Add(line, sc)
		l.Add(s.label(), line, sc)
	}
	return nil
}

type errPoint struct{ x, y, lo, hi float64 }
type errPoints []errPoint

func (e errPoints) Len() int                        { return len(e) }
func (e errPoints) XY(i int) (float64, float64)     { return e[i].x, e[i].y }
func (e errPoints) YError(i int) (float64, float64) { return e[i].lo, e[i].hi }

// bars draws the series of one panel as grouped bars over its categories.
func bars(p *plot.Plot, l *plot.Legend, ser []*series) error {
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
		b.Color = plotutil.Color(i) // bars: one colour per series
		b.LineStyle.Color = color.Black
		b.LineStyle.Width = vg.Points(0.5)
		b.Offset = w * vg.Length(float64(i)-float64(len(ser)-1)/2)
		p.Add(b)
		l.Add(s.label(), b)
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
