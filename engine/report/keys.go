package report

import (
	"sort"
	"strconv"
	"strings"

	"pslab/engine/dataset"
)

// MetaGroup is one group of a dataset's schema metadata keys (everything
// but the provenance, the schema name and the units), as its page shows
// them: named, with what the group is and every key's meaning.
type MetaGroup struct {
	ID, Title, Doc string
	Keys           []MetaKey
}

// MetaKey is one metadata entry with what it means.
type MetaKey struct {
	Key, Value string
	// Name says what the key is (with its unit); "" for a key the report
	// does not know.
	Name string
	// Human is Value in a readable form ("7.7%" for a fraction, one value
	// per W for the per-W lists); "" when Value reads well as it is.
	Human string
}

// keyGroup is a group of metadata keys; groups are listed in this order.
type keyGroup struct{ id, title, doc string }

var keyGroups = []keyGroup{
	{"config", "Testbed configuration",
		"what pslab's testbed emulated: the [[config]] of datasets/testbed/configs.toml (the same in every file of a configuration; engine/testbed doc.go, \"Scale factors\")"},
	{"protocol", "Testbed measurement protocol",
		"how the throughput and the 1-worker profile were measured (engine/testbed doc.go, \"Measurement protocol\")"},
	{"wire", "Testbed: read back from the wire", "values the worker observed, beside the configured ones"},
	{"host", "Testbed host and software", "the machine and software the measurement ran on"},
	{"acct", "Testbed artifact accounting (testbed.acct.*)", ""}, // acctDoc
	{"trace", "Trace: the simulator's inputs", "the metadata of a 1-worker profiled trace that icpe20's simulator reads (dataset.FromTrace)"},
	{"phases", "Phase profile (mascots18)", "how the service times S^W, S^U, S^S, S^D were extracted from the profile"},
	{"kineto", "Kineto import", "the PyTorch Kineto trace the layer profile was imported from (pslab import kineto)"},
	{"other", "Other keys", "keys of the reported tables and the layer profiles"},
	{"unknown", "Undocumented keys", "keys this report has no description for (add them to engine/report/keys.go)"},
}

// acctDoc describes the accounting group of a file whose testbed.acct
// (accounting version) is version.
func acctDoc(version string) string {
	const what = "what the emulation does not scale and what the host adds, measured in every run (engine/testbed doc.go, \"Artifact accounting\"). "
	if version == "2" {
		return what + "Accounting version 2 budget: contention ≤ 2% of wall time in every process of every run, other work ≤ 0.25 cores, " +
			"unscaled share ≤ 5%, retransmitted TCP segments ≤ 0.1%; a configuration over any of them is host_limited: the host, not only the emulated cluster, shaped its numbers"
	}
	return what + "Accounting version " + version + ": engine/testbed doc.go says what it judges; host_limited says whether a limit was exceeded"
}

// keyDoc describes one metadata key: its group, what it is (unit
// included) and how to show its value.
type keyDoc struct {
	group, name string
	show        showAs
}

// showAs selects MetaKey.Human.
type showAs uint8

const (
	showRaw      showAs = iota
	showPercent         // a fraction: also as a percentage
	showPerW            // a comma list of fractions, one per W of testbed.workers
	showMbitRate        // bytes/s: also in Mbit/s
)

