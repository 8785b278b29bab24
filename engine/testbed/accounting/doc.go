// Package accounting measures and judges the testbed's own distortion:
// what the emulation does not compress and what the host adds (the
// method is defined once, in the engine/testbed doc, "Artifact
// accounting").
//
// Predict bounds a configuration's unscaled share (per-message cost, RTT
// and shaper burst, which device_speed does not scale) before anything
// runs, from the machine's config.Calibration, and CheckBudget prints it
// for `pslab testbed run -dry`. During a run a Sampler reads /proc for
// every PS and worker process (CPU, run-queue wait and scheduling events
// per thread, TCP retransmissions) and for the host; an Accounting folds
// the runs of a configuration into its largest contention, other work,
// retransmissions and unscaled share, and Judge names the budget a
// measurement breaks (MaxUnscaledShare, MaxContention, MaxOther,
// MaxRetrans, MaxCI), which makes it host_limited.
package accounting
