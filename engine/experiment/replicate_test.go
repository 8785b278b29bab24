package experiment

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestReplicationRands: replication i draws the same numbers whatever the
// number of replications (a fixed rule from the spec's seed and id), and
// no two replications draw the same stream.
func TestReplicationRands(t *testing.T) {
	t.Parallel()
	e := &Env{Spec: &Spec{ID: "icpe20-x", Seed: 1}}
	few, many := e.ReplicationRands(3), e.ReplicationRands(12)
	first := map[uint64]bool{}
	for i, r := range many {
		v := r.Uint64()
		if i < len(few) {
			require.Equal(t, few[i].Uint64(), v, "replication %d", i)
		}
		require.False(t, first[v], "replication %d repeats another's first draw", i)
		first[v] = true
	}
	other := (&Env{Spec: &Spec{ID: "icpe20-x", Seed: 2}}).ReplicationRands(1)[0].Uint64()
	require.False(t, first[other], "another seed gives other streams")
}

// TestCheckReplications: fewer than MinReplications or more than
// MaxReplications is an error naming params.replications.
func TestCheckReplications(t *testing.T) {
	t.Parallel()
	s, err := Parse("experiments/beyond/toy.toml", []byte(goodSpec))
	require.NoError(t, err)
	e := &Env{Spec: s}
	require.NoError(t, e.CheckReplications(MinReplications))
	require.NoError(t, e.CheckReplications(MaxReplications))
	for _, n := range []int{-1, 0, 1, MinReplications - 1, MaxReplications + 1} {
		err := e.CheckReplications(n)
		require.ErrorContains(t, err, "replications")
		require.ErrorContains(t, err, "need 10 to 1000")
	}
}

// TestReplicatedRecord: each name's samples become its mean and 95%
// interval (Student's t), in the order the names were first added.
func TestReplicatedRecord(t *testing.T) {
	t.Parallel()
	var r Replicated
	for _, v := range []float64{1, 2, 3, 4} {
		r.Add("b", v)
		r.Add("a", 10)
	}
	require.Equal(t, []string{"b", "a"}, r.names)
	require.Equal(t, []float64{1, 2, 3, 4}, r.Samples("b"))
	res := NewResult()
	r.Record(res)
	require.Equal(t, 2.5, res.Metrics["b"])
	// t(0.975, 3) = 3.182446; s = 1.290994; half-width = t·s/2.
	require.InDelta(t, 2.5-3.182446*1.290994/2, res.Metrics["b.ci95_lo"], 1e-5)
	require.InDelta(t, 2.5+3.182446*1.290994/2, res.Metrics["b.ci95_hi"], 1e-5)
	require.Equal(t, 10.0, res.Metrics["a.ci95_lo"])
	require.Equal(t, 10.0, res.Metrics["a.ci95_hi"])

	var one Replicated
	one.Add("x", 1)
	res = NewResult()
	one.Record(res)
	require.True(t, math.IsInf(res.Metrics["x.ci95_lo"], -1))
}
