package collection

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/apache/arrow/go/v17/arrow/memory"

	"pslab/engine/testbed/accounting"
)

// VerifyLine is the verdict on one committed configuration.
type VerifyLine struct {
	Name string
	// Extra is the committed metadata (throughput.arrow).
	Extra map[string]string
	// Points and Stretched are its points' verdicts (Judge).
	Points, Stretched []PointVerdict
	// Breaks lists what the configuration as a whole breaks: no
	// accounting, or the unscaled share.
	Breaks []string
}

// Holds reports whether the configuration and every point hold.
func (l *VerifyLine) Holds() bool {
	return len(l.Breaks) == 0 && !slices.ContainsFunc(l.Points, func(p PointVerdict) bool { return !p.Holds() })
}

// VerifyDir judges every configuration directory in dir (those holding
// a throughput.arrow), in name order, from its committed runs
// (ReadCommitted, Judge).
func VerifyDir(dir string) ([]VerifyLine, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	mem := memory.NewGoAllocator()
	var out []VerifyLine
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		d := filepath.Join(dir, e.Name())
		if _, err := os.Stat(filepath.Join(d, ThroughputFile)); err != nil {
			continue
		}
		cm, err := ReadCommitted(d, mem)
		if err != nil {
			return nil, err
		}
		l := VerifyLine{Name: e.Name(), Extra: cm.Extra}
		l.Points, l.Stretched = Judge(cm.Runs, cm.Input)
		x := cm.Extra
		if v, _ := strconv.Atoi(x["testbed.acct"]); v < 3 && len(l.Stretched) == 0 {
			for i := range l.Points {
				l.Points[i].Unjudged = fmt.Sprintf("no stretched runs (accounting version %s predates dilation sensitivity, version 3)", orDash(x["testbed.acct"]))
			}
		}
		if x["testbed.acct"] == "" {
			l.Breaks = append(l.Breaks, "no accounting (pre-#19 dataset)")
		} else if v, err := strconv.ParseFloat(x["testbed.acct.unscaled_share"], 64); err != nil || !(v >= 0 && v <= accounting.MaxUnscaledShare) {
			l.Breaks = append(l.Breaks, fmt.Sprintf("unscaled share %s > %g", x["testbed.acct.unscaled_share"], accounting.MaxUnscaledShare))
		}
		out = append(out, l)
	}
	return out, nil
}

// Verify prints VerifyDir's verdicts, per point: its interval over
// repetitions, operating modes, dilation sensitivity and the diagnostics
// (contention, retransmissions, other work), and returns an error unless
// every point of every configuration holds, counting the points that
// fail and those that cannot be judged (with why).
func Verify(dir string, w io.Writer) error {
	lines, err := VerifyDir(dir)
	if err != nil {
		return err
	}
	if len(lines) == 0 {
		return fmt.Errorf("testbed verify: no configurations (throughput.arrow) in %s", dir)
	}
	total, held, breaking := 0, 0, 0
	unjudged := map[string]int{}
	var bad []string
	for _, l := range lines {
		printLine(w, &l)
		for _, p := range l.Points {
			total++
			if p.Holds() {
				held++
			}
			if len(p.Why) > 0 {
				breaking++
			}
			if p.Unjudged != "" {
				unjudged[p.Unjudged]++
			}
		}
		if !l.Holds() {
			bad = append(bad, l.Name)
		}
	}
	nUnjudged := 0
	for _, n := range unjudged {
		nUnjudged += n
	}
	fmt.Fprintf(w, "\n%d configurations, %d points: %d hold, %d unjudged, %d break the interval, a limit or dilation (judged or not)\n",
		len(lines), total, held, nUnjudged, breaking)
	reasons := make([]string, 0, len(unjudged))
	for why := range unjudged {
		reasons = append(reasons, why)
	}
	slices.Sort(reasons)
	for _, why := range reasons {
		fmt.Fprintf(w, "  unjudged, %d points: %s\n", unjudged[why], why)
	}
	if len(bad) > 0 {
		return fmt.Errorf("testbed verify: %d of %d configurations do not hold: %d of %d points hold, %d unjudged, %d break the interval, a limit or dilation: %s",
			len(bad), len(lines), held, total, nUnjudged, breaking, strings.Join(bad, ", "))
	}
	fmt.Fprintf(w, "every point holds: its stretched points agree within the joint 95%% interval, its CI over repetitions is within ±%.0f%%, unscaled share ≤ %.0f%%, retransmissions not reported duplicate (D-SACK; all of them before accounting version 4) ≤ %.1f%%, other work ≤ %.2f cores\n",
		100*accounting.MaxCI, 100*accounting.MaxUnscaledShare, 100*accounting.MaxRetrans, accounting.MaxOther)
	return nil
}

