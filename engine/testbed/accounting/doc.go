// Package accounting measures and judges the testbed's own distortion:
// what the emulation does not compress and what the host adds (the
// method is defined once, in the engine/testbed doc, "Artifact
// accounting").
//
// Predict bounds a configuration's unscaled share (per-message cost, RTT
// and shaper burst, which device_speed does not scale) before anything
// runs, from the machine's config.Calibration, and predicts the
// repetitions its points need at their between-run spread (RunSpread)
// and its collection time, stretched runs included; CheckBudget prints it
// for `pslab testbed run -dry` and refuses what cannot meet
// max_repetitions or max_minutes. During a run a Sampler reads /proc for
// every PS and worker process (CPU, run-queue wait and scheduling events
// per thread, TCP segments sent, retransmitted and D-SACKed) and for the host; an Accounting folds
// the runs of a configuration into its largest contention, other work,
// retransmissions (and those its peers did not report as duplicates, the
// ones MaxRetrans judges) and unscaled share; UnscaledBreach names a
// breach of MaxUnscaledShare. Contention
// is a diagnostic since issue 29 (MaxContention is its old budget, a
// reference line); points are judged by their dilation sensitivity and
// their interval over repetitions (MaxCI) in engine/testbed/collection.
package accounting
