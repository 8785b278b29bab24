// Package predict predicts the throughput of asynchronous (or, for the
// models that define it, synchronous) SGD on a
// parameter-server cluster from one worker's profile, with the three model
// families pslab reimplements, side by side on the same input ("Bring your
// own hardware"; `pslab predict` and the icpe20-throughput experiments):
//
//   - the icpe20 trace-driven simulator (Li et al., ICPE'20, Algorithm 3.1;
//     engine/sim) on a 1-worker profiling trace, recorded (a TF timeline,
//     a pslab trace) or synthesized from a per-layer profile by zoo.Synthesize
//     (Cluster.Synthesize);
//   - Lin et al.'s exact, approximate and hybrid MVA (mascots18 §III;
//     engine/mva) on the four phase times S^D, S^W, S^U, S^S that tcpdump
//     shows in that trace (FromTrace; icpe20 §1 and §4.4, CATALOGUE §B.1.7);
//   - Cynthia's formula as icpe20 restates it, X(W) = W·K/(T_p·max(1,
//     W·U_1) + 2·T_C) (CATALOGUE I-23; cynthia.ICPE), with T_p, T_C and U_1
//     read from the same trace.
//
// # Decisions
//
//   - Phase extraction (FromTrace): a transfer's wire end is its recorded end
//     minus the parsing overhead α·bytes + β (icpe20 §3.2.1, zoo I-15); S^D
//     runs to the last downlink byte, S^W to the first uplink start, S^U to
//     the last uplink byte, S^S to the step's end. Compute that overlaps a
//     transfer is counted as link time, as tcpdump would; a step whose uplinks
//     start before its last downlink byte is an error.
//   - T_p is the worker's busy time per step, T_C one direction's bytes at the
//     trace's bandwidth, U_1 both directions' bytes over bandwidth × step
//     time; all are means over the trace's steps.
//   - I-18 (which MVA variant icpe20 ran is not printed): all three are
//     offered; the experiments default to hybrid (mascots18's proposal).
//   - MVA phases (issue #18): from a per-layer profile (RunProfile) MVA gets
//     Coarse.OpPhases, S^W = forward + backward compute, S^U and S^D = bytes
//     / bandwidth, S^S = the PS update ops (OpReading); before, backward
//     compute that overlaps the uplinks was counted as S^U (1.21 s for
//     Inception-v3 at batch 64, exact MVA saturating at 52.9 examples/s on
//     8 GPUs). A recorded trace keeps the tcpdump reading (TcpdumpReading),
//     icpe20 §1's, which the icpe20-throughput and byo experiments use.
//   - M PSs: MVA with OpPhases via mva.Phases.WithServers (link and update
//     phases / M, uniform shards, every variant); the tcpdump phases are of
//     one PS link, so MVA is n/a with M > 1 on a recorded trace. Cynthia's
//     restatement: T_C and U_1 over the M NICs (Cynthia's Σ b_ps) for a
//     profile; a recorded trace keeps T_C = bytes / B as the icpe20
//     experiments compute it. Cynthia BSP and zhang take M directly.
//   - Synchronization (Cluster.Sync): ASP runs the simulator, MVA and the
//     Cynthia restatement; BSP the simulator in sim's barrier mode,
//     Cynthia's own BSP model (cynthiaBSP, weak scaling: each worker keeps
//     its batch) and zhang (syncps, DefaultConfig's assumed constants, 10
//     iterations). A model that does not define the mode is Unavailable
//     ("asp only", "bsp only") and printed as n/a in every format.
//   - Multi-GPU nodes (NodeProfile): G GPUs each compute the per-GPU batch
//     in parallel; per tensor, (G−1)/G · bytes / intra-bandwidth is added to
//     the backward (reduce before the push) and to the forward (broadcast
//     after the pull); the node pushes and pulls once. Default intra-node
//     bandwidth 50 GB/s (DefaultIntraBandwidth, assumed).
//   - A node's own costs (Host): one node of G GPUs whose PS is the
//     node's host CPU (TensorFlow's parameter_server mode with
//     local_parameter_device=cpu) is G workers and one PS on a processor
//     they share (Cluster.SharedPS, sim.Config.SharedPS): per byte of each
//     GPU's gradient the CPU sums it and does 1/G of the update, at the
//     host's memory bandwidth; every byte crosses the host path,
//     ⌈G/GPUsPerLink⌉ PCIe links and the CPU's staging copies. Defaults
//     are hardware specifications (PCIe 3.0 x16, 2 GPUs per link, DDR4-2133
//     × 4 channels); Host.Slowdown, the one unspecified parameter, is for
//     fitting on another platform. Cynthia's BSP model gets the PS CPU's
//     demand (c_prof) under SharedPS, zhang its aggregation cost per
//     packet; MVA's PS station is shared anyway.
//   - Colocated PS: W shards, one per node. The simulator shares each
//     node's NIC between its worker and its shard (sim.Config.Colocated:
//     max-min fair flows through the sending and receiving NIC, a
//     worker's transfers with its own shard free). The coarse models get
//     the equivalent, W PSs at B·W/(2(W−1)) (ColocatedBandwidth: each NIC
//     carries 2(W−1)/W of the model per step and direction; no network at
//     W = 1), which assumes pulls and pushes overlap in time.
//   - Calibration (Calibrate, CalibrateModel): the device speed, found by
//     regula falsi (Illinois) on log speed, at which a model reproduces
//     one measured (W, throughput) within 0.5%; only that point is used.
//     CalibrateModel calibrates each model on its own (the simulator's
//     speed reused by MVA left it 12.8% off at the calibration point,
//     issue 26); Calibrate is the simulator's.
//   - The coarse models read their inputs from the trace as recorded, so a
//     recorded trace predicts them only at its own bandwidth; the simulator
//     re-times transfers at any bandwidth (sim.Config.Bandwidth). A profile
//     is synthesized at each bandwidth asked for, so every model applies.
//   - Link bound: batch · bandwidth / the bytes per step through the busiest
//     PS NIC (examples/s), the ceiling no schedule beats.
//   - Knee (KneeAt): the smallest W whose throughput reaches 95% of the
//     curve's maximum, defined for non-monotone curves; Cynthia BSP's own
//     (computation = communication, W*) is printed as a note. icpe20 Fig.
//     2's first-small-gain rule (Knee) remains for the experiments.
//   - Timeline: the simulator's Chrome trace of one configuration, its
//     concurrent receive-thread events moved to extra tracks so no two
//     complete events on one track overlap.
//   - Measurements (SelectMeasured): rows of a dataset.MeasurementSchema table
//     with the prediction's sync mode, batch per node (GPUs × per-GPU batch),
//     PS count (with a colocated PS, ps = workers), transport and order (an
//     empty transport or order in the file matches any, since a CSV often
//     leaves them out; the experiments match them exactly); a table whose
//     provenance records another GPU count per node or PS placement
//     (engine/importer's cluster.gpus_per_node, cluster.ps_colocated) is an
//     error; without a model name the table's only model is used. The relative error is
//     (predicted − measured)/measured at each measured W; a measurement has no
//     bandwidth, so it is compared with one prediction.
//   - Trust band (TrustRule.Band): each model's measured |error| on the
//     points of the accuracy tables (AccuracySchema, written by the
//     beyond-testbed-accuracy and beyond-tf-benchmarks experiments beside
//     their figures) that resemble the query: the same model and sync mode
//     of the measured run, the measurement in budget (testbed: not
//     host_limited), W within a factor 2 and the compute/communication
//     ratio within a factor 2 (DefaultTrustRule). The ratio (CommRatio) is
//     T_p · B / (2 · bytes per step from all PSs): compute per step over
//     the time the bytes both ways take on one link at B, computed the
//     same way for the query (its 1-worker coarse inputs) and for every
//     measured configuration. Mean and max |error| and the number of
//     points, or "no comparable measurement". A point of the public tables
//     is a node of G GPUs as G workers behind the host CPU's PS at PCIe
//     bandwidth (the experiment's node-cost variant at the hardware
//     specifications), synchronous; MVA's points there are of an
//     asynchronous model against synchronous runs, so no MVA query (ASP)
//     matches them. A prediction above the link bound by more than 0.1% is
//     flagged (AboveLinkBound).
//   - Labels (Model.LabelFor): under BSP Cynthia is "Cynthia (own BSP
//     model)", the equations it then runs; "Cynthia (icpe20 restatement)"
//     only under ASP.
//   - Inputs are not re-derived: a synthesized trace takes the assumptions of
//     zoo.Synthesize (compute linear in batch, 0.2 ns/byte PS update, lognormal
//     jitter), which Cluster's fields expose.
//
// # Reports
//
// Report holds the predictions of one input and renders them as text, CSV,
// JSON (to a caller's io.Writer) or a result table (dataset.ResultSchema,
// the experiments' format, which engine/figure draws). The package does no
// file I/O; cmd/pslab reads inputs and writes outputs.
//
// Run costs what the simulator costs (engine/sim benchmarks; about 0.5 s for
// W = 1..16 at N = 100 on the 292-layer Kineto sample); FromTrace, MVA and
// Cynthia take about 45 µs for W = 1..16 on a 100-step toy trace
// (BenchmarkRunCoarse).
package predict
