// Package beyond holds the experiment kinds that go beyond one paper: they
// put several papers' models side by side on the same inputs.
//
//   - testbed-accuracy (experiments/beyond/testbed-accuracy.toml): every
//     applicable model (icpe20 simulator, mascots18 MVA, Cynthia, zhang)
//     against every measured testbed configuration, from its 1-worker
//     profile only.
//   - zhang-vs-cynthia (experiments/zhang/vs-cynthia.toml): the same BSP
//     configurations under zhang's and Cynthia's models.
//   - tf-benchmarks (experiments/beyond/tf-benchmarks.toml): every model
//     on TensorFlow's published single-node benchmarks (datasets/
//     tf-benchmarks), each calibrated on its own on a 1-GPU row, before
//     and with the node's own costs (predict.Host), the host slowdown
//     fitted leave-one-platform-out.
//
// The other beyond experiments (beyond-byo-kineto, beyond-sched-philly)
// run paper kinds on external data and need no kind of their own. The
// catalogue's §E lists derived reference values these comparisons use.
//
// This package may import the paper packages (engine/kinds/cynthia,
// engine/kinds/zhang); no paper package imports it.
package beyond
