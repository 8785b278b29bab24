// Package figure renders result tables as figures with gonum/plot: lines
// with point markers for predictions (derived or reported values), markers
// with error bars for measurements, grouped bars for bar charts; a title of
// at most two lines, a caption under the panels and axis labels with
// units.
//
// Readability rules every figure follows:
//   - the legend is outside the data area, in a column to the right of
//     each panel;
//   - series go to the panels the spec names (Spec.Panels: one per data
//     source, e.g. a testbed and a predicted cluster), and no panel mixes
//     series whose values are far apart (MaxPanelRatio, MaxPanelSpan,
//     MaxBarRatio): such series are split into panels stacked vertically;
//   - a measured series is drawn in the colour of the model series it is
//     compared with (same name before ": ", or the name without a trailing
//     model name or "measured"), so markers and their model line match;
//     series sharing a colour differ by dash pattern and marker shape, the
//     same for one model in every colour, and the legend then lists the
//     colours and the styles apart when that is shorter;
//   - the x axis of a sweep has a tick at every swept value (W = 1, 2, …),
//     a linear y axis five or so labelled values, a log axis 1-2-5 values;
//   - intervals in the data (y_lo < y_hi) are drawn: bars with caps, or a
//     shaded band along a dense curve;
//   - a paper's error bound is drawn where the spec gives one: a band of
//     ± Bound around each model that a measurement is judged by, or
//     reference lines (Spec.Lines).
//
// SVG and PNG outputs carry no timestamps, so the same table gives the same
// bytes.
package figure

import (
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/plot/vg"

	"pslab/engine/dataset"
)

// Spec says how to draw a figure.
type Spec struct {
	Title   string // wrapped to at most two lines
	Caption string // printed under the panels: assumptions, sources, notes
	XLabel  string // with unit
	YLabel  string // with unit
	Bar     bool   // grouped bar chart over categories instead of curves
	LogX    bool
	LogY    bool
	// Legend is "top left", "top right" (default), "bottom left" or
	// "bottom right": the legend column beside the panel is aligned with
	// its top (top …) or bottom (bottom …).
	Legend string
	// XCategories draws the x values as evenly spaced categories with the
	// series side by side and not joined: configurations measured one by
	// one (two link bandwidths), not a sweep a line may interpolate. A
	// panel whose series all sit at one x value is drawn so anyway.
	XCategories bool
	// Panels put the series whose names start with Match and contain
	// Contains in a panel of their own, in the order listed, titled Title;
	// their legend leaves the prefix out. A last panel with neither takes
	// the series left; series no panel takes follow in panels of their own.
	Panels []Panel
	// Bound is a paper's claimed relative error bound (0.1 for "within
	// 10%"), drawn as a band from (1 − Bound)·y to (1 + Bound)·y around
	// every model series a measurement is compared with; BoundLabel is its
	// legend entry (default "paper's bound: model ± 10%").
	Bound      float64
	BoundLabel string
	// Bands shade, per series name, a band from (1 − f)·y to (1 + f)·y
	// around that series' curve (f a fraction ≥ 0, e.g. a model's measured
	// mean |error|, pslab predict's trust band); BandsLabel is its legend
	// entry (default "band: measured mean |error|").
	Bands      map[string]float64
	BandsLabel string
	// Lines are horizontal reference lines, e.g. a paper's bound on an
	// error axis.
	Lines []Line
}

// Panel is a panel a spec asks for: the series whose names start with
// Match and contain Contains.
type Panel struct {
	Match    string // prefix of the names of the panel's series
	Contains string // text in the names of the panel's series
	Title    string // printed above the panel
}

// takes reports whether the panel takes the series named name.
func (p Panel) takes(name string) bool {
	return strings.HasPrefix(name, p.Match) && strings.Contains(name, p.Contains)
}

// Line is a horizontal reference line at Y with a legend label. On a bar
// chart with Series set it is a mark over that series' bars only, in the
// categories starting with one of Categories (every category if empty).
type Line struct {
	Y          float64
	Label      string
	Series     string
	Categories []string
}

// matches reports whether the line is drawn in category c.
func (l Line) matches(c string) bool {
	if len(l.Categories) == 0 {
		return true
	}
	for _, p := range l.Categories {
		if strings.HasPrefix(c, p) {
			return true
		}
	}
	return false
}

// Size of a figure with one panel (without its legend column and
// caption); each extra panel adds PanelHeight.
const (
	Width       = 7 * vg.Inch
	Height      = 4.5 * vg.Inch
	PanelHeight = 3.2 * vg.Inch
)

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
		return nil, nil, fmt.Errorf("figure %q: %w", s.Title, err)
	}
	if svg, err = f.encode("svg"); err != nil {
		return nil, nil, err
	}
	png, err = f.encode("png")
	return svg, png, err
}

// validate reports a table or spec the figure cannot be drawn from.
func validate(s Spec, t *dataset.Table) error {
	if t.Len() == 0 {
		return fmt.Errorf("figure %q: no rows to plot", s.Title)
	}
	if s.Bar && s.LogY {
		return fmt.Errorf("figure %q: a bar chart cannot have a log y axis (bars start at 0)", s.Title)
	}
	if s.Bound < 0 || s.Bound >= 1 {
		return fmt.Errorf("figure %q: bound %v is not a fraction in [0, 1)", s.Title, s.Bound)
	}
	for name, f := range s.Bands {
		if !(f >= 0) || math.IsInf(f, 0) {
			return fmt.Errorf("figure %q: band of series %q is %v, want a finite fraction ≥ 0", s.Title, name, f)
		}
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
