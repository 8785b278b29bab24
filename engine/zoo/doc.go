// Package zoo holds DNN layer catalogues built from real per-layer
// profiles, and turns a catalogue into the 1-worker profiling trace that
// TensorFlow would record for it, the input of the icpe20 simulator (Li et
// al., ICPE'20, §2–§3, Figs. 5, 6, 11, 12; CATALOGUE §B.1.1–§B.1.5).
//
// # Profiles
//
// Parse reads the PipeDream profiler's graph.txt (datasets/
// pipedream-profiles: 12 torchvision ImageNet models measured on the
// PipeDream authors' GPUs). Times are stored in seconds (the file has
// milliseconds), sizes in bytes. The batch is derived, not given: the
// Input node's activation is batch·3·side²·4 bytes (float32 RGB), with
// side 224, or 299 for Inception-v3 (see InferBatch). Measured on the 12
// files: alexnet, resnet18 and squeezenet1_0 256; vgg16, resnet50,
// resnext50, inception_v3 (299 px) and nasnetamobile 128; resnet101,
// resnext101 and densenet121 64; nasnetalarge 16 (at 224 px: 331 px does
// not divide its Input size).
//
// Parameter totals (derived from the files; MB = 10⁶ bytes, MiB = 2²⁰):
// vgg16 553.4 MB = 527.8 MiB, matching mascots18's "528 MB" in MiB;
// alexnet 244.4 MB = 233.1 MiB (exactly torchvision's 61,100,840 fp32
// parameters), 1.8 % below mascots18 Table III's "249 MB"; resnet50 102.2
// MB = 97.5 MiB; inception_v3 108.6 MB = 103.6 MiB, about 8.6 % above
// mascots18's "approximatively 100 MB" in MB because the profile includes
// the auxiliary classifier (AuxLogits, 3.3 M parameters, 13.2 MB), which
// the TensorFlow benchmark models of the papers may not have counted;
// resnet101 178.2 MB. BatchNorm layers count their weight and bias only.
//
// ResNet-152 has no public per-layer profile; DeriveResNet152 derives one
// from ResNet-101's (datasets/zoo/resnet152.arrow, origin derived): 17 more
// identity bottleneck blocks, copies of measured blocks of the same
// shapes, so of the same FLOPs and times (RepeatBlock).
//
// The Input node's forward time is PipeDream's data-loading time (e.g.
// 636 ms for alexnet), not computation: Synthesize gives the Input node no
// operation.
//
// # Synthetic profiling traces (icpe20 Fig. 6)
//
// Synthesize decomposes every step as in Fig. 6: per layer with parameters
// a downlink of its parameters, a forward and a backward op per layer on
// the worker, and per layer with parameters an uplink of its gradient and
// an update on the PS. For the Fig. 5 toy (Toy) this gives 4 downlinks, 4
// forward, 4 backward, 4 uplinks and 4 updates (the exact decomposition is
// inferred, CATALOGUE icpe20-fig6). Recorded times follow §2: every
// downlink is requested at step start (Fig. 8(a)), its recorded end is the
// arrival of its last byte plus the parsing overhead α·size+β (§3.2.1);
// an uplink is requested when its layer's backward op ends.
//
// Decisions on the ambiguities of CATALOGUE §D.1:
//   - I-10: every op is reachable from a downlink. A layer without
//     parameters fed only by the Input node would have no dependency; it
//     is gated on the step's first downlink. None of the 12 profiles has
//     such a layer.
//   - I-11: the worker and each PS run one op at a time, ready ops first
//     come first served, ties in program order.
//   - I-12: streams on one connection are served FIFO in request order;
//     downlinks are requested in topological layer order; a preempted
//     stream goes to the tail of the queue. A stream requested at the
//     instant another is preempted queues behind it.
//   - I-13: WIN is one constant per trace (Options.Window); 0 disables
//     flow control (whole streams, FIFO).
//   - I-14: a transfer takes size/Bandwidth at full share; size is the
//     tensor's parameter bytes, with no framing.
//   - I-15: the overhead is added to the recorded end of the transfer on
//     the receiving side (worker for downlinks, PS for uplinks), the way
//     TensorFlow records it; it does not occupy the link.
//   - I-17: with several PS each has its own connection; the connections
//     that are active in one direction share the worker's NIC equally (two
//     active PS connections get 1/2 each), since with one worker the
//     worker's NIC is the common bottleneck.
//   - Fig. 23 / I-3: layers are placed on PS with placement.Greedy, one
//     variable per layer (weights and biases together), in topological
//     order, ties to the lower index.
//
// Assumptions that are not in the papers, each documented on its field:
// compute time scales linearly with batch (Options.Batch); the PS update
// costs DefaultUpdateTime = 0.2 ns per parameter byte unless set; jitter
// is one lognormal factor per step on all compute, mean 1; the backward
// pass of each output layer (a layer nobody consumes) waits for the
// forward pass of all output layers, as a loss that sums them does.
// Network transfers are deterministic, so every step records the same
// downlink ends.
package zoo
