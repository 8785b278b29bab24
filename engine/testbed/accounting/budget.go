package accounting

import (
	"fmt"
	"io"
	"strings"

	"pslab/engine/testbed/analysis"
	"pslab/engine/testbed/config"
	"pslab/engine/testbed/network"
	"pslab/engine/testbed/training"
)

// CheckBudget prints each configuration's prediction (Predict; spread
// gives the between-run spread of its committed points) and returns an
// error naming every configuration, with its file:line and the computed
// numbers, whose points cannot reach the ±MaxCI interval within its
// repetition cap, whose predicted collection time (stretched runs
// included) exceeds its max_minutes, or (strict) whose predicted
// unscaled share is over MaxUnscaledShare.
func CheckBudget(cfgs []config.Config, cal config.Calibration, root, mode string, strict bool, spread func(config.Config) RunSpread, w io.Writer) error {
	total, expected := 0.0, 0.0
	var bad []string
	runCV := "from each configuration's committed runs, else step_cv/√(W·average)"
	if cal.RunCV > 0 {
		runCV = fmt.Sprintf("from each configuration's committed runs, else %.1f%%", 100*cal.RunCV)
	}
	fmt.Fprintf(w, "calibration: %.1f µs/message multiplexed, %.1f µs/message ordered, RTT %.0f µs, step CV %.0f%%, run CV %s; network %s\n",
		1e6*cal.MessageCost[training.Multiplexed], 1e6*cal.MessageCost[training.Ordered], 1e6*cal.RTT, 100*cal.StepCV, runCV, mode)
	fmt.Fprintf(w, "%-28s %4s %6s %8s %9s %9s %9s %7s %7s %9s %8s %8s %8s\n", "config", "d", "msgs", "bytes", "compute", "comm", "unscaled", "share", "run CV", "reps/cap", "expect", "at most", "stretch")
	for _, c := range cfgs {
		j := c.Job(root, 1)
		p, err := j.LoadPlan()
		if err != nil {
			return fmt.Errorf("%s: %w", c.Name, err)
		}
		pr, err := Predict(c, p, cal, mode, spread(c))
		if err != nil {
			return fmt.Errorf("%s (%s): %w", c.Name, c.Source, err)
		}
		total, expected = total+pr.Seconds, expected+pr.Expected
		flag := ""
		if pr.Share > MaxUnscaledShare {
			flag = " OVER"
			if strict {
				bad = append(bad, fmt.Sprintf("%s: %s: predicted unscaled share %.1f%% > %.0f%%: (%.1f µs × %d messages + RTT %.0f µs + burst %.0f µs) × (1 − 1/%g) / step %.2f ms",
					c.Source, c.Name, 100*pr.Share, 100*MaxUnscaledShare, 1e6*cal.MessageCost[c.Transport], MessagesPerStep(p),
					1e6*cal.RTT, 1e6*network.BurstTime(mode, c.Bandwidth()), c.DeviceSpeed, 1e3*pr.Step))
			}
		}
		if pr.RepsNeeded > pr.RepCap {
			flag += " FEW-REPS"
			bad = append(bad, fmt.Sprintf("%s: %s: a point needs %s repetitions for a ±%.0f%% 95%% CI at a between-run CV of %.2f%% (%s; t(0.975, n−1)·CV/√n ≤ %.2f), max_repetitions is %d",
				c.Source, c.Name, repsString(pr.RepsNeeded), 100*MaxCI, 100*pr.RunCV, pr.RunCVSource, MaxCI, pr.RepCap))
		}
		if c.MaxMinutes > 0 && pr.Seconds > 60*c.MaxMinutes {
			flag += " OVER-TIME"
			bad = append(bad, fmt.Sprintf("%s: %s: predicted collection time %.1f min (%.1f min of it stretched: ×%s at the %d largest W) > max_minutes %g",
				c.Source, c.Name, pr.Seconds/60, pr.Stretched/60, joinFloats(c.Dilations, ", ×"), c.StretchedPoints(), c.MaxMinutes))
		}
		fmt.Fprintf(w, "%-28s %4g %6d %8d %7.1fms %7.1fms %7.2fms %6.1f%% %6.1f%% %4s/%-4d %7.0fs %7.0fs %7.0fs%s\n", c.Name, c.DeviceSpeed, MessagesPerStep(p), p.ModelBytes(),
			1e3*p.StepCompute().Seconds(), 1e3*float64(p.ModelBytes())/c.Bandwidth(), 1e3*pr.Unscaled, 100*pr.Share, 100*pr.RunCV,
			repsString(pr.RepsNeeded), pr.RepCap, pr.Expected, pr.Seconds, pr.Stretched, flag)
	}
	fmt.Fprintf(w, "estimated total %.0f s (%.1f h) with the first dilation only, at most %.0f s (%.1f h) with every dilation at every stretched point\n",
		expected, expected/3600, total, total/3600)
	if len(bad) > 0 {
		return fmt.Errorf("testbed: %d configuration(s) over budget:\n  %s", len(bad), strings.Join(bad, "\n  "))
	}
	return nil
}

// repsString prints a repetition count, "> analysis.MaxRepsForCI" beyond
// it.
func repsString(n int) string {
	if n > analysis.MaxRepsForCI {
		return fmt.Sprintf("> %d", analysis.MaxRepsForCI)
	}
	return fmt.Sprint(n)
}

// joinFloats joins factors with sep.
func joinFloats(v []float64, sep string) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, sep)
}
