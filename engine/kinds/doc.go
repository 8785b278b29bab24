// Package kinds composes pslab's experiment kinds: the Go functions that
// turn an experiment spec (experiments/<paper>/<name>.toml) into a result
// by loading its datasets, running the models and recording metrics for
// golden checks.
//
// Registry is the one explicit map from kind names to functions, the union
// of the per-paper packages' Kinds maps: icpe20, mascots18, cynthia, zhang
// and beyond (kinds that compare papers). The tests of this package run
// every experiment and evaluate its golden checks (TestExperiments).
package kinds