// keyDocs describes every metadata key the committed datasets carry
// (TestEveryMetadataKeyDocumented).
var keyDocs = map[string]keyDoc{
	"testbed.config":             {"config", "configuration name (datasets/testbed/configs.toml; the dataset's directory)", showRaw},
	"testbed.config_hash":        {"config", "hash of the configuration; pslab testbed run skips a configuration whose committed files carry the same hash, accounting and no host_limited flag", showRaw},
	"testbed.profile":            {"config", "PipeDream per-layer profile (V100) the compute times come from", showRaw},
	"testbed.profile_batch":      {"config", "batch the profile was measured at (examples)", showRaw},
	"testbed.batch":              {"config", "batch per worker per step (examples)", showRaw},
	"testbed.device_speed":       {"config", "d: profiled compute times are divided by it; the emulation is the real cluster run d× faster", showRaw},
	"testbed.bytes_scale":        {"config", "tensor sizes are multiplied by it", showRaw},
	"testbed.compute_scale":      {"config", "factor on every profiled op time: batch / profile_batch / device_speed", showRaw},
	"testbed.bandwidth_mbit":     {"config", "B: NIC rate of every host, per direction (Mbit/s)", showRaw},
	"testbed.bandwidth_bps":      {"config", "B in bytes/s", showMbitRate},
	"testbed.servers":            {"config", "parameter servers", showRaw},
	"testbed.sync":               {"config", "asp (every gradient applied on arrival) or bsp (a per-PS barrier each step)", showRaw},
	"testbed.transport":          {"config", "multiplexed: one gRPC stream per tensor, HTTP/2 flow control on; ordered: whole tensors one after another, flow control off", showRaw},
	"testbed.order":              {"config", "downlink order of the ordered transport: default (topological), tic, reverse or random", showRaw},
	"testbed.seed":               {"config", "seed of the random downlink order", showRaw},
	"testbed.window_config":      {"config", "HTTP/2 stream window set, multiplexed transport (bytes; icpe20's WIN ≈ 28 MB × bytes_scale)", showRaw},
	"testbed.conn_window_config": {"config", "HTTP/2 connection window set (bytes)", showRaw},
	"testbed.model_bytes":        {"config", "bytes of all tensors as sent (profile_bytes × bytes_scale)", showRaw},
	"testbed.profile_bytes":      {"config", "parameter bytes of the profiled model, unscaled", showRaw},
	"testbed.ps_load_bytes":      {"config", "bytes each PS holds (TensorFlow's greedy split), one per PS", showRaw},
	"testbed.step_compute_s":     {"config", "emulated serial compute of one step: the scaled op times summed (s)", showRaw},

	"testbed.workers":          {"protocol", "W of the throughput sweep", showRaw},
	"testbed.repetitions":      {"protocol", "independent runs per W", showRaw},
	"testbed.steps":            {"protocol", "steps per worker of each throughput run", showRaw},
	"testbed.average":          {"protocol", "last steps time-averaged into a run's throughput", showRaw},
	"testbed.profile_steps":    {"protocol", "steps of the 1-worker profiling run (the trace)", showRaw},
	"testbed.phase_skip":       {"protocol", "first profile steps left out of the phase averages (warm-up)", showRaw},
	"testbed.max_repetitions":  {"protocol", "most repetitions a point may get while its interval is wider than the target", showRaw},
	"testbed.dilations":        {"protocol", "time-dilation factors k: points measured again with device_speed and bandwidth ÷ k, same bytes", showRaw},
	"testbed.dilate_points":    {"protocol", "points measured again under time dilation", showRaw},
	"testbed.max_minutes":      {"protocol", "collection-time budget of the configuration (min)", showRaw},
	"testbed.start_stagger_ms": {"protocol", "an intervention: worker i starts its first step i × this many ms after all registered (absent: together)", showRaw},
	"testbed.dilation_network": {"host", "what a time-dilated run stretches of the network, and what it does not", showRaw},

	"testbed.window_wire":       {"wire", "stream window in the worker's SETTINGS frames (bytes; −1 unknown)", showRaw},
	"testbed.conn_window_wire":  {"wire", "connection window from its WINDOW_UPDATE frames (bytes; −1 unknown)", showRaw},
	"testbed.clock_clamped_ops": {"wire", "trace times moved to keep start ≤ end after converting PS clocks to the worker's", showRaw},

	"testbed.network":       {"host", "emulated network: netns-veth-bridge-htb-ackfirst-gso2 = a network namespace per host, veths into a bridge, HTB shaping at B both ways, ACKs first, GSO ≤ 2 MTUs; loopback-token-bucket without root", showRaw},
	"testbed.kernel":        {"host", "Linux kernel", showRaw},
	"testbed.cpu":           {"host", "CPU model", showRaw},
	"testbed.cpus":          {"host", "CPUs of the host", showRaw},
	"testbed.go":            {"host", "Go toolchain of the PS and worker binaries", showRaw},
	"testbed.grpc":          {"host", "gRPC-Go version", showRaw},
	"testbed.gomaxprocs":    {"host", "GOMAXPROCS of every PS and worker process (one emulated host, one thread of Go code)", showRaw},
	"testbed.nice":          {"host", "scheduling priority of the PS and worker processes", showRaw},
	"testbed.date":          {"host", "start of the measurement (UTC)", showRaw},
	"testbed.elapsed_s":     {"host", "wall time of the whole measurement (s)", showRaw},
	"testbed.loadavg_start": {"host", "/proc/loadavg at the start", showRaw},
	"testbed.loadavg_end":   {"host", "/proc/loadavg at the end", showRaw},

	"testbed.acct":                    {"acct", "accounting version (files without it predate artifact accounting)", showRaw},
	"testbed.acct.message_cost_s":     {"acct", "c: per-message cost fitted by the probe run: gRPC, framing, parsing, scheduling (s)", showRaw},
	"testbed.acct.messages_per_step":  {"acct", "m: messages per 1-worker step (2 per tensor)", showRaw},
	"testbed.acct.rtt_s":              {"acct", "RTT: the probe's best round trip (s)", showRaw},
	"testbed.acct.burst_s":            {"acct", "shaper burst time per step: 2 · burst bytes / B (s)", showRaw},
	"testbed.acct.step_s":             {"acct", "T_emu: median 1-worker step of the profiling run (s)", showRaw},
	"testbed.acct.unscaled_share":     {"acct", "unscaled share U·(1 − 1/d)/T_emu, U = c·m + RTT + burst: the part of a step the emulation does not speed up", showPercent},
	"testbed.acct.runq_wait":          {"acct", "largest run-queue wait (runnable, not running) of any process of any run, share of wall time", showPercent},
	"testbed.acct.runq_wait_at":       {"acct", "process and run of that largest run-queue wait", showRaw},
	"testbed.acct.runq_baseline_s":    {"acct", "b: run-queue wait per scheduling event of the 1-worker profiling run, the host's wake-up latency (s)", showRaw},
	"testbed.acct.contention":         {"acct", "contention: largest run-queue wait beyond b per scheduling event, share of wall time, of any process of any run", showPercent},
	"testbed.acct.contention_at":      {"acct", "process and run of that largest contention", showRaw},
	"testbed.acct.retrans":            {"acct", "largest share of TCP segments a process's host retransmitted", showPercent},
	"testbed.acct.retrans_at":         {"acct", "process and run of those retransmissions", showRaw},
	"testbed.acct.retrans_lost":       {"acct", "largest share of TCP segments a process retransmitted that its peer did not report as duplicates (D-SACK; accounting version 4): what the 0.1% limit judges", showPercent},
	"testbed.acct.retrans_lost_at":    {"acct", "process and run of those retransmissions", showRaw},
	"testbed.acct.other_cores":        {"acct", "largest CPU used by anything else on the host during a run (cores)", showRaw},
	"testbed.acct.other_at":           {"acct", "run of that other work", showRaw},
	"testbed.acct.cpu_max":            {"acct", "largest CPU utilisation of any PS or worker process (1 = one core)", showRaw},
	"testbed.acct.host_cpu_max":       {"acct", "largest busy share of the host's CPUs in any run", showPercent},
	"testbed.acct.ci95_rel":           {"acct", "relative half-width of each throughput point's 95% confidence interval (batch means), one per W", showPerW},
	"testbed.acct.step_cv":            {"acct", "coefficient of variation of the step time behind each interval, one per W", showPerW},
	"testbed.acct.rep_ci95_rel":       {"acct", "relative half-width of each point's 95% confidence interval over its independent repetitions (Student t), one per W", showPerW},
	"testbed.acct.host_limited":       {"acct", "true when a budget is exceeded: the host, not only the emulated cluster, shaped these numbers", showRaw},
	"testbed.acct.host_limited_cause": {"acct", "which budget was exceeded, where", showRaw},

	"model":                     {"trace", "DNN", showRaw},
	"batch":                     {"trace", "batch per worker per step (examples)", showRaw},
	"servers":                   {"trace", "parameter servers", showRaw},
	"platform":                  {"trace", "hardware and software the trace was recorded on", showRaw},
	"bandwidth_bytes_per_s":     {"trace", "link bandwidth B the simulator uses (bytes/s)", showMbitRate},
	"window_bytes":              {"trace", "HTTP/2 flow-control window WIN (bytes; 0: flow control off)", showRaw},
	"overhead_alpha_s_per_byte": {"trace", "α of the parsing overhead α·bytes + β (icpe20 §3.2.1, least squares) (s/byte)", showRaw},
	"overhead_beta_s":           {"trace", "β of the parsing overhead (s)", showRaw},
	"overhead_samples":          {"trace", "transfers the overhead fit used", showRaw},

	"phases.method": {"phases", "how the phase times were extracted", showRaw},
	"phases.steps":  {"phases", "profile steps averaged", showRaw},

	"kineto_backend":    {"kineto", "collective backend of the traced job", showRaw},
	"kineto_clock":      {"kineto", "gpu: a layer's time is that of the GPU work its CPU ops launched; cpu: the wall time of its CPU ops", showRaw},
	"kineto_rank":       {"kineto", "rank the trace comes from", showRaw},
	"kineto_world_size": {"kineto", "ranks of the traced job", showRaw},

	"id":            {"other", "table id (datasets/reported/<paper>/<name>.toml)", showRaw},
	"paper":         {"other", "paper the numbers are printed in", showRaw},
	"title":         {"other", "what the table holds", showRaw},
	"input_side_px": {"other", "input image side the profile was measured with (px)", showRaw},
	dataset.DigestKey: {"other", "SHA-256 of the file's content, written by pslab and verified on every read " +
		"(engine/dataset, DigestKey): a damaged file is refused", showRaw},
}

