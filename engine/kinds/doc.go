// Package kinds holds pslab's experiment kinds: the Go functions that turn an
// experiment spec (experiments/<paper>/<name>.toml) into a result by loading
// its datasets, running the models and recording metrics for golden checks.
//
// Registry is the one explicit map from kind names to functions. Files are
// named after the paper whose figures they produce.
package kinds
