package testbed

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/apache/arrow/go/v17/arrow/memory"

	"pslab/engine/dataset"
)

// committedExtra returns the Extra metadata of the committed dataset in
// dir (its throughput.arrow), or nil if there is none.
func committedExtra(dir string) map[string]string {
	t, err := dataset.Read(filepath.Join(dir, ThroughputFile), dataset.MeasurementSchema, memory.NewGoAllocator())
	if err != nil {
		return nil
	}
	if t.Provenance.Extra == nil {
		return map[string]string{}
	}
	return t.Provenance.Extra
}

// upToDate reports whether the committed dataset in dir was measured
// from c (same Config.Hash) with accounting of this version on the
// current namespace network (NetworkNetns), and says so or why not. A
// host_limited dataset is up to date unless retryLimited: on a host too
// small for a configuration a new run is flagged again, and the
// collection must be resumable there (`testbed run -retry-limited`
// measures such datasets again, on a quieter or larger host).
func upToDate(dir string, c Config, retryLimited bool) (bool, string) {
	x := committedExtra(dir)
	switch {
	case x == nil:
		return false, "no committed dataset"
	case x["testbed.config_hash"] != c.Hash():
		return false, fmt.Sprintf("committed dataset has configuration hash %q, configuration has %q", x["testbed.config_hash"], c.Hash())
	case x["testbed.acct"] == "":
		return false, "committed dataset has no accounting (pre-#19 dataset)"
	case x["testbed.acct"] != AcctVersion:
		return false, fmt.Sprintf("committed dataset has accounting version %s, this pslab %s", x["testbed.acct"], AcctVersion)
	case isNetns(x["testbed.network"]) && x["testbed.network"] != NetworkNetns:
		return false, fmt.Sprintf("committed dataset was measured on network %s, the testbed's is now %s", x["testbed.network"], NetworkNetns)
	case retryLimited && x["testbed.acct.host_limited"] != "false":
		return false, "committed dataset is host_limited: " + x["testbed.acct.host_limited_cause"]
	case x["testbed.acct.host_limited"] != "false":
		return true, fmt.Sprintf("committed dataset has the same configuration hash %s (host_limited: %s)", c.Hash(), x["testbed.acct.host_limited_cause"])
	}
	return true, fmt.Sprintf("committed dataset has the same configuration hash %s", c.Hash())
}

// predictionMode is the network mode a run with -network mode would use,
// for the burst term of the prediction.
func predictionMode(mode string) string {
	if mode == "loopback" || netnsAvailable() != nil {
		return NetworkLoopback
	}
	return NetworkNetns
}

// checkBudget prints each configuration's prediction (Predict) and
// returns an error naming every configuration, with its file:line and
// the computed numbers, whose step count cannot reach the ±MaxCI
// interval, or (strict) whose predicted unscaled share is over
// MaxUnscaledShare.
func checkBudget(cfgs []Config, cal Calibration, root, mode string, strict bool, w io.Writer) error {
	total := 0.0
	var bad []string
	fmt.Fprintf(w, "calibration: %.1f µs/message multiplexed, %.1f µs/message ordered, RTT %.0f µs, step CV %.0f%%; network %s\n",
		1e6*cal.MessageCost[Multiplexed], 1e6*cal.MessageCost[Ordered], 1e6*cal.RTT, 100*cal.StepCV, mode)
	fmt.Fprintf(w, "%-28s %4s %6s %8s %9s %9s %9s %8s %11s %8s\n", "config", "d", "msgs", "bytes", "compute", "comm", "unscaled", "share", "steps/need", "est")
	for _, c := range cfgs {
		j := c.Job(root, 1)
		p, err := j.LoadPlan()
		if err != nil {
			return fmt.Errorf("%s: %w", c.Name, err)
		}
		pr, err := Predict(c, p, cal, mode)
		if err != nil {
			return fmt.Errorf("%s (%s): %w", c.Name, c.Source, err)
		}
		total += pr.Seconds
		flag := ""
		if pr.Share > MaxUnscaledShare {
			flag = " OVER"
			if strict {
				bad = append(bad, fmt.Sprintf("%s: %s: predicted unscaled share %.1f%% > %.0f%%: (%.1f µs × %d messages + RTT %.0f µs + burst %.0f µs) × (1 − 1/%g) / step %.2f ms",
					c.Source, c.Name, 100*pr.Share, 100*MaxUnscaledShare, 1e6*cal.MessageCost[c.Transport], MessagesPerStep(p),
					1e6*cal.RTT, 1e6*BurstTime(mode, c.Bandwidth()), c.DeviceSpeed, 1e3*pr.Step))
			}
		}
		if pr.StepsHad < pr.StepsNeeded {
			flag += " FEW-STEPS"
			bad = append(bad, fmt.Sprintf("%s: %s: %d step times per throughput point (repetitions %d × W %d × average %d) < %d needed for a ±%.0f%% 95%% CI at step CV %.0f%% (⌈(1.96·CV/%.2f)²⌉)",
				c.Source, c.Name, pr.StepsHad, c.Repetitions, pr.StepsHad/max(1, c.Repetitions*c.Average), c.Average, pr.StepsNeeded,
				100*MaxCI, 100*cal.StepCV, MaxCI))
		}
		fmt.Fprintf(w, "%-28s %4g %6d %8d %7.1fms %7.1fms %7.2fms %7.1f%% %5d/%-5d %7.0fs%s\n", c.Name, c.DeviceSpeed, MessagesPerStep(p), p.ModelBytes(),
			1e3*p.StepCompute().Seconds(), 1e3*float64(p.ModelBytes())/c.Bandwidth(), 1e3*pr.Unscaled, 100*pr.Share, pr.StepsHad, pr.StepsNeeded, pr.Seconds, flag)
	}
	fmt.Fprintf(w, "estimated total %.0f s (%.1f min)\n", total, total/60)
	if len(bad) > 0 {
		return fmt.Errorf("testbed: %d configuration(s) over budget:\n  %s", len(bad), strings.Join(bad, "\n  "))
	}
	return nil
}
