package mva

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// Every level is enumerated in strictly increasing lexicographic order, the
// sizes add up to Π(b+1), and predecessors rank v−e_t correctly.
func TestLatticeEnumerationAndRanks(t *testing.T) {
	t.Parallel()
	for _, bound := range [][]int{{3}, {1, 1, 1, 1}, {2, 0, 3}, {4, 1, 2, 3}, {1, 5}} {
		lt, err := newLattice(bound, 1<<20)
		require.NoError(t, err)
		want := 1
		for _, b := range bound {
			want *= b + 1
		}
		rank := map[string]int{fmt.Sprint(make([]int, len(bound))): 0}
		v, idx := make([]int, len(bound)), make([]int, len(bound))
		seen := 1
		for level := 1; level <= lt.total; level++ {
			lt.first(level, v)
			ranks := map[string]int{}
			var prev []int
			for pos := 0; ; pos++ {
				sum := 0
				for i, x := range v {
					require.LessOrEqual(t, x, bound[i])
					sum += x
				}
				require.Equal(t, level, sum)
				if prev != nil {
					require.True(t, lexLess(prev, v), "%v then %v", prev, v)
				}
				prev = append(prev[:0], v...)
				ranks[fmt.Sprint(v)] = pos
				lt.predecessors(v, level, idx)
				for i := range v {
					if v[i] == 0 {
						require.Equal(t, -1, idx[i])
						continue
					}
					v[i]--
					require.Equal(t, rank[fmt.Sprint(v)], idx[i], "bound %v v−e_%d = %v", bound, i, v)
					v[i]++
				}
				if !lt.next(v) {
					require.Equal(t, lt.size(level), pos+1)
					break
				}
			}
			seen += len(ranks)
			rank = ranks
		}
		require.Equal(t, want, seen, "bound %v", bound)
	}
}

func lexLess(a, b []int) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}