// provenanceKeys are the provenance keys, in the order a page lists them.
var provenanceKeys = []string{"origin", "source", "licence", "command", "notes"}

// groupMeta sorts the metadata keys that are neither provenance, the
// schema name nor units into keyGroups order, keys sorted within a group.
func groupMeta(meta map[string]string) []MetaGroup {
	byGroup := map[string][]MetaKey{}
	for k, v := range meta {
		if k == "pslab.schema" || strings.HasPrefix(k, "unit.") || isProvenance(k) {
			continue
		}
		d, ok := keyDocs[k]
		if !ok {
			d.group = "unknown"
		}
		byGroup[d.group] = append(byGroup[d.group], MetaKey{Key: k, Value: v, Name: d.name, Human: human(d.show, v, meta["testbed.workers"])})
	}
	var out []MetaGroup
	for _, g := range keyGroups {
		keys := byGroup[g.id]
		if len(keys) == 0 {
			continue
		}
		sort.Slice(keys, func(i, j int) bool { return keys[i].Key < keys[j].Key })
		doc := g.doc
		if g.id == "acct" {
			doc = acctDoc(meta["testbed.acct"])
		}
		out = append(out, MetaGroup{ID: g.id, Title: g.title, Doc: doc, Keys: keys})
	}
	return out
}

