// Package timeline reads and writes TensorFlow-style timelines (Chrome
// trace JSON, as written by TensorFlow 1.x Timeline.
// generate_chrome_trace_format) as pslab traces: the 1-worker profiling
// steps of icpe20 §2–§3 (Li et al., ICPE'20, Fig. 6), the input of the
// icpe20 simulator. It is the "tf-timeline" format of `pslab import` and
// the format the testbed writes its captured traces in.
//
// # Streaming
//
// EventReader reads one event at a time through a reused buffer, checks
// it with a one-pass JSON validator (fuzzed against encoding/json) and
// picks its fields without building a map; StepReader keeps only the step
// being read, so a timeline of any size is read in memory bounded by its
// largest step. Errors name the file, the event index in traceEvents and
// the byte offset. Measured (go test -bench, 2 shared cores): about 120
// MB of timeline per CPU second (BenchmarkStepReader, 64 MB; 30–60 MB/s
// wall time under load); a 500 MB timeline streamed from a generator
// through StepReader peaks at 5.4 MiB of live heap
// (BenchmarkStepReaderBoundedHeap; TestStreamingHeapIsBounded checks that
// 24 MB needs no more heap than 4 MB, within 8 MB of GC slack).
// encoding/json's Decoder, used first, ran at a quarter of that speed.
//
// The validator resumes where the last read stopped, so a value that
// takes many reads (a .json.gz is inflated 32 KiB at a time) is scanned
// once: a 64 MiB string reads at about 1 ns/byte, as a 1 MiB one does
// (BenchmarkScanLargeValue; it used to be rescanned after every read,
// quadratic: 53 s for 64 MiB). Input is capped: one JSON value (an
// event, a top-level key or value) at MaxValueBytes (64 MiB) and the
// whole input after decompression at MaxStreamBytes (4 GiB); beyond
// either the reader stops with a *LimitError naming the cap and the
// offset, so a small .json.gz with a huge event name, or a gzip bomb, is
// refused in under a second or a few seconds instead of hours.
//
// # What is read
//
//   - Devices: "ph":"M" process_name events map a pid to a device. An op
//     lane is a process named "/job:worker/.../task:K/device:... Compute"
//     or "/job:ps/.../task:K/device:... Compute". GPU tracer lanes
//     ("/stream:", "/memcpy"), "Tensors" lanes, allocators and other jobs
//     (localhost) are skipped: TensorFlow's "Compute" lane already holds
//     every op, with its scheduling time (op_time "schedule", the default).
//     Metadata must precede the ops of its pid, as TensorFlow writes it.
//     One worker task only: a profile is of one worker.
//   - Ops: "ph":"X" events on an op lane with args.name (node name, unique
//     within a step) and args.op (op type); ts and dur are microseconds,
//     converted exactly to nanoseconds (up to three decimals).
//   - Transfers: op types _Recv and _HostRecv. On the worker's lane a
//     receive is a downlink (parameters from a PS); on PS task K's lane it
//     is an uplink to PS K (TensorFlow's PS pulls gradients with its own
//     _Recv). The size is args.bytes (a JSON number, or a string holding
//     one; required, > 0). The PS of a downlink is the task of
//     args.send_device (TensorFlow's _Recv attribute, e.g.
//     "/job:ps/replica:0/task:1/device:CPU:0"), or the only PS lane. Stock
//     TensorFlow timelines do not carry either argument (sizes are only
//     in show_memory snapshots): add them from the RunMetadata step stats,
//     or use the testbed, which writes them. The recorded span of the
//     receive (request to tensor available, after parsing) is the
//     transfer, as icpe20 §2 reads it.
//   - _Send, _HostSend and RecvTensor events are dropped: the send hands
//     the tensor to the rendezvous and RecvTensor is the RPC-level view of
//     the same transfer, without its name. Dependencies pass through them.
//   - Every other op type is computation on the lane's device: worker or
//     PS K.
//   - Dependencies: args.input0, input1, … name the ops an op waits for; a
//     leading "^" marks a control dependency, which is kept as a
//     dependency. A name is looked up as written, without "^", without a
//     ":slot" suffix, then without TensorFlow's partition suffix "/_N".
//     Inputs naming no op of the step (variables, constants not in the
//     timeline) are ignored and counted (Counts.Unresolved), as
//     TensorFlow's own timeline code ignores them. A receive without
//     inputs named "X/_N" waits for op X, the producer TensorFlow's graph
//     partitioning named it after (how an uplink finds its gradient).
//
// # Steps (how steps are delimited)
//
// An "X" or instant ("i", "I") event with "cat":"Step" is a step marker:
// the ops after it, up to the next marker, are one step, and times are
// relative to the marker's ts. A file without markers is one step (what
// TensorFlow writes for one session.run), timed from its earliest kept
// op; several such files are several steps (`pslab import tf-timeline
// step*.json`). A marked file must mark every step (ops before the first
// marker are an error, as is a marker without ops).
//
// # Decisions on the trace's invariants (CATALOGUE I-10, icpe20 §3.4)
//
//   - PS computations that no transfer of the step leads to (variable
//     reads before the downlinks) belong to the previous step's update:
//     they are dropped, and counted.
//   - A kept op other than a downlink with no dependency left (an input
//     pipeline op such as IteratorGetNext) is gated on the step's first
//     downlink, since only downlinks may start a step (I-10, the same rule
//     as zoo.Synthesize). Counted in Counts.Gated.
//   - Steps must have the same ops: the first step fixes the op order and
//     later steps are put in that order by name (TensorFlow lists ops in
//     completion order, which varies between steps); the trace is then
//     checked by trace.Validate.
//   - Trace metadata (model, batch, bandwidth, window, overhead, servers)
//     comes from the top-level "otherData" object with the dataset's
//     metadata key names, overridden by the caller; Servers defaults to
//     one more than the largest PS index.
//
// # Writer
//
// Write and Writer produce this format from a trace (see Writer for the
// layout): Read(Write(tr)) == tr, exactly, for every valid trace whose op
// names are valid UTF-8, up to nil versus empty dependency lists.
package timeline
