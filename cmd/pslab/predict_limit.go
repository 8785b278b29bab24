package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"pslab/engine/experiment"
	"pslab/engine/predict"
	"pslab/engine/sim"
	"pslab/engine/trace"
)

// defaultMaxEvents is the most simulator events `pslab predict` runs
// without -max-events: 2·10^8, tens of seconds on one core. The estimate
// is 2 events (start, end) per op of a step, per simulated step, per
// worker, summed over the -workers counts and the -bandwidth values.
const defaultMaxEvents = 2e8

// estimateEvents is the number of simulator events predicting tr for the
// worker counts ws at nBW bandwidths; 0 when the simulator is not run.
// For the converged estimate it is the least work: its first
// sim.DefaultReplications replications at their initial length.
func estimateEvents(tr *trace.Trace, c predict.Cluster, ws []int, models []predict.Model, nBW int) float64 {
	if !slices.Contains(models, predict.Simulator) || len(tr.Steps) == 0 {
		return 0
	}
	steps, reps := c.Steps, 1.0
	if !c.Paper {
		reps = sim.DefaultReplications
		if steps <= 0 {
			steps = sim.DefaultEstimateSteps
		}
	}
	if steps <= 0 {
		steps = sim.DefaultSteps
	}
	return reps * experiment.SimEvents(len(tr.Steps[0].Ops), steps, ws...) * float64(nBW)
}

// checkEvents refuses a prediction whose estimate exceeds -max-events.
func (f *predictFlags) checkEvents(events float64) error {
	limit := f.eventLimit()
	if events > limit {
		return fmt.Errorf("predict: about %.3g simulator events (ops × -steps × Σ -workers × bandwidths, × 10 replications without -paper) exceed the limit %.3g; "+
			"lower -workers or -steps, or raise -max-events to %.3g if you mean it", events, limit, events)
	}
	return nil
}

// eventLimit is -max-events, or defaultMaxEvents when not positive.
func (f *predictFlags) eventLimit() float64 {
	if f.maxEvents <= 0 {
		return defaultMaxEvents
	}
	return f.maxEvents
}

// spinnerEvents is the estimate above which predict shows progress: about
// 2 s at the ~8·10^6 simulator events/s measured on the 2-core reference
// machine (nasnetalarge, 1.3·10^9 events in 163 s).
const spinnerEvents = 1.6e7

// newSpinner returns a progress spinner with elapsed time on stderr for
// work of the given estimate, or nil when stderr is not a terminal or the
// work is expected to take under 2 s. Finish it with Finish.
func newSpinner(stderr io.Writer, events float64, desc string) *progressbar.ProgressBar {
	f, ok := stderr.(*os.File)
	if !ok || events < spinnerEvents || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	return progressbar.NewOptions(-1, progressbar.OptionSetWriter(stderr), progressbar.OptionSetDescription(desc),
		progressbar.OptionSpinnerType(14), progressbar.OptionSetElapsedTime(true),
		progressbar.OptionSetSpinnerChangeInterval(100*time.Millisecond), progressbar.OptionClearOnFinish())
}
