// Package collection is what the testbed writes and what it has
// committed: the Outcome of one configuration's measurement and the
// datasets made from it, with full provenance, written as one directory
// renamed into place (Outcome.Write, WriteDir): trace.arrow,
// throughput.arrow, phases.arrow, runs.arrow, steps.arrow,
// accounting.arrow, points.arrow, modes.arrow and the profile as a
// TensorFlow-style timeline
// (timeline.json, not committed; WriteTimeline writes it again from
// trace.arrow).
//
// Reduce and FromProfileFile make the same Outcome from the worker
// results of runs started by hand on real hosts. UpToDate tells whether
// a committed dataset was measured from a configuration (its
// config.Config.Hash) on the current network. Judge judges the points of
// a measurement (engine/testbed doc, "Judging a point": interval over
// repetitions, operating modes, dilation sensitivity, limits) from its
// runs (RunFacts), in memory (Outcome.Judge) or read back from a
// committed dataset of any accounting version (ReadCommitted), which is
// what Verify prints; CommittedSpread is the between-run spread -dry
// predicts repetitions from.
package collection
