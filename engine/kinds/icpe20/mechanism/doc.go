// Package mechanism holds the icpe20 experiment kinds that isolate one
// mechanism of the simulator's link model (engine/sim), each against the
// paper's own figure: link schedulers (link-mechanisms, Fig. 8), the
// simulated timeline (sim-timeline, Fig. 7), bandwidth sharing (link-share,
// Fig. 9; link-states, Fig. 24), HTTP/2 chunks (http2-chunks, Figs. 11, 12),
// desynchronization (desync-series, Figs. 15, 16), downlink end-time errors
// (downlink-end-error, Table 1) and the parsing-overhead fit (overhead-fit,
// Fig. 10). It is part of the icpe20 reproduction (see package icpe20 for
// the paper's text and catalogue entries) and imports engine model packages
// only.
package mechanism