func isProvenance(k string) bool {
	for _, p := range provenanceKeys {
		if k == p {
			return true
		}
	}
	return false
}

// human formats v as show says; workers is the testbed.workers list the
// per-W values pair with.
func human(show showAs, v, workers string) string {
	switch show {
	case showPercent:
		if f, err := strconv.ParseFloat(v, 64); err == nil {
			return pct(f)
		}
	case showMbitRate:
		if f, err := strconv.ParseFloat(v, 64); err == nil {
			return strconv.FormatFloat(f*8/1e6, 'g', 6, 64) + " Mbit/s"
		}
	case showPerW:
		vals, ws := strings.Split(v, ","), strings.Split(workers, ",")
		parts := make([]string, len(vals))
		for i, s := range vals {
			f, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return ""
			}
			parts[i] = pct(f)
			if len(ws) == len(vals) {
				parts[i] = "W=" + ws[i] + " " + parts[i]
			}
		}
		return strings.Join(parts, " · ")
	}
	return ""
}

// pct formats a fraction as a percentage with at most 2 significant
// decimals ("7.7%", "0.05%").
func pct(f float64) string {
	p := 100 * f
	prec := 1
	if a := p; a < 0.1 && a > -0.1 && a != 0 {
		prec = 2
	}
	return strconv.FormatFloat(p, 'f', prec, 64) + "%"
}
