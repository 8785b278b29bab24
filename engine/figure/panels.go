package figure

import (
	"fmt"
	"math"
	"sort"
)

// MaxPanelRatio is the largest gap allowed between the values of two
// series drawn in one curve panel, and MaxPanelSpan the largest range of
// values a panel may reach by adding series that do not overlap those
// already in it (see splitByMagnitude).
const (
	MaxPanelRatio = 100
	MaxPanelSpan  = 1000
)

// MaxBarRatio is the largest ratio allowed between the tallest bars of
// two series in one bar panel: a series whose bars would stay below a
// tenth of the axis gets a panel of its own.
const MaxBarRatio = 10

// panelSeries is the content of one panel: its series and title.
type panelSeries struct {
	title string
	ser   []*series
}

// panelsOf assigns the series to panels: first the panels s names, each
// taking the series it names (Panel.takes, in the order listed), then the series no panel named; each part is further split by
// magnitude (splitByMagnitude, or MaxBarRatio for bars).
func panelsOf(s Spec, ser []*series) ([]panelSeries, error) {
	var out []panelSeries
	taken := map[*series]bool{}
	for _, p := range s.Panels {
		var in []*series
		for _, x := range ser {
			if !taken[x] && p.takes(x.name) {
				in = append(in, x)
				taken[x] = true
				x.prefix = p.Match
			}
		}
		if len(in) == 0 {
			return nil, fmt.Errorf("panel %q (match %q, contains %q) takes no series", p.Title, p.Match, p.Contains)
		}
		for _, part := range split(s, in) {
			out = append(out, panelSeries{title: p.Title, ser: part})
		}
	}
	var rest []*series
	for _, x := range ser {
		if !taken[x] {
			rest = append(rest, x)
		}
	}
	if len(rest) > 0 {
		for _, part := range split(s, rest) {
			out = append(out, panelSeries{ser: part})
		}
	}
	return out, nil
}

// split splits the series of one panel by magnitude: bars by
// MaxBarRatio, curves on a log axis also by MaxPanelSpan, other curves by
// splitByMagnitude.
func split(s Spec, ser []*series) [][]*series {
	switch {
	case s.Bar:
		return splitWhere(ser, func(_, panelHi, _, hi float64) bool { return panelHi/hi > MaxBarRatio })
	case s.LogY:
		return splitWhere(ser, func(panelLo, panelHi, lo, hi float64) bool {
			return panelLo/hi > MaxPanelRatio || (hi < panelLo && panelHi/lo > MaxPanelSpan)
		})
	}
	return splitByMagnitude(ser)
}

// splitByMagnitude splits curve series into panels so that no panel holds
// two series whose values are more than MaxPanelRatio apart. On a log axis
// (split) a series lying wholly below a panel does not join it either if
// the panel would then span more than MaxPanelSpan (icpe20 Fig. 14's
// testbed at 10²-10⁴ and its Opteron prediction at 1-20). A measurement
// stays with its model (keys). Panels are ordered by decreasing values;
// series keep their order within a panel.
func splitByMagnitude(ser []*series) [][]*series {
	return splitWhere(ser, func(panelLo, _, _, hi float64) bool { return panelLo/hi > MaxPanelRatio })
}

// splitWhere groups the series by colour key, visits the groups by
// decreasing largest value and starts a new panel when apart(panel's
// smallest, panel's largest, group's smallest, group's largest value)
// holds. All-zero groups stay in the current panel.
func splitWhere(ser []*series, apart func(panelLo, panelHi, lo, hi float64) bool) [][]*series {
	type grp struct {
		key    string
		lo, hi float64
	}
	var groups []*grp
	byKey := map[string]*grp{}
	ks := keys(ser)
	for _, s := range ser {
		k := ks[s]
		g := byKey[k]
		if g == nil {
			g = &grp{key: k, lo: math.Inf(1)}
			byKey[k] = g
			groups = append(groups, g)
		}
		lo, hi := s.span()
		if hi > 0 {
			g.lo, g.hi = math.Min(g.lo, lo), math.Max(g.hi, hi)
		}
	}
	sorted := append([]*grp(nil), groups...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].hi > sorted[j].hi })
	panelOf := map[string]int{}
	panels := 0
	lo, hi := math.Inf(1), 0.0
	for _, g := range sorted {
		if panels == 0 || (g.hi > 0 && hi > 0 && apart(lo, hi, g.lo, g.hi)) {
			panels++
			lo, hi = math.Inf(1), 0
		}
		if g.hi > 0 {
			lo, hi = math.Min(lo, g.lo), math.Max(hi, g.hi)
		}
		panelOf[g.key] = panels - 1
	}
	out := make([][]*series, panels)
	for _, s := range ser {
		p := panelOf[ks[s]]
		out[p] = append(out[p], s)
	}
	return out
}
