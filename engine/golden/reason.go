package golden

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// placeholder matches a value a deviation or inconclusive text quotes:
// {got}, the value the check judges, or {metric}, any metric of the
// result, optionally with a fmt verb ({error.mean.a:%.1f}) or with p, a
// fraction printed in percent ({error.a:%+.1p} is 100·v with %+.1f); the
// default format is %.4g.
var placeholder = regexp.MustCompile(`\{([A-Za-z0-9_.\-]+)(?::(%[-+ #0-9.]*[efgdp]))?\}`)

// reason is the check's deviation (or inconclusive) text with every
// placeholder filled from the run, so that every number a reason quotes
// is the run's. It fails naming a placeholder the result does not have.
func (c *Check) reason(got float64, look Lookup) (string, error) {
	text := c.Deviation
	if text == "" {
		text = c.Inconclusive
	}
	var missing []string
	out := placeholder.ReplaceAllStringFunc(text, func(m string) string {
		sub := placeholder.FindStringSubmatch(m)
		v, ok := got, true
		if sub[1] != "got" {
			v, ok = look(sub[1], "", 0, "")
		}
		if !ok {
			missing = append(missing, m)
			return m
		}
		switch {
		case sub[2] == "":
			return strconv.FormatFloat(v, 'g', 4, 64)
		case strings.HasSuffix(sub[2], "d"):
			return fmt.Sprintf(sub[2], int64(v))
		case strings.HasSuffix(sub[2], "p"):
			return fmt.Sprintf(strings.TrimSuffix(sub[2], "p")+"f", 100*v)
		}
		return fmt.Sprintf(sub[2], v)
	})
	if len(missing) > 0 {
		return "", fmt.Errorf("%s: its reason quotes %s, which the result does not have", c.Name(), strings.Join(missing, ", "))
	}
	return out, nil
}
