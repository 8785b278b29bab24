// Package experiment runs pslab experiments: one TOML file declares one
// paper figure or table (or an extension beyond the papers), its inputs, its
// sweep, the models to run, its plot and its seed.
//
// A Spec is decoded strictly (unknown keys, wrong types and missing fields
// are errors naming file:line). Its kind names a Go function in a Registry,
// an explicit map built in one place (no init registration). The function
// gets an Env (spec, seeded random source, dataset loading, strictly decoded
// kind-specific [params]) and returns a Result: the rows behind the figure
// and named metrics that golden checks test. An [inputs] name the kind did
// not read (through Env.Input or Env.InputPath) is an error at its line,
// nothing written: a misspelt input is not silently ignored.
//
// CheckUnique refuses a run naming one file twice or two files with one id
// (they would write the same figures).
//
// Run runs experiments in parallel (at most GOMAXPROCS at once), evaluates
// golden/<paper>/<name>.toml, and writes figures/<paper>/<name>.{svg,png,arrow}
// atomically, the figure drawn by the caller's Options.Draw (pslab run
// draws with engine/figure; the package itself draws nothing, so the kinds
// do not link the plotting library). The same seed gives the same bytes.
package experiment
