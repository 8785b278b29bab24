// Package measured reads measured inputs of experiments into model inputs:
// testbed configuration directories (engine/testbed's datasets) and per-layer
// profiles (engine/zoo). Several papers' kinds judge their models on the
// same measurements, so the readers live here rather than in one paper's
// kinds package.
package measured
