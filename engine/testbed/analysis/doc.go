// Package analysis turns the step times and tensor transfers the testbed
// measured into the numbers it reports: the time-averaged throughput of
// a run (Throughput, icpe20 §4.1); a point's 95% confidence interval over
// its independent runs (Sample, Student t) and the repetitions a target
// interval needs (RepsForCI); the agreement of a point measured again with
// every time stretched (Agree, Welch's interval of the difference); the
// operating modes of a point's runs (Modes, a gap test; Bimodality) and
// their signature (Synchrony, StartSpread); the within-run diagnostics
// (BatchCI by batch means, StepCI from step durations, StepsForCI);
// mascots18's phase times (ExtractPhases, §III-A) and icpe20's parsing
// overhead α·bytes + β (FitOverhead, §3.2.1). The engine/testbed doc
// ("Judging a point") defines how they are used.
//
// Every function is pure: times are unix ns in, seconds or examples/s
// out; bad data returns an error, misuse panics. The records it reads
// (StepTimes, Transfer) are what engine/testbed/node's workers report.
package analysis
