package experiment

import (
	"errors"
	"fmt"
)

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
