// Package training describes the emulated training job that the
// parameter servers and the workers of one testbed run agree on.
//
// A Job names the model (a PipeDream profile), its scale factors
// (DeviceSpeed divides compute times, BytesScale multiplies tensor sizes),
// the number of parameter servers and workers, the synchronization (ASP
// or BSP) and the transport (Multiplexed: one HTTP/2 stream per tensor
// under flow control; Ordered: whole tensors one after the other, flow
// control off). NewPlan lays one training step out op for op as
// zoo.Synthesize lays out a trace (downlinks, forward and backward ops,
// uplinks, updates), with tensors placed on the servers by
// placement.Greedy, so that measured and synthesized traces line up.
// DownlinkOrder gives the order in which the ordered transport sends
// tensors (default, TicTac's TIC order, its reverse, or a seeded
// permutation).
//
// The package runs nothing: engine/testbed/node runs the job's processes
// and engine/testbed describes the whole testbed.
package training
