package training

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/zoo"
)

// branchy is a small residual block: in → a → b → add, in → d (shortcut)
// → add → fc. Layers with parameters: a, b, d, fc.
func branchy() *zoo.Profile {
	return &zoo.Profile{Model: "branchy", Source: "test", Batch: 1, Layers: []zoo.Layer{
		{Name: "in", Description: zoo.InputDescription, ActivationBytes: 4},
		{Name: "a", Description: "conv", Forward: 1e-3, Backward: 1e-3, ParamBytes: 400, Inputs: []int{0}},
		{Name: "b", Description: "conv", Forward: 1e-3, Backward: 1e-3, ParamBytes: 400, Inputs: []int{1}},
		{Name: "d", Description: "conv", Forward: 1e-3, Backward: 1e-3, ParamBytes: 400, Inputs: []int{0}},
		{Name: "add", Description: "add", Forward: 1e-4, Backward: 1e-4, Inputs: []int{2, 3}},
		{Name: "fc", Description: "linear", Forward: 1e-3, Backward: 1e-3, ParamBytes: 800, Inputs: []int{4}},
	}}
}

func branchyPlan(t *testing.T) *Plan {
	p, err := NewPlan(branchy(), Job{Profile: "x", DeviceSpeed: 1, BytesScale: 1, Servers: 1, Workers: 1,
		Sync: ASP, Transport: Ordered, Order: OrderTIC})
	require.NoError(t, err)
	return p
}

func names(p *Plan, o []int) []string {
	out := make([]string, len(o))
	for i, k := range o {
		out[i] = p.Tensors[k].Name
	}
	return out
}

func TestTICOrderEarliestForwardUseFirst(t *testing.T) {
	t.Parallel()
	p := branchyPlan(t)
	// topological (default) order: a, b, d, fc; forward depths a 0, b 1,
	// d 0, fc 3, so TIC sends the shortcut d before b.
	def, err := DownlinkOrder(p, OrderDefault, 1)
	require.NoError(t, err)
	require.Equal(t, []string{"a", "b", "d", "fc"}, names(p, def))
	tic, err := TICOrder(p)
	require.NoError(t, err)
	require.Equal(t, []string{"a", "d", "b", "fc"}, names(p, tic))
	rev, err := DownlinkOrder(p, OrderReverse, 1)
	require.NoError(t, err)
	require.Equal(t, []string{"fc", "b", "d", "a"}, names(p, rev))
}

func TestTICOrderOfAChainIsTopological(t *testing.T) {
	t.Parallel()
	p := mustPlan(t, toyJob())
	tic, err := TICOrder(p)
	require.NoError(t, err)
	require.Equal(t, []int{0, 1, 2, 3}, tic)
}

func TestRandomOrderIsSeededPermutation(t *testing.T) {
	t.Parallel()
	p := branchyPlan(t)
	a, err := DownlinkOrder(p, OrderRandom, 7)
	require.NoError(t, err)
	b, _ := DownlinkOrder(p, OrderRandom, 7)
	require.Equal(t, a, b, "same seed, same order")
	s := slices.Clone(a)
	slices.Sort(s)
	require.Equal(t, []int{0, 1, 2, 3}, s, "a permutation")
	differs := false
	for seed := uint64(1); seed < 20 && !differs; seed++ {
		c, _ := DownlinkOrder(p, OrderRandom, seed)
		differs = !slices.Equal(a, c)
	}
	require.True(t, differs, "the seed changes the order")
	_, err = DownlinkOrder(p, "size", 1)
	require.ErrorContains(t, err, `unknown order "size"`)
}

func TestServerTensorsKeepOrder(t *testing.T) {
	t.Parallel()
	p := mustPlan(t, toyJob()) // servers 0, 1, 0, 1
	require.Equal(t, []int{2, 0}, p.ServerTensors([]int{3, 2, 1, 0}, 0))
	require.Equal(t, []int{3, 1}, p.ServerTensors([]int{3, 2, 1, 0}, 1))
}
