// Package config reads the testbed's collection file
// (datasets/testbed/configs.toml): one Config per measured configuration
// (a model, its scale factors and communication scheme, and the
// measurement protocol: worker counts, repetitions, step counts, and
// the optional keys of issue 29: max_repetitions, dilations,
// dilate_points and max_minutes, Config.RepCap, Config.StretchedPoints,
// Config.Stretch), with
// the [defaults] table applied, and the machine's [calibration] table
// (Calibration) from which `pslab testbed run -dry` predicts the unscaled
// share and, with run_cv, the repetitions a point needs.
//
// LoadConfigs decodes strictly: an unknown key, a wrong type or an
// invalid value is an error naming the file, the line and the key
// (values set in [defaults] at their own line), and every path key must
// stay inside the repository root. Config.Job gives the training.Job of
// a run with W workers; Config.Hash identifies a measurement, so that a
// collection can resume across sessions.
package config
