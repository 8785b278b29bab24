// Package kineto derives a per-layer profile (zoo.Profile: forward and
// backward compute time and parameter bytes per layer, the input of
// zoo.Synthesize and of the icpe20 simulator at any bandwidth) from a
// PyTorch Kineto trace (Chrome trace JSON, optionally gzip-compressed),
// and reports the trace's NCCL communication. It is the "kineto" format
// of `pslab import` ("Bring your own hardware").
//
// # Streaming
//
// The trace is read with timeline.EventReader, one event at a time; only
// compact records of cpu_op, cuda_runtime/cuda_driver, kernel, gpu_memcpy,
// gpu_memset and ProfilerStep/nccl annotation events are kept (tens of
// bytes per event, names interned), never the JSON. The records are
// needed whole because Kineto writes GPU events apart from the CPU events
// that launched them. Errors name the file, event index and byte offset.
//
// # What the real traces contain (and what they lack)
//
// The two HolisticTraceAnalysis sample traces in ../shared/datasets/traces
// (2 ranks of a 128-rank NCCL job, events sampled) have cpu_op events
// with "Sequence number", "Fwd thread id", "Input Dims" and "Input type";
// backward work as "autograd::engine::evaluate_function: <Node>" cpu_ops
// on a second thread carrying the sequence number of the forward op that
// created the node; cuda_runtime launches and GPU kernels sharing a
// "correlation" id; user_annotation ProfilerStep#N, "## forward ##"-style
// phases and nccl:<collective> calls; a few "<class ...>" module
// annotations but no nn.Module hierarchy (no python_function events). So
// layers are derived from op names, as follows.
//
// # Derivation (decisions)
//
//   - Nesting: on each thread, a cpu_op is inside another if its interval
//     lies within the other's. A root is the outermost op on a path that
//     has a sequence number (a forward op recorded by autograd, e.g.
//     aten::linear around aten::addmm) or is an evaluate_function
//     (backward). Every op below a root belongs to it.
//   - Layers: one layer per forward root, named "L<i>:<op name>" with i
//     its position, in sequence-number order (autograd's creation order,
//     i.e. forward order), ties in time order. Each layer consumes the previous one: the trace
//     records no data flow between ops, so the layers form a chain.
//   - Backward link: a backward root with sequence number s belongs to the
//     forward root whose subtree holds an op with sequence number s, in the
//     same step; its time is the layer's backward time. Ops that create no
//     autograd node do not advance the number, so several forward roots
//     may carry s: the node was created by the last of them in time. A backward root
//     whose forward op is not in the trace (sampled traces drop events;
//     TorchScript DifferentiableGraph ops) becomes a backward-only layer
//     (Forward 0) at the position of s, so the step's backward compute is
//     kept. Backward roots without a sequence number (AccumulateGrad) are
//     reported as Report.UnattributedBwd, not put in a layer.
//   - Times (Options.Clock): "gpu" (default when the trace has GPU events)
//     sums the durations of the kernels, memcpys and memsets launched from
//     a root's subtree (a launch belongs to the innermost cpu_op containing
//     it on the same thread; the kernel is linked by correlation id); this
//     is device time, serial, as PipeDream's per-layer profile is. "cpu"
//     uses the root's wall time. GPU work launched outside every root
//     (no-grad ops, the optimizer, data movement) is reported as
//     Report.UnattributedGPU: it is part of the step but not of any layer.
//   - NCCL kernels (kernel names containing "nccl") are communication:
//     never compute, reported by kernel family with count and total time
//     over the whole trace; CPU-side nccl:* calls are reported with count,
//     CPU time and the bytes of their first input.
//   - Steps: ProfilerStep#N annotations (ops belong to the step whose
//     interval holds their start); without any, the trace is one step.
//     The layers come from step Options.Step; times are averaged over
//     every step with the same layer names in the same order (in the two
//     sample traces the steps differ, because events are sampled, so one
//     step is used; Report.Averaged says how many).
//   - Parameters: from "Input Dims"/"Input type" of the outermost
//     parametric op of a root (linear: weight and bias; addmm: bias and
//     mat2; convolution; layer_norm, group_norm, batch_norm: weight and
//     bias; embedding, embedding_bag: weight), element size from the dtype
//     (float 4 bytes, Half/BFloat16 2, double 8). Other parameters
//     (fused or custom ops such as fbgemm embedding tables) are not seen:
//     Report.ParamBytes is a lower bound. The "Input Dims" of a parametric
//     op or an nccl:* call must be a list of shapes (a string, a
//     fractional or negative dimension, or a shape of more than 2^40
//     elements is an error naming the event); entries that are not shapes
//     (scalars, tensor lists) are skipped.
//   - ActivationBytes is 0: Kineto records input shapes, not outputs.
//   - Batch (Options.Batch, else inferred): the most common first
//     dimension of the first input of the step's forward roots (2048 in
//     both sample traces); ties go to the smaller value.
//
// Measured on the sample traces (step ProfilerStep#551, gpu clock): rank
// 0 has 292 layers (195 forward, 97 backward-only; 48 backward ops linked
// by sequence number), 17.1 ms forward and 69.8 ms backward GPU time, 19.8
// ms of GPU work outside layers, 316 MB of parameters in linear and
// layer_norm ops; rank 1 has 293 layers, 18.3 ms and 90.6 ms. Both have 10
// NCCL SendRecv (all_to_all) kernels totalling 396 ms and 379 ms, mostly
// waiting on peers; these numbers were checked against an independent
// Python implementation of the same rules.
package kineto
