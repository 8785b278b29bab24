package experiment

import (
	"errors"
	"fmt"

	"pslab/engine/figure"
)

// FigureSpec is how the figure of s is drawn: its title and the [plot]
// table.
func (s *Spec) FigureSpec() figure.Spec {
	p := s.Plot
	fs := figure.Spec{Title: s.Title, Caption: p.Caption, XLabel: p.XLabel, YLabel: p.YLabel,
		Bar: p.Type == "bar", LogX: p.LogX, LogY: p.LogY, Legend: p.Legend, XCategories: p.XCategories,
		Bound: p.Bound, BoundLabel: p.BoundLabel}
	for _, x := range p.Panels {
		fs.Panels = append(fs.Panels, figure.Panel{Match: x.Match, Contains: x.Contains, Title: x.Title})
	}
	for _, l := range p.Lines {
		fs.Lines = append(fs.Lines, figure.Line{Y: l.Y, Label: l.Label, Series: l.Series, Categories: l.Categories})
	}
	return fs
}

// check validates the figure keys of [plot] and returns the key path of
// the first bad one under plot.
func (p Plot) check() ([]string, error) {
	if !(p.Bound >= 0 && p.Bound < 1) {
		return []string{"bound"}, fmt.Errorf("bound %v is not a relative error in [0, 1) (0.1 for 10%%)", p.Bound)
	}
	if p.BoundLabel != "" && p.Bound == 0 {
		return []string{"bound_label"}, errors.New("bound_label without a bound")
	}
	for i, x := range p.Panels {
		if x.Match == "" && x.Contains == "" && i < len(p.Panels)-1 {
			return []string{"panel"}, errors.New("only the last [[plot.panel]] may leave match and contains empty (it takes every series left)")
		}
	}
	for _, l := range p.Lines {
		if l.Label == "" {
			return []string{"line"}, errors.New("a [[plot.line]] needs a label")
		}
		if (l.Series != "" || len(l.Categories) > 0) && p.Type != "bar" {
			return []string{"line"}, errors.New("series and categories of a [[plot.line]] apply to bar charts only")
		}
	}
	if p.XCategories && p.Type == "bar" {
		return []string{"x_categories"}, errors.New("x_categories applies to line charts (a bar chart's x is categories already)")
	}
	return nil, nil
}
