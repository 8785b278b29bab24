package placement

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestGreedyHandComputed(t *testing.T) {
	t.Parallel()
	p, err := Greedy([]Variable{{"a", 5}, {"b", 3}, {"c", 1}, {"d", 1}, {"e", 4}}, 2)
	require.NoError(t, err)
	// a→0 (tie), b→1, c→1 (3<5), d→1 (4<5), e→0 (5=5 tie → 0).
	require.Equal(t, []int{0, 1, 1, 1, 0}, p.Server)
	require.Equal(t, []int64{9, 5}, p.Load)
	require.Equal(t, 0, p.Heaviest())
}

func TestGreedyErrors(t *testing.T) {
	t.Parallel()
	_, err := Greedy(nil, 0)
	require.ErrorContains(t, err, "0 servers")
	_, err = Greedy([]Variable{{"w", -1}}, 2)
	require.ErrorContains(t, err, `variable 0 "w": negative size`)
}

func TestGreedyConservesBytes(t *testing.T) {
	t.Parallel()
	vars := make([]Variable, 50)
	var total int64
	for i := range vars {
		vars[i] = Variable{Bytes: int64((i*7919)%1000 + 1)}
		total += vars[i].Bytes
	}
	for s := 1; s <= 4; s++ {
		p, err := Greedy(vars, s)
		require.NoError(t, err)
		var sum int64
		for _, l := range p.Load {
			sum += l
		}
		require.Equal(t, total, sum)
	}
}

// TestGreedyRefusesAbsurdServerCounts: more than MaxServers servers are
// refused before the per-server loads are allocated, naming the count.
// Before the fix `pslab predict -ps 1000000000` reached Greedy, which
// allocated 8 GB of loads: "fatal error: out of memory".
func TestGreedyRefusesAbsurdServerCounts(t *testing.T) {
	t.Parallel()
	vars := []Variable{{"w", 4}, {"b", 1}}
	for _, servers := range []int{1_000_000_000, math.MaxInt, MaxServers + 1} {
		_, err := Greedy(vars, servers)
		require.ErrorContains(t, err, fmt.Sprintf("placement: %d servers exceed the limit of %d (placement.MaxServers)", servers, MaxServers))
	}
	p, err := Greedy(vars, MaxServers)
	require.NoError(t, err)
	require.Len(t, p.Load, MaxServers)
	require.Equal(t, []int{0, 1}, p.Server)
}
