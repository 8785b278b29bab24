package mechanism

import "pslab/engine/experiment"

// Kinds are the icpe20 kinds that isolate one mechanism of the simulator's
// link model; icpe20.Kinds includes them.
func Kinds() experiment.Registry {
	return experiment.Registry{
		"link-mechanisms": {Run: linkMechanisms,
			Doc: "step time of one profiling trace under several link schedulers (HTTP/2 multiplexing vs flow control off, icpe20 Fig. 8)"},
		"sim-timeline": {Run: simTimeline,
			Doc: "Gantt chart of a few simulated steps of W workers and the fitted per-worker link rate at each number of active workers (icpe20 Fig. 7)"},
		"link-share": {Run: linkShare,
			Doc: "active connections and per-worker bandwidth share over time on one PS link (icpe20 §3.1, Fig. 9)"},
		"link-states": {Run: linkStates,
			Doc: "number of active/inactive downlink states 2^(W·M) by enumeration (icpe20 §5, Fig. 24)"},
		"http2-chunks": {Run: http2Chunks,
			Doc: "per-stream transmitted bytes over time under the HTTP/2 chunk rule on one link, from explicit streams or a profile's downlinks (icpe20 §3.2.2, Figs. 11, 12)"},
		"desync-series": {Run: desyncSeries,
			Doc: "downlink overlap and throughput per time window of W workers that start together, against the steady state (icpe20 Figs. 15, 16)"},
		"downlink-end-error": {Run: downlinkEndError,
			Doc: "error of the HTTP/2 multiplexing model's downlink end-time predictions against a 1-worker trace (icpe20 Table 1)"},
		"overhead-fit": {Run: overheadFit,
			Doc: "least-squares fit of the parsing-overhead model α·size + β to synthetic points, and the overhead share at a faster link through the simulator (icpe20 §3.2.1, §4.3, Fig. 10)"},
	}
}
