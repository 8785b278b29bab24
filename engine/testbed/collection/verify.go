package collection

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"pslab/engine/testbed/accounting"
)

// VerifyLine is the verdict on one committed configuration.
type VerifyLine struct {
	Name string
	// Extra is the committed metadata (throughput.arrow).
	Extra map[string]string
	// Breaks lists why the configuration breaks the budget (empty: it
	// does not).
	Breaks []string
}

// VerifyDir judges every configuration directory in dir (those holding
// a throughput.arrow), in name order.
func VerifyDir(dir string) ([]VerifyLine, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []VerifyLine
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, e.Name(), ThroughputFile)); err != nil {
			continue
		}
		x := CommittedExtra(filepath.Join(dir, e.Name()))
		if x == nil {
			return nil, fmt.Errorf("%s: unreadable %s", filepath.Join(dir, e.Name()), ThroughputFile)
		}
		out = append(out, VerifyLine{Name: e.Name(), Extra: x, Breaks: judgeExtra(x)})
	}
	return out, nil
}

// judgeExtra lists the budget breaches recorded in a dataset's metadata.
func judgeExtra(x map[string]string) []string {
	if x["testbed.acct"] == "" {
		return []string{"no accounting (pre-#19 dataset)"}
	}
	num := func(k string) float64 {
		v, err := strconv.ParseFloat(x[k], 64)
		if err != nil {
			return -1
		}
		return v
	}
	var b []string
	if x["testbed.acct.host_limited"] != "false" {
		b = append(b, "host_limited: "+x["testbed.acct.host_limited_cause"])
	}
	if v := num("testbed.acct.unscaled_share"); !(v >= 0 && v <= accounting.MaxUnscaledShare) {
		b = append(b, fmt.Sprintf("unscaled share %s > %g", x["testbed.acct.unscaled_share"], accounting.MaxUnscaledShare))
	}
	if x["testbed.acct"] == "1" {
		// version 1 judged the run-queue wait summed over threads
		if v := num("testbed.acct.runq_wait"); !(v >= 0 && v <= accounting.MaxContention) {
			b = append(b, fmt.Sprintf("run-queue wait %s > %g (accounting version 1, no contention measured)", x["testbed.acct.runq_wait"], accounting.MaxContention))
		}
	} else if v := num("testbed.acct.contention"); !(v >= 0 && v <= accounting.MaxContention) {
		b = append(b, fmt.Sprintf("contention %s > %g", x["testbed.acct.contention"], accounting.MaxContention))
	}
	if v, ok := x["testbed.acct.retrans"]; ok {
		if o := num("testbed.acct.retrans"); !(o >= 0 && o <= accounting.MaxRetrans) {
			b = append(b, fmt.Sprintf("retransmitted segments %s > %g", v, accounting.MaxRetrans))
		}
	}
	if v, ok := x["testbed.acct.other_cores"]; ok {
		if o := num("testbed.acct.other_cores"); !(o >= 0 && o <= accounting.MaxOther) {
			b = append(b, fmt.Sprintf("other work on the host %s cores > %g", v, accounting.MaxOther))
		}
	}
	if ci := maxList(x["testbed.acct.ci95_rel"]); !(ci <= accounting.MaxCI) {
		b = append(b, fmt.Sprintf("throughput CI ±%.1f%% > ±%.0f%%", 100*ci, 100*accounting.MaxCI))
	}
	return b
}

// maxList is the largest of a comma-separated list of numbers (+Inf if
// one does not parse or the list is empty).
func maxList(s string) float64 {
	best := math.Inf(-1)
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.ParseFloat(f, 64)
		if err != nil {
			return math.Inf(1)
		}
		best = max(best, v)
	}
	return best
}

// Verify prints VerifyDir's verdicts and returns an error naming the
// configurations that break the budget.
func Verify(dir string, w io.Writer) error {
	lines, err := VerifyDir(dir)
	if err != nil {
		return err
	}
	if len(lines) == 0 {
		return fmt.Errorf("testbed verify: no configurations (throughput.arrow) in %s", dir)
	}
	pct := func(x map[string]string, k string) string {
		v, err := strconv.ParseFloat(x[k], 64)
		if err != nil {
			return "-"
		}
		return fmt.Sprintf("%.1f%%", 100*v)
	}
	fmt.Fprintf(w, "%-30s %9s %9s %9s %8s %9s %8s %s\n", "configuration", "unscaled", "contend", "runq", "cpu", "host cpu", "CI ±", "host_limited")
	var bad []string
	for _, l := range lines {
		x := l.Extra
		ci := "-"
		if x["testbed.acct"] != "" {
			ci = fmt.Sprintf("%.1f%%", 100*maxList(x["testbed.acct.ci95_rel"]))
		}
		verdict := "no"
		if len(l.Breaks) > 0 {
			verdict = "BREAKS BUDGET: " + strings.Join(l.Breaks, "; ")
			bad = append(bad, l.Name)
		}
		fmt.Fprintf(w, "%-30s %9s %9s %9s %8s %9s %8s %s\n", l.Name, pct(x, "testbed.acct.unscaled_share"), pct(x, "testbed.acct.contention"), pct(x, "testbed.acct.runq_wait"),
			pct(x, "testbed.acct.cpu_max"), pct(x, "testbed.acct.host_cpu_max"), ci, verdict)
	}
	if len(bad) > 0 {
		return errors.New("testbed verify: " + strconv.Itoa(len(bad)) + " of " + strconv.Itoa(len(lines)) + " configurations break the budget: " + strings.Join(bad, ", "))
	}
	fmt.Fprintf(w, "all %d configurations within the budget (unscaled < %.0f%%, contention < %.0f%%, CI within ±%.0f%%)\n",
		len(lines), 100*accounting.MaxUnscaledShare, 100*accounting.MaxContention, 100*accounting.MaxCI)
	return nil
}
