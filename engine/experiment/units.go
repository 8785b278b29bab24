package experiment

import (
	"strings"

	"pslab/engine/dataset"
)

// unitNames maps the ways labels write a unit to the form result tables
// record: "1" for a dimensionless ratio or fraction, "h" for hours.
var unitNames = map[string]string{"dimensionless": "1", "x": "1", "×": "1", "hours": "h"}

// LabelUnit returns the unit an axis label names: the text of its only
// parenthesized group when that group ends the label and follows a space,
// up to the first comma, if that text is one word ("workers W (count,
// 1 PS)" → "count", "throughput (examples/s)" → "examples/s", "speedup
// (dimensionless)" → "1", "response time (hours)" → "h"). It returns ""
// when the label names no unit ("system load λE[S(1)]/W"), describes one
// in words ("CDF (fraction of jobs)") or names several ("time (min) and
// cost (US cents)", "events; time (ms)"): Plot.XUnit and Plot.YUnit say
// those.
func LabelUnit(label string) string {
	label = strings.TrimSpace(label)
	open := strings.LastIndex(label, " (")
	if open < 0 || !strings.HasSuffix(label, ")") || strings.Count(label, "(") != 1 ||
		strings.Count(label, ")") != 1 || strings.Contains(label, ";") {
		return ""
	}
	u, _, _ := strings.Cut(label[open+2:len(label)-1], ",")
	u = strings.TrimSpace(u)
	if u == "" || strings.ContainsAny(u, " \t") {
		return ""
	}
	if n, ok := unitNames[u]; ok {
		return n
	}
	return u
}

// Units returns the units of the figure's x and y axes: XUnit and YUnit
// where set, else the unit each label names (LabelUnit). An x unit is
// meaningless on a bar chart, whose rows carry a category instead of an x.
func (p Plot) Units() (x, y string) {
	x, y = p.XUnit, p.YUnit
	if x == "" {
		x = LabelUnit(p.XLabel)
	}
	if y == "" {
		y = LabelUnit(p.YLabel)
	}
	return x, y
}

// resultSchema returns s (dataset.ResultSchema) with the figure's units and
// axis labels on its columns: x (on a line chart) or category (on a bar
// chart) gets the x label, y the y label; y_lo and y_hi, the ends of y's
// interval, get y's unit. Columns s lacks are left out.
func (p Plot) resultSchema(s *dataset.Schema) *dataset.Schema {
	xu, yu := p.Units()
	set := func(col, unit, label string) {
		if s.Index(col) >= 0 {
			s = s.WithColumn(col, unit, label)
		}
	}
	if p.Type == "bar" {
		set("category", "", p.XLabel)
	} else {
		set("x", xu, p.XLabel)
	}
	set("y", yu, p.YLabel)
	set("y_lo", yu, "")
	set("y_hi", yu, "")
	return s
}
