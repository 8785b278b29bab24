// Package mascots18 holds the experiment kinds of mascots18 (Lin et al.,
// "Model-based resource provisioning for distributed deep learning",
// MASCOTS'18): exact, approximate and hybrid MVA of a PS job
// (engine/mva) and cluster scheduling with KNEE and HELL (engine/sched).
//
// Figures and tables: experiments/mascots18/ (Figs. 1, 1-speedup, 7, 9–15,
// Tables II and III) through the kinds mva-throughput, error-table,
// job-workload, sched-poisson, sched-early-termination and sched-trace; see
// Kinds. beyond-sched-philly runs sched-trace on the Philly job trace.
// JobsTable and AllocationsTable export a schedule's per-job results.
//
// The paper's text is papers/mascots18-lin-mva-scheduling.txt in the
// project's shared folder; its catalogue entries are CATALOGUE.md §A.4,
// §B.4, §C.2 and §D.2.
//
// This package imports engine model packages (mva, sched, importer),
// never another paper's kinds.
package mascots18
