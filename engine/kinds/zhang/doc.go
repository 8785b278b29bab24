// Package zhang holds the experiment kinds of zhang (Zhang et al.,
// "Performance modeling and analysis of distributed DNN training with
// parameter servers"): the synchronous PS model of Eq. 1–18
// (engine/syncps).
//
// Figures: experiments/zhang/ (Figs. 3–6 and fig3-testbed) through the
// kinds zhang-iteration-time, zhang-testbed-iteration-time, zhang-sweeps,
// zhang-scalability and zhang-compression; see Kinds. Common, Constants
// and Model are the inputs every zhang kind shares, exported for
// engine/kinds/beyond.
//
// The paper's text is papers/zhang-ps-training-performance-model.txt in
// the project's shared folder; its catalogue entries are CATALOGUE.md §A.2,
// §B.2, §C.4 and §D.4.
//
// This package imports engine model packages and engine/measured, never
// another paper's kinds.
package zhang
