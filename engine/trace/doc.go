// Package trace models one profiled SGD step of parameter-server training as
// an operation graph, the input of the icpe20 simulator (Li et al., ICPE'20,
// §3 and Algorithm 3.1).
//
// A Step holds the operations TensorFlow's profiler records for one step of a
// single worker: downlink transfers of parameters (PS to worker), computation
// on the worker, uplink transfers of gradients (worker to PS) and parameter
// updates on the PS. Each operation runs on one Resource, has a recorded
// start and end (nanoseconds from the start of the step), a size in bytes for
// communication operations, and the operations it waits for.
//
// Validate rejects what the simulator cannot run: a dependency cycle, a
// dependency on an operation that does not exist, a negative duration, a
// communication operation without bytes, and an operation that cannot be
// reached from the step's downlinks (CATALOGUE I-10: Algorithm 3.1 only
// starts a step with its downlinks, so such an operation would never run).
// Errors name the step and the operation.
package trace
