package golden

import "strings"

// Claims counts the checks of a golden file by what it records about
// them.
type Claims struct {
	// Paper is the number of checks whose source is a paper.
	Paper int
	// Missed is the number of checks with a Deviation: claims the
	// reproduction misses.
	Missed int
	// Inconclusive is the number of Interval checks recorded as
	// inconclusive.
	Inconclusive int
}

// Claims counts g's paper, missed and inconclusive checks. A run fails
// when a recorded deviation holds again or an inconclusive check is
// decided, so on a passing run these are also the run's counts.
func (g *File) Claims() Claims {
	var c Claims
	for i := range g.Checks {
		k := &g.Checks[i]
		if strings.HasPrefix(k.Source, "paper") {
			c.Paper++
		}
		if k.Deviation != "" {
			c.Missed++
		}
		if k.Inconclusive != "" {
			c.Inconclusive++
		}
	}
	return c
}
