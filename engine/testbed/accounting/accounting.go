package accounting

import (
	"fmt"
	"math"
	"slices"

	"pslab/engine/testbed/analysis"
	"pslab/engine/testbed/training"
)

// The limits of the testbed's own distortion (engine/testbed doc.go,
// "Artifact accounting"; DESIGN.md "Testbed"). The judge of a point is
// its dilation sensitivity (collection.Judge); these stay limits, and a
// measurement over any of them is host_limited.
const (
	// MaxUnscaledShare bounds the unscaled share of an emulated step.
	MaxUnscaledShare = 0.05
	// MaxContention was the contention budget of accounting version 2
	// (2% of wall time in every process), the proxy that dilation
	// sensitivity replaced (issue 29). Contention is now a recorded
	// diagnostic and nothing is judged by it; this is its reference line.
	MaxContention = 0.02
	// MaxOther bounds the CPU used on the host by anything but the run's
	// PS and worker processes (cores): the coordinator and the kernel's
	// network processing use about 0.1 core; a build or a CPU hog ≥ 1.
	MaxOther = 0.25
	// MaxRetrans bounds the share of TCP segments a host retransmits
	// and its peer does not report as duplicates (ProcUsage.Lost): a
	// drop costs a fast retransmit or a 200 ms timeout that device_speed
	// does not compress, and a shaper whose queue holds the flows'
	// windows drops nothing. Accounting version 4 counts the D-SACKed
	// (spurious) retransmissions apart; datasets of version 3 recorded
	// none, and every retransmission of theirs counts.
	MaxRetrans = 0.001
	// MaxCI bounds the relative half-width of the 95% confidence interval
	// of every throughput point over its independent repetitions (or of
	// every operating mode's mean, collection.Judge); repetitions are
	// added until it is reached or Config.RepCap.
	MaxCI = 0.03
)

// MessagesPerStep is the number of gRPC messages one worker exchanges per
// step: one downlink and one uplink per tensor.
func MessagesPerStep(p *training.Plan) int { return 2 * p.NT() }

// UnscaledShare is the excess of what the emulation does not compress,
// relative to the emulated step (engine/testbed doc.go, "Artifact accounting"):
//
//	share = (perMessage·messages + rtt + burst) · (1 − 1/deviceSpeed) / step
//
// with perMessage, rtt, burst and step in s.
func UnscaledShare(perMessage float64, messages int, rtt, burst, deviceSpeed, step float64) float64 {
	if !(step > 0) {
		return math.Inf(1)
	}
	return (perMessage*float64(messages) + rtt + burst) * (1 - 1/deviceSpeed) / step
}

// Accounting is the artifact accounting of one configuration's
// measurement (recorded in every file's metadata, "testbed.acct.*").
type Accounting struct {
	// MessageCost is the per-message cost fitted by the probe run (s),
	// Messages the messages per step, RTT the probe's best round trip
	// (s), Burst the shaper's burst time per step (s).
	MessageCost float64
	Messages    int
	RTT, Burst  float64
	// Step is the median 1-worker step of the profiling run (s).
	Step float64
	// Unscaled is UnscaledShare of these.
	Unscaled float64
	// Baseline is the 1-worker profiling run's run-queue wait per
	// scheduling event (s): the host's wake-up latency when the run's two
	// processes have a core each. (The probe's, CPU-bound ping-pong, is
	// 4× higher and part of the per-message cost.)
	Baseline float64
	// RunQueue is the largest run-queue share of any process of any run,
	// RunQueueAt names it ("ps 0, W=5 rep 1").
	RunQueue   float64
	RunQueueAt string
	// Contention is the largest ProcUsage.Contention of any process of
	// any run, ContentionAt names it.
	Contention   float64
	ContentionAt string
	// Retrans is the largest ProcUsage.Retrans of any process of any
	// run, RetransAt names it; Lost and LostAt the same of
	// ProcUsage.Lost, what MaxRetrans judges (per point, in
	// engine/testbed/collection).
	Retrans   float64
	RetransAt string
	Lost      float64
	LostAt    string
	// Other is the largest CPU of the host not used by the run's
	// processes in any run (cores: host busy share × CPUs − their CPU),
	// OtherAt names the run.
	Other   float64
	OtherAt string
	// CPU is the largest CPU utilisation of any process (1 = one core),
	// HostCPU the largest host busy share of any run (0..1).
	CPU, HostCPU float64
	// CI is the relative 95% half-width of every unstretched throughput
	// point by within-run batch means (analysis.BatchCI), by
	// Config.Workers, and CV the step-time CV: diagnostics since issue 29
	// (RepCI is the interval that is judged).
	CI, CV []float64
	// RepCI is the relative 95% half-width of every unstretched point
	// over its independent repetitions (Student t), by Config.Workers
	// (+Inf with one repetition).
	RepCI []float64
	// Cause says why the configuration is host-limited (set by
	// collection.Outcome.Judge, point by point); empty if it is
	// within the budget.
	Cause string
}

