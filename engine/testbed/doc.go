// Package testbed is pslab's source of *measured* data: a real
// parameter-server (PS) training emulator whose PS and workers are separate
// OS processes speaking gRPC over real TCP, in the way mascots18 (§III-A)
// validated a sleep-based mimic of TensorFlow against TensorFlow. It
// records what TensorFlow's profiler records for a 1-worker profile
// (icpe20 §2, Fig. 6) and the W-worker throughput that the models of icpe20,
// mascots18, cynthia and zhang predict, and writes both as Arrow datasets
// with full provenance.
//
// # What runs
//
// `pslab testbed ps` serves the tensors of one PS; `pslab testbed worker`
// trains; `pslab testbed run` (the coordinator) builds the network, starts
// the processes of every run, measures and writes the datasets; `pslab
// testbed reduce` turns results of runs started by hand into the same
// datasets. Messages are raw bytes (a gRPC codec forced per call, nothing
// registered globally, no protoc). A step of a worker is the op graph of
// training.Plan, laid out op for op like zoo.Synthesize: per layer with parameters
// a downlink and an uplink of its tensor (weights and biases together),
// per layer a forward and a backward op on the worker, per tensor an update
// on its PS. Tensors are placed on PS with placement.Greedy in topological
// order (TensorFlow's greedy split; VGG-16's is uneven).
//
//   - Transport "multiplexed": at step start the worker opens one gRPC
//     stream per tensor, in topological order, and HTTP/2 multiplexes them
//     with flow control on. The initial stream and connection windows are
//     set explicitly (training.Job.Window and ConnWindow; the configurations use
//     icpe20's WIN ≈ 28 MB × bytes_scale) and read back from the worker's
//     SETTINGS and WINDOW_UPDATE frames into the dataset. Note: gRPC-Go's
//     writer round-robins active streams in 16 KiB frames; it does not
//     implement the chunk rule icpe20 observed in TensorFlow's gRPC
//     (CATALOGUE B.1.4). What is measured is gRPC-Go's multiplexing.
//   - Transport "ordered": per PS one stream on which the PS sends its
//     tensors whole, one after the other, and one on which the worker sends
//     its gradients whole, in the order they are computed; windows are
//     2³¹−1 bytes, so flow control never blocks (recorded as window 0, "flow
//     control off"). Downlink orders (training.DownlinkOrder): default = the request
//     order, topological; tic = training.TICOrder, TicTac priority as in engine/sim
//     first (forward depth in ops from the input, ties topological; this is
//     the one definition in this package — engine/sim orders by TicTac's
//     transfer-count priority, and both agree on chains, so for AlexNet and
//     VGG tic = default); reverse = tic reversed; random = one permutation
//     seeded by training.Job.Seed, the same every step.
//   - Sync "asp": the PS applies every gradient when it arrives (a real SGD
//     update on float32 values) and serves the current parameters. "bsp":
//     each PS accumulates the W gradients of a tensor, applies their mean,
//     and serves step s+1's parameters only when every tensor it holds has
//     all W gradients of step s (a per-PS barrier; TensorFlow's
//     SyncReplicasOptimizer uses one token queue instead).
//   - Compute is emulated by sleeping each op's PipeDream time (V100
//     profiles in ../shared/datasets/pipedream-profiles) × batch/profile
//     batch ÷ device_speed, one op at a time, ready ops first come first
//     served (CATALOGUE I-11), to absolute deadlines chained from op to op
//     with nanosleep(2), so the tens of µs of oversleep per op do not
//     accumulate over hundreds of ops. Parsing is real: tensors are encoded
//     and decoded as little-endian float32 on both sides.
//
// # Scale factors
//
// Tensor sizes are multiplied by bytes_scale and compute times divided by
// device_speed, both recorded in every file. Every transfer and compute
// time of the emulation is then 1/device_speed of its value on a cluster
// of the profiled device with NIC bandwidth B/(bytes_scale·device_speed):
// the emulation is that cluster, run device_speed times faster. The
// collection (datasets/testbed/configs.toml) emulates a V100 cluster on
// 10 Gbit/s (icpe20's AWS GPU setting) with B = 100 Mbit/s and a
// device_speed per configuration (1.5 to 20) chosen so that the predicted
// unscaled share (below) stays under 5%. B is low so that the run's
// processes do not contend for the host's cores: a process's CPU follows
// the bytes it moves (the PS used 0.46 core at 500 Mbit/s, 0.19 at 100).
// Every PS and worker process runs with GOMAXPROCS=1 (one emulated host,
// one thread of Go code) and every NIC has AWS's 9001-byte MTU, which
// cut the receivers' wake-ups per second six-fold. The first collection's 40×
// factors (engine/testbed/testdata/smoke-configs.toml) put it at 10–60%
// and are kept for fast loopback tests only.
//
// # Artifact accounting
//
// What the emulation does not compress, and what the host adds, is
// measured in every run and recorded (metadata testbed.acct.* of every
// file, and accounting.arrow: one row per process and run).
//
// Unscaled share. Let U be the time per 1-worker step that does not scale
// with device_speed d: U = c·m + RTT + burst, with c the per-message cost
// (s; gRPC, framing, parsing, scheduling of one message), m the messages
// per step (accounting.MessagesPerStep: 2 per tensor), RTT the round
// trip (s) and burst the shaper's burst time (network.BurstTime: 2 · burst
// bytes / B, one per direction, s). On the emulated cluster these costs
// take U too, so its step is T_real = S + U, where S is everything that
// scales; compressed faithfully the emulation would take
// T_real/d = S/d + U/d, but it takes T_emu = S/d + U. The excess is
// U − U/d = U·(1 − 1/d), and
//
//	unscaled share = U·(1 − 1/d) / T_emu            (accounting.UnscaledShare)
//	               = U·(d − 1) / (d·T_emu), d·T_emu the uncompressed step.
//
// In a run, c is fitted by a probe run before the profile
// (accounting.ProbeSteps 1-worker steps with no compute,
// accounting.ProbeJob, and 4-byte tensors: c = (median step − RTT)/m),
// RTT is the probe's best clock round trip and T_emu the median 1-worker
// step of the profiling run. Before a run (-dry) c, RTT and the step-time
// CV come from configs.toml's [calibration] table (measured on this
// machine), and T_emu is bounded below by max(compute, bytes/B) + U
// (accounting.Predict), so the predicted share is an upper bound.
//
// Host. For every PS and worker process the coordinator samples
// /proc/PID/stat (utime + stime, all threads) and
// /proc/PID/task/*/schedstat (field 2: time runnable but not running;
// field 3: times scheduled onto a CPU; accumulated per thread) every
// 200 ms, and /proc/stat for the host; CPU utilisation, run-queue wait and
// scheduling events are their growth over the sampled wall time (accounting.Sampler,
// accounting.RunUsage). The probe run is not judged (CPU-bound by design).
//
// Contention. Every wake-up of a thread waits for a CPU even on an idle
// host (about 20 µs on this VM), and a Go process moving tensors wakes
// thousands of times a second, so the raw run-queue wait is several
// percent of wall time with nothing else running; that wait is the same
// on the emulated cluster's hosts and part of the per-message cost above.
// What the testbed adds is the wait beyond it, when the run's processes
// outnumber the cores. With b the 1-worker profiling run's wait per
// scheduling event (accounting.Accounting.Baseline; its two processes
// have a core each), a process with run-queue wait R (s) and n
// scheduling events over wall time T has
//
//	contention = max(0, R − n·b) / T            (accounting.ProcUsage.Contention)
//
// Other work. Host busy share × CPUs − Σ CPU of the run's processes is
// the CPU used by anything else (cores; the coordinator and the kernel's
// network path take about 0.1): a build or a hog on the machine shows here
// even when it is SCHED_IDLE and never makes the run's processes wait.
//
// Contention, run-queue wait and other work are recorded for every
// process of every run (accounting.arrow) and summarized per point
// (points.arrow); contention is a diagnostic, judged by nothing since
// accounting version 3 (issue 29: a 4× stretch cut it 25% → 5.6% and moved
// ResNet-50's W = 7 speedup less than its interval). Every file records
// testbed.config_hash (config.Config.Hash); `pslab testbed run` skips a
// configuration whose committed dataset has the same hash and accounting
// of the current version, so a collection can span sessions.
//
// # Judging a point
//
// A measured point is judged by its effect on the number (collection.Judge;
// `pslab testbed verify` prints each part). Its interval, its operating
// modes and its dilation sensitivity:
//
// Intervals from repetitions. A point's value is the mean of the
// throughputs of independent runs (each a fresh set of processes), and
// its 95% CI is Student's t over them, t(0.975, n−1)·s/√n
// (analysis.Sample). Runs are added one at a time after the configured
// repetitions until the half-width is within ±accounting.MaxCI (3%) or
// max_repetitions ran (or max_minutes is spent; measurer.point); the
// interval by batch means inside runs (analysis.BatchCI) and the step-time
// CV stay as diagnostics: runs of one point disagree far more than the
// batches of one run (issue 29: 2,753 against 3,587 examples/s for the same
// job). -dry and -strict refuse a configuration that cannot reach ±3%
// within max_repetitions at its between-run CV (the median over its
// committed points, else [calibration] run_cv, else step_cv/√(W·average);
// analysis.RepsForCI), with the numbers and its file:line.
//
// Operating modes. The runs of a point are tested for modes
// (analysis.Modes; at least 4 runs): split at the largest gap between
// sorted throughputs, they are two modes when the gap over the pooled
// spread within the two groups exceeds its 95% quantile for that many
// normal values (analysis.GapQuantile), and the groups' means differ by
// more than 2·3% of the point's mean (engine/sim's rule for its
// replications, whose bimodality coefficient is recorded too but cannot
// flag 4 + 3 separated runs). Each mode records its throughput, frequency,
// its own interval and its signature: the synchrony of the workers' step
// starts (analysis.Synchrony, 1 lockstep, 0 interleaved) and the spread of
// their first step starts (analysis.StartSpread). What selects the mode
// was measured by intervention (config start_stagger_ms: worker i starts
// its first step i·stagger after all registered; datasets/testbed-modes,
// experiments/beyond/testbed-modes.toml): on resnet50-ordered-tic at
// W = 5, workers started evenly over a step never settle in step (0 of
// 15 runs), started together most do (11 and 13 of 15), and starts up to
// 20 ms apart are pulled into step (14 of 15); the natural spread of a
// few ms lies inside that basin, where perturbations of the first steps
// decide. A point with modes holds on precision when every
// mode's mean is within ±3% over two or more runs: models are to be judged
// against the mode mixture, not against a mean no run produced.
//
// Dilation sensitivity. Following time-dilated network emulation (Gupta
// et al., "To Infinity and Beyond: Time-Warped Network Emulation", NSDI
// 2006), a point is measured again with every time stretched by a factor
// k (config.Config.Stretch): device_speed and bandwidth_mbit ÷ k, the same
// bytes_scale and windows, so every compute and transfer takes k times as
// long, each process needs 1/k of the CPU per second, and the emulated
// cluster is the same. The network's own time constants stretch with it
// where they can be set (network.Link): the shaper's burst and queues keep
// their bytes (so they last k× as long) and TCP's minimum retransmission
// timeout becomes k·200 ms (route rto_min); unstretched, the 200 ms floor
// shrinks relative to the stretched delays, which raised retransmissions
// in issue 29's probe (0.06% → 1.69%). The delayed-ACK timer cannot be set
// per namespace and is not stretched. A stretched run's throughput is
// multiplied by k to the configuration's time scale. What the host adds
// (contention, wake-ups, the per-message cost) does not stretch, so a
// point that owes its value to the apparatus moves. The point holds when
// the stretched and unstretched means agree within the 95% interval of
// their difference (analysis.Agree, Welch), or when that whole interval
// lies within the effect budget analysis.MaxDilationEffect (±1%): the
// apparatus's effect is then measured and bounded below a third of a
// point's own ±3% target, where a precise point (±0.4%) would otherwise
// fail on a 0.5% shift. A judging rule changes what is derived from the
// runs, not the runs: `pslab testbed verify -rejudge DIR` writes each
// configuration's points.arrow and modes.arrow again from its committed
// runs (collection.Rejudge), and a test keeps the committed ones current.
// Per configuration
// dilate_points points are stretched (the collection: 2, the point of
// highest contention and the largest W, one point when they are the same;
// further ones by contention), by the first factor of dilations (2), and
// by the next (4) where the first moved by more than its own interval;
// both values are recorded (runs.arrow, points.arrow: dilation, shift,
// joint95_rel). A point that moves fails whatever a larger factor shows;
// one whose last factor moved more than its own interval while a larger
// factor is configured but was not measured is unjudged. A point that was
// not stretched is covered by a stretched point of the same configuration
// that agrees at a contention at least its own (the distortion grows with
// contention: an assumption, which issue 29's 4× probe supports), and is
// unjudged otherwise. -dry and -strict refuse a configuration whose
// predicted time, every factor at every stretched point included, exceeds
// its max_minutes.
//
// Limits. The unscaled share ≤ accounting.MaxUnscaledShare (5%), other
// work ≤ accounting.MaxOther (0.25 cores) and retransmitted segments ≤
// accounting.MaxRetrans (0.1%) in every run of a point, stretched runs
// included, stay limits. A point holds when it is judged, agrees under
// dilation, meets its interval and keeps the limits; a configuration with
// a point that does not is host_limited (its cause recorded and printed;
// `pslab testbed run -strict` does not write it), and `pslab testbed
// verify` exits 0 only when every point of every committed configuration
// holds. Datasets of accounting version 2 and before have no stretched
// runs: verify reads them (their intervals from their 2 repetitions,
// their modes untested), names every point unjudged and why, and fails.
//
// What the retransmissions are (scripts/retrans-probe.sh; alexnet-b1024-mux
// at W = 7, ×1 and ×2, 2026-11-28): no qdisc dropped a packet, and of the
// PS's 134 retransmitted segments (255,296 sent, 0.05%) the workers
// reported 133 as duplicates (D-SACK); the PS sent 175 tail loss probes
// (Linux's probe timer, 2·SRTT, fires when a burst of pushes queues at the
// shaper and the RTT jumps; it is not stretched with the run); of the
// workers' 14–28 retransmitted segments each, 10–23 were D-SACKed. With
// no drop they lose nothing and cost the link their bytes. Accounting
// version 4 therefore records, per process and run, the segments its
// peers D-SACKed (TcpExt TCPDSACKRecvSegs, accounting.ProcUsage.Spurious;
// accounting.arrow retrans_spurious) and judges only the retransmissions
// not reported as duplicates against accounting.MaxRetrans (points.arrow
// retrans_lost). Its runs are version 3's otherwise; the configurations
// collected under version 3 recorded no D-SACKs and keep every
// retransmission judged (retrans_lost −1).
//
// # Network
//
// `pslab testbed run` as root with iproute2 builds one network namespace
// per host (pslab-<pid>-h<i>, address 10.77.0.<i+1>/24, inside the
// namespace only) with a veth pair (MTU 9001) into a switch namespace
// holding a Linux bridge, and shapes both ends of every veth with an HTB
// tree at B (the host's egress and its ingress; no netem), GSO aggregates
// of at most two MTUs (network gsoMaxSegs), pure TCP ACKs ahead of queued data (they
// would otherwise wait behind the other direction's tensors, which left
// the PS link idle; engine/testbed/network, Shape);
// burst 1 ms of traffic (smaller bursts starve the shaper's timer on a
// loaded VM); queues (network queueLimit, 16 MiB) that hold every byte HTTP/2
// flow control lets the run's connections have in flight, so that the
// shaper never drops (each run records the TCP segments its hosts
// retransmitted and those their peers D-SACKed, and more than
// accounting.MaxRetrans not D-SACKed makes it host_limited).
// Recorded as network = netns-veth-bridge-htb-ackfirst-gso2; earlier
// collections used one MTU per packet (…-nogso, datasets/testbed-next) or
// one tbf FIFO per direction (netns-veth-bridge-tbf), and `pslab testbed
// run` measures a dataset of any earlier namespace network again.
// Everything is removed on
// success, error, SIGINT and SIGTERM; a run refuses to start while
// namespaces named pslab-* exist and says to run scripts/netns-clean.sh.
// Children get SIGKILL if the coordinator dies (Pdeathsig) and run at nice
// −10 as root so that other work on a shared machine delays their sleeps
// and transfers less (the load average at start and end is recorded).
// Without root or iproute2, or if namespaces fail, every process runs on
// 127.0.0.1 and each emulates its NIC with a token bucket per direction
// shared by all its connections (network.Shaper), recorded as
// network=loopback-token-bucket.
//
// # Measurement protocol (one configuration)
//
//  0. Probe: 1 worker, accounting.ProbeSteps steps without compute and with 4-byte
//     tensors, fitting the per-message cost (Artifact accounting).
//  1. Profiling: 1 worker, profile_steps (collection: 50) steps. Worker 0 records the
//     trace (dataset.TraceSchema, origin measured): a downlink starts when
//     requested and ends when the tensor is parsed at the worker; an uplink
//     starts when its gradient is computed and ends when the PS has parsed
//     it; updates run on the PS. PS times are converted to the worker's
//     clock with an NTP-style offset (best of 16 round trips).
//  2. A wire dissector (the tap) on the worker's and the PS's sockets plays
//     tcpdump + Wireshark: it parses HTTP/2 frames and gRPC message
//     prefixes and records the first and last byte of every tensor at the
//     receiver, and the SETTINGS window. From it: the parsing overhead
//     α·bytes + β (analysis.FitOverhead, icpe20 §3.2.1: recorded end − last byte,
//     least squares, both ≥ 0); WIN (icpe20 §3.2.2: from the HTTP/2
//     headers); and mascots18's phase times (analysis.ExtractPhases, §III-A:
//     transmissions measured directly, processing times from the gaps
//     between them; with overlapping backward compute and uplinks, as in
//     TensorFlow, S^U spans the whole gradient transmission).
//  3. Throughput: for each W in workers, repetitions runs of steps steps
//     each, and more until the interval over them is within ±3% or
//     max_repetitions (Judging a point; the collection: 3 to 15 × 50
//     steps; icpe20 used 100); a run's throughput is the time average
//     over the last average (30; icpe20 50) steps (icpe20 §4.1; window
//     definition in analysis.Throughput, CATALOGUE I-16); mean, sample
//     std and t-interval over repetitions.
//  4. Dilation: the points of highest contention again, every time
//     stretched 2× (and 4× where 2× moved more than its interval), with
//     the same sequential repetitions.
//
// Outputs, written only when the whole configuration succeeded, as one
// directory renamed into place (collection.WriteDir): trace.arrow,
// throughput.arrow (dataset.MeasurementSchema, unstretched points),
// phases.arrow (dataset.PhasesSchema), runs.arrow (collection.RunsSchema,
// per run, stretched ones included), steps.arrow (collection.StepsSchema,
// every step's start and end), accounting.arrow
// (collection.AccountingSchema, per process and run), points.arrow
// (collection.PointsSchema: each point's judgement), modes.arrow
// (collection.ModesSchema) and timeline.json (collection.TimelineFile): the
// profile of trace.arrow again as a TensorFlow-style timeline (Chrome
// trace JSON written by engine/timeline, with α, β, WIN and B in its
// otherData), the format in which a profile of a real TensorFlow cluster
// arrives, so the testbed's own runs exercise the import path
// (TestRoundTripTestbedTimelineImportSimulate: a loopback run's
// timeline.json imports equal to its trace.arrow, to the ns, and the
// simulator replays it at W = 1 and 2 within 50% of the measured 1-worker
// throughput; a smoke check, not an accuracy claim). timeline.json is
// not committed: it derives from trace.arrow byte for byte, and `pslab
// testbed timeline dir...` writes it again. A dead worker (or PS) kills
// the run, the error names it with the end of its stderr, and nothing is
// written.
//
// # Packages
//
// The testbed is split by concept, each package with its own doc; this
// package is the coordinator (`pslab testbed` and its subcommands: Main,
// the Launcher that starts the processes of a run, the measurement
// protocol below) and imports them all:
//
//   - training: the Job every process of a run agrees on, its step Plan
//     and the downlink orders;
//   - analysis: throughput, confidence intervals, phase times and the
//     parsing overhead, from step times and transfers;
//   - network: network namespaces and HTB shaping, or the loopback
//     token buckets;
//   - config: the collection file configs.toml and its [calibration];
//   - node: the PS and worker processes, their wire protocol and the tap;
//   - accounting: the artifact accounting, its limits and the -dry
//     prediction;
//   - collection: the Outcome of a measurement, the judgement of its
//     points, the datasets written from it, and the committed datasets
//     (up to date, read back, verify).
//
// Imports run one way: training and network import no other testbed
// package; analysis none either; config imports training; node imports
// training, analysis and network; accounting imports config, training,
// analysis and network; collection imports all of these.
//
// # Measuring your own cluster
//
// The same binary runs on real hosts by address; only `pslab testbed run`
// needs namespaces. Give every process the same job flags (-profile,
// -batch, -device-speed 1 and -bytes-scale 1 for real sizes, -servers,
// -workers, -sync, -transport, -order, -window, -conn-window); a worker
// whose job differs from its PS's is refused at registration.
//
//	# on each PS host i (0-based), for a run of W workers:
//	pslab testbed ps -listen 0.0.0.0:7070 -index i -workers W [-tap] <job flags>
//	# on each worker host w = 0..W-1:
//	pslab testbed worker -id w -ps ps0:7070[,ps1:7070] -workers W -steps 100 \
//	    -out w<W>-r<rep>-worker<w>.json <job flags>
//
// The PS exits when all W workers are done, so start it anew for each run.
// First profile: W = 1 with -tap on every PS and -trace on the worker,
// writing profile.json (add -timeline profile-timeline.json
// -bandwidth-mbit B to get the trace as a TensorFlow-style timeline
// directly, for `pslab predict`). Then the throughput runs (W = 1..N, a few
// repetitions each), keeping the files w<W>-r<rep>-worker<w>.json in one
// directory with profile.json, and finally
//
//	pslab testbed reduce -results dir -out datasets/<yours> -name <yours> \
//	    -bandwidth-mbit <B from iperf> -network "<your network>" <job flags>
//
// which writes the six files above. Clocks of different hosts need not
// agree: PS times are converted with the measured offset (its error is
// within half the best round trip). Every pslab model can then be
// evaluated on the new dataset.
package testbed
