package sched

import (
	"cmp"
	"slices"
)

// moldable is the allocator shared by moldable HELL and KNEE (mascots18
// §IV-C). A job of type t always runs on exactly want[t] nodes, computed once
// per run over the whole cluster, so its parallelism never changes once it
// has started. At every arrival and departure the jobs are ranked by
// c_i·rank[t] (smaller first, ties: earlier arrival) and each, in that order,
// gets its want[t] nodes if that many are still free; otherwise it waits
// (not work-conserving). Assumptions (not stated in the paper): a job that
// does not fit does not block lower-ranked jobs that fit (backfilling), and
// a running job may be preempted by higher-ranked jobs ("jobs can still be
// preempted"), resuming later on the same number of nodes.
type moldable struct {
	want  []int
	rank  []float64
	nodes int
	order []int
	key   []float64
}

func newMoldable(r budgetRule, nodes int) *moldable {
	m := &moldable{want: make([]int, len(r.w)), rank: make([]float64, len(r.w)), nodes: nodes}
	for t := range r.w {
		m.want[t], m.rank[t] = r.w[t][nodes], r.f[t][nodes]
	}
	return m
}

func (m *moldable) Allocate(_ float64, jobs []JobState, alloc []int) {
	m.order = m.order[:0]
	m.key = slices.Grow(m.key[:0], len(jobs))[:len(jobs)]
	for i, j := range jobs {
		m.order = append(m.order, i)
		m.key[i] = j.Remaining * m.rank[j.Type]
	}
	slices.SortFunc(m.order, func(a, b int) int {
		if r := cmp.Compare(m.key[a], m.key[b]); r != 0 {
			return r
		}
		return cmp.Compare(a, b)
	})
	free := m.nodes
	for _, i := range m.order {
		if w := m.want[jobs[i].Type]; w <= free {
			alloc[i] = w
			free -= w
			if free == 0 {
				return
			}
		}
	}
}