// HostLimited reports whether the measurement is over the budget.
func (a *Accounting) HostLimited() bool { return a.Cause != "" }

// UnscaledBreach says how the unscaled share breaks MaxUnscaledShare,
// with the terms of UnscaledShare; "" if it does not.
func (a *Accounting) UnscaledBreach() string {
	if a.Unscaled <= MaxUnscaledShare {
		return ""
	}
	return fmt.Sprintf("unscaled share %.1f%% of the step (%.0f µs/message × %d + RTT %.0f µs + burst %.0f µs over step %.2f ms) > %.0f%%",
		100*a.Unscaled, a.MessageCost*1e6, a.Messages, a.RTT*1e6, a.Burst*1e6, a.Step*1e3, 100*MaxUnscaledShare)
}

// SetBaseline sets Baseline from the profiling run's accounting: its
// processes' run-queue wait over their scheduling events.
func (a *Accounting) SetBaseline(probe RunUsage) {
	wait, n := 0.0, 0.0
	for _, p := range probe.Procs {
		wait += p.RunQueue * p.Wall
		n += p.Slices
	}
	if n > 0 {
		a.Baseline = wait / n
	}
}

// AddUsage sets the contention of u's processes against a.Baseline and
// folds them into a.
func (a *Accounting) AddUsage(u RunUsage, where string) {
	for i := range u.Procs {
		p := &u.Procs[i]
		if p.Wall > 0 {
			p.Contention = max(0, p.RunQueue*p.Wall-p.Slices*a.Baseline) / p.Wall
		}
		if p.RunQueue > a.RunQueue || a.RunQueueAt == "" {
			a.RunQueue, a.RunQueueAt = p.RunQueue, p.Name+", "+where
		}
		if p.Retrans > a.Retrans || a.RetransAt == "" {
			a.Retrans, a.RetransAt = p.Retrans, p.Name+", "+where
		}
		if p.Lost() > a.Lost || a.LostAt == "" {
			a.Lost, a.LostAt = p.Lost(), p.Name+", "+where
		}
		if p.Contention > a.Contention || a.ContentionAt == "" {
			a.Contention, a.ContentionAt = p.Contention, p.Name+", "+where
		}
		a.CPU = max(a.CPU, p.CPU)
	}
	a.HostCPU = max(a.HostCPU, u.HostCPU)
	other := u.HostCPU * float64(u.HostCPUs)
	for _, p := range u.Procs {
		other -= p.CPU
	}
	if other > a.Other || a.OtherAt == "" {
		a.Other, a.OtherAt = max(0, other), where
	}
}

// Summary is the accounting in one line for the run's printed summary.
func (a *Accounting) Summary() string {
	s := fmt.Sprintf("unscaled share %.1f%%, contention ≤ %.1f%% (%s; run-queue wait ≤ %.1f%%, baseline %.0f µs/event), CPU ≤ %.0f%% of a core, host CPU ≤ %.0f%% (other work ≤ %.2f cores), retransmitted ≤ %.2f%% (not reported duplicate ≤ %.2f%%), CI over repetitions ≤ ±%.1f%% (batch means ≤ ±%.1f%%)",
		100*a.Unscaled, 100*a.Contention, a.ContentionAt, 100*a.RunQueue, 1e6*a.Baseline, 100*a.CPU, 100*a.HostCPU, a.Other, 100*a.Retrans, 100*a.Lost,
		100*slices.Max(append([]float64{0}, a.RepCI...)), 100*slices.Max(append([]float64{0}, a.CI...)))
	if a.HostLimited() {
		s += ": HOST_LIMITED: " + a.Cause
	}
	return s
}

// ProbeSteps is the length of the probe run that fits the per-message
// cost; probeSkip of its steps are warm-up.
const (
	ProbeSteps = 30
	probeSkip  = 5
)

// ProbeJob is j with (almost) no compute and 4-byte tensors: its step
// time is the per-message cost of the step plus a round trip.
func ProbeJob(j training.Job) training.Job {
	j.DeviceSpeed, j.BytesScale = 1e9, 1e-12
	return j
}

// FitMessageCost returns the per-message cost (s) of a probe run's step
// times: (median step − rtt) / messages, at least 0.
func FitMessageCost(st analysis.StepTimes, rtt float64, messages int) float64 {
	return max(0, analysis.MedianStep(st, probeSkip)-rtt) / float64(messages)
}
