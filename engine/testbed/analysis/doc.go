// Package analysis turns the step times and tensor transfers the testbed
// measured into the numbers it reports: the time-averaged throughput of
// a run (Throughput, icpe20 §4.1), the 95% confidence intervals of a
// throughput point (BatchCI by batch means, StepCI from step durations,
// StepsForCI for the step count a target interval needs), mascots18's
// phase times (ExtractPhases, §III-A) and icpe20's parsing overhead
// α·bytes + β (FitOverhead, §3.2.1).
//
// Every function is pure: times are unix ns in, seconds or examples/s
// out; bad data returns an error. The records it reads (StepTimes,
// Transfer) are what engine/testbed/node's workers report.
package analysis