// pct formats a share as a percentage, "-" if undefined.
func pct(v float64, prec int) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "-"
	}
	return strconv.FormatFloat(100*v, 'f', prec, 64) + "%"
}

// printLine prints one configuration and its points.
func printLine(w io.Writer, l *VerifyLine) {
	x := l.Extra
	held := 0
	for _, p := range l.Points {
		if p.Holds() {
			held++
		}
	}
	u, _ := strconv.ParseFloat(x["testbed.acct.unscaled_share"], 64)
	fmt.Fprintf(w, "\n%s (accounting version %s, %s, %s): unscaled share %s; %d of %d points hold\n", l.Name, orDash(x["testbed.acct"]),
		orDash(x["testbed.network"]), orDash(x["testbed.date"]), pct(u, 1), held, len(l.Points))
	for _, b := range l.Breaks {
		fmt.Fprintf(w, "  BREAKS: %s\n", b)
	}
	fmt.Fprintf(w, "  %-7s %4s %18s %8s %8s %6s %8s %8s %7s %7s  %s\n", "W", "reps", "throughput", "CI reps", "batchCI", "sync", "contend", "retrans", "lost", "other", "modes | dilation | verdict")
	row := func(p *PointVerdict, label string) {
		fmt.Fprintf(w, "  %-7s %4d %10.1f ±%6.1f %8s %8s %6s %8s %8s %7s %7.2f  %s | %s | %s\n", label, p.Rates.N, p.Rates.Mean, p.Rates.Std,
			"±"+pct(p.CI, 1), "±"+pct(p.BatchCI, 1), fmtSync(p.Synchrony), pct(p.Contention, 1), pct(p.Retrans, 2), pct(p.knownLost(), 2), p.Other,
			modesString(p), orDash(p.Sensitivity), verdictString(p))
	}
	for i := range l.Points {
		p := &l.Points[i]
		row(p, strconv.Itoa(p.Workers))
		for j := range l.Stretched {
			if s := &l.Stretched[j]; s.Workers == p.Workers {
				row(s, fmt.Sprintf("%d×%g", s.Workers, s.Dilation))
			}
		}
	}
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func fmtSync(v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	return strconv.FormatFloat(v, 'f', 2, 64)
}

// modesString describes a point's operating modes: each one's mean
// throughput, interval, share of the runs and signature (step-start
// synchrony, and the spread of the workers' first step starts, which would
// show a mode chosen at start-up).
func modesString(p *PointVerdict) string {
	if p.Rates.N < 4 {
		return fmt.Sprintf("modes untested (%d runs < 4)", p.Rates.N)
	}
	if len(p.Modes) == 0 {
		return fmt.Sprintf("one mode (BC %.2f)", p.Bimodality)
	}
	s := make([]string, len(p.Modes))
	for i, m := range p.Modes {
		s[i] = fmt.Sprintf("%.0f ±%s ×%.0f%% sync %s start %s", m.Mean, pct(m.CI, 1), 100*m.Frequency, fmtSync(m.Synchrony), fmtSpread(m.StartSpread))
	}
	return "modes " + strings.Join(s, " / ")
}

// verdictString is a point's verdict with its reasons.
func verdictString(p *PointVerdict) string {
	v := p.Verdict()
	var why []string
	if p.Unjudged != "" {
		why = append(why, p.Unjudged)
	}
	why = append(why, p.Why...)
	if p.Dilation == 1 {
		v = strings.ToUpper(v)
	}
	if len(why) > 0 {
		v += ": " + strings.Join(why, "; ")
	}
	return v
}

// fmtSpread is a start spread in ms, "-" when undefined.
func fmtSpread(s float64) string {
	if math.IsNaN(s) {
		return "-"
	}
	return fmt.Sprintf("%.1fms", 1e3*s)
}
