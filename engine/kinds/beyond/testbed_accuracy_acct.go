package beyond

import (
	"fmt"
	"strconv"

	"pslab/engine/measured"
)

// tbaHostLimitedKey is the testbed's artifact-accounting verdict in the
// metadata of a configuration's throughput.arrow (engine/testbed doc,
// "Artifact accounting"): "true" when its processes contended for the
// host's cores beyond the budget, or its CI or other host work broke it.
const tbaHostLimitedKey = "testbed.acct.host_limited"

// Suffixes of a bar group's label: the configurations of a figure group
// are averaged separately by the accounting verdict.
const (
	tbaInBudget    = "in budget"
	tbaHostLimited = "host-limited"
)

// tbaBudget reads c's accounting verdict. known is false for a dataset
// recorded without accounting (no key); any other value than "true" or
// "false" is an error.
func tbaBudget(c *measured.Config) (limited, known bool, err error) {
	v, ok := c.MeasTable.Provenance.Extra[tbaHostLimitedKey]
	switch {
	case !ok:
		return false, false, nil
	case v == "true":
		return true, true, nil
	case v == "false":
		return false, true, nil
	}
	return false, false, fmt.Errorf("throughput.arrow metadata %s = %q: want true or false", tbaHostLimitedKey, v)
}

// tbaBudgetGroup is the bar group of a configuration of figure group g:
// g with the accounting verdict as a last line, or g alone without
// accounting.
func tbaBudgetGroup(g string, limited, known bool) string {
	switch {
	case !known:
		return g
	case limited:
		return g + "\n" + tbaHostLimited
	}
	return g + "\n" + tbaInBudget
}

// tbaBudgetSet is the metric infix of a verdict (error.mean.<set>.<model>).
func tbaBudgetSet(limited bool) string {
	if limited {
		return "host_limited"
	}
	return "in_budget"
}

// tbaReserved are the metric infixes no configuration may be named
// (error.mean.<name>.<model> of a set of configurations).
var tbaReserved = []string{"all", "in_budget", "host_limited"}

// tbaBudgetNote describes c's accounting for a note: with per-point
// verdicts (points.arrow) how many points hold, else the configuration's
// verdict and the largest contention (share of wall time) the testbed
// recorded.
func tbaBudgetNote(c *measured.Config, limited, known bool) string {
	if c.Points != nil {
		return fmt.Sprintf("%d of %d measured points hold their testbed judgement", len(tbaJudged(c)), len(c.Meas))
	}
	if !known {
		return "no artifact accounting"
	}
	x := c.MeasTable.Provenance.Extra
	v := tbaInBudget
	if limited {
		v = tbaHostLimited
	}
	share := x["testbed.acct.contention"]
	if f, err := strconv.ParseFloat(share, 64); err == nil {
		share = fmt.Sprintf("%.1f%% of wall time", 100*f)
	}
	return fmt.Sprintf("%s, contention %s at %s", v, share, x["testbed.acct.contention_at"])
}

// tbaIndicator is 1 for true, 0 for false.
func tbaIndicator(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
