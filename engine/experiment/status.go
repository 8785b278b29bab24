package experiment

import (
	"path/filepath"

	"pslab/engine/golden"
)

// CheckStatus returns an error, located at the spec's status key, when
// s.Status contradicts its definition (see Spec.Status) on the golden
// file g: "deviates" exactly when g records a missed claim (a check with
// a deviation), and never "reproduced" with an inconclusive claim. The
// runner calls it before an experiment runs, so that a label cannot
// contradict the checks it summarizes.
func CheckStatus(s *Spec, g *golden.File) error {
	c := g.Claims()
	file := filepath.ToSlash(g.Path)
	switch {
	case c.Missed > 0 && s.Status != "deviates":
		return s.Errorf([]string{"status"}, "status %q, but %s records %d missed claim(s) (checks with a deviation): want \"deviates\"", s.Status, file, c.Missed)
	case c.Missed == 0 && s.Status == "deviates":
		return s.Errorf([]string{"status"}, "status \"deviates\", but %s records no missed claim: want \"reproduced\" or \"partial\"", file)
	case c.Inconclusive > 0 && s.Status == "reproduced":
		return s.Errorf([]string{"status"}, "status \"reproduced\", but %s records %d inconclusive claim(s): want \"partial\"", file, c.Inconclusive)
	}
	return nil
}
