package main

import (
	"pslab/engine/dataset"
	"pslab/engine/experiment"
	"pslab/engine/figure"
)

// figureSpec is how the figure of experiment s is drawn: its title and
// its [plot] table.
func figureSpec(s *experiment.Spec) figure.Spec {
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

// drawFigure is pslab run's experiment.DrawFunc: engine/figure's
// rendering of figureSpec.
func drawFigure(s *experiment.Spec, t *dataset.Table) (svg, png []byte, err error) {
	return figure.Render(figureSpec(s), t)
}
