// Package node is the testbed's parameter-server and worker processes
// and the wire protocol between them.
//
// ServePS serves the tensors of one parameter server and RunWorkerProcess
// trains one worker; each runs in an OS process of its own (started by
// `pslab testbed ps` and `pslab testbed worker`), and they speak gRPC over
// real TCP. Messages are raw bytes (a 13-byte header, then little-endian
// float32 values: parsing is real work), carried by a codec forced per
// call (nothing registered globally, no protoc). The worker's processor
// is emulated: its forward and backward ops run one at a time, each
// sleeping its profiled duration to absolute deadlines (nanosleep on
// Linux). A profiling worker records the step as TensorFlow's profiler
// would (WorkerResult.Steps) and, with a passive HTTP/2 dissector on its
// sockets (the tap, pslab's tcpdump + Wireshark), the first and last byte
// of every tensor and the flow-control windows (WorkerResult.Transfers,
// Window). The transports, synchronization and clock conversion are
// described in the engine/testbed doc ("What runs").
package node
