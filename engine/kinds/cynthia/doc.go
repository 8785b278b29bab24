// Package cynthia holds the experiment kinds of Cynthia (Zheng et al.,
// "Cynthia: cost-efficient cloud resource provisioning for predictable
// distributed DNN training", ICPP'19): its analytical time model, the
// Optimus- and Paleo-style baselines, and Algorithm 1's cost-minimal
// provisioning (engine/cynthia, imported as cynthiamodel).
//
// Figures: experiments/cynthia/ (Figs. 1, 3, 6–13, alg1-runtime and the
// testbed comparison) through the kinds cynthia-time-vs-workers,
// cynthia-predict, cynthia-provision, cynthia-plan-search and
// cynthia-measured; see Kinds. ReadWorkload and ReadCatalogue serve
// `pslab provision`; Models and ProfileFromTestbed serve engine/kinds/beyond.
//
// The paper's text is papers/cynthia-icpp19-provisioning.txt in the
// project's shared folder; its catalogue entries are CATALOGUE.md §A.3,
// §B.3 (Eq. 1–23, Algorithm 1), §C.3 and §D.3.
//
// Bounded work: cynthia-time-vs-workers and cynthia-predict check their
// node counts (swept workers or PS nodes, [params] ps and workers) against
// [limits] workers before they build a cluster; they, cynthia-provision and
// cynthia-plan-search estimate their model work (work.go) before they
// evaluate anything and refuse above [limits] model_work
// (experiment.DefaultMaxModelWork), naming the estimate and the key that
// raises it. cynthia-measured evaluates one closed-form prediction per
// measured row.
//
// This package imports engine model packages and engine/measured, never
// another paper's kinds.
package cynthia
