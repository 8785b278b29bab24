package accounting

import (
	"fmt"
	"io"
	"strings"

	"pslab/engine/testbed/config"
	"pslab/engine/testbed/network"
	"pslab/engine/testbed/training"
)

// CheckBudget prints each configuration's prediction (Predict) and
// returns an error naming every configuration, with its file:line and
// the computed numbers, whose step count cannot reach the ±MaxCI
// interval, or (strict) whose predicted unscaled share is over
// MaxUnscaledShare.
func CheckBudget(cfgs []config.Config, cal config.Calibration, root, mode string, strict bool, w io.Writer) error {
	total := 0.0
	var bad []string
	fmt.Fprintf(w, "calibration: %.1f µs/message multiplexed, %.1f µs/message ordered, RTT %.0f µs, step CV %.0f%%; network %s\n",
		1e6*cal.MessageCost[training.Multiplexed], 1e6*cal.MessageCost[training.Ordered], 1e6*cal.RTT, 100*cal.StepCV, mode)
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
					1e6*cal.RTT, 1e6*network.BurstTime(mode, c.Bandwidth()), c.DeviceSpeed, 1e3*pr.Step))
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
