package figure

import (
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// entry is one legend row: a label and what is drawn beside it.
type entry struct {
	label string
	th    plot.Thumbnailer
}

// legendBuilder collects a panel's legend. Series that share colours by
// configuration (style.grouped) are listed twice over: one row per
// series, and one row per colour plus one per style (line and marker in
// grey). The second form is used when it is shorter and every colour has
// several series, so icpe20 Fig. 21's four DNNs × three models take 4 + 3
// rows instead of 12.
type legendBuilder struct {
	spec     Spec
	dots     bool    // markers only: style rows show no line
	rows     []entry // every series, in order; grouped ones flagged
	isGroup  []bool
	colours  []entry
	styles   []entry
	seenKey  map[string]bool
	perKey   map[string]int
	seenWhat map[string]bool
	refs     []entry // the bound band and reference lines
	seenRef  map[string]bool
}

// newLegendBuilder returns an empty legend for a panel of s.
func newLegendBuilder(s Spec) *legendBuilder {
	return &legendBuilder{spec: s, seenKey: map[string]bool{}, perKey: map[string]int{}, seenWhat: map[string]bool{}, seenRef: map[string]bool{}}
}

// strip is the name without the prefix its panel's title says.
func strip(name, prefix string) string {
	return (&series{name: name, prefix: prefix}).short()
}

// add lists series s drawn in style v as th.
func (b *legendBuilder) add(s *series, v style, th plot.Thumbnailer) {
	b.rows = append(b.rows, entry{s.label(), th})
	b.isGroup = append(b.isGroup, v.grouped)
	if !v.grouped {
		return
	}
	b.perKey[v.key]++
	if !b.seenKey[v.key] {
		b.seenKey[v.key] = true
		sw := styleThumb{line: draw.LineStyle{Color: colourOf(v.colour), Width: vg.Points(5)}}
		b.colours = append(b.colours, entry{strip(v.key, s.prefix), sw})
	}
	if !b.seenWhat[v.what] {
		b.seenWhat[v.what] = true
		if s.measured() {
			eb, sc, err := measuredMarks(ink, []interval{{}}, v.mark)
			if err == nil {
				label := "measured"
				if v.what != "measured" {
					label = "measured, " + v.what
				}
				b.styles = append(b.styles, entry{label, thumbs{eb, sc}})
			}
			return
		}
		g := glyphStyle(ink, v.variant)
		th := styleThumb{line: lineStyle(ink, v.variant), glyph: &g}
		if b.dots {
			th.line.Width = 0
		}
		b.styles = append(b.styles, entry{v.what, th})
	}
}

// bound lists the band drawn at the paper's error bound (once).
func (b *legendBuilder) bound(th plot.Thumbnailer) {
	label := b.spec.BoundLabel
	if label == "" {
		label = fmt.Sprintf("paper's bound: model ± %g%%", b.spec.Bound*100)
	}
	b.line(label, th)
}

// line lists a reference line (once per label).
func (b *legendBuilder) line(label string, th plot.Thumbnailer) {
	if label == "" || b.seenRef[label] {
		return
	}
	b.seenRef[label] = true
	b.refs = append(b.refs, entry{label, th})
}

// fill adds the rows to l.
func (b *legendBuilder) fill(l *plot.Legend) {
	n := 0
	add := func(r entry) {
		if r.th == nil {
			l.Add(glyphs(r.label))
		} else {
			l.Add(glyphs(r.label), r.th)
		}
		n++
	}
	grouped := 0
	for _, g := range b.isGroup {
		if g {
			grouped++
		}
	}
	// Colours and styles apart when that is shorter and every colour
	// stands for several series (a grid, not a lone measurement).
	factor := grouped > 0 && len(b.colours)+len(b.styles) < grouped
	for _, n := range b.perKey {
		factor = factor && n >= 2
	}
	for i, r := range b.rows {
		if !factor || !b.isGroup[i] {
			add(r)
		}
	}
	if factor {
		if n > 0 {
			add(entry{})
		}
		for _, r := range b.colours {
			add(r)
		}
		add(entry{})
		for _, r := range b.styles {
			add(r)
		}
	}
	if len(b.refs) > 0 && n > 0 {
		add(entry{})
	}
	for _, r := range b.refs {
		add(r)
	}
}

// styleThumb is a legend thumbnail: a line and, optionally, a marker in
// its middle.
type styleThumb struct {
	line  draw.LineStyle
	glyph *draw.GlyphStyle
}

// Thumbnail implements plot.Thumbnailer.
func (t styleThumb) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	if t.line.Width > 0 {
		c.StrokeLine2(t.line, c.Min.X, y, c.Max.X, y)
	}
	if t.glyph != nil {
		c.DrawGlyph(*t.glyph, c.Center())
	}
}
