// Package icpe20 holds the experiment kinds of icpe20 (Li et al., "Predicting
// throughput of distributed stochastic gradient descent", ICPE'20): the
// trace-driven simulation of asynchronous SGD with HTTP/2 multiplexing
// (engine/sim) and its link mechanisms.
//
// Figures and tables: experiments/icpe20/ (Figs. 2, 3c, 7–19, 21–25 and
// Table 1). This package holds the throughput-prediction kinds
// icpe20-throughput (throughput vs workers, predicted and measured: Figs.
// 2, 3c, 13, 14, 17–19, 21, 22, 25) and ps-partition (Fig. 23); the
// subpackage mechanism holds the kinds that isolate one link mechanism
// (Figs. 7–12, 15, 16, 24, Table 1). Kinds composes both. The experiment
// beyond-byo-kineto also runs icpe20-throughput.
//
// The paper's text is papers/icpe20-li-async-sgd-throughput-prediction.txt
// (and .v2.txt) in the project's shared folder; its catalogue entries are
// CATALOGUE.md §A.1 (figures), §B.1 (Algorithm 3.1), §C.1 (parameters) and
// §D.1 (ambiguities I-1 … I-15, decided in engine/sim).
//
// This package imports engine model packages (sim, trace, zoo, placement,
// predict, mva, cynthia) and engine/measured, never another paper's kinds.
package icpe20
